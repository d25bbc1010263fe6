"""``solitaire-rl COMMAND ...``: one console command for the package's programs.

Each command runs a module's own command line, so ``solitaire-rl benchmark --help`` and
``python -m solitaire_rl.training.benchmark --help`` are the same program.
"""

from __future__ import annotations

import runpy
import sys
from collections.abc import Sequence

COMMANDS = {
    "play": ("solitaire_rl.play", "the local play server (both games, hints, verdicts)"),
    "train": ("solitaire_rl.training.train", "train a MaskablePPO agent"),
    "benchmark": ("solitaire_rl.training.benchmark", "play agents on fixed deals and tabulate"),
    "solve": ("solitaire_rl.agents.solver", "decide deals with the exact solvers"),
    "analyse": ("solitaire_rl.training.analyse", "analyse one game move by move with the solver"),
}
"""Command name -> (module run as ``__main__``, one-line description)."""


def usage() -> str:
    """The help text listing every command."""
    width = max(map(len, COMMANDS))
    lines = [f"  {name:<{width}}  {about}" for name, (_, about) in COMMANDS.items()]
    return "usage: solitaire-rl COMMAND [ARGS...]\n\ncommands:\n" + "\n".join(lines) + (
        "\n\n`solitaire-rl COMMAND --help` shows a command's own options.")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command named by ``argv[0]`` with the rest of ``argv``; 2 for an unknown command."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(usage())
        return 0 if args else 2
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(f"solitaire-rl: unknown command {name!r}\n\n{usage()}", file=sys.stderr)
        return 2
    module = COMMANDS[name][0]
    saved = sys.argv
    sys.argv = [f"solitaire-rl {name}", *rest]
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    except SystemExit as stop:
        code = stop.code
        if code is None or isinstance(code, int):
            return code or 0
        print(code, file=sys.stderr)
        return 1
    finally:
        sys.argv = saved
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
