"""Can a network learn which moves lose once the whole Pyramid stock is known? (A diagnostic.)

Once every stock card has been seen, Pyramid is a game of full information: the exact solver
labels every legal move by whether the position after it is winnable, and those labels are
facts about what the player sees, not guesses about hidden cards. Playing them (``--exact-when-seen``
of ``pyramid_relaxed_greedy.py``) wins 591 of Pyramid 000's deals 1..1000 against 537 for
greedy with the relaxation rule. This script asks whether a network fitted to those labels
recovers part of that gap without searching at play time:

1. ``generate``: greedy with the relaxation rule plays training deals (a move at random with
   probability ``--epsilon``, to vary the positions); at every position with the whole stock seen
   and more than one legal move, every legal move's afterstate is encoded and labelled exactly
   (20,000 states a search; a search past its budget labels 0.5).
2. ``fit``: an MLP (three hidden layers, dropout) predicts the label from the afterstate, with a
   tenth of the positions held out; after each epoch it prints the held-out accuracy and, of the
   held-out positions, in how many where greedy's move loses and another wins the network's best
   move wins (``fixed``), and in how many where greedy's move wins the network's best loses
   (``broken``).
3. ``play``: greedy with the relaxation rule, except that with the whole stock seen it plays the
   network's best move when the network rates it more than ``margin`` above greedy's move.

The afterstate encoding: each pyramid position's rank (one-hot, empty if removed) and whether it
is available; each stock-and-waste card in draw order (waste bottom first) with its rank and
whether it lies in the waste; the pass; and, for each pyramid position, which draw-order slots
hold a card that pairs with it (ranks summing to 13), so that the network need not find that
relation itself. Commands (Pyramid 000; the figures are in ``docs/experiments.md``), run in
``benchmarks/diagnostics/``::

    python pyramid_value_net.py generate pyramid --deals 1000000-1014999 --out d0.npz &
    python pyramid_value_net.py generate pyramid --deals 1015000-1029999 --seed 1 --out d1.npz
    python pyramid_value_net.py fit d0.npz d1.npz --out value.pt
    python pyramid_value_net.py play pyramid value.pt --deals 1-300 --margins 0.3,0.6,0.9
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # benchmarks/, for _checkout
import _checkout  # noqa: F401  (stops if another checkout's code would load)
from pyramid_relaxed_greedy import RelaxedGreedy, WhenSeen, known_stock_positions

from solitaire_rl.agents.base import Choice, play_episode
from solitaire_rl.envs.cards import rank
from solitaire_rl.envs.pyramid.actions import ACTION_MOVES
from solitaire_rl.envs.pyramid.game import MAX_PASSES, PyramidGame
from solitaire_rl.envs.pyramid.layout import NUM_PYRAMID
from solitaire_rl.envs.spec import find_game
from solitaire_rl.training.benchmark import parse_deal_numbers

NUM_STOCK = 24
RANKS = 13
SLOT = RANKS + 1
"""Values per pyramid position or draw-order slot: the rank one-hot, then one flag."""
FEATURES = NUM_PYRAMID * SLOT + NUM_STOCK * SLOT + MAX_PASSES + NUM_PYRAMID * NUM_STOCK


def afterstate_features(game: PyramidGame) -> np.ndarray:
    """The encoding described above, of a position whose whole stock is known."""
    x = np.zeros(FEATURES, np.float32)
    pyramid_ranks = np.zeros(NUM_PYRAMID, np.int64)
    for p in range(NUM_PYRAMID):
        if not (game.removed >> p) & 1:
            pyramid_ranks[p] = rank(game.pyramid[p])
            x[p * SLOT + pyramid_ranks[p] - 1] = 1
            x[p * SLOT + RANKS] = game.is_available(p)
    base = NUM_PYRAMID * SLOT
    order = game.stock_order()
    stock_ranks = np.zeros(NUM_STOCK, np.int64)
    for i, card in enumerate(order):
        stock_ranks[i] = rank(card)
        x[base + i * SLOT + stock_ranks[i] - 1] = 1
        x[base + i * SLOT + RANKS] = i < len(game.waste)
    base += NUM_STOCK * SLOT
    x[base + game.pass_number - 1] = 1
    base += MAX_PASSES
    pairs = ((pyramid_ranks[:, None] + stock_ranks[None, :]) == RANKS) & (pyramid_ranks[:, None] > 0)
    pairs &= stock_ranks[None, :] > 0
    x[base:] = pairs.reshape(-1)
    return x


def afterstates(game: PyramidGame, legal: np.ndarray) -> np.ndarray:
    """The features of the position after each of ``legal``."""
    rows = []
    for action in legal:
        after = game.copy()
        after.push(ACTION_MOVES[int(action)])
        rows.append(afterstate_features(after))
    return np.array(rows)


def generate(args: argparse.Namespace) -> None:
    variant = find_game(args.game)
    rng = np.random.default_rng(args.seed)
    features, labels, groups, greedy_pick = [], [], [], []
    group = 0
    positions = known_stock_positions(variant, parse_deal_numbers(args.deals), args.epsilon, rng)
    for _, game, legal, action, values in positions:
        features.append(afterstates(game, legal))
        labels.extend(values)
        groups.extend([group] * len(legal))
        greedy_pick.extend(legal == action)
        group += 1
    np.savez_compressed(args.out, features=np.concatenate(features), labels=np.array(labels, np.float32),
                        groups=np.array(groups), greedy_pick=np.array(greedy_pick))
    print(f"{args.out}: {len(labels)} afterstates of {group} positions")


def make_net(width: int) -> object:
    """The MLP: three hidden layers (``width``, ``width``, ``width // 2``), dropout after the first two."""
    from torch import nn

    return nn.Sequential(nn.Linear(FEATURES, width), nn.ReLU(), nn.Dropout(0.3),
                         nn.Linear(width, width), nn.ReLU(), nn.Dropout(0.3),
                         nn.Linear(width, width // 2), nn.ReLU(), nn.Linear(width // 2, 1))


def fit(args: argparse.Namespace) -> None:
    import torch
    from torch import nn

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.torch_threads)
    data = [np.load(path) for path in args.data]
    x = np.concatenate([d["features"] for d in data])
    y = np.concatenate([d["labels"] for d in data])
    groups = np.concatenate([d["groups"] + k * (1 << 32) for k, d in enumerate(data)])
    greedy_pick = np.concatenate([d["greedy_pick"] for d in data])
    unique = np.unique(groups)
    held_groups = np.random.default_rng(args.seed).choice(unique, len(unique) // 10, replace=False)
    held = np.isin(groups, held_groups)
    x_train, y_train = torch.tensor(x[~held]), torch.tensor(y[~held])
    net = make_net(args.width)
    optimizer = torch.optim.Adam(net.parameters(), 1e-3, weight_decay=1e-5)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, args.epochs)
    loss_fn = nn.BCEWithLogitsLoss()
    print(f"{len(x_train)} afterstates to fit, {int(held.sum())} held out")
    for epoch in range(args.epochs):
        net.train()
        order = torch.randperm(len(x_train))
        total = 0.0
        for start in range(0, len(order), 512):
            batch = order[start:start + 512]
            loss = loss_fn(net(x_train[batch]).squeeze(1), y_train[batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(batch)
        schedule.step()
        net.eval()
        with torch.no_grad():
            p = torch.sigmoid(net(torch.tensor(x[held])).squeeze(1)).numpy()
        fixed, broken = held_out_choices(p, y[held], groups[held], greedy_pick[held])
        accuracy = float(((p > 0.5) == (y[held] > 0.5)).mean())
        print(f"epoch {epoch}: loss {total / len(order):.4f}, held-out accuracy {accuracy:.1%}, "
              f"greedy loses: {fixed[0]} of {fixed[1]} fixed; greedy wins: {broken[0]} of {broken[1]} broken",
              flush=True)
    torch.save(net.state_dict(), args.out)


def held_out_choices(p: np.ndarray, y: np.ndarray, groups: np.ndarray,
                     greedy_pick: np.ndarray) -> tuple[tuple[int, int], tuple[int, int]]:
    """(fixed, positions where greedy loses and another wins), (broken, positions where greedy wins)."""
    fixed = losing = broken = winning = 0
    starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
    for k in range(len(starts)):
        rows = np.arange(starts[k], starts[k + 1] if k + 1 < len(starts) else len(groups))
        greedy = rows[greedy_pick[rows]][0]
        best = rows[np.argmax(p[rows])]
        if y[greedy] == 1:
            winning += 1
            broken += y[best] < 1
        elif y[rows].max() == 1:
            losing += 1
            fixed += y[best] == 1
    return (fixed, losing), (broken, winning)


class ValueWhenSeen(WhenSeen):
    """Greedy with the relaxation rule; with the whole stock seen, the network's move when it
    rates it more than ``margin`` above greedy's."""

    def __init__(self, net: object, margin: float) -> None:
        super().__init__()
        self.net, self.margin = net, margin
        self.name = f"greedy+relaxed, network's move by a margin of {margin}"

    def known(self, game: PyramidGame, observation: np.ndarray, legal: np.ndarray) -> Choice:
        import torch

        greedy = self.best(observation, legal)
        if len(legal) == 1:
            return Choice(greedy, "greedy's move")
        with torch.no_grad():
            p = torch.sigmoid(self.net(torch.tensor(afterstates(game, legal))).squeeze(1)).numpy()
        best = int(np.argmax(p))
        if p[best] - p[list(legal).index(greedy)] > self.margin:
            return Choice(int(legal[best]), "the network's move")
        return Choice(greedy, "greedy's move")


def play(args: argparse.Namespace) -> None:
    import torch

    torch.set_num_threads(1)
    net = make_net(args.width)
    net.load_state_dict(torch.load(args.net))
    net.eval()
    variant = find_game(args.game)
    env = variant.make_env()
    numbers = parse_deal_numbers(args.deals)
    players = [RelaxedGreedy()] + [ValueWhenSeen(net, float(m)) for m in args.margins.split(",")]
    for player in players:
        wins = sum(play_episode(env, player, variant.deal_id(n), variant.cards_cleared).won for n in numbers)
        print(f"{variant.key} {player.name}: {wins} of {len(numbers)} deals won", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    g = commands.add_parser("generate", help="label afterstates of training deals")
    g.add_argument("game", help="pyramid (000) or pyramid-001")
    g.add_argument("--deals", required=True, help="training deal numbers, e.g. 1000000-1014999")
    g.add_argument("--epsilon", type=float, default=0.1, help="chance of a random move")
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--out", required=True, help="an .npz file")
    f = commands.add_parser("fit", help="fit the network")
    f.add_argument("data", nargs="+", help=".npz files from generate")
    f.add_argument("--out", required=True, help="the network's weights (.pt)")
    f.add_argument("--epochs", type=int, default=6)
    f.add_argument("--width", type=int, default=512)
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--torch-threads", type=int, default=2)
    p = commands.add_parser("play", help="play benchmark deals with the network's overrides")
    p.add_argument("game")
    p.add_argument("net", help="weights from fit")
    p.add_argument("--deals", default="1-300")
    p.add_argument("--margins", default="0.3,0.6,0.9", help="comma-separated margins to try")
    p.add_argument("--width", type=int, default=512, help="as given to fit")
    args = parser.parse_args()
    {"generate": generate, "fit": fit, "play": play}[args.command](args)


if __name__ == "__main__":
    main()
