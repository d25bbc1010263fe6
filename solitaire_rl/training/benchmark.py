"""Play fixed deals with several agents and compare them.

    python -m solitaire_rl.training.benchmark pyramid --deals 1-1000 --agents random,greedy,ppo,solver
    python -m solitaire_rl.training.benchmark pyramid-001 --deals 1-200 --json results.json --plot results.png
    python -m solitaire_rl.training.benchmark klondike --deal-type winnable --deals 1-200 --agents
    greedy,solver

Every agent plays every deal ``{game}-random-v1-N`` (``--deal-type winnable``:
``{game}-winnable-v1-N``, deals the solver proved winnable) once per seed (``--seeds``; an agent
that draws no random numbers plays once), across ``--workers`` processes. Each (agent, deal, seed)
makes one row (:class:`~solitaire_rl.training.benchmark_rows.Row`: outcome, cards cleared, steps,
seconds, the moves, the solver's verdict, what the analysis of the game found); every table is
computed from the rows only (:mod:`solitaire_rl.training.benchmark_report`):

* one line per run: **win rate** with its 95% Wilson score interval, **mean cards cleared**,
  **wins on solver-winnable** (with ``solver`` among the agents), **time per deal and per move**;
* **over runs** (an agent with several seeds, or several checkpoints of one agent): the mean and
  the interquartile mean of the runs' win rates with bootstrap intervals
  (:mod:`solitaire_rl.training.benchmark_stats`);
* **paired tests** between every two runs on the same deals: wins each way and the exact McNemar
  p-value.

Agents are registry names, ``MODULE:FACTORY`` (a player from outside the package,
:mod:`solitaire_rl.agents.outside`; ``NAME=MODULE:FACTORY`` names its row), and ``ppo`` or the
expert agents with several ``--checkpoint`` files (one row each, named for its file). The workers
take one frozen :class:`~solitaire_rl.training.benchmark_options.PlayOptions`; ``--rows`` starts its
file with it and refuses to resume with other options. ``--json`` adds the provenance (commit,
versions, date) and the options (checkpoint digests, how ``ppo`` moves) to the rows and tables.

``--ray ADDRESS`` plays the tasks on a Ray cluster instead (``docs/ray.md``): the same rows and
tables; a ``--checkpoint`` file travels to the workers through Ray's object store.

An agent that cannot play here (``ppo`` without a checkpoint for the variant, ``solver`` without a
solver for the game) is left out with a note saying why. Benchmark deals are numbers 1..100,000,
which training never deals (:mod:`solitaire_rl.training.splits`).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import sys
import tempfile
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import MISSING, asdict, dataclass, fields, replace
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Literal, TypeAlias

import tyro

from solitaire_rl.agents.analysis import analyse_played
from solitaire_rl.agents.base import Player, play_episode
from solitaire_rl.agents.outside import default_name, is_outside, make_outside_player
from solitaire_rl.agents.registry import AGENT_NAMES, AGENTS, make_player, unavailable_reason
from solitaire_rl.agents.seeding import Reseedable, reseed
from solitaire_rl.agents.solver.limits import SearchLimits
from solitaire_rl.envs.errors import MalformedInputError, SolitaireError
from solitaire_rl.envs.spec import GameSpec, find_game
from solitaire_rl.training.benchmark_options import (
    CHECKPOINT_AGENTS,
    DETERMINISTIC_AGENTS,
    EXPERT_AGENTS,
    PPO_AGENTS,
    AgentEntry,
    PlayOptions,
    file_names,
    parse_seeds,
    sha256_of,
    split_paths,
)
from solitaire_rl.training.benchmark_report import format_report, format_table, plot, report
from solitaire_rl.training.benchmark_rows import (
    KLONDIKE_PLANNERS,
    ROWS_FORMAT,
    Row,
    Summary,
    append_rows,
    information_setting,
    read_rows,
    summarize,
)
from solitaire_rl.training.provenance import provenance
from solitaire_rl.training.splits import TRAIN, parse_deal_numbers, split_of

PROG = "python -m solitaire_rl.training.benchmark"


@dataclass
class Args:
    """Play fixed deals with several agents and print a comparison table."""

    game: Annotated[str, tyro.conf.Positional, tyro.conf.arg(metavar="GAME")]
    """Game or variant: pyramid (= pyramid-000), pyramid-001, klondike (= klondike-draw3), klondike-draw1
    (no agent is trained on it: the planners and the solver play it)."""
    variant: str | None = None
    """Variant of GAME, if not in its name: 000 or 001 for pyramid, draw3 or draw1 for klondike."""
    deals: str = "1-1000"
    """Deal numbers: ranges and single numbers, comma-separated (1-1000, or 1-10,42)."""
    deal_type: Literal["random", "winnable"] = "random"
    """Deal N is ``{game}-random-v1-N`` or ``{game}-winnable-v1-N`` (proved winnable by the solver)."""
    agents: str = "random,greedy,ppo,solver"
    """Agents to compare, comma-separated, from random, greedy, ppo, solver and the planners pimc
    (Pyramid), hop and ismcts (Klondike); expert-net (the expert-iteration network alone) and
    guided-ismcts and guided-pimc (ismcts and pimc whose ties go to that network); expert-sampled (an
    expert network drawing its moves from its policy); world-bandit (Klondike, decisions at
    commitments); ppo-privileged (a MaskablePPO policy trained with a privileged critic, its actor
    alone). MODULE:FACTORY
    (or NAME=MODULE:FACTORY) plays a player from outside the package: FACTORY(variant) returns a
    Player; MODULE is on sys.path or a .py file."""
    checkpoint: Annotated[tuple[Path, ...], tyro.conf.UseAppendAction] = ()
    """Checkpoints for the ppo and ppo-privileged agents (default: the shipped one of the variant): repeat
    the flag or separate them with commas; each plays as its own row, named ppo:FILE (ppo alone: the
    shipped one); a file of the other kind (a privileged critic's for ppo, a plain one for
    ppo-privileged) is left out with a note."""
    expert_checkpoint: Annotated[tuple[Path, ...], tyro.conf.UseAppendAction] = ()
    """Expert networks for the expert-net, guided-ismcts and guided-pimc agents (default: the shipped
    one), as --checkpoint: one row each, named AGENT:FILE."""
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
    planner_option: Annotated[tuple[str, ...], tyro.conf.UseAppendAction] = ()
    """Settings of the planners (pimc, hop, ismcts) as KEY=VALUE, repeatable: keyword arguments of
    the planner's class, e.g. ``--planner-option tree_iterations=400`` (numbers read as numbers)."""
    seed: int = 0
    """Seed of the agents that draw random numbers (deal N uses the seed pair (seed, N), whatever
    the worker)."""
    seeds: str | None = None
    """Several seeds (0-4, or 1,7): each agent that draws random numbers plays every deal once per
    seed, and the table aggregates its runs (instead of --seed)."""
    analyse: bool = True
    """Analyse every game with the exact solver: each row's first losing move (``--no-analyse``: skip)."""
    analysis_states: int = 200_000
    """States each search of the analysis may visit (past it a position is unknown, never lost)."""
    analysis_time_budget: float = 10.0
    """Seconds all the analysis's searches of one game may take together."""
    json: str | None = None
    """Write the rows, the tables, the options and the provenance as JSON to this file (- for
    standard output)."""
    rows: Path | None = None
    """Append each row to this JSON Lines file as soon as its deal is played, and play only the
    deals not in it yet: a stopped run resumes with the same options (the file's first line holds
    them, and a run with other options is refused). The table covers every row."""
    plot: Path | None = None
    """Draw a PNG chart comparing the agents to this file (the solver as a dashed upper bound)."""


