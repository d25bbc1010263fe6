"""Imitate ``world-bandit``: a network fitted to every move of its self-play games.

``python -m solitaire_rl.training.world_bandit_imitation DATA [DATA ...] --out CHECKPOINT`` reads
world-label run folders (:mod:`solitaire_rl.training.world_labels`), replays each game's whole move
list (``game_line``) and keeps every position with more than one legal move: the observation, the
legal mask and the bot's move (at a commitment the planner's choice, between two the line its plan
chose). It then fits :class:`solitaire_rl.agents.expert.network.PolicyValueNet` with the expert
network's fit (:func:`solitaire_rl.training.expert_fit.fit`: games split into fit and validation,
suit renamings with ``--augment``, the epoch with the lowest validation loss kept).
``--commitment-weight`` weighs the positions where the bot decided at a commitment (the labelled
rows: the decisions that matter, where a plain fit agrees with the bot least) above the moves of
its plan's line between them.

The value target (``--value``): ``outcome``, the game's end as the bot played it; or ``world``,
the world score (share of K sampled worlds won by a capped search) of the last labelled commitment
at or before the position, a denser target (the game's end before the first one). The checkpoint
is an expert-network checkpoint whose record says it was fitted to ``world-bandit`` (``teacher``),
with the CPU hours of the self-play data and of the fit; ``expert-net`` plays it (``--expert-checkpoint``
in the benchmark), :mod:`solitaire_rl.agents.expert.sampled` samples its moves. What it reached:
docs/learned-klondike.md.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

import numpy as np

from solitaire_rl.agents.expert.checkpoint import build_expert_metadata, save_network
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.envs.klondike.actions import move_of
from solitaire_rl.envs.spec import GameSpec, find_game
from solitaire_rl.training.expert_fit import FitData, add_fit_arguments, fit_from_arguments
from solitaire_rl.training.world_labels import WorldLabels, load, read_manifest

TEACHER = "world-bandit"
"""What a checkpoint's record names as the player it imitates (``training.teacher``)."""
VALUE_TARGETS = ("outcome", "world")


def positions(labels: WorldLabels, variant: GameSpec, value: str = "world",
              commitment_weight: float = 1.0) -> FitData:
    """Every position of every game in ``labels`` with more than one legal move, the bot's move as
    the policy target and ``value`` as the value target (see the module docstring). The policy
    target of a position where the bot decided at a commitment (a labelled row) weighs
    ``commitment_weight`` (the fit's cross-entropy is a mean over rows of ``target * log p``).

    Each labelled row's observation is checked against the replay (``MalformedInputError`` if the
    data were made by other rules)."""
    if value not in VALUE_TARGETS:
        raise MalformedInputError(f"--value is one of {', '.join(VALUE_TARGETS)}, not {value!r}")
    if not commitment_weight > 0:
        raise MalformedInputError(f"--commitment-weight must be positive, not {commitment_weight!r}")
    if labels.config.variant != variant.key:
        raise MalformedInputError(f"the world labels are {labels.config.variant}'s, not {variant.key}'s")
    a = labels.arrays
    share = labels.share
    offsets = a["game_line_offsets"]
    observations: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    actions: list[int] = []
    won: list[float] = []
    games: list[int] = []
    labelled: list[bool] = []
    bounds = np.searchsorted(a["game"], np.arange(labels.games + 1))  # rows are in game order
    for g in range(labels.games):
        deal, outcome = int(a["game_deal"][g]), float(a["game_won"][g])
        rows = {int(a["ply"][r]): r for r in range(bounds[g], bounds[g + 1])}
        game = variant.new_game(variant.deal_id(deal))
        assert isinstance(game, KlondikeGame)  # world labels are Klondike's (LabelConfig.check)
        current = outcome
        for ply, action in enumerate(a["game_line"][offsets[g]:offsets[g + 1]].tolist()):
            observation = variant.observe(game)
            row = rows.get(ply)
            if row is not None:
                if not np.array_equal(observation, a["obs"][row]):
                    raise MalformedInputError(f"deal {deal} ply {ply}: the replay does not show the labelled "
                                              "row's observation (data made by other rules)")
                current = float(share[row]) if value == "world" else outcome
            mask = variant.legal_mask(game).astype(bool)
            if not mask[action]:
                raise MalformedInputError(f"deal {deal} ply {ply}: the recorded move {action} is not legal")
            if mask.sum() > 1:
                observations.append(observation.astype(np.uint8))
                masks.append(mask)
                actions.append(action)
                won.append(current)
                games.append(g)
                labelled.append(row is not None)
            game.push(move_of(game, action))
    count = len(actions)
    target = np.zeros((count, variant.num_actions), np.float32)
    labelled_rows = np.asarray(labelled, bool)
    target[np.arange(count), actions] = np.where(labelled_rows, commitment_weight, 1.0)
    game_index = np.asarray(games, np.int64)
    progress = (a["game_cards_cleared"][game_index] / variant.max_cleared).astype(np.float32)
    return FitData(np.stack(observations), np.stack(masks), target, np.asarray(won, np.float32), progress,
                   game_index, labelled_rows)


