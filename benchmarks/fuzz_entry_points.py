"""A million fuzzed inputs per native entry point (issue #39), resumable in chunks.

Each target of ``tests/native_fuzz_targets.py`` (one per native entry point that takes outside
data) runs in chunks of ``--chunk`` inputs, each chunk in its own process (a crash ends that
chunk only) and from its own seed, so a finding replays exactly with ``--chunk-run NAME SEED N``.
Every chunk's outcome, inputs, seed and CPU seconds go to the ledger as one JSON line; run the
same command again and it goes on from there, until every target has ``--inputs`` inputs.

    benchmarks/sanitize.sh build                                               # once: build/asan
    python benchmarks/fuzz_entry_points.py --inputs 1000000 --sanitize --jobs 2
    python benchmarks/fuzz_entry_points.py --inputs 1000000 --sanitize --report \\
        --summary benchmarks/results/fuzz/entry-points-asan.json

Exit status 1 if any chunk failed (a wrong answer, a crash, a hang or a sanitizer report).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LEDGER = ROOT / "data" / "fuzz" / "entry_points.jsonl"
SANITIZER_WORDS = ("AddressSanitizer", "UndefinedBehaviorSanitizer", "runtime error:", "LeakSanitizer")


def chunk_run(name: str, seed: int, inputs: int) -> None:
    """In the chunk's own process: run the inputs and print one JSON line of what happened."""
    sys.path.insert(0, str(ROOT))
    import solitaire_native

    from tests.native_fuzz_targets import run_target

    start = time.process_time()
    tally = run_target(name, seed, inputs)
    seconds = round(time.process_time() - start, 2)
    print(json.dumps({"tally": tally, "cpu_s": seconds, "module": solitaire_native.__file__}))


def build_name(sanitize: bool) -> str:
    return "asan+ubsan" if sanitize else "normal"


def commit() -> str:
    """The checked-out commit, with ``-dirty`` when the working tree differs from it."""
    head = subprocess.run(
        ["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True
    )
    return head.stdout.strip() or "unknown"


def play_chunk(name: str, seed: int, inputs: int, sanitize: bool) -> dict[str, object]:
    """One chunk in a child process; its ledger row."""
    args = [str(Path(__file__).resolve()), "--chunk-run", name, str(seed), str(inputs)]
    command = [str(ROOT / "benchmarks/sanitize.sh"), "python", *args] if sanitize else [sys.executable, *args]
    start = time.perf_counter()
    row: dict[str, object] = {"target": name, "seed": seed, "inputs": inputs, "build": build_name(sanitize)}
    try:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120 + inputs * 0.05)
    except subprocess.TimeoutExpired:
        return {
            **row,
            "ok": False,
            "error": "hang: the chunk ran past its time",
            "wall_s": time.perf_counter() - start,
        }
    report = any(word in done.stderr for word in SANITIZER_WORDS)
    lines = done.stdout.strip().splitlines()
    result = json.loads(lines[-1]) if done.returncode == 0 and lines else {}
    row.update(result)
    row["wall_s"] = round(time.perf_counter() - start, 1)
    row["ok"] = done.returncode == 0 and not report and bool(result)
    if not row["ok"]:
        row["error"] = (done.stdout + done.stderr)[-3000:]
    return row


def read_ledger(path: Path) -> list[dict]:
    if not path.exists():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:  # a line cut by a stop: that chunk runs again
            continue
    return rows


