"""Play fixed deals with several agents and compare them.

    python -m solitaire_rl.training.benchmark pyramid --deals 1-1000 --agents random,greedy,ppo,solver
    python -m solitaire_rl.training.benchmark pyramid-001 --deals 1-200 --json results.json --plot results.png
    python -m solitaire_rl.training.benchmark klondike --deal-type winnable --deals 1-200 --agents
    greedy,solver

Every agent plays every deal ``{game}-random-v1-N`` (``--deal-type winnable``:
``{game}-winnable-v1-N``, deals the solver proved winnable, :mod:`solitaire_rl.agents.solver.winnable` and
:mod:`solitaire_rl.agents.solver.klondike_winnable`) once, across ``--workers`` processes. Each
(agent, deal) makes one row (deal ID, outcome, cards cleared, steps, seconds; the solver's verdict
and states searched for the solver; the moves played, and what the analysis of the game found
(:mod:`solitaire_rl.agents.analysis`): the first move after which the deal could no longer be won); the table
is computed from the rows only:

* **win rate** with its 95% Wilson score interval;
* **mean cards cleared**: pyramid cards removed (of 28), or Klondike cards on foundations (of 52);
* **wins on solver-winnable**: wins among the deals the ``solver`` agent proved winnable (needs
  ``solver`` among the agents);
* **time per deal**: mean wall time of playing one deal (the solver's search included).

``--ray ADDRESS`` plays the (agent, deal) pairs as tasks on a Ray cluster instead (``auto``: the one
this machine runs, else a new local one; ``HOST:PORT``: a running cluster; the ``ray`` extra), with a
progress bar: the same rows, table, JSON and plot. A ``--checkpoint`` file travels to the workers
through Ray's object store; a pair that fails there is reported in the notes (exit status 1). See
``docs/ray.md``.

``--json FILE`` (``-`` for standard output) writes the rows and the table; ``--plot FILE.png``
draws win rates with their intervals and mean cards cleared (matplotlib). An agent that cannot
play here (``ppo`` without a checkpoint for the variant, ``solver`` without a solver for the game)
is left out with a note saying why. Benchmark deals are numbers 1..100,000, which training never
deals (:mod:`solitaire_rl.training.splits`).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import statistics
import sys
import tempfile
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Literal

import tyro

from solitaire_rl.agents.analysis import analyse_played
from solitaire_rl.agents.base import Player, play_episode
from solitaire_rl.agents.registry import AGENT_NAMES, make_player, unavailable_reason
from solitaire_rl.agents.seeding import reseed
from solitaire_rl.agents.solver.limits import SearchLimits
from solitaire_rl.agents.solver.stats import wilson_interval
from solitaire_rl.agents.variants import Variant, find_variant
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.training.splits import TRAIN, parse_deal_numbers, split_of


@dataclass
class Args:
    """Play fixed deals with several agents and print a comparison table."""

    game: Annotated[str, tyro.conf.Positional, tyro.conf.arg(metavar="GAME")]
    """Game or variant: pyramid (= pyramid-000), pyramid-001, klondike (= klondike-draw3)."""
    variant: str | None = None
    """Variant of GAME, if not in its name: 000 or 001 for pyramid, draw3 for klondike."""
    deals: str = "1-1000"
    """Deal numbers: ranges and single numbers, comma-separated (1-1000, or 1-10,42)."""
    deal_type: Literal["random", "winnable"] = "random"
    """Deal N is ``{game}-random-v1-N`` or ``{game}-winnable-v1-N`` (proved winnable by the solver)."""
    agents: str = "random,greedy,ppo,solver"
    """Agents to compare, comma-separated, from random, greedy, ppo, solver and the planners pimc
    (Pyramid), hop and ismcts (Klondike); expert-net (the expert-iteration network alone) and
    guided-ismcts and guided-pimc (ismcts and pimc whose ties go to that network)."""
    checkpoint: Path | None = None
    """Checkpoint for the ppo agent (default: the shipped one of the variant)."""
    expert_checkpoint: Path | None = None
    """Expert network for the expert-net, guided-ismcts and guided-pimc agents (default: the shipped one)."""
    ppo_sample: bool = False
    """The ppo agent samples its moves from the policy (deal N seeded with (seed, N)) instead of
    playing the most probable one: a deterministic policy can cycle where sampling gets out.
    With neither this nor ``--ppo-argmax``, the checkpoint decides: it samples when training chose
    it by sampled evaluation (the shipped Klondike agent), else it plays the most probable move."""
    ppo_argmax: bool = False
    """The ppo agent plays the most probable move, whatever the checkpoint was chosen by."""
    solver_time_limit: float = 10.0
    """Seconds the solver may spend on one deal; past it the deal counts as unknown."""
    workers: int = os.cpu_count() or 1
    """Processes playing deals in parallel (1: play in this process)."""
    ray: str | None = None
    """Play on a Ray cluster instead of --workers: auto (this machine's, else a new local one) or
    HOST:PORT of a running one (needs the ray extra; see docs/ray.md)."""
    stock_known: bool = False
    """Klondike: the planners (hop, ismcts, guided-ismcts) see the stock's order, face-down cards
    still hidden: the setting of lonelybot and OpenSpiel's solitaire. Their rows say ``stock known``."""
    planner_option: tuple[str, ...] = ()
    """Settings of the planners (pimc, hop, ismcts) as KEY=VALUE, repeatable: keyword arguments of
    the planner's class, e.g. ``--planner-option tree_iterations=400`` (numbers read as numbers)."""
    seed: int = 0
    """Seed of the random agent (deal N uses the seed pair (seed, N), whatever the worker)."""
    analyse: bool = True
    """Analyse every game with the exact solver: each row's first losing move (``--no-analyse``: skip)."""
    analysis_states: int = 200_000
    """States each search of the analysis may visit (past it a position is unknown, never lost)."""
    analysis_time_budget: float = 10.0
    """Seconds all the analysis's searches of one game may take together."""
    json: str | None = None
    """Write the rows and the table as JSON to this file (- for standard output)."""
    rows: Path | None = None
    """Append each row to this JSON Lines file as soon as its deal is played, and play only the
    deals not in it yet: a stopped run resumes with the same command (the file's first line
    records the command, and another command's file is refused). The table covers every row."""
    plot: Path | None = None
    """Draw a PNG chart comparing the agents to this file."""


@dataclass(frozen=True)
class Row:
    """One agent's play of one deal."""

    agent: str
    deal_id: str
    deal_number: int
    outcome: str
    won: bool
    cards_cleared: int
    steps: int
    seconds: float
    verdict: str | None = None
    """The solver's verdict (winnable / not_winnable / unknown); ``None`` for other agents."""
    states: int | None = None
    """States the solver searched."""
    moves: list[str] | None = None
    """The moves the agent played, in their text forms (``python -m solitaire_rl.training.analyse`` and the
    play page's viewer replay them)."""
    analysis: str | None = None
    """What the analysis of the game found (:mod:`solitaire_rl.agents.analysis`): ``won``, ``lost_at_move``,
    ``never_winnable``, ``still_winnable`` or ``undecided``; ``None`` when not analysed."""
    first_losing_move: int | None = None
    """0-based index of the first move after which the deal could no longer be won (with
    ``analysis == "lost_at_move"``), else ``None``."""
    setting: str | None = None
    """What the agent saw (:func:`information_setting`; ``None`` in rows from before it was kept:
    the agent's usual setting)."""


@dataclass(frozen=True)
class Summary:
    """One agent's line of the table, computed from its rows."""

    agent: str
    deals: int
    wins: int
    win_rate: float
    ci_low: float
    ci_high: float
    mean_cleared: float
    solver_winnable: int | None
    """Deals among these the solver proved winnable (``None`` without solver rows)."""
    wins_on_winnable: int | None
    mean_seconds: float
    seconds_per_move: float
    """All the agent's time over all its moves (searches included)."""
    setting: str = "hidden cards"
    """What the agent sees: ``hidden cards`` (what a player sees) or ``thoughtful`` (the solver
    reads every card: an upper bound)."""


# --------------------------------------------------------------------------- playing (workers)
_PLAYERS: dict[tuple[str, str, tuple[tuple[str, Any], ...]], Player] = {}


def _worker_init() -> None:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)


