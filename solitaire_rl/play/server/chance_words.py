"""What both pages' chance-of-winning answers share: the ``ChanceAnswer`` body and its rounding.

Each game words its own estimate (:mod:`solitaire_rl.play.server.klondike_advice`,
:mod:`solitaire_rl.play.server.pyramid_chance`).
"""

from __future__ import annotations

from typing import Any


def rounded_percent(share: float) -> int:
    """``share`` as the page says it: to the nearest 5%, since 32 samples cannot tell finer."""
    return int(5 * round(share * 20))


def chance_json(share: float, won: int, unknown: int, samples: int, basis: str, en: str,
                ja: str) -> dict[str, Any]:
    """The ``ChanceAnswer`` body."""
    return {"share": share, "won": won, "unknown": unknown, "samples": samples, "basis": basis,
            "en": en, "ja": ja}


__all__ = ["chance_json", "rounded_percent"]
