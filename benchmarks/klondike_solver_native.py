"""Benchmark the native Klondike solver on the project's random deals, one row per deal.

Builds the standalone driver (``native/tools/klondike_solve_main.cpp``) with g++, feeds it the
``klondike-random-v1-N`` deals (converted by ``klondike_native_input.py``), and appends one CSV row
per deal to ``benchmarks/results/klondike_<name>.csv``: deal ID, draw count, status, stop reason,
seconds, states, table entries, line length and the replay check of the winning line. Deals
already in the file are skipped, so an interrupted run resumes. The summary (decided within the
time limit, time percentiles, winnable fraction with its 95% Wilson interval) is computed from
the rows and written next to them as ``klondike_<name>_summary.md``.

Examples (from the repository root)::

    python benchmarks/klondike_solver_native.py --name draw3_1-1000 --first 1 --last 1000 --time 10
    python benchmarks/klondike_solver_native.py --name draw1_1-2000 --draw 1 --first 1 --last 2000
    python benchmarks/klondike_solver_native.py --name draw3_1-1000 --summary-only
    python benchmarks/klondike_solver_native.py --name draw1_1-2000 --draw 1 --time 60 --retry-unknown
    python benchmarks/klondike_solver_native.py --name fixture_solvitaire \
        --fixture native/src/klondike/tests/data/klondike_draw3_solvitaire.jsonl --time 30

Every winning line is replayed by the driver's own replayer (``check`` = ``ok``); with
``--python-check`` it is also replayed move by move in the project's Python engine
(``solitaire_rl.envs.klondike.game.KlondikeGame``), an implementation written apart from the solver
(``check`` = ``ok+py``).

With ``--merge TSV...`` no deal is solved here: the driver's output from a run elsewhere (deals
left unknown, retried across many cores by ``klondike_retry_parallel.sh`` with ``--time`` seconds
each) replaces the unknown rows it decided, its winning lines replayed again with
``--python-check``; ``--clock`` names that machine's clock in the rows.

With ``--fixture`` the deals come from a Solvitaire JSONL file and each row also holds Solvitaire's
verdict (``reference``); the summary counts agreements where Solvitaire decided.

With ``--also NAME...`` the summary also takes in those runs' rows (a range run in parts,
each part with its own first limit); it is written under ``--name``, whose own rows file may be
missing (a summary of the parts alone)::

    python benchmarks/klondike_solver_native.py --name draw3_1-100000 --summary-only \
        --also draw3_1-10000 draw3_10001-60000 draw3_60001-100000

Long runs belong in the background (``nohup ... &``); rows are flushed as each deal finishes.
"""

from __future__ import annotations

import argparse
import csv
import math
import platform
import statistics
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from klondike_native_input import deal_lines, fixture_lines  # noqa: E402

from solitaire_rl.agents.solver.stats import percentile, wilson_interval  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
FIELDS = [
    "deal_id",
    "draw",
    "limit_s",
    "clock",
    "status",
    "stop",
    "seconds",
    "states",
    "tt_entries",
    "line_length",
    "check",
]
SOURCES = sorted(str(p) for p in (ROOT / "native" / "src" / "klondike").glob("*.cpp"))
DRIVER = ROOT / "native" / "tools" / "klondike_solve_main.cpp"


@dataclass
class Args:
    """Command-line arguments."""

    name: str
    """Run name: rows go to benchmarks/results/klondike_<name>.csv."""
    first: int
    """First deal number N of klondike-random-v1-N."""
    last: int
    """Last deal number (inclusive)."""
    draw: int
    """Cards a draw turns (3 or 1)."""
    time: float
    """Time limit per deal in seconds."""
    cpu_time: bool
    """Count the time limit in CPU time (for a busy machine) rather than wall-clock time."""
    memory_mib: float
    """Cap on the solver's visited-state table, MiB."""
    binary: Path
    """Where the driver is built."""
    summary_only: bool
    """Only recompute the summary from the rows."""
    fixture: Path | None
    """Solvitaire JSONL deals to run instead of the random deals."""
    python_check: bool
    """Also replay every winning line in solitaire_rl.envs.klondike's Python engine."""
    retry_unknown: bool
    """Solve again the deals already recorded as unknown, with this run's --time, in place."""
    no_build: bool
    """Use the driver already at --binary (a long run keeps its build while the sources change)."""
    merge: list[Path] | None
    """Driver output files from a run elsewhere whose decided deals replace unknown rows."""
    clock: str
    """The clock column of merged rows (the other machine's CPU time)."""
    also: list[str]
    """Other runs' names whose rows the summary takes in too (a range run in parts)."""


