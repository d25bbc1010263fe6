"""``python -m play``: the local play server (``python -m play.terminal`` for the terminal demo)."""

from play.server.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
