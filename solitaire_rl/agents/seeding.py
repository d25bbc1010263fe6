"""Players that draw random numbers take their seed through one method, :meth:`Reseedable.reseed`.

The benchmark and self-play give each deal its own generator (seeded by ``[seed, deal]``) so that
a result does not depend on which worker played the deal; they call :func:`reseed` rather than
setting a player's generator from outside.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeAlias, runtime_checkable

import numpy as np

from solitaire_rl.envs.errors import MalformedInputError

Seed: TypeAlias = int | Sequence[int] | np.random.SeedSequence | None
"""What :func:`numpy.random.default_rng` takes: an entropy value, a list of them, a seed sequence."""


@runtime_checkable
class Reseedable(Protocol):
    """A player whose random draws come from a generator it owns."""

    def reseed(self, seed: Seed) -> None:
        """Draw from now on from ``numpy.random.default_rng(seed)``."""


def new_generator(seed: Seed) -> np.random.Generator:
    """``numpy.random.default_rng(seed)``, a bad seed refused with a clear error."""
    try:
        return np.random.default_rng(seed)
    except (TypeError, ValueError) as exc:
        raise MalformedInputError(f"a seed is an integer, a list of them or None, not {seed!r}") from exc


def reseed(player: object, seed: Seed) -> None:
    """Reseed ``player``; a player without random draws of its own is refused."""
    if not isinstance(player, Reseedable):
        raise MalformedInputError(f"{type(player).__name__} draws no random numbers of its own to reseed")
    player.reseed(seed)


__all__ = ["Reseedable", "Seed", "new_generator", "reseed"]
