"""The leaderboard (``docs/leaderboard.md``), generated from the benchmark's rows files.

    python -m solitaire_rl.training.leaderboard            # rewrite docs/leaderboard.md
    python -m solitaire_rl.training.leaderboard --check    # exit 1 if it is not what the rows give

The canonical rows files are the ``--json`` files of :mod:`solitaire_rl.training.benchmark` in
``benchmarks/results/agents/``: every row of every agent, the command and the provenance. Each
(file, agent) is one line of its variant's table, computed from its rows only: the deals, the wins
and the win rate with its 95% Wilson interval (several seeds: the mean over seeds with the
bootstrap interval of :mod:`solitaire_rl.training.benchmark_stats`), the date and the command.
Lines are ranked within what they see (hidden cards, then the stock known, then the solver's
thoughtful setting, an upper bound), and each is compared with the next one on the deals both
played (exact McNemar test).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tyro

from solitaire_rl.agents.solver.stats import wilson_interval
from solitaire_rl.training.benchmark_rows import Row, information_setting
from solitaire_rl.training.benchmark_stats import aggregate, mcnemar_exact, runs_of

ROOT = Path(__file__).resolve().parents[2]
ROWS_DIR = ROOT / "benchmarks" / "results" / "agents"
OUT = ROOT / "docs" / "leaderboard.md"
SETTINGS = ("hidden cards", "stock known", "thoughtful")
"""What an agent sees, in the order the tables rank them (the thoughtful solver last: an upper bound)."""
TITLES = {"pyramid-000": "Pyramid, seed 000 (stock and waste tops playable)",
          "pyramid-001": "Pyramid, seed 001 (waste top only)", "klondike-draw3": "Klondike, draw 3"}
"""Each table's heading (one table per game and variant)."""
OLD_MODULE = "python -m training.benchmark "
"""How commands named the benchmark before the package was renamed (issue 50)."""


@dataclass
class Args:
    """Write docs/leaderboard.md from the benchmark's rows files."""

    rows_dir: Path = ROWS_DIR
    """Folder of the benchmark's --json files (every *.json in it with rows)."""
    out: Path = OUT
    """The Markdown file to write."""
    check: bool = False
    """Write nothing: exit 1 if OUT is not what the rows files give."""


@dataclass(frozen=True)
class Entry:
    """One line of a leaderboard table: one agent's rows in one file."""

    variant: str
    agent: str
    setting: str
    deals: str
    deal_count: int
    wins: int
    """Wins over all runs (several seeds: summed)."""
    runs: int
    rate: float
    low: float
    high: float
    date: str
    command: str
    source: str
    won: dict[int, bool]
    """Deal number -> won (the first run's), for the paired comparison with the next line."""


