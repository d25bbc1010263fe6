"""The native fuzz harnesses run long (issue 39): every harness of tests/test_native_fuzz.py and
tests/test_native_fuzz_inputs.py with ``--examples`` inputs each, on the normal build or (``--sanitize``)
on the ASan/UBSan build of ``benchmarks/sanitize.sh build``. Prints each harness's inputs, time and
result; any failure, crash or sanitizer report makes the exit status non-zero.

    python benchmarks/fuzz_native.py --examples 20000
    python benchmarks/fuzz_native.py --examples 1000000 --sanitize --json fuzz.json   # the issue's figure

The suite runs the same harnesses with 120-150 inputs each.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = ("tests/test_native_fuzz.py", "tests/test_native_fuzz_inputs.py")


def harnesses() -> list[str]:
    """The node IDs of the fuzz harnesses (the tests that use Hypothesis's ``@given``)."""
    ids = []
    for name in FILES:
        text = (ROOT / name).read_text(encoding="utf-8")
        ids += [f"{name}::{m}" for m in re.findall(r"@given\([^\n]*(?:\n[^\n@]*)*?\ndef (test_\w+)", text)]
    return ids


def run(node: str, examples: int, sanitize: bool) -> dict[str, object]:
    """One harness in its own process (a crash ends that process only); its outcome and time."""
    env = {**os.environ, "SOLITAIRE_FUZZ_EXAMPLES": str(examples)}
    pytest = ["-m", "pytest", "-q", "-p", "no:cacheprovider", node]
    command = (
        [str(ROOT / "benchmarks/sanitize.sh"), "python", *pytest] if sanitize else [sys.executable, *pytest]
    )
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    report = "AddressSanitizer" in done.stderr or "runtime error:" in done.stderr
    return {
        "harness": node.split("::")[1],
        "examples": examples,
        "seconds": round(seconds, 1),
        "passed": done.returncode == 0 and not report,
        "returncode": done.returncode,
        "sanitizer_report": report,
        "tail": (done.stdout + done.stderr)[-1500:] if done.returncode else "",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=10_000, help="inputs per harness")
    parser.add_argument("--sanitize", action="store_true", help="on the ASan/UBSan build (build/asan)")
    parser.add_argument("-k", default="", help="only the harnesses whose name holds this text")
    parser.add_argument("--json", type=Path, help="write the results here")
    args = parser.parse_args()
    results = []
    for node in harnesses():
        if args.k in node:
            result = run(node, args.examples, args.sanitize)
            results.append(result)
            print(
                f"{result['harness']:<90} {args.examples:>9} inputs {result['seconds']:>8} s  "
                f"{'ok' if result['passed'] else 'FAILED'}",
                flush=True,
            )
            if not result["passed"]:
                print(result["tail"])
    failed = [r for r in results if not r["passed"]]
    build = "asan+ubsan" if args.sanitize else "normal"
    print(f"{len(results)} harnesses, {len(failed)} failed, build: {build}")
    if args.json:
        args.json.write_text(
            json.dumps({"build": "asan+ubsan" if args.sanitize else "normal", "results": results}, indent=1),
            encoding="utf-8",
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
