"""Ways for a person to play: the browser page served by ``python -m solitaire_rl.play``
(:mod:`solitaire_rl.play.server`,
:mod:`solitaire_rl.play.static`) and a terminal demo and game (``python -m solitaire_rl.play.terminal``)."""
