#!/usr/bin/env python
"""Benchmark of :func:`solver.simulate`: how long certified motions take.

Run from the repository root::

    .venv/bin/python benchmarks/bench_motion.py [--repeats 21] [--json out.json]

One run measures, in one process, after a warm-up call of each scene (numba's
compiled code loaded from its cache):

1. a 16-ball break over 1 s of motion: a cue ball into a rack of 15 touching
   balls (rows at sqrt(3) spacing, so neighbours touch to rounding), free in
   space; the same rack with 1e-9 gaps; the same inside a fixed spherical
   container (the balls keep hitting the wall and one another);
2. Newton's cradle (5 balls) and a gas of 32 balls in a container;
3. the 16-ball break again with the solver running as plain Python
   (``SPHERE_SOLVER_JIT=0``, what the explorer sets to start fast), in a
   subprocess.

Each figure is the median (and 90th percentile) of ``--repeats`` timed calls
of ``simulate`` on pre-built bodies; ratios are between medians of this run.
The header gives the machine and the load average, as ``bench_solver.py`` does.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from bench_solver import _header, _json_safe, fmt_table, machine_info, median, percentile, timed_runs

from solver import Body, simulate

INF = math.inf


def rack(gap: float = 0.0, speed: float = 60.0, rows: int = 5) -> list[Body]:
    """A cue ball and a triangle of ``rows`` rows of radius-1 balls, spacing 2 (1 + gap)."""
    bodies = [Body((-20.0, 0.0, 0.0), (speed, 0.37, 0.0), 1.0)]
    d = 2.0 * (1.0 + gap)
    for row in range(rows):
        for k in range(row + 1):
            bodies.append(Body((row * d * math.sqrt(3) / 2, (k - row / 2) * d, 0.0), (0.0, 0.0, 0.0), 1.0))
    return bodies


def gas(n: int, seed: int = 7) -> tuple[list[Body], Body]:
    """``n`` balls of radius 0.5 at random places and velocities in a fixed container of radius 10."""
    rng = np.random.default_rng(seed)
    placed: list[np.ndarray] = []
    while len(placed) < n:
        c = rng.uniform(-9.0, 9.0, 3)
        if np.linalg.norm(c) < 9.4 and all(np.linalg.norm(c - o) > 1.0 for o in placed):
            placed.append(c)
    return [Body(tuple(c), tuple(rng.normal(0.0, 5.0, 3)), 0.5) for c in placed], Body(
        (0.0, 0.0, 0.0), radius=10.0, mass=INF
    )


def scenes() -> dict[str, tuple]:
    """name -> (bodies, horizon, restitution, container)."""
    bodies, box = gas(32)
    return {
        "16-ball break, touching rack, 1 s": (rack(), 1.0, 1.0, None),
        "16-ball break, rack with 1e-9 gaps, 1 s": (rack(1e-9), 1.0, 1.0, None),
        "16-ball break in a container (radius 24), 1 s": (
            rack(),
            1.0,
            1.0,
            Body((-4.0, 0.0, 0.0), radius=24.0, mass=INF),
        ),
        "16-ball break, restitution 0.9, 1 s": (rack(), 1.0, 0.9, None),
        "Newton's cradle, 5 balls, 10 s": (
            [Body((-5.0, 0, 0), (1.0, 0, 0), 1.0)] + [Body((2.0 * k, 0, 0), radius=1.0) for k in range(4)],
            10.0,
            1.0,
            None,
        ),
        "gas of 32 balls in a container, 1 s": (bodies, 1.0, 1.0, box),
    }


def bench(repeats: int) -> list[dict]:
    from solver import _compile

    _compile.load_exact_stage()  # now, not once its plain Python copy has decided its share (solver/_compile.py)
    rows = []
    for name, (bodies, h, e, box) in scenes().items():
        box_ = {}
        simulate(bodies, h, e, box)  # warm-up
        times = timed_runs(lambda: box_.__setitem__("m", simulate(bodies, h, e, box)), repeats)  # noqa: B023 (called here)
        m = box_["m"]
        rows.append(
            {
                "scene": name,
                "bodies": len(bodies),
                "events": len(m.events),
                "jam_events": sum(ev.kind == "jam" for ev in m.events),
                "stopped": m.stop_kind,
                "median_ms": median(times) * 1e3,
                "p90_ms": percentile(times, 90) * 1e3,
                "min_ms": float(min(times)) * 1e3,
                "us_per_event": median(times) / max(len(m.events), 1) * 1e6,
            }
        )
    return rows


_PLAIN = """
import sys, time, json
sys.path.insert(0, {here!r})
from solver import _compile
assert not _compile.compiling()
from bench_motion import rack
from solver import simulate
b = rack()
simulate(b, 1.0)
ts = []
for _ in range({repeats}):
    t = time.perf_counter(); m = simulate(b, 1.0); ts.append(time.perf_counter() - t)
ts.sort()
print(json.dumps({{"median_ms": ts[len(ts) // 2] * 1e3, "events": len(m.events)}}))
"""


def bench_plain(repeats: int) -> dict | None:
    """The touching-rack break with ``SPHERE_SOLVER_JIT=0`` (plain Python), in a subprocess."""
    env = {**os.environ, "SPHERE_SOLVER_JIT": "0"}
    here = str(Path(__file__).resolve().parent)
    code = _PLAIN.format(here=here, repeats=max(3, repeats // 4))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=900)
    if proc.returncode != 0:
        return {"error": proc.stderr.strip().splitlines()[-1] if proc.stderr else "failed"}
    return json.loads(proc.stdout)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=21, help="timed calls per scene")
    ap.add_argument("--no-plain", action="store_true", help="skip the plain-Python run")
    ap.add_argument("--json", metavar="PATH", help="also write the results as JSON to PATH")
    args = ap.parse_args(argv)
    wall0 = time.perf_counter()
    res = {"config": {"repeats": args.repeats}, "machine": machine_info()}
    res["scenes"] = bench(args.repeats)
    res["plain"] = None if args.no_plain else bench_plain(args.repeats)
    res["loadavg_at_end"] = os.getloadavg()
    res["wall_time_s"] = time.perf_counter() - wall0
    out = _header(res)
    out[0] = "motion benchmark  (benchmarks/bench_motion.py)"
    out.append(
        fmt_table(
            ["scene", "bodies", "events", "stop", "median ms", "p90 ms", "min ms", "us/event"],
            [
                [
                    r["scene"],
                    r["bodies"],
                    r["events"],
                    r["stopped"] or "-",
                    r["median_ms"],
                    r["p90_ms"],
                    r["min_ms"],
                    r["us_per_event"],
                ]
                for r in res["scenes"]
            ],
            f"simulate(), compiled; median of {args.repeats} calls after a warm-up",
        )
    )
    p = res["plain"]
    if p and "error" not in p:
        first = res["scenes"][0]
        out.append(
            f"  plain Python (SPHERE_SOLVER_JIT=0), touching-rack break: {p['median_ms']:.1f} ms median "
            f"({p['events']} events), {p['median_ms'] / first['median_ms']:.1f}x the compiled run"
        )
    elif p:
        out.append(f"  plain Python run failed: {p['error']}")
    out.append(f"\ntotal wall time {res['wall_time_s']:.1f} s")
    print("\n".join(out))
    if args.json:
        Path(args.json).write_text(json.dumps(_json_safe(res), indent=2, allow_nan=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
