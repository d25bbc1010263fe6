"""Ways for a person to play: a terminal demo and game (and later the web front end)."""