OUTPUT_FIELDS = ("workers", "ray", "json", "rows", "plot")
"""Fields of :class:`Args` that change where rows are played or written, never what they are."""


def _default(name: str) -> Any:
    field = next(f for f in fields(Args) if f.name == name)
    if field.default is not MISSING:
        return field.default
    return field.default_factory() if field.default_factory is not MISSING else MISSING


def command_line(args: Args) -> str:
    """The command that reproduces these rows: every field of :class:`Args` that differs from its
    default, output options left out (built from the fields, so no option is forgotten)."""
    parts = [args.game, "--deals", args.deals, "--agents", args.agents]
    for field in fields(Args):
        if field.name in ("game", "deals", "agents", *OUTPUT_FIELDS):
            continue
        value = getattr(args, field.name)
        if value == _default(field.name):
            continue
        flag = "--" + field.name.replace("_", "-")
        if isinstance(value, bool):
            parts.append(flag if value else f"--no-{field.name.replace('_', '-')}")
        elif isinstance(value, tuple):
            for item in value:
                parts += [flag, str(item)]
        else:
            parts += [flag, f"{value:g}" if isinstance(value, float) else str(value)]
    return f"{PROG} {shlex.join(parts)}"


# --------------------------------------------------------------------------- playing (workers)
Task: TypeAlias = tuple[str, int, "int | None"]
"""(agent entry name, deal number, seed or ``None``)."""
_PLAYERS: dict[tuple[Any, ...], Player] = {}
_ENVS: dict[str, Any] = {}