def parse_args(argv: list[str] | None = None) -> Args:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--name", required=True)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=1000)
    parser.add_argument("--draw", type=int, default=3)
    parser.add_argument("--time", type=float, default=10.0)
    parser.add_argument("--cpu-time", action="store_true")
    parser.add_argument("--memory-mib", type=float, default=1024)
    parser.add_argument("--binary", type=Path, default=Path("/tmp/klondike_solve"))
    parser.add_argument("--summary-only", action="store_true")
    parser.add_argument("--fixture", type=Path, default=None)
    parser.add_argument("--python-check", action="store_true")
    parser.add_argument("--retry-unknown", action="store_true")
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--merge", type=Path, nargs="+", default=None)
    parser.add_argument("--clock", default="cpu-other")
    parser.add_argument("--also", nargs="+", default=[])
    ns = parser.parse_args(argv)
    return Args(
        ns.name,
        ns.first,
        ns.last,
        ns.draw,
        ns.time,
        ns.cpu_time,
        ns.memory_mib,
        ns.binary,
        ns.summary_only,
        ns.fixture,
        ns.python_check,
        ns.retry_unknown,
        ns.no_build,
        ns.merge,
        ns.clock,
        ns.also,
    )


def build(binary: Path) -> None:
    """Compile the driver with the flags of the package's build (CMakeLists.txt: -O3, and POPCNT on
    x86-64), so that the figures are those of the installed solver."""
    include = f"-I{ROOT / 'native' / 'src'}"
    popcnt = ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []
    cmd = ["g++", "-O3", *popcnt, "-std=c++17", include, *SOURCES, str(DRIVER), "-o", str(binary)]
    subprocess.run(cmd, check=True)


