"""Every Python and shell snippet of README.md and docs/*.md runs (issue 38: docs that are true).

Python blocks run in order, one namespace per page, as a reader runs them: a later block may use the
names of an earlier one; a block that calls the play API reaches a server the test starts. A block
that cannot run says so in its own info string (```python no-run) with the reason beside it in the
doc; :data:`NO_RUN_ALLOWED` lists the few there are (none today).

Shell blocks: each command line that runs one of this project's entry points (``python -m agents...``,
``python benchmarks/...``) runs in this process (``runpy``: the imports are paid once, not per
command), in a scratch folder per page that links the repository's top-level folders, so the files
a command writes stay there and a later command of the page finds them (:data:`INPUTS` holds the
files a page expects the reader to bring). The docs keep their
real figures: a long-running command runs with the small arguments of :data:`SMALL` instead, and the
commands of :data:`SKIP` do not run (the reason is the table's documentation). A command naming a
placeholder the reader fills in (``runs/<run>``) cannot run either. ``pip``, ``git``, ``ray``,
``pytest`` and the other programs are not this project's and are not run.
"""

from __future__ import annotations

import contextlib
import io
import runpy
import shlex
import sys
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import solitaire_rl  # noqa: F401  (gymnasium's warning filters set at import go before the snippets' ones, not after)
from tests.doc_blocks import DOCS, ROOT, SHELL, Block, Command, fenced_blocks, shell_commands

NO_RUN_ALLOWED: dict[str, str] = {}
"""``page:line`` of the Python blocks marked ``no-run`` → why (each doc says so beside the block)."""

PLAY_URL = "http://127.0.0.1:8765"
"""The play server's address in the docs; the snippets that call it reach a server the test starts."""


@dataclass(frozen=True)
class Default:
    """An option set only where the doc's command does not give it (``Default("")``: a flag alone)."""

    value: str


@dataclass(frozen=True)
class First:
    """The first ``count`` deals of the doc's range (``count=2``: ``1-1000`` -> ``1-2``)."""

    count: int

    def of(self, deals: str) -> str:
        start, _, end = deals.partition("-")
        return f"{start}-{int(start) + self.count - 1}" if end else deals


SMALL: dict[str, dict[str, str | Default | First]] = {
    # command prefix (after ``python``) -> option or positional token -> its small value
    "-m solitaire_rl.training.train": {
        "--total-timesteps": "64",
        "--n-envs": "2",
        "--n-steps": "32",
        "--batch-size": "64",
        "--n-epochs": "1",
        "--imitation-episodes": "2",
        "--imitation-epochs": "1",
        "--eval-freq": "0",
        "--eval-deals": "2",
        "--checkpoint-freq": "0",
        "--save-to": Default("None"),
        "--no-progress-bar": Default(""),
    },
    "-m solitaire_rl.training.benchmark": {
        "--deals": First(2),
        "--workers": "1",
        "--solver-time-limit": "2",
        "--analysis-states": "100000",
        "--analysis-time-budget": "2",
    },
    "-m solitaire_rl.training.benchmark klondike": {
        "--planner-option": "max_states=5000"
    },  # hop: 200,000 a move
    "-m solitaire_rl.training.benchmark klondike --agents world-bandit": {
        "--planner-option": "max_worlds=100"
    },  # world-bandit: 1,500 worlds a decision
    "-m solitaire_rl.agents.solver pyramid": {"1-1000": "1-2", "--time": "2"},
    "-m solitaire_rl.agents.solver klondike": {
        "1-1000": "1-2",
        "1-2000": "1-2",
        "--max-states": "100000",
        "--time": "2",
    },
    "benchmarks/analysis_speed.py": {"--games": "1", "--moves": "40", "--repeats": "1"},
    "benchmarks/env_steps.py": {"--steps": "200", "--repeats": "1"},
    "benchmarks/ppo_steps.py": {
        "--steps": "64",
        "--repeats": "1",
        "--n-envs": "2",
        "--n-steps": "32",
        "--batch-size": "64",
    },
    "benchmarks/follow_hints.py": {"--deals": First(1), "--max-moves": "10"},
    "benchmarks/follow_daily_hints.py": {"--days": Default("1"), "--games": Default("pyramid")},
    "benchmarks/commitment_planner_tune.py": {"--deals": First(1)},
    "benchmarks/commitment_planner_speed.py": {
        "--deals": First(1),
        "--repeats": "1",
        "--worlds": "50",
        "--no-games": Default(""),
    },
    "benchmarks/chance_latency.py": {"--deals": First(1), "--every": "25"},
    "benchmarks/world_score_speed.py": {
        "--deals": First(1),
        "--repeats": "1",
        "--worlds": "20",
        "--plan-worlds": "100",
        "--bot-worlds": Default("100"),
    },
    "-m solitaire_rl.training.world_labels": {
        "--deals": "2",  # the imitation's fit keeps a game for validation
        "--max-worlds": Default("60"),
        "--label-worlds": Default("8"),
        "--quiet": Default(""),
    },
    "-m solitaire_rl.training.world_bandit_imitation": {"--epochs": "1"},
    "benchmarks/fuzz_native.py": {"--examples": "3", "-k": Default("random_deal")},
    "benchmarks/fuzz_entry_points.py": {
        "--inputs": "20",
        "--chunk": "20",
        "-k": Default("random_deal"),
        "--ledger": Default("fuzz-ledger.jsonl"),
    },
    "benchmarks/play_server.py": {"--deals": Default("1"), "--actions": Default("5")},
    "benchmarks/diagnostics/pyramid_value_net.py generate": {"--deals": First(10)},
    "benchmarks/diagnostics/pyramid_value_net.py fit": {"--epochs": "1"},
    "benchmarks/diagnostics/pyramid_value_net.py play": {"--deals": First(2)},
}
"""The small arguments a long-running command runs with here (every matching prefix, shortest first)."""