def _worker_init() -> None:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)


def is_planner(agent: str) -> bool:
    """Whether registry agent ``agent`` takes the planners' settings."""
    spec = AGENTS.get(agent)
    return spec is not None and spec.planner


def planner_kwargs(options: PlayOptions) -> dict[str, Any]:
    """The planners' keyword arguments: ``--planner-option`` and ``--stock-known``."""
    return dict(options.planner) | ({"stock_known": True} if options.stock_known else {})


def _player(entry: AgentEntry, options: PlayOptions, variant: GameSpec, seed: int | None,
            number: int) -> Player:
    deal_seed = [0 if seed is None else seed, number]
    if entry.agent == "random":  # a fresh generator per deal: results do not depend on the worker
        return make_player("random", variant, seed=deal_seed)
    kwargs: dict[str, Any] = {}
    if entry.agent in CHECKPOINT_AGENTS:
        kwargs["checkpoint"] = entry.checkpoint
    if entry.agent in PPO_AGENTS:
        kwargs["deterministic"] = entry.moves == "argmax"
    if entry.agent == "solver":
        kwargs["time_limit"] = options.solver_time_limit
    if is_planner(entry.agent):
        kwargs.update(planner_kwargs(options))
    key = (entry, variant.key, tuple(sorted(kwargs.items())))  # one player per set of options
    if key not in _PLAYERS:
        _PLAYERS[key] = make_player(entry.agent, variant, **kwargs)  # ppo: one torch thread (PpoPlayer's)
    player = _PLAYERS[key]
    if entry.seeded and isinstance(player, Reseedable):
        reseed(player, deal_seed)  # per-deal samples, whatever the worker
    return player


def play_deal(options: PlayOptions, task: Task) -> Row:
    """Play one task (agent entry, deal number, seed) under ``options``: one row."""
    name, number, seed = task
    entry = options.entry(name)
    variant = find_game(options.variant)
    player = _player(entry, options, variant, seed, number)
    env = _ENVS.get(variant.key)
    if env is None:
        env = _ENVS[variant.key] = variant.make_env()
    deal_id = variant.deal_id(number, kind=options.deal_type)
    result = play_episode(env, player, deal_id, variant.cards_cleared)
    verdict = states = None
    if entry.agent == "solver":
        verdict, states = player.result.status, int(player.result.states)  # type: ignore[attr-defined]
    game = env.unwrapped.game  # type: ignore[union-attr]  # the game envs' engine
    moves = [str(m) for m in game.history]
    analysis = first_losing = None
    if options.analyse:
        report_ = analyse_played(game, judge=False, time_budget=options.analysis_time_budget,
                                 limits=SearchLimits(time_limit=options.analysis_time_budget,
                                                     max_states=options.analysis_states))
        analysis, first_losing = report_.outcome, report_.first_losing_move
    setting = ("thoughtful" if player.sees_hidden_cards
               else information_setting(entry.agent, options.stock_known))
    return Row(name, result.deal_id, number, result.outcome, result.won, result.cards_cleared,
               result.steps, result.seconds, verdict, states, moves, analysis, first_losing, setting,
               seed if entry.seeded else None)


def tasks_of(options: PlayOptions, numbers: Sequence[int], seeds: Sequence[int] = (0,),
             skip: Collection[tuple[str, int, int | None]] = ()) -> list[Task]:
    """Every agent on every deal, each seed for an agent that draws random numbers (else once,
    seed ``None``), in agent, seed, deal order; the tasks in ``skip`` left out."""
    tasks: list[Task] = []
    for entry in options.agents:
        for seed in seeds if entry.seeded else (None,):
            tasks += [(entry.name, n, seed) for n in numbers if (entry.name, n, seed) not in skip]
    return tasks


def play_all(options: PlayOptions, tasks: Sequence[Task], workers: int,
             played: Callable[[Row], None] | None = None) -> list[Row]:
    """The rows of ``tasks`` in their order; ``played`` is called with each row as soon as it is
    played (in the order they finish)."""
    run = partial(play_deal, options)
    done = played or (lambda row: None)
    rows: dict[Task, Row] = {}
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


