"""How long ``make test``'s pytest takes here, and where the time goes.

Runs the README's test command (``python -m pytest -n auto --dist loadfile``) on this checkout, and with
``--previous CHECKOUT`` the same command on that checkout's tests and code (``PYTHONPATH=CHECKOUT``, in its own
folder) right after, in the same run.  Each run starts with an empty numba cache (``NUMBA_CACHE_DIR`` a new folder),
as on a fresh machine.  Prints, for each: the wall time, the counts pytest reported, the test time summed over all
tests (from a JUnit report: set-up, call and tear-down), and the files that took longest.

usage: .venv/bin/python benchmarks/bench_suite.py [--previous CHECKOUT] [--top 15] [--json out.json] [-- PYTEST ARGS]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

from bench_solver import machine_info

ROOT = Path(__file__).resolve().parents[1]
#: The README's test command, after the interpreter.
COMMAND = ["-m", "pytest", "-n", "auto", "--dist", "loadfile", "-q", "-p", "no:cacheprovider"]


def run_suite(checkout: Path, extra: list[str]) -> dict:
    """The test command on ``checkout`` (its tests, its code): wall seconds, pytest's last line, test seconds in all,
    and each test file's seconds."""
    with tempfile.TemporaryDirectory(prefix="bench-suite-") as scratch:
        report = Path(scratch) / "junit.xml"
        env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(scratch) / "numba"))
        if checkout != ROOT:
            env["PYTHONPATH"] = str(checkout)
        print(f"running the suite of {checkout} ...", file=sys.stderr, flush=True)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, *COMMAND, f"--junitxml={report}", *extra], cwd=checkout, env=env,
                              capture_output=True, text=True)  # fmt: skip
        wall = time.perf_counter() - start
        last = [line for line in done.stdout.splitlines() if re.search(r"\d+ (passed|failed)", line)]
        failed = [line for line in done.stdout.splitlines() if line.startswith(("FAILED ", "ERROR "))]
        files = Counter()
        if report.is_file():
            for case in ET.parse(report).iter("testcase"):
                files[case.get("classname", "").replace(".", "/") + ".py"] += float(case.get("time") or 0.0)
    return {"checkout": str(checkout), "wall_s": wall, "exit": done.returncode, "summary": last[-1] if last else "",
            "failed": failed, "test_s": sum(files.values()), "files_s": dict(files)}  # fmt: skip


def report(result: dict, top: int) -> str:
    lines = [f"{result['checkout']}: {result['wall_s']:.1f} s wall ({result['wall_s'] / 60:.2f} min), exit "
             f"{result['exit']}; {result['summary'].strip('= ')}",
             f"  test time {result['test_s']:.0f} s in all", *(f"  {line}" for line in result["failed"])]  # fmt: skip
    lines.append("  per file, longest first:")
    for name, seconds in sorted(result["files_s"].items(), key=lambda item: -item[1])[:top]:
        lines.append(f"    {seconds:7.1f} s  {name}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--previous", type=Path, help="another checkout whose suite runs right after this one's")
    parser.add_argument("--top", type=int, default=15, help="files listed per run (default 15)")
    parser.add_argument("--json", type=Path, help="also write the results as JSON here")
    parser.add_argument("pytest_args", nargs="*", help="more arguments for pytest (after --)")
    args = parser.parse_args()
    info = machine_info()
    print(f"machine: {info['cpu_model']}, {info['usable_cpus']} usable cores, Python {info['python']}; load average at start "
          f"{os.getloadavg()[0]:.2f}")  # fmt: skip
    results = [run_suite(ROOT, args.pytest_args)]
    if args.previous:
        results.append(run_suite(args.previous.resolve(), args.pytest_args))
    print(f"load average at end {os.getloadavg()[0]:.2f}")
    for result in results:
        print(report(result, args.top))
    if len(results) == 2:
        print(f"this checkout / previous (wall): {results[0]['wall_s'] / results[1]['wall_s']:.2f}")
    if args.json:
        args.json.write_text(json.dumps({"machine": info, "runs": results}, indent=2))


if __name__ == "__main__":
    main()