SKIP: dict[str, str] = {
    "-m solitaire_rl.play": "serves the page until stopped (tests/test_play_cli.py starts and stops it)",
    "-m solitaire_rl.play.terminal --interactive": "reads keys from a terminal",
    "-m solitaire_rl.training.ship": (
        "writes solitaire_rl/agents/checkpoints/ from a run the reader trained (runs/<run>)"),
    "--ray": "needs a Ray cluster (tests/test_ray_cluster.py runs both commands on a loopback one)",
    "--sanitize": "the sanitizer build (tests/test_sanitizer_subset.py runs a short fuzz on it)",
    "benchmarks/planner_latency.py": "whole hop games at the benchmark's budget: about 30 s a deal here",
    "benchmarks/ray_sweep.py": "starts a two-node Ray cluster on loopback: minutes even on few deals",
}
"""Commands that do not run here, and why: by prefix (whole tokens); ``--option``: any command giving it."""

INPUTS: dict[str, dict[str, str]] = {
    "docs/analysis.md": {"game.txt": "r7c1\nr7c2+r7c5\ndraw\n"},
    "docs/solvers.md": {"deals.jsonl": "".join((ROOT / "tests/data/klondike_draw3_solvitaire.jsonl")
                                               .read_text(encoding="utf-8").splitlines(True)[:2])},
}
"""Files a page's commands read that the reader brings (their own game, their own deals)."""

PLACEHOLDERS = ("<", "CKPT")
DEPRECATED = r"the keyword \w+= is deprecated"
"""The warning of an old keyword spelling (``solitaire_rl.envs.contract.renamed_keyword``): a doc uses the new
ones."""


def matching(table: dict[str, object], command: Command) -> list[str]:
    """The keys of ``table`` that ``command``'s argv starts with (whole tokens), shortest first; a key
    ``--option`` matches a command that gives the option."""
    return sorted((k for k in table if command.argv[: len(k.split())] == tuple(k.split())
                   or (k.startswith("--") and k in command.argv)), key=len)


def small_argv(command: Command, workdir: Path) -> list[str]:
    """``command``'s argv with :data:`SMALL`'s values and its ``/tmp/`` paths moved into ``workdir``."""
    argv = [str(workdir / a.removeprefix("/tmp/")) if a.startswith("/tmp/") else a for a in command.argv]
    argv = [part for a in argv for part in (a.split("=", 1) if a.startswith("--") else [a])]
    for key in matching(SMALL, command):
        for token, value in SMALL[key].items():
            if not token.startswith("-"):  # a positional value: replaced where the doc gives it
                argv = [str(value) if a == token else a for a in argv]
            elif token not in argv:
                if isinstance(value, Default):
                    argv += [token, *value.value.split()]
                elif isinstance(value, str):
                    argv += [token, *value.split()]
            elif not isinstance(value, Default):
                i = argv.index(token) + 1
                j = next((k for k in range(i, len(argv)) if argv[k].startswith("-")), len(argv))
                argv[i:j] = [value.of(argv[i])] if isinstance(value, First) else value.split()
    return argv