# ------------------------------------------------------------------------ playing on Ray
_SHIPPED: dict[str, Path] = {}
Shipped: TypeAlias = dict[str, tuple[str, str, bytes]]
"""Agent entry name -> (SHA-256, file suffix, bytes) of its checkpoint."""


def ship_checkpoints(options: PlayOptions) -> Shipped:
    """The bytes of each entry's checkpoint file: a cluster's other machines do not have the files
    (the shipped checkpoints come with the installed package)."""
    shipped: Shipped = {}
    for entry in options.agents:
        if entry.checkpoint is not None:
            path = Path(entry.checkpoint)
            data = path.read_bytes()
            shipped[entry.name] = (sha256_of(path), path.suffix, data)
    return shipped


def play_shipped_deal(options: PlayOptions, shipped: Shipped, task: Task) -> Row:
    """:func:`play_deal` on a cluster worker: a shipped checkpoint is written once per machine."""
    if task[0] in shipped:
        digest, suffix, data = shipped[task[0]]
        if digest not in _SHIPPED:
            folder = Path(tempfile.gettempdir()) / "solitaire-rl-checkpoints"
            folder.mkdir(exist_ok=True)
            target = folder / f"{digest[:32]}{suffix}"
            if not target.is_file():
                partial_file = folder / f"{digest[:32]}.{os.getpid()}.part"
                partial_file.write_bytes(data)
                partial_file.replace(target)
            _SHIPPED[digest] = target
        here = replace(options.entry(task[0]), checkpoint=str(_SHIPPED[digest]))
        options = replace(options, agents=tuple(here if e.name == here.name else e for e in options.agents))
    return play_deal(options, task)


def play_all_on_ray(options: PlayOptions, tasks: Sequence[Task], address: str) -> tuple[list[Row], list[str]]:
    """The tasks on the Ray cluster at ``address``: the rows in task order (as :func:`play_all`),
    and a note for each task that failed there."""
    from solitaire_rl.agents.distributed import Failed, connect, fan_out

    try:
        connect(address)
    except (ConnectionError, ValueError) as exc:
        raise MalformedInputError(f"cannot join the Ray cluster {address!r}: {exc}") from None
    rows: list[Row | None] = [None] * len(tasks)
    failures = []
    for index, result in fan_out(partial(play_shipped_deal, options, ship_checkpoints(options)), list(tasks)):
        if isinstance(result, Failed):
            failures.append(f"failed: {tasks[index][0]} on deal {tasks[index][1]}: {result.error}")
        else:
            rows[index] = result
    return [r for r in rows if r is not None], failures


# ------------------------------------------------------------------------- the options object
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


def _paths(value: Any) -> list[Path]:
    """A checkpoint option as paths (a single path from a caller of :class:`Args` accepted too)."""
    return split_paths([value] if isinstance(value, str | Path) else list(value or ()))


def _ppo_moves(args: Args, path: Path) -> str:
    from solitaire_rl.agents.ppo import plays_by_sampling, read_metadata

    if args.ppo_sample or args.ppo_argmax:
        return "sampled" if args.ppo_sample else "argmax"
    return "sampled" if plays_by_sampling(read_metadata(path)) else "argmax"


def _shipped_path(agent: str, variant: GameSpec) -> Path:
    if agent in PPO_AGENTS:
        from solitaire_rl.agents.ppo import default_checkpoint

        return default_checkpoint(variant, privileged=AGENTS[agent].checkpoint == "ppo-privileged")
    from solitaire_rl.agents.expert.checkpoint import default_expert_checkpoint

    return default_expert_checkpoint(variant)


def _checkpoint_entries(agent: str, paths: list[Path], args: Args, variant: GameSpec,
                        notes: list[str]) -> list[AgentEntry]:
    """The entries of a checkpoint agent: the shipped one alone, or one per given file."""
    shipped = _shipped_path(agent, variant)
    shipped_digest = sha256_of(shipped) if shipped.is_file() else None
    given: list[Path | None] = list(paths) or [None]
    names = file_names(paths) if paths else [""]
    playable = []
    for path, stem in zip(given, names, strict=True):
        reason = unavailable_reason(agent, variant, path)
        if reason is not None:
            notes.append(f"{agent}{':' + stem if stem else ''}: left out: {reason}")
            continue
        file = path if path is not None else _shipped_path(agent, variant)
        digest = sha256_of(file)
        name = agent if digest == shipped_digest else f"{agent}:{stem}"
        moves = _ppo_moves(args, file) if agent in PPO_AGENTS else None
        seeded = moves == "sampled" if agent in PPO_AGENTS else agent not in DETERMINISTIC_AGENTS
        playable.append(AgentEntry(name, agent, None if path is None else str(path), digest, moves, seeded))
    named = [e for e in playable if e.checkpoint is not None and e.name != agent]
    if len(named) > 1:  # several checkpoints of one agent: their runs aggregate
        group = f"{agent} ({len(named)} checkpoints)"
        playable = [replace(e, group=group) if e in named else e for e in playable]
    return playable


