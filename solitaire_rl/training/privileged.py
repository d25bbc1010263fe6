"""The privileged vector: what a player cannot see of a position, for a critic that may read it.

PerfectDou's "perfect-training, imperfect-execution": in training the value network reads the
whole deal while the policy reads only the player's observation
(:mod:`solitaire_rl.agents.privileged_policy`). The privileged vector is computed here from a native
game's state (``NativeBatch.get_state``), never from an observation, and holds only the hidden
cards (what the observation already says is not repeated):

* ``klondike-hidden-cards`` v1, 52 rows x 9 (one per card, ``(rank - 1) * 4 + suit``): face down in
  column 1..7 (seven flags), unseen in the stock, and its depth: for a face-down card the cards
  between it and the column's next card to turn up / 6, for an unseen stock card its place in the
  draw order / 23. A card the player knows is all zeros.
* ``pyramid-hidden-stock`` v1, 24 rows x 13 (one per stock slot in the deal's stock order, the rows of
  the observation's ``stock`` view): the rank one-hot of a card still in the stock or waste that the
  player has not seen; zeros otherwise. The pyramid itself is face up.

A checkpoint trained with one records it (:meth:`PrivilegedView.record`); resuming checks that
record against this code.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from solitaire_rl.agents.ppo import CheckpointMismatchError
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike.layout import MAX_FACE_DOWN, NUM_COLUMNS, NUM_STOCK

KLONDIKE_CARD_WIDTH = NUM_COLUMNS + 2
"""Per card: seven column flags, the unseen-stock flag and the depth."""
_STOCK_FLAG, _DEPTH = NUM_COLUMNS, NUM_COLUMNS + 1
PYRAMID_SLOTS, NUM_RANKS = 24, 13


def klondike_hidden_cards(state: Mapping[str, Any], out: np.ndarray) -> None:
    """Write the ``klondike-hidden-cards`` vector of a native Klondike state into ``out`` (zeroed)."""
    columns, hidden = state["columns"], state["hidden"]
    for c in range(NUM_COLUMNS):
        down = hidden[c]
        column = columns[c]
        for k in range(down):
            row = column[k] * KLONDIKE_CARD_WIDTH
            out[row + c] = 1.0
            out[row + _DEPTH] = (down - 1 - k) / MAX_FACE_DOWN
    seen = state["seen"]
    stock = state["stock"]  # top last
    top = len(stock) - 1
    for i in range(len(stock)):
        card = stock[top - i]
        if not (seen >> card) & 1:
            row = card * KLONDIKE_CARD_WIDTH
            out[row + _STOCK_FLAG] = 1.0
            out[row + _DEPTH] = i / (NUM_STOCK - 1)


def pyramid_hidden_stock(state: Mapping[str, Any], out: np.ndarray) -> None:
    """Write the ``pyramid-hidden-stock`` vector of a native Pyramid state into ``out`` (zeroed)."""
    unknown = state["present"] & ~state["seen"]
    ranks = state["stock_ranks"]
    for slot in range(PYRAMID_SLOTS):
        if (unknown >> slot) & 1:
            out[slot * NUM_RANKS + ranks[slot] - 1] = 1.0


@dataclass(frozen=True)
class PrivilegedView:
    """One game's privileged vector: its name, version, size and the function writing it."""

    name: str
    version: int
    game: str
    size: int
    write: Callable[[Mapping[str, Any], np.ndarray], None]
    layout: str
    """Text describing the layout (its digest goes into a checkpoint's record)."""

    def digest(self) -> str:
        text = f"{self.name}/v{self.version}/{self.layout}"
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def vector(self, state: Mapping[str, Any]) -> np.ndarray:
        """The privileged vector of one native state."""
        out = np.zeros(self.size, np.float32)
        self.write(state, out)
        return out

    def vectors(self, states: Sequence[Mapping[str, Any]]) -> np.ndarray:
        """The privileged vectors of several native states, one row each."""
        out = np.zeros((len(states), self.size), np.float32)
        for row, state in zip(out, states, strict=True):
            self.write(state, row)
        return out

    def record(self) -> dict[str, Any]:
        """What a checkpoint stores about its critic's privileged input."""
        return {"name": self.name, "version": self.version, "size": self.size, "digest": self.digest()}


PRIVILEGED_VIEWS: Mapping[str, PrivilegedView] = MappingProxyType({
    "klondike": PrivilegedView(
        "klondike-hidden-cards", 1, "klondike", 52 * KLONDIKE_CARD_WIDTH, klondike_hidden_cards,
        "52 cards x (face down in column 1..7, unseen in stock, depth /6 or draw place /23)"),
    "pyramid": PrivilegedView(
        "pyramid-hidden-stock", 1, "pyramid", PYRAMID_SLOTS * NUM_RANKS, pyramid_hidden_stock,
        "24 stock slots in deal order x rank one-hot of an unseen card still in play"),
})
"""Each game's privileged view."""


def privileged_view(game: str) -> PrivilegedView:
    """The privileged view of ``game`` (``klondike``, ``pyramid``)."""
    view = PRIVILEGED_VIEWS.get(game)
    if view is None:
        raise MalformedInputError(f"no privileged view of {game}: games with one: "
                                  f"{', '.join(PRIVILEGED_VIEWS)}")
    return view


def check_privileged_record(record: object, game: str, source: str) -> PrivilegedView:
    """Check a checkpoint's privileged record against this code's view of ``game``."""
    view = privileged_view(game)
    if not isinstance(record, dict):
        raise CheckpointMismatchError(f"{source} has no privileged critic: it is a plain ppo checkpoint")
    if record.get("name") != view.name or record.get("version") != view.version:
        raise CheckpointMismatchError(
            f"{source}'s critic reads {record.get('name')} v{record.get('version')}, this code has "
            f"{view.name} v{view.version}: retrain")
    if record.get("digest") != view.digest() or record.get("size") != view.size:
        raise CheckpointMismatchError(
            f"{source}'s privileged layout differs from this code's ({view.name}): retrain")
    return view


__all__ = ["KLONDIKE_CARD_WIDTH", "PRIVILEGED_VIEWS", "PrivilegedView", "check_privileged_record",
           "klondike_hidden_cards", "privileged_view", "pyramid_hidden_stock"]
