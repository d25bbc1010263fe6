"""Ways for a person to play: the browser page served by ``python -m play`` (:mod:`play.server`,
:mod:`play.static`) and a terminal demo and game (``python -m play.terminal``)."""