def data_cpu_hours(folders: Sequence[Path]) -> float:
    """CPU hours the runs' manifests record for making their shards (the bot and the labels)."""
    total = 0.0
    for folder in folders:
        manifest = read_manifest(Path(folder))
        if manifest is None:
            raise MalformedInputError(f"{folder} holds no world-label run")
        total += sum(float(entry.get("cpu_seconds") or 0.0) for entry in manifest["shards"].values())
    return total / 3600


def load_all(folders: Sequence[Path]) -> WorldLabels:
    """One run folder's labels, refusing several (their game indices would collide)."""
    if len(folders) != 1:
        raise MalformedInputError("give one world-label run folder (resume it to grow it)")
    return load(Path(folders[0]))


def main(argv: Sequence[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(prog="python -m solitaire_rl.training.world_bandit_imitation",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("data", nargs="+", type=Path, help="a world-label run folder")
    parser.add_argument("--variant", default="klondike-draw3")
    parser.add_argument("--out", type=Path, required=True, help="checkpoint to write (.zip)")
    parser.add_argument("--value", choices=VALUE_TARGETS, default="world", help="the value head's target")
    parser.add_argument("--commitment-weight", type=float, default=1.0,
                        help="weight of the policy target where the bot decided at a commitment")
    add_fit_arguments(parser)
    args = parser.parse_args(argv)
    variant = find_game(args.variant)
    start = time.process_time()
    labels = load_all(args.data)
    fit_data = positions(labels, variant, args.value, args.commitment_weight)
    replay_hours = (time.process_time() - start) / 3600
    self_play_hours = data_cpu_hours(args.data)
    print(f"{labels.games} games, {len(fit_data.won)} positions to fit "
          f"({self_play_hours:.2f} CPU hours of self-play, {replay_hours * 3600:.0f} s of replay)")
    net, figures = fit_from_arguments(fit_data, variant, args)
    arch = figures.pop("architecture")
    a = labels.arrays
    words = sys.argv[1:] if argv is None else list(argv)
    training = {"command": "python -m solitaire_rl.training.world_bandit_imitation " + shlex.join(words),
                "teacher": TEACHER, "world_label_config": asdict(labels.config), "games": labels.games,
                "positions": len(fit_data.won), "wins": int(a["game_won"].sum()),
                "deals": [int(a["game_deal"].min()), int(a["game_deal"].max())],
                "selfplay_cpu_hours": self_play_hours, "replay_cpu_hours": replay_hours,
                "value_target": args.value, "commitment_weight": args.commitment_weight,
                "augment": args.augment, "epochs": args.epochs, "lr": args.lr,
                "value_weight": args.value_weight, "init": str(args.init) if args.init else None,
                "validation": figures}
    path = save_network(args.out, net.state_dict(), build_expert_metadata(variant, arch, training))
    result = {"checkpoint": str(path), **figures}
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
