"""``python -m solitaire_rl.play``: the local play server (``python -m solitaire_rl.play.terminal`` for the
terminal demo)."""

from solitaire_rl.play.server.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
