"""Fit the expert network to self-play data: the policy to the search's moves, the value to outcomes.

``python -m solitaire_rl.training.expert_fit DATA [DATA ...] --variant klondike-draw3 --out CHECKPOINT`` reads
the shards of one or more self-play runs (:mod:`solitaire_rl.training.selfplay`) and fits
:class:`solitaire_rl.agents.expert.network.PolicyValueNet`:

* policy: cross-entropy to the teacher's move, mixed (``--soft``) with the share of samples whose
  winning line starts with each move; decisions with one legal move teach nothing and are left out;
* suit symmetries (``--augment``, Klondike): each batch is renamed by one of the eight colour-keeping
  suit renamings (:mod:`solitaire_rl.envs.klondike.symmetry`), eight games learnt for each one played;
* value: the game's real end (won or not, under hidden cards), and the share of cards it ended
  with up, both as logistic losses.

Games, not positions, are split into fit and validation (``--val-games``), so that no position of
a validation game is fitted. The checkpoint records the data, the CPU hours of making it and of
the fit, the command, and the validation figures (move agreement with the teacher, value loss).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from solitaire_rl.agents.expert.checkpoint import build_expert_metadata, expert_encoding, save_network
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.spec import GameSpec, find_game
from solitaire_rl.training.selfplay import SelfPlayData, load


@dataclass
class FitData:
    """Decisions (observations and masks, encoded batch by batch) and their targets."""

    observations: np.ndarray
    masks: np.ndarray
    target: np.ndarray
    """Per row, the policy target over every action (sums to 1)."""
    won: np.ndarray
    progress: np.ndarray
    game: np.ndarray
    searched: np.ndarray


def unpack_masks(data: SelfPlayData, num_actions: int) -> np.ndarray:
    return np.unpackbits(data.arrays["mask"], axis=1)[:, :num_actions].astype(bool)


SOFT_SOURCES = ("first", "won")
"""What ``--soft`` mixes in: the samples' first-move votes, or a sharpened share of the samples each
move wins in hindsight (``softmax(sharpness * won / samples)``)."""


def build(data: SelfPlayData, variant: GameSpec, soft: float = 0.0, soft_source: str = "first",
          sharpness: float = 16.0) -> FitData:
    """Encode every decision with more than one legal move, with its targets."""
    if soft_source not in SOFT_SOURCES:
        raise MalformedInputError(f"--soft-source is one of {', '.join(SOFT_SOURCES)}, not {soft_source!r}")
    a = data.arrays
    masks = unpack_masks(data, variant.num_actions)
    keep = np.flatnonzero(masks.sum(axis=1) > 1)
    obs = a["obs"][keep]
    target = np.zeros((keep.size, variant.num_actions), np.float32)
    target[np.arange(keep.size), a["action"][keep]] = 1.0 - soft
    searched = a["samples"][keep] > 0
    if soft:
        offsets = a["offsets"]
        for row, k in enumerate(keep):
            lo, hi = offsets[k], offsets[k + 1]
            if soft_source == "won" and hi > lo and a["samples"][k] > 0:
                won_share = a["cand_won"][lo:hi].astype(np.float64) / a["samples"][k]
                votes = np.exp(sharpness * (won_share - won_share.max()))
            else:
                votes = a["cand_first"][lo:hi].astype(np.float64)
            if hi > lo and votes.sum() > 0:
                target[row, a["cand_action"][lo:hi]] += soft * votes / votes.sum()
            else:
                target[row, a["action"][k]] += soft
    game = a["game"][keep]
    won = a["won"][game].astype(np.float32)
    progress = (a["cards_up"][game] / variant.max_cleared).astype(np.float32)
    return FitData(obs, masks[keep], target, won, progress, game, searched)


class Batches:
    """Encodes rows of :class:`FitData` for the network, renamed by a suit symmetry when asked
    (Klondike: :mod:`solitaire_rl.envs.klondike.symmetry`, eight games for each one played)."""

    def __init__(self, fit_data: FitData, variant: GameSpec, augment: bool) -> None:
        if augment and not variant.suit_symmetries:
            raise MalformedInputError(f"--augment renames suits by the rules' symmetries, which "
                                      f"{variant.title} does not use: a Klondike option")
        self.data, self.variant, self.augment = fit_data, variant, augment
        self.encoding = expert_encoding(variant)

    def rows(self, index: np.ndarray, sigma: tuple[int, ...] | None = None
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Encoded inputs, masks and policy targets of rows ``index``."""
        obs, masks, target = self.data.observations[index], self.data.masks[index], self.data.target[index]
        obs = obs.astype(self.variant.obs_dtype, copy=False)  # Klondike's are stored as bytes
        if sigma is not None:
            obs, (masks, target) = self.variant.rename_suits(obs, (masks, target), sigma)
        return self.encoding.encode_batch(obs, masks).astype(np.float32), masks, target