def _outside_entry(text: str, variant: GameSpec) -> AgentEntry:
    name, _, spec = text.partition("=") if "=" in text.partition(":")[0] else ("", "", text)
    try:
        player = make_outside_player(spec, variant)
    except SolitaireError:
        raise
    except Exception as exc:  # the factory is the researcher's code: say whose error it is
        raise MalformedInputError(f"agent {spec!r}: its factory failed: {type(exc).__name__}: {exc}") from exc
    name = name or default_name(spec, player)
    if not name or ":" in name or "," in name or name in AGENT_NAMES:
        raise MalformedInputError(f"agent {spec!r} would be named {name!r}, which is not a free row name: "
                                  f"give one as NAME={spec}")
    return AgentEntry(name, spec, seeded=isinstance(player, Reseedable))


def resolve_agents(args: Args, variant: GameSpec) -> tuple[list[AgentEntry], list[str]]:
    """The agent entries of ``args.agents`` that can play ``variant`` here, and a note for each left out."""
    requested = list(dict.fromkeys(a.strip() for a in args.agents.split(",") if a.strip()))
    unknown = [a for a in requested if a not in AGENT_NAMES and not is_outside(a)]
    if unknown or not requested:
        raise MalformedInputError(f"unknown agent(s) {unknown}: choose from {', '.join(AGENT_NAMES)}, or "
                                  f"give MODULE:FACTORY")
    experts = _paths(args.expert_checkpoint)
    checkpoints = {**{agent: _paths(args.checkpoint) for agent in PPO_AGENTS},
                   **{agent: experts for agent in EXPERT_AGENTS}}
    notes: list[str] = []
    entries: list[AgentEntry] = []
    for agent in requested:
        if is_outside(agent):
            entries.append(_outside_entry(agent, variant))
        elif agent in CHECKPOINT_AGENTS:
            entries += _checkpoint_entries(agent, checkpoints[agent], args, variant, notes)
        elif (reason := unavailable_reason(agent, variant)) is not None:
            notes.append(f"{agent}: left out: {reason}")
        else:
            entries.append(AgentEntry(agent, agent, seeded=agent not in DETERMINISTIC_AGENTS))
    names = [e.name for e in entries]
    if len(set(names)) != len(names):
        raise MalformedInputError(f"two agents would share a row name: {names}; name them with "
                                  f"NAME=MODULE:FACTORY")
    return entries, notes


def play_options(args: Args, variant: GameSpec, entries: Sequence[AgentEntry]) -> PlayOptions:
    """The frozen options of this run (refusing settings that fit no agent before a deal is played)."""
    planner = planner_settings(args.planner_option)
    if args.stock_known and not variant.hides_tableau:
        raise MalformedInputError(f"--stock-known is a Klondike setting: {variant.title} hides only its "
                                  "stock, so seeing it is the solver's thoughtful setting")
    options = PlayOptions(variant.key, args.deal_type, tuple(entries), args.solver_time_limit,
                          tuple(sorted(planner.items())), args.stock_known, args.analyse,
                          args.analysis_states, args.analysis_time_budget)
    for entry in entries:
        if is_planner(entry.agent) and planner_kwargs(options):
            extra = {"checkpoint": entry.checkpoint} if entry.agent in EXPERT_AGENTS else {}
            try:  # an unknown setting stops here, before any deal is played
                make_player(entry.agent, variant, **planner_kwargs(options), **extra)
            except TypeError as exc:
                raise MalformedInputError(f"--planner-option does not fit {entry.agent}: {exc}") from None
    return options