def _player(agent: str, variant: Variant, deal_number: int, options: dict[str, Any]) -> Player:
    if agent == "random":  # a fresh generator per deal: results do not depend on the worker
        return make_player("random", variant, seed=[options.get("seed", 0), deal_number])
    kwargs = {k: v for k, v in options.items() if k in {"ppo": ("checkpoint",), "solver": ("time_limit",)}
              .get(agent, ())}
    if agent in EXPERT_AGENTS:
        kwargs["checkpoint"] = options.get("expert_checkpoint")
    if agent in PLANNERS:
        kwargs.update(options.get("planner", {}))
    if agent == "ppo":
        kwargs["deterministic"] = options.get("ppo_deterministic")
    key = (agent, variant.key, tuple(sorted(kwargs.items())))  # one player per set of options
    if key not in _PLAYERS:
        _PLAYERS[key] = make_player(agent, variant, **kwargs)  # ppo: one torch thread (PpoPlayer sets it)
    player = _PLAYERS[key]
    if (agent == "ppo" and not player.deterministic) or agent in PLANNERS:  # type: ignore[attr-defined]
        # per-deal samples, whatever the worker
        reseed(player, [options.get("seed", 0), deal_number])
    return player


def play_deal(variant_key: str, options: dict[str, Any], task: tuple[str, int]) -> Row:
    """Play deal number ``task[1]`` with agent ``task[0]``: one row."""
    agent, number = task
    variant = find_variant(variant_key)
    player = _player(agent, variant, number, options)
    env = _ENVS.get(variant.key)
    if env is None:
        env = _ENVS[variant.key] = variant.make_env()
    deal_type = options.get("deal_type", "random")
    deal_id = variant.deal_id(number) if deal_type == "random" else f"{variant.game}-{deal_type}-v1-{number}"
    result = play_episode(env, player, deal_id, variant.cards_cleared)
    verdict = states = None
    if agent == "solver":
        verdict, states = player.result.status, int(player.result.states)  # type: ignore[attr-defined]
    game = env.unwrapped.game  # type: ignore[union-attr]  # the game envs' engine
    moves = [str(m) for m in game.history]
    analysis = first_losing = None
    if options.get("analyse"):
        report = analyse_played(game, judge=False, time_budget=options.get("analysis_time_budget", 10.0),
                                limits=SearchLimits(time_limit=options.get("analysis_time_budget", 10.0),
                                                    max_states=options.get("analysis_states", 200_000)))
        analysis, first_losing = report.outcome, report.first_losing_move
    return Row(agent, result.deal_id, number, result.outcome, result.won, result.cards_cleared,
               result.steps, result.seconds, verdict, states, moves, analysis, first_losing,
               information_setting(agent, bool(options.get("planner", {}).get("stock_known"))))


