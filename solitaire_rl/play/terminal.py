"""A terminal demo that plays a Pyramid deal, and a terminal game for a person.

``python -m solitaire_rl.play.terminal`` deals a Pyramid deal, asks the exact solver for its verdict, and
plays the
deal out move by move, printing the table: the solver's winning line when there is one, else the
engine's first legal move each turn (Kings, then pairs, then draw or recycle).
``python -m solitaire_rl.play.terminal --interactive`` lets you play: type a move (``r7c1+r7c2``, ``r7c3``,
``r6c2+waste``, ``stock+waste``, ``draw``, ``recycle``), ``u`` to undo, ``moves`` to list the legal
moves, ``q`` to quit.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TextIO

from solitaire_rl.agents.solver import WINNABLE, solve_pyramid
from solitaire_rl.envs.errors import SolitaireError
from solitaire_rl.envs.pyramid import PyramidGame
from solitaire_rl.envs.pyramid.moves import Move

Policy = Callable[[PyramidGame], Move]


def first_move_policy(game: PyramidGame) -> Move:
    """Kings first, then pairs, then draw or recycle: the engine's fixed legal-move order."""
    return game.legal_moves()[0]


def solver_policy(game: PyramidGame, out: TextIO) -> Policy:
    """The solver's winning line from ``game`` as a policy, or :func:`first_move_policy`."""
    result = solve_pyramid(game)
    print(f"solver: {result.status.replace('_', ' ')} ({result.states} states, "
          f"{result.seconds * 1000:.2f} ms)\n", file=out)
    if result.status != WINNABLE or result.line is None:
        return first_move_policy
    line = iter(result.line)
    return lambda _game: next(line)


def demo(game: PyramidGame, policy: Policy, out: TextIO, max_moves: int = 500) -> str:
    """Play ``game`` to its end with ``policy``, printing every position; return the outcome."""
    print(game, file=out)
    while game.outcome() is None and game.moves_played < max_moves:
        move = policy(game)
        game.push(move)
        print(f"\nmove {game.moves_played}: {move}", file=out)
        print(game, file=out)
    outcome = game.outcome() or "stopped"
    print(f"\n{outcome}: {28 - game.cards_left} of 28 pyramid cards removed in {game.moves_played} moves",
          file=out)
    return outcome


def interactive(game: PyramidGame, inp: TextIO, out: TextIO) -> str:
    """Let a person play ``game`` from ``inp``; return the outcome (or ``"quit"``)."""
    print(game, file=out)
    while game.outcome() is None:
        print("move> ", end="", file=out, flush=True)
        line = inp.readline()
        if not line or line.strip().lower() in ("q", "quit"):
            return "quit"
        text = line.strip().lower()
        try:
            if text in ("u", "undo"):
                game.pop()
            elif text == "moves":
                print(" ".join(str(m) for m in game.legal_moves()), file=out)
                continue
            else:
                game.push(Move.parse(text))
        except SolitaireError as exc:
            print(f"  {exc}", file=out)
            continue
        print(game, file=out)
    print(f"{game.outcome()}: the game is over.", file=out)
    return game.outcome() or "quit"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m solitaire_rl.play.terminal", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--deal", default="pyramid-random-v1-1",
                        help="deal ID, deal code, or 52 comma-separated card names")
    parser.add_argument("--variant", choices=["000", "001"], default="000",
                        help="000: stock top and waste top usable; 001: waste top only")
    parser.add_argument("--interactive", action="store_true", help="play it yourself")
    args = parser.parse_args(argv)
    try:
        game = PyramidGame(args.deal, stock_top_playable=args.variant == "000")
    except SolitaireError as exc:
        parser.error(str(exc))
    print(f"Pyramid, variant {args.variant}, deal {game.deal.label}\n")
    if args.interactive:
        interactive(game, sys.stdin, sys.stdout)
    else:
        demo(game, solver_policy(game, sys.stdout), sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
