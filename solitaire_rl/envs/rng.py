"""A tiny documented PRNG and shuffle, so a deal number always means the same cards.

The generator is SplitMix64 (Steele, Lea and Flood, 2014) seeded with the 64-bit FNV-1a hash of
an ASCII string. The shuffle is Fisher-Yates from the last position down to position 1, each
index drawn without bias by rejection. Nothing here depends on ``random`` or numpy, whose
algorithms may change between versions; any language can reproduce a deal from this text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK64 = (1 << 64) - 1


def fnv1a64(text: str) -> int:
    """64-bit FNV-1a hash of the ASCII bytes of ``text``."""
    h = 0xCBF29CE484222325
    for byte in text.encode("ascii"):
        h ^= byte
        h = (h * 0x100000001B3) & _MASK64
    return h


class SplitMix64:
    """SplitMix64: ``next()`` returns the next 64-bit output."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``: rejects the top partial block of 2**64."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n


def shuffled(items: Sequence[T], seed_text: str) -> list[T]:
    """Return ``items`` shuffled by Fisher-Yates driven by ``SplitMix64(fnv1a64(seed_text))``."""
    rng = SplitMix64(fnv1a64(seed_text))
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
