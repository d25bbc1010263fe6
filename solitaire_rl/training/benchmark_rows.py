"""The benchmark's rows (one agent's play of one deal), the table computed from them, and the
``--rows`` file (JSON Lines) that a stopped run resumes from.

A rows file's first line is ``{"format": ..., "options": ...}``: the run's
:class:`~solitaire_rl.training.benchmark_options.PlayOptions`, so a run with other options is
refused rather than mixed in. Then one line per row, and a ``{"session": ...}`` line (its
provenance) at the start of each run that appended to it.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from solitaire_rl.agents.registry import AGENTS
from solitaire_rl.agents.solver.stats import wilson_interval
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.training.benchmark_options import PlayOptions

KLONDIKE_PLANNERS = tuple(name for name, spec in AGENTS.items() if spec.stock_known)
"""The Klondike planners ``--stock-known`` shows the stock's order to."""


@dataclass(frozen=True)
class Row:
    """One agent's play of one deal."""

    agent: str
    deal_id: str
    deal_number: int
    outcome: str
    won: bool
    cards_cleared: int
    steps: int
    seconds: float
    verdict: str | None = None
    """The solver's verdict (winnable / not_winnable / unknown); ``None`` for other agents."""
    states: int | None = None
    """States the solver searched."""
    moves: list[str] | None = None
    """The moves the agent played, in their text forms (``python -m solitaire_rl.training.analyse`` and the
    play page's viewer replay them)."""
    analysis: str | None = None
    """What the analysis of the game found (:mod:`solitaire_rl.agents.analysis`): ``won``, ``lost_at_move``,
    ``never_winnable``, ``still_winnable`` or ``undecided``; ``None`` when not analysed."""
    first_losing_move: int | None = None
    """0-based index of the first move after which the deal could no longer be won (with
    ``analysis == "lost_at_move"``), else ``None``."""
    setting: str | None = None
    """What the agent saw (:func:`information_setting`; ``None`` in rows from before it was kept:
    the agent's usual setting)."""
    seed: int | None = None
    """The seed the agent's random draws came from (deal N: ``(seed, N)``); ``None`` for an agent
    that draws none (and in rows from before seeds were kept: seed 0)."""


@dataclass(frozen=True)
class Summary:
    """One run's line of the table (an agent, and its seed where it played several), from its rows."""

    agent: str
    deals: int
    wins: int
    win_rate: float
    ci_low: float
    ci_high: float
    mean_cleared: float
    solver_winnable: int | None
    """Deals among these the solver proved winnable (``None`` without solver rows)."""
    wins_on_winnable: int | None
    mean_seconds: float
    seconds_per_move: float
    """All the agent's time over all its moves (searches included)."""
    setting: str = "hidden cards"
    """What the agent sees: ``hidden cards`` (what a player sees), ``stock known`` or ``thoughtful``
    (the solver reads every card: an upper bound)."""
    seed: int | None = None
    """The run's seed (``None``: an agent that draws no random numbers)."""


def information_setting(agent: str, stock_known: bool = False) -> str:
    """What ``agent`` sees of the deal (every row and figure states it): ``thoughtful`` (the
    solver reads every card), ``stock known`` (a Klondike planner under ``--stock-known``) or
    ``hidden cards`` (what a player sees)."""
    spec = AGENTS.get(agent.partition(":")[0])
    if spec is not None and spec.sees == "every card":
        return "thoughtful"
    return "stock known" if stock_known and agent.partition(":")[0] in KLONDIKE_PLANNERS else "hidden cards"


def summarize(rows: Sequence[Row]) -> list[Summary]:
    """The table: one :class:`Summary` per run (agent and seed), in the order the runs first appear."""
    proven = {r.deal_number for r in rows if r.agent == "solver" and r.verdict == "winnable"}
    have_solver = any(r.agent == "solver" for r in rows)
    runs: dict[tuple[str, int | None], list[Row]] = {}
    for r in rows:
        runs.setdefault((r.agent, r.seed), []).append(r)
    out = []
    for (agent, seed), mine in runs.items():
        wins = sum(r.won for r in mine)
        low, high = wilson_interval(wins, len(mine))
        winnable = [r for r in mine if r.deal_number in proven]
        out.append(Summary(
            agent=agent, deals=len(mine), wins=wins, win_rate=wins / len(mine), ci_low=low, ci_high=high,
            mean_cleared=statistics.fmean(r.cards_cleared for r in mine),
            solver_winnable=len(winnable) if have_solver else None,
            wins_on_winnable=sum(r.won for r in winnable) if have_solver else None,
            mean_seconds=statistics.fmean(r.seconds for r in mine),
            seconds_per_move=sum(r.seconds for r in mine) / max(1, sum(r.steps for r in mine)),
            setting=mine[0].setting or information_setting(agent), seed=seed,
        ))
    return out


