"""What both pages' chance-of-winning answers share: the ``ChanceAnswer`` body, its rounding and how
much an estimate says in words.

Each game words its own estimate (:mod:`solitaire_rl.play.server.klondike_advice`,
:mod:`solitaire_rl.play.server.pyramid_chance`). An estimate comes from guesses at the cards the player
has not seen (issue 51): it says so ("by the cards you have seen"), and it never reads as a proof at
either end: no guess won is "very low", not "at most about 0%" (a loss is said only where one is proved);
every guess won is "high, but not certain", not "at most about 100%".
"""

from __future__ import annotations

from typing import Any


def rounded_percent(share: float) -> int:
    """``share`` as the page says it: to the nearest 5%, since 32 samples cannot tell finer."""
    return int(5 * round(share * 20))


def estimate_words(share: float) -> tuple[str, str]:
    """How high a sampled ``share`` is, in English and Japanese: ``at most about 60%`` (each guess is
    solved knowing every card, so the share is an upper bound), ``very low`` where it rounds to 0% and
    ``high, but not certain`` where it rounds to 100%."""
    percent = rounded_percent(share)
    if percent == 0:
        return "very low", "ごくわずか"
    if percent == 100:
        return "high, but not certain", "高いものの、確実ではありません"
    return f"at most about {percent}%", f"多くて約 {percent}%"


def chance_json(share: float, won: int, unknown: int, samples: int, basis: str, en: str,
                ja: str) -> dict[str, Any]:
    """The ``ChanceAnswer`` body."""
    return {"share": share, "won": won, "unknown": unknown, "samples": samples, "basis": basis,
            "en": en, "ja": ja}


__all__ = ["chance_json", "estimate_words", "rounded_percent"]
