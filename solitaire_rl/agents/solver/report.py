"""Per-deal rows of a solver run and the summary computed from them (for the CLI and benchmarks).

A run writes one row per deal (deal, variant, verdict, time, states), and every table is
computed from rows, so a figure can always be traced back to its deals.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import cast

from solitaire_rl.agents.solver.result import NOT_WINNABLE, UNKNOWN, WINNABLE
from solitaire_rl.agents.solver.stats import median, wilson_interval


@dataclass(frozen=True)
class DealRow:
    """One deal's verdict."""

    deal: str
    """Deal ID, or deal code for a typed-in deal."""
    variant: str
    verdict: str
    """``winnable``, ``not_winnable`` or ``unknown``."""
    seconds: float
    """Time of the search itself (native), in seconds."""
    states: int
    reason: str | None = None
    """Why the verdict is unknown."""

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def summarize(rows: Iterable[DealRow]) -> dict[str, object]:
    """Counts, the winnable fraction of the decided deals with its 95% Wilson interval, times."""
    rows = list(rows)
    counts = {v: sum(r.verdict == v for r in rows) for v in (WINNABLE, NOT_WINNABLE, UNKNOWN)}
    decided = counts[WINNABLE] + counts[NOT_WINNABLE]
    low, high = wilson_interval(counts[WINNABLE], decided)
    times = [r.seconds for r in rows]
    return {
        "deals": len(rows),
        **counts,
        "decided": decided,
        "winnable_fraction": counts[WINNABLE] / decided if decided else None,
        "wilson95": [low, high] if decided else None,
        "median_seconds": median(times) if times else None,
        "mean_seconds": sum(times) / len(times) if times else None,
        "max_seconds": max(times) if times else None,
        "median_states": median([float(r.states) for r in rows]) if rows else None,
        "max_states": max((r.states for r in rows), default=None),
    }


def format_ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms" if seconds < 0.1 else f"{seconds * 1e3:.0f} ms"


def format_row(row: DealRow) -> str:
    verdict = row.verdict if row.reason is None else f"{row.verdict} ({row.reason})"
    return f"{row.deal:<24} {verdict:<20} {format_ms(row.seconds):>11} {row.states:>11,} states"


def format_summary(summary: dict[str, object], variant: str, what: str = "variant") -> str:
    """The summary as text; ``what variant`` names the game played (``variant 000``, ``draw 3``)."""
    lines = [
        f"{summary['deals']} deals ({what} {variant}): {summary[WINNABLE]} winnable, "
        f"{summary[NOT_WINNABLE]} not winnable, {summary[UNKNOWN]} unknown"
    ]
    if summary["decided"]:
        low, high = cast("list[float]", summary["wilson95"])
        lines.append(
            f"winnable fraction {summary['winnable_fraction']:.2%} of {summary['decided']} decided "
            f"(95% Wilson interval {low:.2%} - {high:.2%})"
        )
    if summary["deals"]:
        lines.append(
            f"time per deal: median {format_ms(summary['median_seconds'])}, "  # type: ignore[arg-type]
            f"mean {format_ms(summary['mean_seconds'])}, max {format_ms(summary['max_seconds'])}"  # type: ignore[arg-type]
        )
    return "\n".join(lines)


__all__ = ["DealRow", "format_row", "format_summary", "summarize"]