def summary(rows: list[dict], build: str) -> dict[str, dict]:
    """Per target, on one build: inputs in passed chunks, failed chunks, CPU seconds, calls answered
    and refused."""
    out: dict[str, dict] = defaultdict(
        lambda: {"inputs": 0, "chunks": 0, "failed_chunks": 0, "cpu_s": 0.0, "answered": 0, "refused": 0}
    )
    for row in rows:
        if row.get("build") != build:
            continue
        entry = out[row["target"]]
        if row.get("ok"):
            entry["inputs"] += row["inputs"]
            entry["chunks"] += 1
            entry["cpu_s"] = round(entry["cpu_s"] + row.get("cpu_s", 0.0), 1)
            tally = row.get("tally", {})
            entry["answered"] += tally.get("answered", 0) + tally.get("validated", 0)
            entry["refused"] += tally.get("refused", 0) + tally.get("invalid", 0)
        else:
            entry["failed_chunks"] += 1
    return dict(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=100_000, help="inputs per entry point, in all")
    parser.add_argument("--chunk", type=int, default=50_000, help="inputs per chunk (one process)")
    parser.add_argument("--sanitize", action="store_true", help="on the ASan/UBSan build (build/asan)")
    parser.add_argument("--jobs", type=int, default=1, help="chunks at once")
    parser.add_argument("-k", default="", help="only the targets whose name holds this text")
    parser.add_argument("--ledger", type=Path, default=LEDGER)
    parser.add_argument("--report", action="store_true", help="only print what the ledger holds")
    parser.add_argument("--summary", type=Path, help="write the per-target totals here (JSON)")
    parser.add_argument("--chunk-run", nargs=3, metavar=("NAME", "SEED", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.chunk_run:
        chunk_run(args.chunk_run[0], int(args.chunk_run[1]), int(args.chunk_run[2]))
        return 0

    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("PYTHONHASHSEED", "0")
    from tests.native_fuzz_targets import TARGETS

    names = [t.name for t in TARGETS if args.k in t.name]
    build = build_name(args.sanitize)
    args.ledger.parent.mkdir(parents=True, exist_ok=True)
    rows = read_ledger(args.ledger)
    failed = [r for r in rows if r.get("build") == build and not r.get("ok") and r["target"] in names]
    if not args.report:
        done = summary(rows, build)
        next_seed = {
            n: 1 + max((r["seed"] for r in rows if r["target"] == n and r.get("build") == build), default=0)
            for n in names
        }
        queue: list[tuple[str, int, int]] = []
        left = {n: args.inputs - done.get(n, {}).get("inputs", 0) for n in names}
        while any(v > 0 for v in left.values()):  # round robin, so that every target moves at once
            for n in names:
                if left[n] > 0:
                    size = min(args.chunk, left[n])
                    queue.append((n, next_seed[n], size))
                    next_seed[n] += 1
                    left[n] -= size
        print(f"{len(queue)} chunks to play on the {build} build, {args.jobs} at a time", flush=True)
        head = commit()
        if args.ledger.exists() and not args.ledger.read_bytes().endswith(b"\n"):
            with args.ledger.open("a", encoding="utf-8") as ledger:
                ledger.write("\n")  # after a line cut by a stop
        with ThreadPoolExecutor(args.jobs) as pool, args.ledger.open("a", encoding="utf-8") as ledger:
            for row in pool.map(lambda c: play_chunk(*c, args.sanitize), queue):
                row["commit"] = head
                ledger.write(json.dumps(row) + "\n")
                ledger.flush()
                mark = "ok" if row["ok"] else "FAILED"
                print(
                    f"{row['target']:<45} seed {row['seed']:>4} {row['inputs']:>8} inputs "
                    f"{row.get('cpu_s', '-'):>7} CPU s  {mark}",
                    flush=True,
                )
                if not row["ok"]:
                    failed.append(row)
                    print(row.get("error", ""), flush=True)
        rows = read_ledger(args.ledger)
    totals = summary(rows, build)
    for name in names:
        t = totals.get(name, {"inputs": 0, "failed_chunks": 0, "cpu_s": 0})
        print(
            f"{name:<45} {t['inputs']:>9} inputs  {t['failed_chunks']} failed chunks  {t['cpu_s']:>8} CPU s"
        )
    cpu_h = sum(t["cpu_s"] for t in totals.values()) / 3600
    print(
        f"{build}: {sum(t['inputs'] for t in totals.values())} inputs, {len(failed)} failed chunks, "
        f"{cpu_h:.2f} CPU-hours"
    )
    if args.summary:
        args.summary.parent.mkdir(parents=True, exist_ok=True)
        args.summary.write_text(
            json.dumps(
                {
                    "build": build,
                    "commits": sorted({r.get("commit", "?") for r in rows if r.get("build") == build}),
                    "cpu_hours": round(cpu_h, 2),
                    "wall_hours": round(
                        sum(r.get("wall_s", 0) for r in rows if r.get("build") == build) / 3600, 2
                    ),
                    "targets": {n: totals.get(n) for n in names},
                },
                indent=1,
            )
            + "\n",
            encoding="utf-8",
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