@contextlib.contextmanager
def torch_threads_kept() -> Iterator[None]:
    """Gives torch back the thread count it had (``--torch-threads`` sets it for the process)."""
    torch = sys.modules.get("torch")
    threads = torch.get_num_threads() if torch else None
    try:
        yield
    finally:
        if threads and (torch := sys.modules.get("torch")):
            torch.set_num_threads(threads)


# ------------------------------------------------------------------------------------- collection
def python_pages() -> list[Path]:
    return [page for page in DOCS if any(b.lang == "python" for b in fenced_blocks(page))]


def project_commands() -> list[Command]:
    """Every project command of the docs' shell blocks, the first of identical ones only."""
    seen: dict[tuple[str, ...], Command] = {}
    for page in DOCS:
        for block in fenced_blocks(page):
            if block.lang in SHELL:
                for command in shell_commands(block):
                    seen.setdefault(command.argv, command)
    return list(seen.values())


@pytest.fixture(scope="module")
def play_url() -> Iterator[str]:
    """A play server for the snippets that call the API, on a free port."""
    from solitaire_rl.play.server.cli import serve_in_thread

    server, thread, url = serve_in_thread()
    yield url
    server.should_exit = True
    thread.join(10)


WORKDIRS: dict[str, Path] = {}


def page_workdir(page: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The scratch folder of one page's commands: the repository's top level by symlink, runs/ its own."""
    if page not in WORKDIRS:
        workdir = tmp_path_factory.mktemp(Path(page).stem)
        for entry in ROOT.iterdir():
            if entry.name not in ("runs", "build") and not entry.name.startswith("."):
                (workdir / entry.name).symlink_to(entry)
        for name, text in INPUTS.get(page, {}).items():
            (workdir / name).write_text(text, encoding="utf-8")
        WORKDIRS[page] = workdir
    return WORKDIRS[page]


# -------------------------------------------------------------------------------------- the tests
def run_python_blocks(blocks: list[Block], play_url: Callable[[], str]) -> None:
    """Run ``blocks`` in order in one namespace; an error (an old keyword's warning too) names its block."""
    namespace: dict[str, object] = {"__name__": "__doc_snippet__"}
    for block in blocks:
        if "no-run" in block.flags:
            assert block.where in NO_RUN_ALLOWED, f"{block.where}: a no-run block not in NO_RUN_ALLOWED"
            continue
        source = block.text.replace(PLAY_URL, play_url()) if PLAY_URL in block.text else block.text
        try:
            with warnings.catch_warnings():
                warnings.filterwarnings("error", DEPRECATED, DeprecationWarning)
                exec(compile(source, block.where, "exec"), namespace)
        except Exception as error:
            raise AssertionError(f"{block.where}: {type(error).__name__}: {error}") from error


@pytest.mark.parametrize("page", python_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_python_blocks_of_a_page_run_in_order(page: Path, request: pytest.FixtureRequest,
                                                  tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    run_python_blocks([b for b in fenced_blocks(page) if b.lang == "python"],
                      lambda: str(request.getfixturevalue("play_url")))


def test_a_block_fails_on_an_undefined_name_or_an_old_keyword() -> None:
    def block(text: str) -> Block:
        return Block(ROOT / "docs" / "x.md", 3, "python", (), "import gymnasium, solitaire_rl\n" + text)

    run_python_blocks([block("x = 1\n"), block("assert x == 1\n")], str)  # a later block sees earlier names
    with pytest.raises(AssertionError, match=r"docs/x.md:3: NameError"):
        run_python_blocks([block("env.step(actions)\n")], str)
    with pytest.raises(AssertionError, match=r"DeprecationWarning: the keyword shaped_reward="):
        run_python_blocks([block("gymnasium.make('Solitaire/Klondike-v0', shaped_reward=True)\n")], str)


def test_every_no_run_block_is_listed_and_every_listed_one_exists() -> None:
    marked = {b.where for page in DOCS for b in fenced_blocks(page) if "no-run" in b.flags}
    assert marked == set(NO_RUN_ALLOWED)


@pytest.mark.parametrize("command", project_commands(), ids=lambda c: c.where)
def test_a_documented_command_runs(command: Command, tmp_path_factory: pytest.TempPathFactory,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    skip = matching(SKIP, command)
    if skip:
        pytest.skip(f"{command.text}: {SKIP[skip[-1]]}")
    if any(p in a for a in command.argv for p in PLACEHOLDERS):
        pytest.skip(f"{command.text}: names a file the reader provides")
    workdir = page_workdir(command.where.split(":")[0], tmp_path_factory)
    argv = small_argv(command, workdir)
    line = f"{command.where}: python {shlex.join(argv)}"
    monkeypatch.chdir(workdir)
    shipped = checkpoints()
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), torch_threads_kept(), warnings.catch_warnings():
            warnings.filterwarnings("ignore", ".* found in sys.modules after import", RuntimeWarning)  # runpy
            warnings.filterwarnings("error", DEPRECATED, DeprecationWarning)
            if argv[0] == "-m":
                monkeypatch.setattr(sys, "argv", [argv[1], *argv[2:]])
                runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
            else:  # as ``python benchmarks/x.py``: the script's folder first on the path
                monkeypatch.setattr(sys, "argv", argv)
                monkeypatch.syspath_prepend(str((ROOT / argv[0]).parent))
                runpy.run_path(str(ROOT / argv[0]), run_name="__main__")
    except SystemExit as end:
        assert end.code in (None, 0), f"{line}\nexited {end.code}\n{out.getvalue()[-3000:]}"
    except Exception as error:
        raise AssertionError(f"{line}\n{type(error).__name__}: {error}") from error
    if command.stdout:
        (workdir / command.stdout).write_text(out.getvalue(), encoding="utf-8")
    assert checkpoints() == shipped, (
        f"{line}: changed solitaire_rl/agents/checkpoints/ (the folder is the repository's)"
    )


def checkpoints() -> dict[str, int]:
    """The shipped checkpoints and their modification times (the page folders link solitaire_rl/agents/
    itself)."""
    return {
        p.name: p.stat().st_mtime_ns for p in (ROOT / "solitaire_rl" / "agents" / "checkpoints").iterdir()
    }


def test_every_table_entry_matches_a_documented_command() -> None:
    commands = project_commands()
    for table in (SMALL, SKIP):
        used = {key for command in commands for key in matching(table, command)}
        assert used == set(table), set(table) - used


def test_the_small_arguments_replace_the_docs_figures(tmp_path: Path) -> None:
    doc = ("-m", "solitaire_rl.training.benchmark", "klondike", "--deals", "1001-2000", "--workers", "3")
    argv = small_argv(Command("x", doc), tmp_path)
    assert argv[3:7] == ["--deals", "1001-1002", "--workers", "1"] and "max_states=5000" in argv
    train = Command("x", ("-m", "solitaire_rl.training.train", "--config=c.toml", "--save-to", "/tmp/a.zip"))
    argv = small_argv(train, tmp_path)
    assert argv[2:6] == ["--config", "c.toml", "--save-to", str(tmp_path / "a.zip")]
    assert argv[argv.index("--total-timesteps") + 1] == "64" and "--no-progress-bar" in argv
    fuzz = small_argv(Command("x", ("benchmarks/fuzz_native.py", "--examples", "20000")), tmp_path)
    assert fuzz == ["benchmarks/fuzz_native.py", "--examples", "3", "-k", "random_deal"]  # short options too
    given = ("benchmarks/fuzz_native.py", "-k", "deal_text", "--examples", "9")
    chosen = small_argv(Command("x", given), tmp_path)
    assert chosen == ["benchmarks/fuzz_native.py", "-k", "deal_text", "--examples", "3"]


def test_the_shell_blocks_are_read_as_a_shell_reads_them() -> None:
    commands = project_commands()
    assert len(commands) > 40 and any(c.argv[:2] == ("-m", "solitaire_rl.training.analyse") for c in commands)
    assert not [c.where for c in commands if any(a.endswith("\\") or a.startswith("#") for a in c.argv)]
    assert {"python", "bash"} <= {b.lang for page in DOCS for b in fenced_blocks(page)}
