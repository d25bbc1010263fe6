"""Where was the win lost? The solver's verdict after every move of one game.

    python -m solitaire_rl.training.analyse pyramid-001 pyramid-random-v1-5 --moves draw r7c2+r7c3 draw
    python -m solitaire_rl.training.analyse klondike 7 --moves "draw,c6>c3,draw"
    python -m solitaire_rl.training.analyse klondike 7 --benchmark results.json --agent greedy
    python -m solitaire_rl.training.analyse pyramid 5 --moves-file game.txt --json -

GAME is a variant (``pyramid`` = ``pyramid-000``, ``pyramid-001``, ``klondike`` = ``klondike-draw3``);
DEAL a deal ID, a number (the random deal of that number), a deal code or comma-joined card names.
The moves come from ``--moves`` (their text forms, space- or comma-separated), from
``--moves-file`` (one or more a line), or from a ``solitaire_rl.training.benchmark --json`` file's row of
``--agent`` on that deal (a replay of the agent's game). Prints each move with the verdict on the
true deal after it, marks the first move after which the game could no longer be won, a winning
alternative from the position before it, and whether the player could have seen the loss
(``docs/analysis.md``). ``--json FILE`` (``-``: standard output) writes the analysis as JSON.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import tyro

from solitaire_rl.agents.analysis import DEFAULT_LIMITS, GameAnalysis, analyse_game
from solitaire_rl.agents.analysis.hindsight import DEFAULT_SAMPLES
from solitaire_rl.agents.solver.limits import SearchLimits
from solitaire_rl.envs.errors import MalformedInputError, SolitaireError
from solitaire_rl.envs.spec import find_game

JUDGEMENT_WORDS = {
    "visible": "a loss the player could see from the cards seen",
    "hindsight": "a loss only in hindsight: it depended on cards not yet seen",
    "undecided": "whether the player could see it is undecided (no sample solved in the budget)",
}
OUTCOME_WORDS = {
    "won": "won: no move lost anything",
    "lost_at_move": "lost at move {n}",
    "never_winnable": "the deal itself cannot be won",
    "still_winnable": "the game stopped while it could still be won",
    "undecided": "undecided: the searches ran out of budget before finding the losing move",
}


@dataclass
class Args:
    """Analyse one game with the exact solver."""

    game: Annotated[str, tyro.conf.Positional, tyro.conf.arg(metavar="GAME")]
    """pyramid (= pyramid-000), pyramid-001 or klondike (= klondike-draw3)."""
    deal: Annotated[str, tyro.conf.Positional, tyro.conf.arg(metavar="DEAL")]
    """Deal ID, number, deal code or comma-joined card names."""
    moves: tuple[str, ...] = ()
    """The moves in their text forms (space- or comma-separated)."""
    moves_file: Path | None = None
    """A file of moves (space-, comma- or line-separated)."""
    benchmark: Path | None = None
    """A solitaire_rl.training.benchmark --json file: replay --agent's game on DEAL from its rows."""
    agent: str | None = None
    """The agent whose benchmark row to replay (with --benchmark)."""
    time_limit: float = 2.0
    """Seconds each search may take."""
    max_states: int = DEFAULT_LIMITS.max_states or 1_000_000
    """States each search may visit."""
    time_budget: float = 20.0
    """Seconds all the searches on the true deal may take together."""
    samples: int = DEFAULT_SAMPLES
    """Completions of the unseen cards drawn to judge the losing move."""
    json: str | None = None
    """Write the analysis as JSON to this file (- for standard output)."""


def deal_spec(game: str, deal: str) -> str:
    """A bare number names the variant's random deal of that number."""
    text = deal.strip()
    return find_game(game).deal_id(int(text)) if text.isdigit() else text


def split_moves(texts: Sequence[str]) -> list[str]:
    return [part for text in texts for part in text.replace(",", " ").split()]


