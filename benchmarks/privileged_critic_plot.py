"""Win rate against CPU hours of every network tried for issue 53's privileged critic.

Reads ``benchmarks/results/privileged_critic/networks.json`` (one entry per network: its game, name,
the CPU hours of its fitting (``cpu_hours``) and of the data made for it (``data_cpu_hours``: world
labels, the teacher's self-play), its wins on the eval deals it played and its kind: a PPO with a
plain or privileged critic, or a network fitted to ``world-bandit``'s moves) and draws one panel per
game: each network's win rate on its eval deals with its 95% Wilson interval against the CPU hours of
data and fitting, failures included, the starting ``ppo`` as a line::

    python benchmarks/privileged_critic_plot.py                     # -> docs/privileged-critic.png
    python benchmarks/privileged_critic_plot.py --json FILE --plot OUT.png
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _checkout  # noqa: F401  (stops if another checkout's code would load)

from solitaire_rl.agents.solver.stats import wilson_interval

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_JSON = ROOT / "benchmarks" / "results" / "privileged_critic" / "networks.json"
DEFAULT_PLOT = ROOT / "docs" / "privileged-critic.png"
STYLE = {"plain": ("tab:blue", "o"), "privileged": ("tab:red", "s"),
         "privileged + world labels": ("tab:purple", "D"), "imitation of world-bandit": ("tab:green", "^")}


def cpu_hours(network: dict[str, Any]) -> float:
    """The CPU hours of a network's data and fitting."""
    return float(network["cpu_hours"]) + float(network.get("data_cpu_hours", 0.0))


def draw(networks: list[dict[str, Any]], out: Path) -> None:
    """One panel per game (in the order first met), saved to ``out``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games = list(dict.fromkeys(n["game"] for n in networks))
    fig, axes = plt.subplots(1, len(games), figsize=(6.2 * len(games), 4.6), squeeze=False)
    for ax, game in zip(axes[0], games, strict=True):
        mine = [n for n in networks if n["game"] == game]
        for i, n in enumerate(mine):
            rate = n["wins"] / n["deals"]
            low, high = wilson_interval(n["wins"], n["deals"])
            if n["kind"] == "start":
                ax.axhspan(low, high, color="grey", alpha=0.15)
                ax.axhline(rate, color="grey", linestyle="--", label=f"{n['name']} (start) {rate:.1%}")
                continue
            color, marker = STYLE[n["kind"]]
            ax.errorbar(cpu_hours(n), rate, yerr=[[rate - low], [high - rate]], color=color, marker=marker,
                        capsize=3, linestyle="none")
            offset = n.get("label_offset", (6, 14 if i % 2 else -24))  # points, where labels would meet
            leader = {"arrowstyle": "-", "color": "grey", "lw": 0.5} if "label_offset" in n else None
            ax.annotate(f"{n['name']}\n{rate:.1%} of {n['deals']}", (cpu_hours(n), rate),
                        textcoords="offset points", xytext=tuple(offset), fontsize=7, arrowprops=leader)
        for kind, (color, marker) in STYLE.items():
            if any(n["kind"] == kind for n in mine):
                ax.plot([], [], color=color, marker=marker, linestyle="none", label=kind)
        first = min(int(n["deal_range"].split("-")[0]) for n in mine)
        last = max(int(n["deal_range"].split("-")[1]) for n in mine)
        ax.set_title(f"{game}: eval deals {first}-{last} (or the first N played)", fontsize=10)
        ax.set_xlabel("CPU hours of own data + fitting (fine-tunes start at ppo)")
        ax.set_ylabel("win rate (95% interval)")
        ax.set_xlim(0, 1.35 * max(cpu_hours(n) for n in mine))
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="the networks file")
    parser.add_argument("--plot", type=Path, default=DEFAULT_PLOT, help="the image to write")
    args = parser.parse_args(argv)
    networks = json.loads(args.json.read_text())["networks"]
    draw(networks, args.plot)
    print(f"{len(networks)} networks -> {args.plot}")


if __name__ == "__main__":
    main()