_ENVS: dict[str, Any] = {}


def play_all(variant: Variant, agents: Sequence[str], numbers: Sequence[int], workers: int,
             options: dict[str, Any], played: Callable[[Row], None] | None = None,
             skip: Collection[tuple[str, int]] = ()) -> list[Row]:
    """Every agent on every deal but the ``(agent, deal)`` pairs in ``skip``, in agent then deal
    order; ``played`` is called with each row as soon as it is played (in the order they finish)."""
    tasks = [(agent, number) for agent in agents for number in numbers if (agent, number) not in skip]
    run = partial(play_deal, variant.key, options)
    done = played or (lambda row: None)
    rows: dict[tuple[str, int], Row] = {}
    if workers <= 1:
        for task in tasks:
            rows[task] = run(task)
            done(rows[task])
    else:
        with ProcessPoolExecutor(workers, initializer=_worker_init) as pool:
            futures = {pool.submit(run, task): task for task in tasks}
            for future in as_completed(futures):
                rows[futures[future]] = future.result()
                done(rows[futures[future]])
    return [rows[task] for task in tasks]


ROWS_FORMAT = "solitaire-rl benchmark rows v1"


def read_rows(path: Path, command: str) -> list[Row]:
    """The rows an earlier run of ``command`` appended to ``path`` (none if the file is absent);
    a file written by another command, or not a rows file, is refused. A last line cut off by a
    stopped run is dropped."""
    if not path.exists():
        return []
    lines = path.read_text().splitlines()
    try:
        head = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError:
        head = None
    if not isinstance(head, dict) or head.get("format") != ROWS_FORMAT:
        raise MalformedInputError(f"{path} is not a benchmark rows file (its first line should say "
                                  f"{ROWS_FORMAT!r})")
    if head.get("command") != command:
        raise MalformedInputError(f"{path} holds the rows of another command ({head.get('command')!r}), "
                                  f"not {command!r}: give another --rows file")
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            rows.append(Row(**json.loads(line)))
        except (json.JSONDecodeError, TypeError) as exc:
            if number == len(lines):  # the write a stopped run cut off
                break
            raise MalformedInputError(f"{path}, line {number}: not a row ({exc})") from None
    return rows


