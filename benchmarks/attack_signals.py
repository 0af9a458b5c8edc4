#!/usr/bin/env python
"""Ctrl-C and ``kill`` at random moments of ``render``, ``report`` and ``export-html``: the outcomes counted.

Run from the repository root with the test extra installed::

    .venv/bin/python benchmarks/attack_signals.py [--tree CHECKOUT] [--cases 200] [--jobs 2] [--seed 36]

The commands of ``tests/support/signal_helpers.py`` (a PNG, a GIF, a report
folder, a page, a site of two scenes; drawn without a display, through EGL)
are each run once whole to time them; then ``--cases`` runs, the commands in
turn, each sent SIGINT (to its process group, as a terminal's Ctrl-C) or
SIGTERM (to the process, as ``kill``) at a moment drawn uniformly from its
start to 1.1 times its length.  Each run's outcome is judged by
``signal_helpers.verdict``: ``interrupted`` (exit 130/143, one line, nothing
left) and ``complete`` (exit 0, the output whole, in place before the signal)
are right; ``killed before handler`` (the signal's default action before the
command's handler existed: nothing written, no line, 130/143 to a shell) is
counted apart; everything else is wrong.  Also printed: how long after its
start a command installs its handler (``/proc/PID/status``), and how long an
interrupted command took to stop after the signal.

The commands run this checkout's code (``PYTHONPATH``); ``--tree CHECKOUT``
another's, e.g. today's main, for a "before" count.  Other processes on the
machine change the moments; the load average is printed.  200 cases take
about 3 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import sys
import tempfile
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "support"))

import signal_helpers as sh  # noqa: E402

RIGHT = ("interrupted", "complete")
#: Not counted as wrong: the right outcomes, and a process killed while the interpreter started.
HARMLESS = (*RIGHT, "killed before handler")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", default=str(ROOT), help="checkout whose code runs (PYTHONPATH; default: this one)")
    parser.add_argument("--cases", type=int, default=200, help="timed signals in all (default 200)")
    parser.add_argument("--jobs", type=int, default=2, help="commands run at once (default 2)")
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--show", type=int, default=3, help="wrong outcomes shown in full, per kind (default 3)")
    args = parser.parse_args()
    env = sh.environment(args.tree)
    rng = random.Random(args.seed)
    print(f"arguments: {vars(args)}; load average at start {os.getloadavg()}; cores {os.cpu_count()}")
    with tempfile.TemporaryDirectory(prefix="attack-signals-") as scratch:
        scratch = Path(scratch)
        scenes = sh.scene_folder(scratch / "scenes")
        lengths = {}
        for name, command in sh.COMMANDS.items():
            whole = sh.run(command, scenes, scratch / f"whole-{len(lengths)}", env=env)
            assert whole.verdict == "complete", whole
            lengths[name] = whole.length
            print(f"{name:18s} a whole run {whole.length:.2f} s; handler after {1000 * whole.handler:.0f} ms")
        plan = []
        names = list(sh.COMMANDS)
        for k in range(args.cases):
            name = names[k % len(names)]
            signum = rng.choice((signal.SIGINT, signal.SIGTERM))
            plan.append((name, signum, rng.uniform(0.0, 1.1 * lengths[name])))
        with ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(lambda k: sh.run(sh.COMMANDS[plan[k][0]], scenes, scratch / f"case-{k}",
                                                     plan[k][1], plan[k][2], env=env), range(len(plan))))  # fmt: skip
    _print(results, args.show)
    print(f"load average at end {os.getloadavg()}")
    return 0


def _print(results: list[sh.Run], show: int) -> None:
    by_command: dict[str, Counter] = defaultdict(Counter)
    for r in results:
        by_command[r.command][r.verdict] += 1
    verdicts = sorted({r.verdict for r in results}, key=lambda v: (v not in RIGHT, v))
    widths = [len(v) + 2 for v in verdicts]
    print(f"\n{'command':18s}" + "".join(f"{v:>{w}s}" for v, w in zip(verdicts, widths)) + f"{'wrong':>8s}")
    total = Counter(r.verdict for r in results)
    for name, counts in [*by_command.items(), ("all", total)]:
        wrong = sum(n for v, n in counts.items() if v not in HARMLESS)
        print(f"{name:18s}" + "".join(f"{counts[v]:{w}d}" for v, w in zip(verdicts, widths)) + f"{wrong:8d}")
    wrong = sum(n for v, n in total.items() if v not in HARMLESS)
    print(f"wrong: {wrong} of {len(results)} ({100 * wrong / len(results):.1f} %)")
    handlers = [r.handler for r in results if r.handler is not None]
    if handlers:
        print(f"handler installed after start: median {1000 * statistics.median(handlers):.0f} ms, "
              f"max {1000 * max(handlers):.0f} ms")  # fmt: skip
    stopped = sorted((r for r in results if r.verdict == "interrupted"), key=lambda r: r.reaction)
    if stopped:
        reactions = [r.reaction for r in stopped]
        slowest = stopped[-1]
        print(f"stopped after the signal: median {statistics.median(reactions):.2f} s, "
              f"90 % {reactions[int(0.9 * (len(reactions) - 1))]:.2f} s, max {reactions[-1]:.2f} s "
              f"({slowest.command}, sent at {slowest.moment:.2f} s of {slowest.length:.2f})")  # fmt: skip
    shown: Counter = Counter()
    for r in results:
        if r.verdict not in RIGHT and shown[r.verdict] < show:
            shown[r.verdict] += 1
            name = signal.Signals(r.signal).name
            print(f"\n[{r.verdict}] {r.command}, {name} at {r.moment:.3f} s: {r.details}")


if __name__ == "__main__":
    sys.exit(main())
