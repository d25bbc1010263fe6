"""The benchmark's output from its rows: the Markdown tables (runs, aggregates over runs, paired
tests), the JSON document and the plot."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solitaire_rl.envs.spec import GameSpec
from solitaire_rl.training.benchmark_options import PlayOptions
from solitaire_rl.training.benchmark_rows import Row, Summary, several_seeds, summarize
from solitaire_rl.training.benchmark_stats import Aggregate, PairedTest, aggregate, paired_tests, runs_of

if TYPE_CHECKING:
    from matplotlib.figure import Figure

UPPER_BOUND = "thoughtful"
"""The setting of an agent that reads every card (the solver): drawn as an upper bound, not an agent."""


def format_time(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def format_table(summaries: Sequence[Summary], variant: GameSpec) -> str:
    """A Markdown table of the summaries (a ``seed`` column where an agent played several seeds)."""
    seeded = len({(s.agent, s.seed) for s in summaries}) > len({s.agent for s in summaries})
    head = ("| agent |" + (" seed |" if seeded else "") + " sees | deals | wins | win rate (95% CI) "
            "| mean cards cleared | wins on solver-winnable | time per deal | time per move |")
    lines = [head, "|---|" + ("---:|" if seeded else "") + "---|---:|---:|---|---:|---:|---:|---:|"]
    for s in summaries:
        if s.solver_winnable is None:
            on_winnable = "n/a (no solver)"
        elif s.solver_winnable == 0:
            on_winnable = "0/0"
        else:
            wins = s.wins_on_winnable or 0  # counted whenever the solver played
            on_winnable = f"{wins}/{s.solver_winnable} ({wins / s.solver_winnable:.1%})"
        seed = (" - |" if s.seed is None else f" {s.seed} |") if seeded else ""
        lines.append(
            f"| {s.agent} |{seed} {s.setting} | {s.deals} | {s.wins} "
            f"| {s.win_rate:.1%} ({s.ci_low:.1%}–{s.ci_high:.1%}) "
            f"| {s.mean_cleared:.2f} / {variant.max_cleared} | {on_winnable} "
            f"| {format_time(s.mean_seconds)} | {format_time(s.seconds_per_move)} |"
        )
    return "\n".join(lines)


def format_pairs(tests: Sequence[PairedTest]) -> str:
    """A Markdown table of the paired tests."""
    lines = ["| A | B | deals | A won, B lost | B won, A lost | both won | p (exact McNemar) | p (Holm) |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for t in tests:
        lines.append(f"| {t.first} | {t.second} | {t.deals} | {t.first_only} | {t.second_only} "
                     f"| {t.both_won} | {format_p(t.p_value)} | {format_p(t.p_holm)} |")
    return "\n".join(lines)


def format_p(p: float) -> str:
    return "<0.0001" if p < 1e-4 else f"{p:.4f}"


def format_aggregates(aggregates: Sequence[Aggregate]) -> str:
    """A Markdown table of the aggregates over runs."""
    lines = ["| agent | sees | runs | deals per run | mean win rate (95% CI) | IQM win rate (95% CI) "
             "| each run |", "|---|---|---:|---:|---|---|---|"]
    for a in aggregates:
        each = ", ".join(f"{r:.1%}" for r in a.run_rates)
        lines.append(f"| {a.agent} | {a.setting} | {a.runs} | {a.deals} | {a.mean:.1%} ({a.mean_low:.1%}–"
                     f"{a.mean_high:.1%}) | {a.iqm:.1%} ({a.iqm_low:.1%}–{a.iqm_high:.1%}) | {each} |")
    return "\n".join(lines)


def groups_of(rows: Sequence[Row], options: PlayOptions | None = None) -> dict[str, list[str]]:
    """The aggregates to compute: every agent that played several seeds, and every set of
    checkpoints of one agent (``options``' entry groups): group name -> its agents."""
    seeds: dict[str, set[int | None]] = {}
    for r in rows:
        seeds.setdefault(r.agent, set()).add(r.seed)
    groups = {agent: [agent] for agent, s in seeds.items() if len(s) > 1}
    for entry in options.agents if options else ():
        if entry.group is not None and entry.name in seeds:
            groups.setdefault(entry.group, []).append(entry.name)
    return groups


def aggregates(rows: Sequence[Row], groups: Mapping[str, Sequence[str]]) -> list[Aggregate]:
    """One :class:`Aggregate` per group, over the runs (agent, seed) of its agents."""
    runs = runs_of(rows)
    settings = {r.agent: r.setting or "hidden cards" for r in rows}
    return [aggregate(name, [won for (agent, _), won in runs.items() if agent in members],
                      settings[members[0]]) for name, members in groups.items()]


def report(rows: Sequence[Row], options: PlayOptions | None = None) -> dict[str, Any]:
    """The tables of ``rows``: runs (``table``), aggregates over runs and paired tests, as JSON values."""
    return {
        "table": [asdict(s) for s in summarize(rows)],
        "aggregates": [asdict(a) for a in aggregates(rows, groups_of(rows, options))],
        "paired": [asdict(t) for t in paired_tests(rows, several_seeds(rows))],
    }


def format_report(rows: Sequence[Row], variant: GameSpec, options: PlayOptions | None = None) -> str:
    """The printed tables: the runs, the aggregates (where several runs make one), the paired tests."""
    parts = [format_table(summarize(rows), variant)]
    groups = aggregates(rows, groups_of(rows, options))
    if groups:
        parts += ["", "Over runs (mean and interquartile mean of the runs' win rates; 95% intervals from a "
                  "bootstrap over runs and deals):", "", format_aggregates(groups)]
    tests = paired_tests(rows, several_seeds(rows))
    if tests:
        parts += ["", "Paired on the same deals (wins each way; exact two-sided McNemar p, and Holm-adjusted "
                  "over these pairs):", "", format_pairs(tests)]
    return "\n".join(parts)


# ------------------------------------------------------------------------------------ the plot
def draw(summaries: Sequence[Summary], variant: GameSpec, deals: str) -> Figure:
    """Two panels, win rate with its 95% interval and mean cards cleared, one bar per run; an agent
    that reads every card (the solver) is a dashed line labelled as the upper bound, not a bar."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    agents = [s for s in summaries if s.setting != UPPER_BOUND]
    bounds = [s for s in summaries if s.setting == UPPER_BOUND]
    several = len({(s.agent, s.seed) for s in summaries}) > len({s.agent for s in summaries})
    names = [f"{s.agent}\nseed {s.seed}" if several and s.seed is not None else s.agent for s in agents]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.4))
    rates = [100 * s.win_rate for s in agents]
    errors = [[100 * (s.win_rate - s.ci_low) for s in agents],
              [100 * (s.ci_high - s.win_rate) for s in agents]]
    left.bar(names, rates, yerr=errors, capsize=6, color="tab:blue")
    left.set_ylabel("win rate, % (95% Wilson interval)")
    left.set_ylim(0, 100)
    right.bar(names, [s.mean_cleared for s in agents], color="tab:green")
    right.set_ylabel(f"mean cards cleared (of {variant.max_cleared})")
    right.set_ylim(0, variant.max_cleared)
    for bound in bounds:
        label = f"{bound.agent} (sees every card): upper bound"
        left.axhline(100 * bound.win_rate, color="black", linestyle="--", label=label)
        left.axhspan(100 * bound.ci_low, 100 * bound.ci_high, color="grey", alpha=0.2)
        right.axhline(bound.mean_cleared, color="black", linestyle="--", label=label)
    if bounds:
        left.legend(loc="upper right", fontsize="small")
        right.legend(loc="upper right", fontsize="small")
    fig.suptitle(f"{variant.key}, deals {deals}")
    fig.tight_layout()
    return fig


def plot(summaries: Sequence[Summary], variant: GameSpec, deals: str, path: Path) -> None:
    """:func:`draw` saved as a PNG to ``path``."""
    import matplotlib.pyplot as plt

    fig = draw(summaries, variant, deals)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)


__all__ = ["UPPER_BOUND", "aggregates", "draw", "format_aggregates", "format_pairs", "format_report",
           "format_table", "format_time", "groups_of", "plot", "report"]