def benchmark_moves(path: Path, agent: str | None, deal: str) -> list[str]:
    """The moves of ``agent``'s row on ``deal`` in a benchmark JSON file."""
    if agent is None:
        raise MalformedInputError("--benchmark needs --agent (whose game to replay)")
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise MalformedInputError(f"cannot read the benchmark file {str(path)!r}: {exc}") from None
    rows = data.get("rows") if isinstance(data, dict) else None
    if not isinstance(rows, list):
        raise MalformedInputError(
            f"{str(path)!r} is not a solitaire_rl.training.benchmark --json file (no rows)"
        )
    for row in rows:
        if isinstance(row, dict) and row.get("agent") == agent and row.get("deal_id") == deal:
            if not isinstance(row.get("moves"), list):
                raise MalformedInputError(f"the row of {agent} on {deal} holds no moves (an older file?)")
            return [str(m) for m in row["moves"]]
    raise MalformedInputError(f"no row of agent {agent!r} on deal {deal!r} in {str(path)!r}")


def format_analysis(report: GameAnalysis) -> str:
    """The analysis as text: one line a move, the losing one marked."""
    lines = [f"{report.variant}, deal {report.deal}: {len(report.moves)} moves",
             f"  deal      {report.verdicts[0]}"]
    losing = report.first_losing_move
    for i, (move, verdict) in enumerate(zip(report.moves, report.verdicts[1:], strict=True)):
        mark = "  <- the win was lost here" if i == losing else ""
        lines.append(f"  {i + 1:>4}  {move!s:<12} {verdict}{mark}")
    lines.append(OUTCOME_WORDS[report.outcome].format(n=(losing or 0) + 1))
    if report.losing_move is not None:
        lm = report.losing_move
        lines.append(f"winning alternative instead of {lm.move}: {lm.alternative[0]} "
                     f"(a winning line of {len(lm.alternative)} moves: {' '.join(map(str, lm.alternative))})")
        if lm.hindsight is not None:
            h = lm.hindsight
            best = ("no other move kept more" if h.best_move == lm.move
                    else f"after {h.best_move}, {h.best_value:.0%}")
            lines.append(f"{JUDGEMENT_WORDS[h.judgement]}: after {lm.move}, {h.played_value:.0%} of "
                         f"{h.samples} completions of the {h.unknown_cards} unseen cards could still be won; "
                         f"{best}")
    lines.append(f"{report.searches} searches, {report.states:,} states, {report.seconds:.2f} s")
    return "\n".join(lines)


def main(args: Args) -> GameAnalysis:
    """Analyse the game; print it, and write JSON if asked."""
    deal = deal_spec(args.game, args.deal)
    if args.benchmark is not None:
        if args.moves or args.moves_file:
            raise MalformedInputError("give the moves by --moves, --moves-file or --benchmark, one only")
        moves = benchmark_moves(args.benchmark, args.agent, deal)
    else:
        texts = list(args.moves)
        if args.moves_file is not None:
            try:
                texts.append(args.moves_file.read_text())
            except OSError as exc:
                raise MalformedInputError(f"cannot read {str(args.moves_file)!r}: {exc}") from None
        moves = split_moves(texts)
    limits = SearchLimits(time_limit=args.time_limit, max_states=args.max_states)
    report = analyse_game(args.game, deal, moves, limits=limits, time_budget=args.time_budget,
                          samples=args.samples)
    to_stdout = args.json == "-"
    print(format_analysis(report), file=sys.stderr if to_stdout else sys.stdout)
    if args.json is not None:
        text = json.dumps(report.as_dict(), indent=1)
        if to_stdout:
            print(text)
        else:
            Path(args.json).write_text(text + "\n")
    return report


def cli(argv: Sequence[str] | None = None) -> Any:
    args = tyro.cli(Args, args=argv, prog="python -m solitaire_rl.training.analyse")
    try:
        return main(args)
    except SolitaireError as exc:
        raise SystemExit(f"error: {exc}") from None


if __name__ == "__main__":
    cli()
