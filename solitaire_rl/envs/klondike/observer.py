"""What a Klondike player sees, as one flat vector of small integers (the environment's observation).

Hidden cards are absent by construction: a face-down column card is written as :data:`FACE_DOWN`
and a stock card the player has never seen as :data:`UNSEEN`, without ever reading which card it
is. Every card the player has seen is kept where it is known to be: the whole waste in order, and
stock cards once seen (after the first pass through the stock its whole order is known).

=================  =========  ======  =================================================================
view               slots      values  meaning
=================  =========  ======  =================================================================
``columns``        7 x 19     0..53   column ``c`` from its bottom: a card 0..51 if face up,
                                      ``FACE_DOWN`` (52) if face down, ``EMPTY`` (53) past its end
``waste``          24         0..53   the waste from its **top** (slot 0 is the playable card), then
                                      ``EMPTY``
``stock``          24         0..53   the stock in draw order (slot 0 is its top, drawn first): a card if
                                      seen, ``UNSEEN`` (52) if never seen, then ``EMPTY``
``foundations``    4          0..13   top rank on the clubs, diamonds, hearts, spades foundations
``best``           4          0..13   highest rank each foundation has held (its progress record)
``recycles``       1          0..31   times the waste was turned over, capped at 31
=================  =========  ======  =================================================================

Cards are ``(rank - 1) * 4 + suit`` (suits C, D, H, S) as in :mod:`solitaire_rl.envs.cards`. The vector has
:data:`OBS_SIZE` (190) entries; :data:`OBS_NVEC` gives each entry's number of values (for a
``MultiDiscrete`` space) and :data:`VIEWS` the slice of each view.

Two spaces carry the same values (:func:`observation_space`): ``obs_type="multidiscrete"`` (the
default, ``np.int64``: what stable-baselines3 one-hot encodes, and what the shipped checkpoints were
trained on) and ``obs_type="box"``, a ``Box(0, OBS_NVEC - 1, (190,), uint8)``: an eighth of the
bytes, for a policy that embeds the card values itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from gymnasium import spaces

from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike.layout import MAX_COLUMN, MAX_FACE_DOWN, NUM_COLUMNS, NUM_STOCK

if TYPE_CHECKING:
    from solitaire_rl.envs.klondike.game import KlondikeGame

FACE_DOWN = 52
"""A face-down column card."""
UNSEEN = 52
"""A stock card never seen."""
EMPTY = 53
"""No card in this slot."""
CARD_VALUES = 54
MAX_RECYCLES_SHOWN = 31

_SIZES = (
    ("columns", NUM_COLUMNS * MAX_COLUMN, CARD_VALUES),
    ("waste", NUM_STOCK, CARD_VALUES),
    ("stock", NUM_STOCK, CARD_VALUES),
    ("foundations", 4, 14),
    ("best", 4, 14),
    ("recycles", 1, MAX_RECYCLES_SHOWN + 1),
)


def _views() -> dict[str, slice]:
    views, start = {}, 0
    for name, size, _ in _SIZES:
        views[name] = slice(start, start + size)
        start += size
    return views


VIEWS: dict[str, slice] = _views()
"""Named slices of the observation vector."""
OBS_SIZE = sum(size for _, size, _ in _SIZES)
OBS_NVEC = np.concatenate([np.full(size, values, dtype=np.int64) for _, size, values in _SIZES])
OBS_DTYPE = np.int64
"""Gymnasium's default for ``MultiDiscrete``; Stable-Baselines3 sums ``nvec`` in this type."""
MULTIDISCRETE = "multidiscrete"
BOX = "box"
OBS_TYPES = (MULTIDISCRETE, BOX)
"""What ``obs_type=`` takes (the single and the vector env)."""


def observation_space(obs_type: str = MULTIDISCRETE) -> spaces.Space:
    """The observation space of ``obs_type``: ``MultiDiscrete(OBS_NVEC)`` of ``np.int64``, or a
    ``Box`` of ``np.uint8`` with the same bounds (``0 .. OBS_NVEC - 1``)."""
    if obs_type == MULTIDISCRETE:
        return spaces.MultiDiscrete(OBS_NVEC, dtype=OBS_DTYPE)
    if obs_type == BOX:
        return spaces.Box(np.zeros(OBS_SIZE, np.uint8), (OBS_NVEC - 1).astype(np.uint8), dtype=np.uint8)
    raise MalformedInputError(f"obs_type must be one of {list(OBS_TYPES)}, not {obs_type!r}")


_DOWN = [bytes([FACE_DOWN]) * n for n in range(MAX_COLUMN + 1)]
_PAD = [bytes([EMPTY]) * n for n in range(NUM_COLUMNS * MAX_COLUMN + 1)]


def check_playable(game: KlondikeGame) -> KlondikeGame:
    """``game`` if every position reached from it fits the observation (and the native state):
    at most :data:`MAX_FACE_DOWN` face-down cards a column (so that no column ever holds more than
    :data:`MAX_COLUMN`) and at most :data:`NUM_STOCK` cards in the stock and the waste together, as
    in any deal; else :class:`MalformedInputError`. The rules accept such hand-built positions; the
    environments (Python and native) refuse them at reset, before anything changes."""
    for c, down in enumerate(game.hidden):
        if down > MAX_FACE_DOWN:
            raise MalformedInputError(f"column {c + 1} has {down} face-down cards; a Klondike column has at "
                                      f"most {MAX_FACE_DOWN} (no deal reaches more)")
    talon = len(game.stock) + len(game.waste)
    if talon > NUM_STOCK:
        raise MalformedInputError(f"the stock and the waste hold {talon} cards together; a Klondike talon "
                                  f"holds at most {NUM_STOCK}")
    return game


def observe(game: KlondikeGame, dtype: type = OBS_DTYPE) -> np.ndarray:
    """The observation vector of ``game`` (see the module docstring), as ``dtype`` (a new array)."""
    down, pad = _DOWN, _PAD
    hidden = game.hidden
    parts: list[bytes] = []
    for c, col in enumerate(game.columns):
        if len(col) > MAX_COLUMN:  # only a hand-built position: a deal never gets there
            raise MalformedInputError(f"column {c + 1} holds {len(col)} cards; the observation shows at "
                                      f"most {MAX_COLUMN} (6 face down and a run of 13), as any deal has")
        h = hidden[c]
        parts += (down[h], bytes(col[h:]), pad[MAX_COLUMN - len(col)])
    waste, stock, seen = game.waste, game.stock, game.seen
    if len(waste) > NUM_STOCK or len(stock) > NUM_STOCK:  # likewise; the padding would go wrong
        raise MalformedInputError(f"the waste holds {len(waste)} cards and the stock {len(stock)}; the "
                                  f"observation shows at most {NUM_STOCK} of each, as any deal has")
    parts += (bytes(waste[::-1]), pad[NUM_STOCK - len(waste)])
    if all((seen >> c) & 1 for c in stock):
        parts.append(bytes(stock[::-1]))
    else:
        parts.append(bytes([c if (seen >> c) & 1 else UNSEEN for c in reversed(stock)]))
    parts += (pad[NUM_STOCK - len(stock)], bytes(game.foundations), bytes(game.best),
              bytes((min(game.recycles, MAX_RECYCLES_SHOWN),)))
    return np.frombuffer(b"".join(parts), dtype=np.uint8).astype(dtype)


__all__ = ["BOX", "EMPTY", "FACE_DOWN", "MULTIDISCRETE", "OBS_DTYPE", "OBS_NVEC", "OBS_SIZE", "OBS_TYPES",
           "UNSEEN", "VIEWS", "check_playable", "observation_space", "observe"]