def read_rows(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        return []
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def positions(args: Args) -> list[tuple[str, str]]:
    """(driver input line, reference verdict or '') for every deal of the run."""
    if args.fixture is not None:
        return list(fixture_lines(str(args.fixture)))
    return [(line, "") for line in deal_lines(args.first, args.last)]


def solve_all(args: Args, items: list[tuple[str, str]]) -> Iterator[list[str]]:
    """Run the driver on (position line, reference) items; yield one CSV row per item."""
    if not args.no_build:
        build(args.binary)
    cmd = [str(args.binary), "--draw", str(args.draw), "--time", str(args.time)]
    cmd += ["--memory", str(args.memory_mib), "--check"]
    if args.cpu_time:
        cmd.append("--cpu-time")
    if args.python_check:
        cmd.append("--line")
    clock = "cpu" if args.cpu_time else "wall"
    pipe = subprocess.PIPE
    with subprocess.Popen(cmd, stdin=pipe, stdout=pipe, text=True, bufsize=1) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        for line, reference in items:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            out = proc.stdout.readline().rstrip("\n").split("\t")
            row = driver_row(args, out, clock, replay=args.fixture is None)
            yield row + ([reference] if args.fixture is not None else [])
        proc.stdin.close()


def driver_row(args: Args, out: list[str], clock: str, replay: bool = True) -> list[str]:
    """The CSV row (``FIELDS``) of one line of driver output, split at tabs; with ``--python-check``
    (and ``replay``) a winning line the driver checked is replayed in solitaire_rl.envs.klondike too."""
    name, status, stop, seconds, states, entries, length, check = out[:8]
    if replay and args.python_check and status == "winnable" and check == "ok" and len(out) > 8:
        check = python_replay(name, out[8], args.draw)
    return [name, str(args.draw), str(args.time), clock, status, stop, seconds, states, entries,
            length, check]


def run(args: Args, rows_path: Path) -> None:
    """Solve the deals not yet in the rows file, appending a row as each one finishes."""
    done = {row["deal_id"] for row in read_rows(rows_path)}
    todo = [(line, ref) for line, ref in positions(args) if line.split(" ", 1)[0] not in done]
    if not todo:
        return
    new_file = not rows_path.exists()
    header = FIELDS + (["reference"] if args.fixture is not None else [])
    with rows_path.open("a", newline="") as out:
        writer = csv.writer(out)
        if new_file:
            writer.writerow(header)
        for row in solve_all(args, todo):
            writer.writerow(row)
            out.flush()


def retry_unknown(args: Args, rows_path: Path) -> None:
    """Solve again, with this run's time limit, the deals whose row says unknown at a smaller one.

    Each answer replaces its row as it comes, so an interrupted retry resumes where it stopped."""
    unknown = {
        r["deal_id"]
        for r in read_rows(rows_path)
        if r["status"] == "unknown" and float(r["limit_s"]) < args.time
    }
    items = [(line, ref) for line, ref in positions(args) if line.split(" ", 1)[0] in unknown]
    for row in solve_all(args, items):
        replace_unknown_rows(rows_path, {row[0]: row})


def merge_driver_output(args: Args, rows_path: Path) -> None:
    """Replace the unknown rows that the driver output files ``args.merge`` decide; rewrite the rows."""
    decided: dict[str, list[str]] = {}
    for path in args.merge or []:
        for text in path.read_text().splitlines():
            out = text.split("\t")
            if len(out) >= 8 and out[1] in ("winnable", "not_winnable"):
                decided[out[0]] = driver_row(args, out, args.clock)
    replace_unknown_rows(rows_path, decided)


def replace_unknown_rows(rows_path: Path, replacements: dict[str, list[str]]) -> None:
    """Rewrite the rows file with each unknown row that ``replacements`` names (by deal) replaced."""
    rows = read_rows(rows_path)
    header = list(rows[0].keys())
    partial = rows_path.with_suffix(".partial")
    with partial.open("w", newline="") as out:  # written aside, then renamed: never half a file
        writer = csv.writer(out)
        writer.writerow(header)
        for r in rows:
            new = replacements.get(r["deal_id"]) if r["status"] == "unknown" else None
            writer.writerow(new if new is not None else [r[h] for h in header])
    partial.replace(rows_path)


def python_replay(position_line: str, line: str, draw: int) -> str:
    """Replay a winning line in solitaire_rl.envs.klondike (from the deal the position line names)."""
    from solitaire_rl.envs.klondike.game import KlondikeGame
    from solitaire_rl.envs.klondike.moves import Move

    name = position_line.split(" ", 1)[0]
    try:
        game = KlondikeGame(name, draw_count=draw)
        for text in line.split():
            game.push(Move.parse(text))
    except Exception as exc:  # an illegal move is the finding to report
        return f"FAIL py: {exc}"
    return "ok+py" if game.is_won() else "FAIL py: not won"




def search_speed(rows: list[dict[str, str]]) -> float | None:
    """States entered per second over the rows of this machine's clock that took over a second:
    the same code's pace changes with the load of a shared machine, and this shows it."""
    long = [r for r in rows if r["clock"] in ("cpu", "wall") and float(r["seconds"]) > 1.0]
    seconds = sum(float(r["seconds"]) for r in long)
    return sum(int(r["states"]) for r in long) / seconds if seconds > 0 else None


def share(part: int, whole: int) -> str:
    """``part / whole`` as a percentage with two decimals, more where two would round a part short
    of the whole up to 100%."""
    digits = 2
    while part < whole and f"{part / whole:.{digits}%}" == f"{1:.{digits}%}":
        digits += 1
    return f"{part / whole:.{digits}%}"


def summarize(rows: list[dict[str, str]], name: str) -> str:
    """The summary of rows from one or more runs (each row's ``file``, else ``klondike_<name>.csv``).

    A row whose limit is above its run's first limit was unknown at that limit and retried: its
    first-pass time is that limit, and it was not decided within it."""
    n = len(rows)
    limits = sorted({float(r["limit_s"]) for r in rows})
    clocks = sorted({r["clock"] for r in rows})
    file_of = [r.get("file", f"klondike_{name}.csv") for r in rows]
    files = list(dict.fromkeys(file_of)) or [f"klondike_{name}.csv"]
    first_of: dict[str, float] = {}
    for f, r in zip(file_of, rows, strict=True):
        first_of[f] = min(first_of.get(f, math.inf), float(r["limit_s"]))
    row_first = [first_of[f] for f in file_of]
    first = min(first_of.values()) if rows else math.nan
    by_status = {s: sum(r["status"] == s for r in rows) for s in ("winnable", "not_winnable", "unknown")}
    decided = by_status["winnable"] + by_status["not_winnable"]
    pairs = list(zip(rows, row_first, strict=True))
    first_pass = [float(r["seconds"]) if float(r["limit_s"]) == f else f for r, f in pairs]
    decided_first = sum(
        float(r["limit_s"]) == f and r["status"] != "unknown" and float(r["seconds"]) <= first
        for r, f in pairs
    )
    bad_checks = [r["deal_id"] for r in rows if r["check"].startswith("FAIL")]
    py_checked = sum(r["check"] == "ok+py" for r in rows)
    where = ", ".join(f"`benchmarks/results/{f}`" for f in files)
    lines = [
        f"# Klondike solver benchmark: {name}",
        "",
        f"Rows: {where} (one per deal). "
        f"Draw {rows[0]['draw'] if rows else '?'}. Clock: {', '.join(clocks)} "
        "('cpu' counts CPU time, 'wall' wall-clock), one core.",
        "",
        "| measure | value |",
        "|---|---|",
        f"| deals | {n} |",
        f"| winnable / not winnable / unknown | {by_status['winnable']} / {by_status['not_winnable']} / "
        f"{by_status['unknown']} |",
    ]
    if n:
        lines += [
            f"| decided within {first:g} s | {share(decided_first, n)} |",
            f"| median / 90th / 99th percentile seconds (first pass) | {statistics.median(first_pass):.4f} / "
            f"{percentile(first_pass, 0.9):.3f} / {percentile(first_pass, 0.99):.3f} |",
        ]
    speed = search_speed(rows)
    if speed is not None:
        pace = f"{speed / 1e6:.2f} M states/s"
        lines.append(f"| search speed, deals that ran over 1 s (the machine's pace) | {pace} |")
    if len(limits) > 1:
        lines.append(f"| decided after retrying the unknowns with {limits[-1]:g} s | {share(decided, n)} |")
    lines.append(f"| winning lines failing a replay check | {len(bad_checks)} |")
    if py_checked:
        lines.append(f"| winning lines also replayed in solitaire_rl.envs.klondike | {py_checked} |")
    referenced = [r for r in rows if r.get("reference") in ("solved", "unsolvable")]
    if referenced:
        agree = sum(
            (r["status"], r["reference"]) in (("winnable", "solved"), ("not_winnable", "unsolvable"))
            for r in referenced
        )
        contradict = sum(
            (r["status"], r["reference"]) in (("winnable", "unsolvable"), ("not_winnable", "solved"))
            for r in referenced
        )
        lines.append(f"| agree with the reference where it decided | {agree} / {len(referenced)} |")
        lines.append(f"| contradict the reference | {contradict} |")
    if decided:
        lo, hi = wilson_interval(by_status["winnable"], decided)
        w = by_status["winnable"] / decided
        lines.append(f"| winnable among decided | {w:.3%} (95% CI {lo:.3%} .. {hi:.3%}) |")
        lo_all, _ = wilson_interval(by_status["winnable"], n)
        _, hi_all = wilson_interval(by_status["winnable"] + by_status["unknown"], n)
        lines.append(f"| winnable, unknowns counted either way | {lo_all:.3%} .. {hi_all:.3%} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    RESULTS.mkdir(parents=True, exist_ok=True)
    rows_path = RESULTS / f"klondike_{args.name}.csv"
    if args.merge:
        merge_driver_output(args, rows_path)
    elif args.retry_unknown:
        retry_unknown(args, rows_path)
    elif not args.summary_only:
        run(args, rows_path)
    own = [rows_path] if rows_path.exists() or not args.also else []  # a summary of parts only
    paths = own + [RESULTS / f"klondike_{other}.csv" for other in args.also]
    rows = [{**r, "file": path.name} for path in paths for r in read_rows(path)]
    summary = summarize(rows, args.name)
    (RESULTS / f"klondike_{args.name}_summary.md").write_text(summary)
    sys.stdout.write(summary)


if __name__ == "__main__":
    main()
