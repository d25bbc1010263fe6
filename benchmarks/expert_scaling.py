"""How the expert network's play grows with the compute behind it: win rate against CPU hours.

Each checkpoint (:mod:`solitaire_rl.training.expert_fit`) records the CPU hours of its self-play and of its
fit. This script plays each one alone (the ``expert-net`` agent of :mod:`solitaire_rl.training.benchmark`,
one implementation of play) on the same tuning deals, adds a row per checkpoint to a JSON file
(a checkpoint already there, by the SHA-256 of its file, is not played again, so the file grows
run by run), and draws the rows as win rate (with its 95% interval) against CPU hours, with the
``ppo`` checkpoint played on the same deals as the line to beat.

    python benchmarks/expert_scaling.py CKPT [CKPT ...] --label "r0 1,810 games" ...
        --deals 100001-100200 --json benchmarks/results/expert/klondike-scaling.json
        --plot docs/expert-klondike-scaling.png

Use tuning deals (eval split, 100,001..110,000): these figures choose what ships.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _checkout  # noqa: F401  (stops if another checkout's code would load)

from solitaire_rl.agents.expert.checkpoint import read_expert_metadata
from solitaire_rl.agents.solver.stats import wilson_interval
from solitaire_rl.envs.spec import find_game
from solitaire_rl.training.benchmark import AgentEntry, PlayOptions, play_all, tasks_of
from solitaire_rl.training.splits import parse_deal_numbers


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def measure(variant_key: str, agent: str, numbers: list[int], workers: int,
            checkpoint: Path | None) -> tuple[int, int]:
    """Wins and games of ``agent`` on deals ``numbers``."""
    entry = AgentEntry(agent, agent, None if checkpoint is None else str(checkpoint), seeded=False)
    options = PlayOptions(find_game(variant_key).key, agents=(entry,), analyse=False)
    rows = play_all(options, tasks_of(options, numbers), workers)
    return sum(row.won for row in rows), len(rows)


def plot(record: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    points = sorted(record["networks"], key=lambda p: p["cpu_hours"])
    fig, ax = plt.subplots(figsize=(7.0, 4.0))
    markers = "osD^vP*X"
    for k, p in enumerate(points):  # one legend entry a network: labels never overlap
        low, high = p["interval"]
        ax.errorbar(p["cpu_hours"] + 0.01 * k, 100 * p["win_rate"],
                    yerr=[[100 * (p["win_rate"] - low)], [100 * (high - p["win_rate"])]],
                    fmt=markers[k % len(markers)], capsize=3,
                    label=f"{p['label']}: {p['wins']}/{p['deals_played']}")
    if "ppo" in record:
        ax.axhline(100 * record["ppo"]["win_rate"], color="tab:red", linestyle="--", linewidth=1,
                   label=f"ppo checkpoint: {record['ppo']['wins']}/{record['ppo']['games']}")
    ax.legend(loc="upper left", fontsize=7)
    ax.set_xlabel("CPU hours (self-play + fit)")
    ax.set_ylabel(f"win rate, % ({record['deals']}, hidden cards)")
    ax.set_title(f"{record['variant']}: the expert network alone", fontsize=10)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("checkpoints", nargs="*", type=Path)
    parser.add_argument("--label", action="append", default=[], help="one per checkpoint, in order")
    parser.add_argument("--variant", default="klondike-draw3")
    parser.add_argument("--deals", default="100001-100200")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", type=Path, required=True)
    parser.add_argument("--plot", type=Path)
    args = parser.parse_args(argv)
    if args.label and len(args.label) != len(args.checkpoints):
        parser.error("give one --label per checkpoint")
    numbers = parse_deal_numbers(args.deals)
    record: dict[str, Any] = {"variant": args.variant, "deals": args.deals, "networks": []}
    if args.json.is_file():
        record = json.loads(args.json.read_text())
        if (record["variant"], record["deals"]) != (args.variant, args.deals):
            parser.error(f"{args.json} holds {record['variant']} on deals {record['deals']}")
    if "ppo" not in record:
        wins, games = measure(args.variant, "ppo", numbers, args.workers, None)
        record["ppo"] = {"wins": wins, "games": games, "win_rate": wins / games}
    known = {p["sha256"] for p in record["networks"]}
    for k, path in enumerate(args.checkpoints):
        sha = digest(path)
        if sha in known:
            continue
        training = read_expert_metadata(path)["training"]
        wins, games = measure(args.variant, "expert-net", numbers, args.workers, path)
        cpu = float(training.get("selfplay_cpu_hours", 0.0)) + float(
            training.get("validation", {}).get("fit_cpu_hours", 0.0))
        record["networks"].append({
            "label": args.label[k] if args.label else path.stem, "checkpoint": str(path), "sha256": sha,
            "games": training.get("games"), "cpu_hours": round(cpu, 3), "command": training.get("command"),
            "wins": wins, "deals_played": games, "win_rate": wins / games,
            "interval": list(wilson_interval(wins, games))})
        print(f"{record['networks'][-1]['label']}: {wins}/{games} ({100 * wins / games:.1f}%), "
              f"{cpu:.2f} CPU hours")
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(record, indent=1) + "\n")  # kept after each checkpoint
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(record, indent=1) + "\n")
    if args.plot:
        plot(record, args.plot)


if __name__ == "__main__":
    main()