def fit(fit_data: FitData, variant: GameSpec, *, epochs: int = 8, batch_size: int = 512, lr: float = 1e-3,
        val_games: float = 0.1, arch_sizes: tuple[int, int, int] = (256, 256, 256), seed: int = 0,
        threads: int = 2, augment: bool = False, value_weight: float = 0.5,
        init: Path | None = None, log: Any = print) -> tuple[Any, dict[str, Any]]:
    """The fitted network and its validation figures.

    The policy's weights are those of the epoch with the lowest validation policy loss, the value
    heads' those of the lowest value loss. ``init``: start from a ``ppo`` checkpoint's move scorer
    and critic (same encoding and sizes), the policy reinforcement learning found."""
    import torch
    from torch.nn import functional as F

    from solitaire_rl.agents.expert.network import Architecture, PolicyValueNet

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    encoding = expert_encoding(variant)
    layout = encoding.policy_kwargs() if encoding.policy_kwargs else {}
    arch = Architecture(int(layout["flat_size"]), int(layout["slots"]), int(layout["slot_width"]),  # type: ignore[call-overload]
                        variant.num_actions, *arch_sizes)
    net = PolicyValueNet(arch)
    if init is not None:
        load_ppo_body(net, init, variant)
    games = np.unique(fit_data.game)
    rng = np.random.default_rng(seed)
    val_set = set(rng.choice(games, size=max(1, int(len(games) * val_games)), replace=False).tolist())
    is_val = np.asarray([g in val_set for g in fit_data.game.tolist()])
    train_rows, val_rows = np.flatnonzero(~is_val), np.flatnonzero(is_val)
    if train_rows.size == 0:
        raise MalformedInputError("no decision left to fit: give more self-play games")
    batches = Batches(fit_data, variant, augment)
    won, progress_target = torch.as_tensor(fit_data.won), torch.as_tensor(fit_data.progress)
    optimizer = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * ((train_rows.size + batch_size - 1) // batch_size)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=lr, total_steps=max(steps, 1))

    def losses(rows: np.ndarray, sigma: tuple[int, ...] | None = None
               ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        inputs, masks_np, target_np = batches.rows(rows, sigma)
        masks, target = torch.as_tensor(masks_np), torch.as_tensor(target_np)
        logits, value, progress = net(torch.as_tensor(inputs), masks)
        log_probs = torch.log_softmax(logits, dim=1).masked_fill(~masks, 0.0)
        policy = -(target * log_probs).sum(dim=1).mean()
        index = torch.as_tensor(rows)
        value_loss = F.binary_cross_entropy_with_logits(value, won[index])
        progress_loss = F.binary_cross_entropy_with_logits(progress, progress_target[index])
        agree = (logits.argmax(dim=1) == target.argmax(dim=1)).float().mean()
        return policy, value_loss, progress_loss, agree

    def validate() -> dict[str, float]:
        net.eval()
        totals = np.zeros(4)
        with torch.no_grad():
            for i in range(0, val_rows.size, 4096):
                part = val_rows[i:i + 4096]
                totals += np.asarray([float(x) for x in losses(part)]) * part.size
        net.train()
        names = ("policy_loss", "value_loss", "progress_loss", "agreement")
        return {n: float(t / max(val_rows.size, 1)) for n, t in zip(names, totals, strict=True)}

    start = time.process_time()
    # The policy (context and scorer) and the value (critic and heads) share no weight: each keeps
    # the epoch where its own validation loss was lowest (the value over-fits within an epoch or two).
    best: dict[str, tuple[float, int, dict[str, Any]]] = {"policy": (float("inf"), 0, {}),
                                                           "value": (float("inf"), 0, {})}
    for epoch in range(epochs):
        order = rng.permutation(train_rows)
        for i in range(0, order.size, batch_size):
            symmetries = variant.suit_symmetries
            sigma = symmetries[int(rng.integers(len(symmetries)))] if augment else None
            policy, value_loss, progress_loss, _ = losses(order[i:i + batch_size], sigma)
            loss = policy + value_weight * (value_loss + progress_loss)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
        figures = validate()
        log(f"epoch {epoch + 1}/{epochs}: " + ", ".join(f"{k} {v:.4f}" for k, v in figures.items()))
        for part, score in (("policy", figures["policy_loss"]),
                            ("value", figures["value_loss"] + figures["progress_loss"])):
            if score < best[part][0]:
                state = {k: v.detach().clone() for k, v in net.state_dict().items() if _part_of(k) == part}
                best[part] = (score, epoch + 1, state)
    net.load_state_dict(best["policy"][2] | best["value"][2])
    figures = validate() | {"policy_epoch": best["policy"][1], "value_epoch": best["value"][1],
                            "fit_rows": int(train_rows.size), "val_rows": int(val_rows.size),
                            "fit_cpu_hours": (time.process_time() - start) / 3600}
    return net, figures | {"architecture": arch.as_dict()}


def _part_of(name: str) -> str:
    """``policy`` or ``value``: which output a weight of :class:`PolicyValueNet` serves."""
    return "value" if name.startswith(("body.critic.", "heads.")) else "policy"


def load_ppo_body(net: Any, path: Path, variant: GameSpec) -> None:
    """Copy a ``ppo`` checkpoint's :class:`ActionScorer` weights into ``net``'s body.

    The checkpoint must read this network's encoding with the same sizes (``--sizes`` as its
    ``net_arch``); the two value heads stay as initialised (ppo's critic rates discounted
    reward, not the chance of a win)."""
    import io
    import zipfile

    import torch

    from solitaire_rl.agents.ppo import check_metadata, read_metadata

    encoding = check_metadata(read_metadata(path), variant, source=f"--init {path}")
    if encoding.name != expert_encoding(variant).name:
        raise MalformedInputError(f"--init {path} reads {encoding.name}, the expert network "
                                  f"{expert_encoding(variant).name}")
    with zipfile.ZipFile(path) as archive:
        state = torch.load(io.BytesIO(archive.read("policy.pth")), map_location="cpu", weights_only=True)
    body = {k.removeprefix("mlp_extractor."): v for k, v in state.items() if k.startswith("mlp_extractor.")}
    try:
        net.body.load_state_dict(body)
    except RuntimeError as exc:
        raise MalformedInputError(f"--init {path}: its network does not fit --sizes: {exc}") from None


def add_fit_arguments(parser: argparse.ArgumentParser) -> None:
    """The fit's options, shared by the commands that fit an expert network (this one and
    :mod:`solitaire_rl.training.world_bandit_imitation`); :func:`fit_from_arguments` reads them."""
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch-size", type=int, default=512)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--sizes", default="256,256,256", help="context,hidden,value_hidden")
    parser.add_argument("--augment", action="store_true",
                        help="Klondike: each batch renamed by one of the eight suit symmetries")
    parser.add_argument("--value-weight", type=float, default=0.5, help="weight of the value losses")
    parser.add_argument("--init", type=Path, help="start from this ppo checkpoint's weights (same sizes)")
    parser.add_argument("--val-games", type=float, default=0.1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)


def fit_from_arguments(data: FitData, variant: GameSpec, args: argparse.Namespace
                       ) -> tuple[Any, dict[str, Any]]:
    """:func:`fit` with the options of :func:`add_fit_arguments` (``--sizes`` checked first)."""
    parts = [int(s) for s in args.sizes.split(",")]
    if len(parts) != 3:
        raise MalformedInputError(f"--sizes is context,hidden,value_hidden, not {args.sizes}")
    return fit(data, variant, epochs=args.epochs, batch_size=args.batch_size, lr=args.lr,
               val_games=args.val_games, arch_sizes=(parts[0], parts[1], parts[2]), seed=args.seed,
               threads=args.threads, augment=args.augment, value_weight=args.value_weight, init=args.init)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m solitaire_rl.training.expert_fit", description=__doc__.split("\n")[0]
    )
    parser.add_argument("data", nargs="+", type=Path, help="self-play run folders")
    parser.add_argument("--variant", default="klondike-draw3")
    parser.add_argument("--out", type=Path, required=True, help="checkpoint to write (.zip)")
    parser.add_argument("--soft", type=float, default=0.0, help="weight of the samples' first-move votes")
    parser.add_argument("--soft-source", choices=SOFT_SOURCES, default="first",
                        help="first: the first-move votes; won: each move's hindsight wins, sharpened")
    parser.add_argument("--sharpness", type=float, default=16.0, help="--soft-source won: softmax sharpness")
    add_fit_arguments(parser)
    args = parser.parse_args(argv)
    variant = find_game(args.variant)
    data = load(args.data)
    fit_data = build(data, variant, args.soft, args.soft_source, args.sharpness)
    print(f"{data.games} games, {len(data)} decisions, {len(fit_data.won)} to fit "
          f"({data.cpu_hours:.2f} CPU hours of self-play)")
    net, figures = fit_from_arguments(fit_data, variant, args)
    arch = figures.pop("architecture")
    runs = [json.loads((Path(d) / "run.json").read_text()) for d in args.data]
    words = sys.argv[1:] if argv is None else list(argv)
    training = {"command": "python -m solitaire_rl.training.expert_fit " + shlex.join(words),
                "selfplay_runs": runs, "games": data.games, "decisions": len(data),
                "selfplay_cpu_hours": data.cpu_hours, "wins": int(data.arrays["won"].sum()),
                "deals": [int(data.arrays["deal"].min()), int(data.arrays["deal"].max())],
                "soft": args.soft, "soft_source": args.soft_source, "sharpness": args.sharpness,
                "augment": args.augment, "epochs": args.epochs, "lr": args.lr,
                "value_weight": args.value_weight, "init": str(args.init) if args.init else None,
                "validation": figures}
    path = save_network(args.out, net.state_dict(), build_expert_metadata(variant, arch, training))
    print(json.dumps({"checkpoint": str(path), **figures}))


if __name__ == "__main__":
    main()