def several_seeds(rows: Sequence[Row]) -> bool:
    """Whether some agent of ``rows`` played more than one seed (the tables then name the seed)."""
    seeds: dict[str, set[int | None]] = {}
    for r in rows:
        seeds.setdefault(r.agent, set()).add(r.seed)
    return any(len(s) > 1 for s in seeds.values())


# ------------------------------------------------------------------------------ the rows file
ROWS_FORMAT = "solitaire-rl benchmark rows v2"
OLD_ROWS_FORMAT = "solitaire-rl benchmark rows v1"


@dataclass(frozen=True)
class RowsFile:
    """What a rows file holds: its options, its rows and the provenance of each session that wrote it."""

    options: PlayOptions
    rows: list[Row]
    sessions: list[dict[str, Any]]


def read_rows(path: Path, options: PlayOptions) -> RowsFile | None:
    """The rows earlier runs with ``options`` appended to ``path`` (``None`` if the file is absent or
    empty). A file started with other options, or not a rows file, is refused, naming the options
    that differ. A last line cut off by a stopped run is dropped."""
    if not path.exists() or not path.read_text().strip():
        return None
    lines = path.read_text().splitlines()
    try:
        head = json.loads(lines[0])
    except json.JSONDecodeError:
        head = None
    if isinstance(head, dict) and head.get("format") == OLD_ROWS_FORMAT:
        raise MalformedInputError(f"{path} was written by an older benchmark (its header is a command line, "
                                  f"which did not record every option): give a new --rows file")
    if not isinstance(head, dict) or head.get("format") != ROWS_FORMAT:
        raise MalformedInputError(f"{path} is not a benchmark rows file (its first line should say "
                                  f"{ROWS_FORMAT!r})")
    theirs = PlayOptions.from_json(head.get("options"))
    if theirs != options:
        changed = "; ".join(theirs.differences(options))
        raise MalformedInputError(f"{path} holds rows played with other options ({changed}): run with the "
                                  f"file's options to resume it, or give another --rows file")
    rows, sessions = [], []
    for number, line in enumerate(lines[1:], start=2):
        try:
            data = json.loads(line)
            if isinstance(data, dict) and set(data) == {"session"}:
                sessions.append(data["session"])
            else:
                rows.append(Row(**data))
        except (json.JSONDecodeError, TypeError) as exc:
            if number == len(lines):  # the write a stopped run cut off
                break
            raise MalformedInputError(f"{path}, line {number}: not a row ({exc})") from None
    return RowsFile(theirs, rows, sessions)


def append_rows(path: Path, options: PlayOptions, session: dict[str, Any]) -> Callable[[Row], None]:
    """A function that appends one row (a JSON line) to ``path``; the file is started with
    ``options`` if needed, and this session's provenance is appended first."""
    text = path.read_text() if path.exists() else ""
    if not text.strip():
        path.write_text(json.dumps({"format": ROWS_FORMAT, "options": options.to_json()}) + "\n")
    elif not text.endswith("\n"):  # a line cut off by a stopped run: drop it
        path.write_text(text[: text.rfind("\n") + 1])
    with path.open("a") as out:
        out.write(json.dumps({"session": session}) + "\n")

    def append(row: Row) -> None:
        with path.open("a") as out:
            out.write(json.dumps(asdict(row)) + "\n")
    return append


__all__ = ["KLONDIKE_PLANNERS", "ROWS_FORMAT", "Row", "RowsFile", "Summary", "append_rows",
           "information_setting", "read_rows", "several_seeds", "summarize"]