# ------------------------------------------------------------------------------------ main
def to_json(args: Args, options: PlayOptions, rows: Sequence[Row], notes: Sequence[str],
            session: dict[str, Any], sessions: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """The JSON document: command, options, provenance, notes, tables and rows."""
    return {
        "command": command_line(args), "variant": options.variant, "deals": args.deals,
        "deal_type": args.deal_type, "seeds": sorted({r.seed for r in rows if r.seed is not None}),
        "options": options.to_json(), "provenance": session,
        **({"sessions": list(sessions)} if sessions else {}),
        "notes": list(notes), **report(rows, options), "rows": [asdict(r) for r in rows],
    }


def main(args: Args) -> tuple[list[Row], list[Summary], list[str]]:
    """Run the benchmark; print the tables (and notes); write JSON and plot if asked."""
    variant = find_game(args.game, args.variant)
    if args.ppo_sample and args.ppo_argmax:
        raise MalformedInputError("--ppo-sample and --ppo-argmax contradict each other: give one at most")
    if args.seeds is not None and args.seed != 0:
        raise MalformedInputError("--seed and --seeds: give one (--seeds 3 plays seed 3 alone)")
    seeds = parse_seeds(args.seeds) if args.seeds is not None else (args.seed,)
    numbers = parse_deal_numbers(args.deals)
    entries, notes = resolve_agents(args, variant)
    if not entries:
        raise MalformedInputError("no agent can play here: " + "; ".join(notes))
    in_training = sum(split_of(n) == TRAIN.name for n in numbers) if args.deal_type == "random" else 0
    if in_training:
        notes.append(f"{in_training} of the deals are training deals (numbers {TRAIN.first}..): not held out")
    options = play_options(args, variant, entries)
    session = provenance()
    sessions: list[dict[str, Any]] = []
    if args.ray and args.rows is not None:
        raise MalformedInputError("--rows resumes a run on this machine's workers: not with --ray")
    if args.ray:
        if importlib.util.find_spec("ray") is None:
            raise MalformedInputError("--ray needs Ray: pip install -e '.[ray]'")
        rows, failures = play_all_on_ray(options, tasks_of(options, numbers, seeds), args.ray)
        notes += failures
        where = f"on the Ray cluster {args.ray}"
    else:
        earlier: list[Row] = []
        played = None
        if args.rows is not None:
            wanted = set(tasks_of(options, numbers, seeds))
            before = read_rows(args.rows, options)
            if before is not None:
                earlier = [r for r in before.rows if (r.agent, r.deal_number, r.seed) in wanted]
                sessions = before.sessions
            played = append_rows(args.rows, options, session)
            sessions = [*sessions, session]
        seen = {(r.agent, r.deal_number, r.seed) for r in earlier}
        new = play_all(options, tasks_of(options, numbers, seeds, seen), args.workers, played)
        by_task = {(r.agent, r.deal_number, r.seed): r for r in [*earlier, *new]}
        rows = [by_task[task] for task in tasks_of(options, numbers, seeds)]
        where = f"{args.workers} workers" + (f", {len(earlier)} rows from {args.rows}" if earlier else "")
    summaries = summarize(rows)
    to_stdout = args.json == "-"
    out = sys.stderr if to_stdout else sys.stdout
    seeds_text = f", seeds {args.seeds}" if args.seeds is not None else ""
    print(f"{variant.key}, {args.deal_type} deals {args.deals} ({len(numbers)} deals){seeds_text}, {where}",
          file=out)
    print(format_report(rows, variant, options), file=out)
    for note in notes:
        print(f"note: {note}", file=out)
    if args.json is not None:
        text = json.dumps(to_json(args, options, rows, notes, session, sessions), indent=1)
        if to_stdout:
            print(text)
        else:
            Path(args.json).write_text(text + "\n")
    if args.plot is not None:
        plot(summaries, variant, args.deals, args.plot)
    return rows, summaries, notes


def cli(argv: Sequence[str] | None = None) -> None:
    args = tyro.cli(Args, args=argv, prog=PROG)
    try:
        _, _, notes = main(args)
    except MalformedInputError as exc:
        raise SystemExit(f"error: {exc}") from None
    if any(note.startswith("failed: ") for note in notes):
        raise SystemExit(1)


__all__ = ["KLONDIKE_PLANNERS", "OUTPUT_FIELDS", "ROWS_FORMAT", "AgentEntry", "Args", "PlayOptions", "Row",
           "Summary", "cli", "command_line", "format_table", "information_setting", "main",
           "parse_deal_numbers", "planner_settings", "play_all", "play_deal", "play_options",
           "play_shipped_deal", "resolve_agents", "ship_checkpoints", "summarize", "tasks_of"]


if __name__ == "__main__":
    cli()