def deal_ranges(numbers: Sequence[int]) -> str:
    """Deal numbers as ranges: ``1..1000``, ``1..10, 42``."""
    ordered = sorted(set(numbers))
    parts: list[str] = []
    start = prev = ordered[0]
    for n in [*ordered[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        parts.append(f"{start:,}..{prev:,}" if prev > start else f"{start:,}")
        if n is not None:
            start = prev = n
    return ", ".join(parts)


def entries_of(path: Path, root: Path = ROOT) -> list[Entry]:
    """The leaderboard lines of one ``--json`` file (none if it holds no rows)."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    rows = [Row(**r) for r in data.get("rows", [])]
    if not rows:
        return []
    record = data.get("provenance") or {}
    stock_known = "--stock-known" in data.get("command", "")
    deal_type = data.get("deal_type", "random")
    source = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.name
    out = []
    for agent in dict.fromkeys(r.agent for r in rows):
        mine = [r for r in rows if r.agent == agent]
        runs = list(runs_of(mine).values())
        setting = mine[0].setting or information_setting(agent, stock_known)
        wins = sum(r.won for r in mine)
        if len(runs) > 1:
            summary = aggregate(agent, runs, setting)
            rate, low, high = summary.mean, summary.mean_low, summary.mean_high
        else:
            rate = wins / len(mine)
            low, high = wilson_interval(wins, len(mine))
        per_agent = record.get("agents", {}).get(agent, {})
        command = per_agent.get("command") or data.get("command", "")
        numbers = sorted(runs[0])
        deals = deal_ranges(numbers) + ("" if deal_type == "random" else f" ({deal_type})")
        out.append(Entry(data["variant"], agent, setting, deals, len(numbers), wins, len(runs), rate, low,
                         high, (per_agent.get("date") or record.get("date") or "")[:10],
                         command.replace(OLD_MODULE, "python -m solitaire_rl.training.benchmark "), source,
                         runs[0]))
    return out


def load(rows_dir: Path = ROWS_DIR, root: Path = ROOT) -> list[Entry]:
    """Every line of every ``*.json`` rows file in ``rows_dir``, files in name order."""
    return [e for path in sorted(rows_dir.glob("*.json")) for e in entries_of(path, root)]


def ranked(entries: Sequence[Entry]) -> list[Entry]:
    """By setting (:data:`SETTINGS`), then win rate, then name."""
    order = {s: i for i, s in enumerate(SETTINGS)}
    return sorted(entries, key=lambda e: (order.get(e.setting, len(order)), -e.rate, e.agent, e.source))


def paired_with_next(entry: Entry, following: Entry | None) -> str:
    """Wins each way against the next line on the deals both played, and the exact McNemar p."""
    if following is None:
        return ""
    common = [n for n in entry.won if n in following.won]
    if not common:
        return "no common deals"
    mine = sum(entry.won[n] and not following.won[n] for n in common)
    theirs = sum(following.won[n] and not entry.won[n] for n in common)
    p = mcnemar_exact(mine, theirs)
    return f"{mine}–{theirs}, " + ("p < 0.0001" if p < 1e-4 else f"p = {p:.4f}")


def render(entries: Sequence[Entry]) -> str:
    """The Markdown page: one table per game and variant."""
    lines = [
        "# Leaderboard",
        "",
        "Generated by `python -m solitaire_rl.training.leaderboard` from the benchmark's rows files in",
        "`benchmarks/results/agents/` (each the `--json` file of one `python -m",
        "solitaire_rl.training.benchmark` run): do not edit it by hand; `tests/test_leaderboard.py` fails",
        "when it and the files disagree. Every figure is computed from the rows (one per agent and deal),",
        "so each can be traced to deals.",
        "",
        "- **sees**: what the agent sees of the deal: `hidden cards` (what a player sees), `stock known`",
        "  (the Klondike stock's order shown, face-down cards still hidden) or `thoughtful` (every card:",
        "  the solver, an upper bound rather than an agent). Lines are ranked within each setting.",
        "- **win rate**: with its 95% Wilson score interval (several seeds: the mean over seeds, 95%",
        "  bootstrap interval over seeds and deals; see [benchmark.md](benchmark.md)).",
        "- **vs next line**: deals this line won and the next one lost, against the reverse, on the deals",
        "  both played, with the exact two-sided McNemar p-value (not adjusted for the several pairs; a",
        "  line of several seeds compares its first seed's rows).",
        "- **date**: when the rows were played (for runs before the benchmark recorded its provenance,",
        "  taken from the git history and said so in the file's `provenance`).",
        "",
    ]
    for variant in dict.fromkeys(e.variant for e in entries):
        mine = ranked([e for e in entries if e.variant == variant])
        lines += [f"## {TITLES.get(variant, variant)} (`{variant}`)", "",
                  "| agent | sees | deals | wins | win rate (95% CI) | vs next line | date | command "
                  "| rows |", "|---|---|---|---:|---|---|---|---|---|"]
        for i, e in enumerate(mine):
            following = mine[i + 1] if i + 1 < len(mine) and mine[i + 1].setting == e.setting else None
            wins = f"{e.wins} ({e.runs} seeds)" if e.runs > 1 else str(e.wins)
            rate = f"{e.rate:.1%} ({e.low:.1%}–{e.high:.1%})"
            lines.append(f"| {e.agent} | {e.setting} | {e.deals} | {wins} | {rate} "
                         f"| {paired_with_next(e, following)} | {e.date} | `{e.command}` "
                         f"| [{Path(e.source).name}](../{e.source}) |")
        lines.append("")
    return "\n".join(lines)


def main(args: Args) -> int:
    """Write (or check) the leaderboard; the exit status."""
    text = render(load(args.rows_dir))
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print(f"{args.out} is not what the rows files in {args.rows_dir} give: run "
                  f"python -m solitaire_rl.training.leaderboard", file=sys.stderr)
            return 1
        print(f"{args.out} is up to date")
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


def cli(argv: Sequence[str] | None = None) -> None:
    raise SystemExit(main(tyro.cli(Args, args=argv, prog="python -m solitaire_rl.training.leaderboard")))


__all__ = ["Args", "Entry", "deal_ranges", "entries_of", "load", "main", "ranked", "render"]


if __name__ == "__main__":
    cli()