def append_rows(path: Path, command: str) -> Callable[[Row], None]:
    """A function that appends one row (a JSON line) to ``path``, starting the file if needed."""
    text = path.read_text() if path.exists() else ""
    if not text.strip():
        path.write_text(json.dumps({"format": ROWS_FORMAT, "command": command}) + "\n")
    elif not text.endswith("\n"):  # a line cut off by a stopped run: drop it
        path.write_text(text[: text.rfind("\n") + 1])

    def append(row: Row) -> None:
        with path.open("a") as out:
            out.write(json.dumps(asdict(row)) + "\n")
    return append


# ------------------------------------------------------------------------ playing on Ray
_SHIPPED: dict[str, Path] = {}


CHECKPOINT_OPTIONS = ("checkpoint", "expert_checkpoint")


def ship_checkpoint(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with the ``--checkpoint`` and ``--expert-checkpoint`` files' bytes in place of
    their paths: a cluster's other machines do not have the files (the shipped checkpoints come
    with the installed package)."""
    for key in CHECKPOINT_OPTIONS:
        if options.get(key) is not None:
            path = Path(options[key])
            data = path.read_bytes()
            shipped = (hashlib.sha256(data).hexdigest(), path.suffix, data)
            options = options | {key: None, f"{key}_file": shipped}
    return options


def play_shipped_deal(variant_key: str, options: dict[str, Any], task: tuple[str, int]) -> Row:
    """:func:`play_deal` on a cluster worker: a shipped checkpoint is written once per machine."""
    for key in CHECKPOINT_OPTIONS:
        if f"{key}_file" not in options:
            continue
        digest, suffix, data = options[f"{key}_file"]
        if digest not in _SHIPPED:
            folder = Path(tempfile.gettempdir()) / "solitaire-rl-checkpoints"
            folder.mkdir(exist_ok=True)
            target = folder / f"{digest[:32]}{suffix}"
            if not target.is_file():
                partial_file = folder / f"{digest[:32]}.{os.getpid()}.part"
                partial_file.write_bytes(data)
                partial_file.replace(target)
            _SHIPPED[digest] = target
        options = {k: v for k, v in options.items() if k != f"{key}_file"}
        options[key] = _SHIPPED[digest]
    return play_deal(variant_key, options, task)


def play_all_on_ray(variant: Variant, agents: Sequence[str], numbers: Sequence[int], address: str,
                    options: dict[str, Any]) -> tuple[list[Row], list[str]]:
    """Every agent on every deal as tasks on the Ray cluster at ``address``: the rows in agent then
    deal order (as :func:`play_all`), and a note for each pair that failed there."""
    from solitaire_rl.agents.distributed import Failed, connect, fan_out

    try:
        connect(address)
    except (ConnectionError, ValueError) as exc:
        raise MalformedInputError(f"cannot join the Ray cluster {address!r}: {exc}") from None
    tasks = [(agent, number) for agent in agents for number in numbers]
    rows: list[Row | None] = [None] * len(tasks)
    failures = []
    for index, result in fan_out(partial(play_shipped_deal, variant.key, ship_checkpoint(options)), tasks):
        if isinstance(result, Failed):
            failures.append(f"failed: {tasks[index][0]} on deal {tasks[index][1]}: {result.error}")
        else:
            rows[index] = result
    return [r for r in rows if r is not None], failures


# ------------------------------------------------------------------------------- the table
def summarize(rows: Sequence[Row]) -> list[Summary]:
    """The table: one :class:`Summary` per agent, in the order the agents first appear."""
    proven = {r.deal_number for r in rows if r.agent == "solver" and r.verdict == "winnable"}
    have_solver = any(r.agent == "solver" for r in rows)
    out = []
    for agent in dict.fromkeys(r.agent for r in rows):
        mine = [r for r in rows if r.agent == agent]
        wins = sum(r.won for r in mine)
        low, high = wilson_interval(wins, len(mine))
        winnable = [r for r in mine if r.deal_number in proven]
        out.append(Summary(
            agent=agent, deals=len(mine), wins=wins, win_rate=wins / len(mine), ci_low=low, ci_high=high,
            mean_cleared=statistics.fmean(r.cards_cleared for r in mine),
            solver_winnable=len(winnable) if have_solver else None,
            wins_on_winnable=sum(r.won for r in winnable) if have_solver else None,
            mean_seconds=statistics.fmean(r.seconds for r in mine),
            seconds_per_move=sum(r.seconds for r in mine) / max(1, sum(r.steps for r in mine)),
            setting=mine[0].setting or information_setting(agent),
        ))
    return out


def information_setting(agent: str, stock_known: bool = False) -> str:
    """What ``agent`` sees of the deal (every row and figure states it): ``thoughtful`` (the
    solver reads every card), ``stock known`` (a Klondike planner under ``--stock-known``) or
    ``hidden cards`` (what a player sees)."""
    if agent == "solver":
        return "thoughtful"
    return "stock known" if stock_known and agent in KLONDIKE_PLANNERS else "hidden cards"


def format_time(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def format_table(summaries: Sequence[Summary], variant: Variant) -> str:
    """A Markdown table of the summaries."""
    head = ("| agent | sees | deals | wins | win rate (95% CI) | mean cards cleared "
            "| wins on solver-winnable | time per deal | time per move |")
    lines = [head, "|---|---|---:|---:|---|---:|---:|---:|---:|"]
    for s in summaries:
        if s.solver_winnable is None:
            on_winnable = "n/a (no solver)"
        elif s.solver_winnable == 0:
            on_winnable = "0/0"
        else:
            wins = s.wins_on_winnable or 0  # counted whenever the solver played
            on_winnable = f"{wins}/{s.solver_winnable} ({wins / s.solver_winnable:.1%})"
        lines.append(
            f"| {s.agent} | {s.setting} | {s.deals} | {s.wins} "
            f"| {s.win_rate:.1%} ({s.ci_low:.1%}–{s.ci_high:.1%}) "
            f"| {s.mean_cleared:.2f} / {variant.max_cleared} | {on_winnable} "
            f"| {format_time(s.mean_seconds)} | {format_time(s.seconds_per_move)} |"
        )
    return "\n".join(lines)


def command_line(args: Args) -> str:
    """The command that reproduces these rows (output options left out)."""
    parts = ["python -m solitaire_rl.training.benchmark", args.game]
    if args.variant is not None:
        parts += ["--variant", args.variant]
    parts += ["--deals", args.deals, "--agents", args.agents]
    if args.deal_type != "random":
        parts += ["--deal-type", args.deal_type]
    if args.checkpoint is not None:
        parts += ["--checkpoint", str(args.checkpoint)]
    if args.expert_checkpoint is not None:
        parts += ["--expert-checkpoint", str(args.expert_checkpoint)]
    if args.ppo_sample:
        parts.append("--ppo-sample")
    if args.ppo_argmax:
        parts.append("--ppo-argmax")
    if args.stock_known:
        parts.append("--stock-known")
    for setting in args.planner_option:
        parts += ["--planner-option", setting]
    parts += ["--solver-time-limit", f"{args.solver_time_limit:g}", "--seed", str(args.seed)]
    if not args.analyse:
        parts.append("--no-analyse")
    return " ".join(parts)


def to_json(args: Args, variant: Variant, rows: Sequence[Row], summaries: Sequence[Summary],
            notes: Sequence[str]) -> dict[str, Any]:
    return {
        "command": command_line(args),
        "variant": variant.key, "deals": args.deals, "deal_type": args.deal_type, "notes": list(notes),
        "table": [asdict(s) for s in summaries], "rows": [asdict(r) for r in rows],
    }


def plot(summaries: Sequence[Summary], variant: Variant, deals: str, path: Path) -> None:
    """Two panels: win rate with its 95% interval, and mean cards cleared, per agent."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [s.agent for s in summaries]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    rates = [100 * s.win_rate for s in summaries]
    errors = [[100 * (s.win_rate - s.ci_low) for s in summaries],
              [100 * (s.ci_high - s.win_rate) for s in summaries]]
    left.bar(names, rates, yerr=errors, capsize=6, color="tab:blue")
    left.set_ylabel("win rate, % (95% Wilson interval)")
    left.set_ylim(0, 100)
    right.bar(names, [s.mean_cleared for s in summaries], color="tab:green")
    right.set_ylabel(f"mean cards cleared (of {variant.max_cleared})")
    right.set_ylim(0, variant.max_cleared)
    fig.suptitle(f"{variant.key}, deals {deals}")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)


