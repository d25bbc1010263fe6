"""Ship a run's policy: its best held-out checkpoint, without optimizer state.

    python -m solitaire_rl.training.ship runs/<run> solitaire_rl/agents/checkpoints/pyramid-000.zip

A run keeps ``best.zip`` (the best held-out win rate seen by the periodic evaluation) and
``final.zip``. The shipped agent is the better of the two by that held-out win rate (the final
one when no evaluation ran or on a tie), saved without Adam's moments (a third of the size).
``--checkpoint NAME`` ships that file of the run instead (``best.zip`` of a run stopped before
its end, which leaves no ``final.zip``)::

    python -m solitaire_rl.training.ship runs/<run> solitaire_rl/agents/checkpoints/klondike-draw3.zip
    --checkpoint best.zip
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from solitaire_rl.agents.ppo import (
    PRIVILEGED_KEY,
    CheckpointError,
    load_model,
    read_metadata,
    save_checkpoint,
)
from solitaire_rl.envs.spec import find_game


def held_out_win_rate(path: Path) -> float:
    """The held-out win rate a checkpoint's metadata records (-1 when none was measured)."""
    rate = read_metadata(path).get("training", {}).get("eval_win_rate")
    return -1.0 if rate is None else float(rate)


def choose_checkpoint(run_dir: Path) -> Path:
    """``best.zip`` if its held-out win rate beats ``final.zip``'s, else ``final.zip``."""
    final, best = run_dir / "final.zip", run_dir / "best.zip"
    if not final.is_file():
        raise CheckpointError(f"{run_dir} has no final.zip: the run did not finish")
    if best.is_file() and held_out_win_rate(best) > held_out_win_rate(final):
        return best
    return final


def ship(run_dir: Path, destination: Path, checkpoint: str | None = None) -> Path:
    """Save the chosen checkpoint of ``run_dir`` (or its file ``checkpoint``) to ``destination``
    without optimizer state."""
    source = choose_checkpoint(run_dir) if checkpoint is None else run_dir / checkpoint
    if not source.is_file():
        raise CheckpointError(f"{run_dir} has no checkpoint {checkpoint}")
    metadata = read_metadata(source)
    model, _ = load_model(source, find_game(metadata["variant"]), privileged=PRIVILEGED_KEY in metadata)
    record = {key: value for key, value in metadata.items() if key != "optimizer_state"}
    record["training"] = {**record.get("training", {}), "shipped_from": source.name}
    return save_checkpoint(model, destination, record, optimizer_state=False)


def main(argv: Sequence[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(
        prog="python -m solitaire_rl.training.ship", description=__doc__.splitlines()[0]
    )
    parser.add_argument("run_dir", type=Path, help="the run's folder (runs/<name>)")
    parser.add_argument("destination", type=Path,
                        help="where to save, e.g. solitaire_rl/agents/checkpoints/pyramid-000.zip")
    parser.add_argument("--checkpoint", help="ship this file of the run (e.g. best.zip) instead of choosing")
    args = parser.parse_args(argv)
    try:
        path = ship(args.run_dir, args.destination, args.checkpoint)
    except CheckpointError as exc:
        raise SystemExit(f"error: {exc}") from None
    print(f"shipped {read_metadata(path)['training']['shipped_from']} of {args.run_dir} -> {path}")
    return path


if __name__ == "__main__":
    main()
