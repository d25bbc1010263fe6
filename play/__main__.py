"""``python -m play``: the main entry point (see :mod:`play.terminal`)."""

from play.terminal import main

if __name__ == "__main__":
    raise SystemExit(main())