# ------------------------------------------------------------------------------------ main
PLANNERS = ("pimc", "hop", "ismcts", "guided-ismcts", "guided-pimc")
KLONDIKE_PLANNERS = ("hop", "ismcts", "guided-ismcts")
EXPERT_AGENTS = ("expert-net", "guided-ismcts", "guided-pimc")
"""Agents that play an expert network (``--expert-checkpoint``)."""


def planner_settings(settings: Sequence[str]) -> dict[str, Any]:
    """``KEY=VALUE`` settings as keyword arguments: ints, floats, ``none``/``true``/``false``, else text."""
    out: dict[str, Any] = {}
    for setting in settings:
        key, sep, text = setting.partition("=")
        if not sep or not key.isidentifier():
            raise MalformedInputError(f"--planner-option {setting!r}: give KEY=VALUE (tree_iterations=400)")
        value: Any = {"none": None, "true": True, "false": False}.get(text.lower(), text)
        if isinstance(value, str):
            for kind in (int, float):
                try:
                    value = kind(text)
                    break
                except ValueError:
                    pass
        out[key] = value
    return out


def main(args: Args) -> tuple[list[Row], list[Summary], list[str]]:
    """Run the benchmark; print the table (and notes); write JSON and plot if asked."""
    variant = find_variant(args.game, args.variant)
    if args.ppo_sample and args.ppo_argmax:
        raise MalformedInputError("--ppo-sample and --ppo-argmax contradict each other: give one at most")
    numbers = parse_deal_numbers(args.deals)
    requested = [a.strip() for a in args.agents.split(",") if a.strip()]
    unknown = [a for a in requested if a not in AGENT_NAMES]
    if unknown or not requested:
        raise MalformedInputError(f"unknown agent(s) {unknown}: choose from {', '.join(AGENT_NAMES)}")
    notes, agents = [], []
    for agent in dict.fromkeys(requested):
        checkpoint = (args.checkpoint if agent == "ppo"
                      else args.expert_checkpoint if agent in EXPERT_AGENTS else None)
        reason = unavailable_reason(agent, variant, checkpoint)
        if reason is None:
            agents.append(agent)
        else:
            notes.append(f"{agent}: left out: {reason}")
    if not agents:
        raise MalformedInputError("no agent can play here: " + "; ".join(notes))
    in_training = sum(split_of(n) == TRAIN.name for n in numbers) if args.deal_type == "random" else 0
    if in_training:
        notes.append(f"{in_training} of the deals are training deals (numbers {TRAIN.first}..): not held out")
    planner = planner_settings(args.planner_option)
    if args.stock_known:
        if variant.game != "klondike":
            raise MalformedInputError("--stock-known is a Klondike setting: Pyramid hides only its stock, "
                                      "so seeing it is the solver's thoughtful setting")
        planner["stock_known"] = True
    for agent in agents:
        if agent in PLANNERS and planner:
            try:  # an unknown setting stops here, before any deal is played
                extra = {"checkpoint": args.expert_checkpoint} if agent in EXPERT_AGENTS else {}
                make_player(agent, variant, **planner, **extra)
            except TypeError as exc:
                raise MalformedInputError(f"--planner-option does not fit {agent}: {exc}") from None
    options = {"seed": args.seed, "checkpoint": args.checkpoint, "planner": planner,
               "deal_type": args.deal_type,
               "expert_checkpoint": args.expert_checkpoint,
               "time_limit": args.solver_time_limit,
               "analyse": args.analyse, "analysis_states": args.analysis_states,
               "analysis_time_budget": args.analysis_time_budget,
               "ppo_deterministic": False if args.ppo_sample else True if args.ppo_argmax else None}
    if args.ray and args.rows is not None:
        raise MalformedInputError("--rows resumes a run on this machine's workers: not with --ray")
    if args.ray:
        if importlib.util.find_spec("ray") is None:
            raise MalformedInputError("--ray needs Ray: pip install -e '.[ray]'")
        rows, failures = play_all_on_ray(variant, agents, numbers, args.ray, options)
        notes += failures
        where = f"on the Ray cluster {args.ray}"
    else:
        earlier: list[Row] = []
        played = None
        if args.rows is not None:
            wanted = set(numbers)
            earlier = [r for r in read_rows(args.rows, command_line(args))
                       if r.agent in agents and r.deal_number in wanted]
            played = append_rows(args.rows, command_line(args))
        seen = {(r.agent, r.deal_number) for r in earlier}
        new = play_all(variant, agents, numbers, args.workers, options, played, seen)
        by_task = {(r.agent, r.deal_number): r for r in [*earlier, *new]}
        rows = [by_task[(a, n)] for a in agents for n in numbers]
        where = f"{args.workers} workers" + (f", {len(earlier)} rows from {args.rows}" if earlier else "")
    summaries = summarize(rows)
    to_stdout = args.json == "-"
    out = sys.stderr if to_stdout else sys.stdout
    print(f"{variant.key}, {args.deal_type} deals {args.deals} ({len(numbers)} deals), {where}", file=out)
    print(format_table(summaries, variant), file=out)
    for note in notes:
        print(f"note: {note}", file=out)
    if args.json is not None:
        text = json.dumps(to_json(args, variant, rows, summaries, notes), indent=1)
        if to_stdout:
            print(text)
        else:
            Path(args.json).write_text(text + "\n")
    if args.plot is not None:
        plot(summaries, variant, args.deals, args.plot)
    return rows, summaries, notes


def cli(argv: Sequence[str] | None = None) -> None:
    args = tyro.cli(Args, args=argv, prog="python -m solitaire_rl.training.benchmark")
    try:
        _, _, notes = main(args)
    except MalformedInputError as exc:
        raise SystemExit(f"error: {exc}") from None
    if any(note.startswith("failed: ") for note in notes):
        raise SystemExit(1)


if __name__ == "__main__":
    cli()
