"""Frames of agents' games as PNG files: the gallery in ``docs/analysis.md``.

    python -m solitaire_rl.training.gallery docs/gallery

Plays one deal of each variant with the ``greedy`` agent through the environment with
``render_mode="rgb_array"`` and writes the frame after the first move and in the middle of the game
(``{variant}-{step}.png``), and for the Klondike game the position before its losing move with the
analysis's winning alternative framed (``klondike-alternative.png``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import solitaire_rl  # noqa: F401  (registers the environments)
from solitaire_rl.agents.analysis import analyse_played
from solitaire_rl.agents.base import legal_mask
from solitaire_rl.agents.registry import make_player
from solitaire_rl.envs.spec import find_game

GAMES = (("pyramid-000", 2, None), ("pyramid-001", 2, None),
         ("klondike-draw3", 4, "klondike-alternative.png"))
"""Each variant drawn, its deal number, and the file of its losing move's alternative (``None``: none)."""


def frames(variant_key: str, number: int, out: Path, alternative: str | None = None) -> list[Path]:
    """Play deal ``number`` with greedy, saving two frames (and, named ``alternative``, the position
    before the losing move with the analysis's winning alternative framed); returns the files written."""
    from PIL import Image

    variant = find_game(variant_key)
    env = variant.make_env(render_mode="rgb_array")
    player = make_player("greedy", variant)
    obs, info = env.reset(options={"deal": variant.deal_id(number)})
    player.reset(env)
    pictures = [np.asarray(env.render())]
    done = False
    while not done:
        obs, _, terminated, truncated, info = env.step(player.act(obs, legal_mask(info), info))
        pictures.append(np.asarray(env.render()))
        done = terminated or truncated
    written = []
    for step in (1, len(pictures) // 2):
        path = out / f"{variant_key}-{step}.png"
        Image.fromarray(pictures[step]).save(path)
        written.append(path)
    game = env.unwrapped.game  # type: ignore[attr-defined]  # the game envs' engine
    if alternative is not None:
        report = analyse_played(game)
        if report.losing_move is not None:
            start = game.copy()
            while start.moves_played > report.losing_move.index:
                start.pop()
            path = out / alternative
            variant.picture(start, report.losing_move.alternative[0]).save(path)
            written.append(path)
    env.close()
    return written


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0] if args else "docs/gallery")
    out.mkdir(parents=True, exist_ok=True)
    for variant_key, number, alternative in GAMES:
        for path in frames(variant_key, number, out, alternative):
            print(path)


if __name__ == "__main__":
    main()
