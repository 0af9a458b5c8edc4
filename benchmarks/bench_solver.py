#!/usr/bin/env python
"""Benchmark of the ``solver`` package: scalar latency, batch throughput, baselines.

Run from the repository root (``make bench`` does exactly this)::

    .venv/bin/python benchmarks/bench_solver.py [--json out.json]

One run measures, on the same machine and in the same process:

1. the machine (CPU, cores, load, library versions, solver source fingerprint)
   and the cold-start cost of the first calls (numba cache load);
2. scalar :func:`solver.sweep` / :func:`solver.sweep_inside` latency on a few
   fixed configurations, bodies pre-built (only the call and its result object
   are timed);
3. :func:`solver.sweep_many` throughput on ``--n`` seeded random pairs;
4. a plain-numpy "textbook" quadratic on the same pairs: time, and how often
   its hit/miss verdict differs from the exact solver's; (4b) the same
   comparison on adversarial near-grazing pairs;
5. python-fcl ``continuousCollide`` (if importable) on a sample of the pairs:
   time per pair and agreement with the exact solver; (5b) FCL's verdicts on
   near-grazing pairs;
6. :func:`solver.sweep_many` with shared scalar radii/horizon (broadcast) and
   with a per-pair horizon array;
7. the exact path: :func:`solver.sweep_many` on ``--exact-n`` pairs that all
   touch exactly (at t = 0, on an exact tangent, exactly at the horizon, and a
   mix), which the float filter cannot decide; the same pairs decided by
   Python integers alone (the expansion stage switched off) on a sample, for
   the same-run ratio.

Every figure is a median over repeats taken in this run; ratios are between
medians of this run.  Numbers are only comparable between runs with the same
arguments, machine and solver fingerprint (all printed).  The script writes
nothing except ``--json PATH`` (numba's own on-disk cache aside).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import gc
import hashlib
import json
import math
import os
import platform
import subprocess
import sys
import time
import timeit
from pathlib import Path

import numpy as np

import solver
from solver import Body, Status, sweep, sweep_inside, sweep_many

sys.path.insert(0, str(Path(__file__).resolve().parent))
from previous import EXACT_PATH_001CA0B, ISSUE_17, QUOTED, run_previous  # noqa: E402

# --------------------------------------------------------------------------
# helpers


def percentile(values, q: float) -> float:
    return float(np.percentile(np.asarray(values, dtype=float), q))


def median(values) -> float:
    return float(np.median(np.asarray(values, dtype=float)))


def timed_call(fn) -> tuple[float, float]:
    """Wall and CPU time (s, this process's threads) of one ``fn()``, GC disabled."""
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        return time.perf_counter() - t0, time.process_time() - c0
    finally:
        if gc_was_enabled:
            gc.enable()


def timed_runs(fn, repeats: int) -> list[float]:
    """Wall time (s) of ``fn()`` for each of ``repeats`` runs, GC disabled (as timeit does)."""
    out = []
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            t0 = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t0)
    finally:
        if gc_was_enabled:
            gc.enable()
    return out


def fmt_table(headers: list[str], rows: list[list[object]], title: str) -> str:
    """Plain-text table; numbers right-aligned, text left-aligned."""

    def cell(v):
        if isinstance(v, float):
            if math.isnan(v):
                return "n/a"
            a = abs(v)
            if a != 0 and (a >= 1e6 or a < 1e-3):
                return f"{v:.3e}"
            return f"{v:,.3f}" if a < 1000 else f"{v:,.1f}"
        return str(v)

    cells = [[cell(v) for v in r] for r in rows]
    numeric = [
        all((isinstance(r[i], (int, float)) and not isinstance(r[i], bool)) or r[i] == "-" for r in rows)
        for i in range(len(headers))
    ]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]

    def line(vals):
        return "  ".join(
            v.rjust(w) if numeric[i] else v.ljust(w) for i, (v, w) in enumerate(zip(vals, widths))
        ).rstrip()

    bar = "-" * len(line(headers))
    return "\n".join([title, bar, line(headers), bar, *(line(r) for r in cells), ""])


def _read_cpu_model() -> str:
    try:
        for ln in Path("/proc/cpuinfo").read_text().splitlines():
            if ln.lower().startswith("model name"):
                return ln.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _solver_fingerprint() -> str:
    """sha256 of the solver package's .py sources (the repo may have no commits)."""
    h = hashlib.sha256()
    root = Path(solver.__file__).parent
    for p in sorted(root.glob("*.py")):
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def _simd_flags() -> list[str]:
    try:
        for ln in Path("/proc/cpuinfo").read_text().splitlines():
            if ln.startswith("flags"):
                flags = set(ln.split(":", 1)[1].split())
                return [f for f in ("sse4_2", "avx", "avx2", "fma", "avx512f", "avx512dq", "avx512vl") if f in flags]
    except OSError:
        pass
    return []


def machine_info() -> dict:
    import numba

    try:
        import fcl  # noqa: F401
        from fcl.version import __version__ as fcl_version
    except Exception as exc:  # noqa: BLE001
        fcl_version = f"unavailable ({type(exc).__name__}: {exc})"
    try:
        affinity = len(os.sched_getaffinity(0))
    except AttributeError:
        affinity = None
    try:
        load = os.getloadavg()
    except OSError:
        load = None
    return {
        "date": _dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "cpu_model": _read_cpu_model(),
        "simd": _simd_flags(),
        "hypervisor": "hypervisor" in Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else None,
        "logical_cpus": os.cpu_count(),
        "usable_cpus": affinity,
        "loadavg_at_start": load,
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "python_impl": platform.python_implementation(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "fcl": fcl_version,
        "solver_path": str(Path(solver.__file__).parent),
        "solver_sha256_16": _solver_fingerprint(),
        "numba_env": {k: v for k, v in os.environ.items() if k.startswith("NUMBA_")},
    }


# --------------------------------------------------------------------------
# data


def make_pairs(n: int, seed: int, box: float, vel_sigma: float) -> dict:
    """n random pairs: centres uniform in [-box, box]^3, velocities N(0, vel_sigma^2), radii U(0.1, 2)."""
    rng = np.random.default_rng(seed)
    return {
        "ca": rng.uniform(-box, box, (n, 3)),
        "va": rng.normal(0.0, vel_sigma, (n, 3)),
        "ra": rng.uniform(0.1, 2.0, n),
        "cb": rng.uniform(-box, box, (n, 3)),
        "vb": rng.normal(0.0, vel_sigma, (n, 3)),
        "rb": rng.uniform(0.1, 2.0, n),
    }


def textbook(ca, va, ra, cb, vb, rb, h):
    """The quadratic as in a textbook, whole-array numpy, no error control.

    Returns (hit, toi) with toi = NaN where there is no hit, 0 when overlapping.
    """
    p = cb - ca
    v = vb - va
    R = ra + rb
    a = np.einsum("ij,ij->i", v, v)
    b = 2.0 * np.einsum("ij,ij->i", p, v)
    c = np.einsum("ij,ij->i", p, p) - R * R
    disc = b * b - 4.0 * a * c
    with np.errstate(invalid="ignore", divide="ignore"):
        t0 = (-b - np.sqrt(disc)) / (2.0 * a)
    hit = (c <= 0.0) | ((disc >= 0.0) & (t0 >= 0.0) & (t0 <= h))
    toi = np.where(c <= 0.0, 0.0, np.where(hit, t0, np.nan))
    return hit, toi


def make_grazing(n: int, seed: int) -> dict:
    """n near-grazing shots: A flies past a resting B whose centre is 2 (1 +- 1e-9) off A's path.

    Radii 1 + 1, so contact hinges on the sign of a quantity near 1e-9 relative:
    where whole-array float formulas without error control lose the verdict.
    """
    rng = np.random.default_rng(seed)
    L = rng.uniform(10.0, 1000.0, n)
    z = np.zeros(n)
    return {
        "ca": np.zeros((n, 3)),
        "va": np.stack([2.0 * L, z, z], 1),
        "ra": np.ones(n),
        "cb": np.stack([L, 2.0 * (1.0 + rng.uniform(-1e-9, 1e-9, n)), z], 1),
        "vb": np.zeros((n, 3)),
        "rb": np.ones(n),
    }


def bench_grazing(n: int, seed: int, h: float, repeats: int) -> dict:
    """Supplement to [4]: the same comparison on adversarial near-grazing pairs."""
    d = make_grazing(n, seed)
    args = (d["ca"], d["va"], d["ra"], d["cb"], d["vb"], d["rb"])
    out = {}
    t_many = timed_runs(lambda: out.__setitem__("r", sweep_many(*args, horizon=h)), repeats)
    t_tb = timed_runs(lambda: out.__setitem__("t", textbook(*args, h)), repeats)
    r, (hit_t, _toi) = out["r"], out["t"]
    dis = np.flatnonzero(hit_t != r.hit)
    examples = []
    for i in dis[:3].tolist():
        ex = pair_repr(d, i, h)
        ex.update(
            textbook_hit=bool(hit_t[i]), solver_status=Status(int(r.status[i])).name, solver_exact=bool(r.exact[i])
        )
        examples.append(ex)
    return {
        "n": n,
        "sweep_many_median_s": median(t_many),
        "sweep_many_min_s": float(min(t_many)),
        "textbook_median_s": median(t_tb),
        "exact_pairs": int(r.exact.sum()),
        "solver_hits": int(r.hit.sum()),
        "textbook_hits": int(hit_t.sum()),
        "verdict_disagreements": int(dis.size),
        "textbook_hit_solver_miss": int((hit_t & ~r.hit).sum()),
        "textbook_miss_solver_hit": int((~hit_t & r.hit).sum()),
        "disagreement_examples": examples,
    }


def pair_repr(d: dict, i: int, h: float) -> dict:
    """The inputs of pair i as plain lists (repr-exact floats), for a repro."""
    return {
        "index": int(i),
        "a": {"center": d["ca"][i].tolist(), "velocity": d["va"][i].tolist(), "radius": float(d["ra"][i])},
        "b": {"center": d["cb"][i].tolist(), "velocity": d["vb"][i].tolist(), "radius": float(d["rb"][i])},
        "horizon": h,
    }


# --------------------------------------------------------------------------
# sections


def scalar_configs() -> list[tuple[str, str, object, Body, Body, float]]:
    """(name, expected status, function, a, b, horizon)."""
    B = Body
    return [
        ("hit (head-on)", "HIT", sweep, B((0, 0, 0), (10, 0, 0), 1.0), B((5, 0, 0), (0, 0, 0), 1.0), 1.0),
        (
            "hit (3-D, both moving)",
            "HIT",
            sweep,
            B((0.1, -0.2, 0.3), (4.1, 2.2, -0.7), 0.7),
            B((3.3, 1.9, -0.4), (-1.2, 0.3, 0.5), 0.9),
            1.0,
        ),
        ("miss (passes by)", "MISS", sweep, B((0, 0, 0), (10, 0, 0), 1.0), B((5, 3, 0), (0, 0, 0), 1.0), 1.0),
        ("separating", "SEPARATING", sweep, B((0, 0, 0), (-10, 0, 0), 1.0), B((5, 0, 0), (0, 0, 0), 1.0), 1.0),
        ("overlapping at t=0", "OVERLAPPING", sweep, B((0, 0, 0), (10, 0, 0), 1.0), B((1, 0, 0), (0, 0, 0), 1.0), 1.0),
        ("later (after horizon)", "LATER", sweep, B((0, 0, 0), (1, 0, 0), 1.0), B((5, 0, 0), (0, 0, 0), 1.0), 1.0),
        (
            "inside container",
            "HIT",
            sweep_inside,
            B((1.3, -0.4, 0.2), (2.1, -3.3, 1.7), 0.5),
            B((0.2, 0.1, 0.0), (0, 0, 0), 5.0),
            1.0,
        ),
        ("grazing (exact path)", "HIT", sweep, B((0, 0, 0), (10, 0, 0), 1.0), B((5, 2, 0), (0, 0, 0), 1.0), 1.0),
    ]


def bench_scalar(repeats: int, calls: int, chunk: int) -> dict:
    """Per-call latency from 100-call chunks: repeats x calls calls in all per config."""
    chunks_per_repeat = max(1, calls // chunk)
    rows = []
    # Loop overhead of timeit itself (empty statement), for reference.
    t = timeit.Timer("pass")
    empty = [x / chunk * 1e6 for x in t.repeat(repeat=repeats * chunks_per_repeat, number=chunk)]
    overhead_us = median(empty)
    for name, expected, fn, a, b, h in scalar_configs():
        s = fn(a, b, h)
        for _ in range(2000):  # warm caches / first-call costs
            fn(a, b, h)
        timer = timeit.Timer("fn(a, b, h)", globals={"fn": fn, "a": a, "b": b, "h": h})
        per_call = []
        repeat_means = []
        for _ in range(repeats):
            xs = [x / chunk * 1e6 for x in timer.repeat(repeat=chunks_per_repeat, number=chunk)]
            per_call.extend(xs)
            repeat_means.append(float(np.mean(xs)))
        rows.append(
            {
                "case": name,
                "function": fn.__name__,
                "status": s.status.name,
                "expected_status": expected,
                "status_ok": s.status.name == expected,
                "exact_path": bool(s.exact),
                "median_us": median(per_call),
                "p95_us": percentile(per_call, 95),
                "min_us": float(min(per_call)),
                "median_of_repeat_means_us": median(repeat_means),
                "samples": len(per_call),
                "calls": len(per_call) * chunk,
            }
        )
    return {
        "repeats": repeats,
        "calls_per_repeat": chunks_per_repeat * chunk,
        "chunk": chunk,
        "timeit_empty_loop_us_per_call": overhead_us,
        "cases": rows,
    }


def bench_batch(d: dict, h: float, repeats: int) -> dict:
    """Sections 3, 4 and 6: every variant timed in round-robin order, ``repeats`` rounds.

    Interleaving the variants means a burst of load from another process hits
    all of them alike, so the ratios between medians stay meaningful on a busy
    machine.  Each timed call is preceded by an untimed call of the same
    variant, so that no variant inherits another's allocator or cache state
    (a call right after the textbook's large temporaries measured ~10% slower).
    """
    n = d["ra"].shape[0]
    ca, va, ra, cb, vb, rb = (d[k] for k in ("ca", "va", "ra", "cb", "vb", "rb"))
    hh = np.full(n, h)
    variants = {
        "sweep_many": lambda: sweep_many(ca, va, ra, cb, vb, rb, horizon=h),
        "textbook": lambda: textbook(ca, va, ra, cb, vb, rb, h),
        "sweep_many_horizon_array": lambda: sweep_many(ca, va, ra, cb, vb, rb, horizon=hh),
        "sweep_many_scalar_radii": lambda: sweep_many(ca, va, 1.0, cb, vb, 1.0, horizon=h),
    }

    # Each signature (float or array horizon; float or array radii) is a separate numba specialisation.
    k = min(n, 1000)
    sweep_many(ca[:k], va[:k], ra[:k], cb[:k], vb[:k], rb[:k], horizon=h)
    sweep_many(ca[:k], va[:k], ra[:k], cb[:k], vb[:k], rb[:k], horizon=hh[:k])
    sweep_many(ca[:k], va[:k], 1.0, cb[:k], vb[:k], 1.0, horizon=h)
    results = {name: fn() for name, fn in variants.items()}  # full-size warm-up, and the results
    times = {name: [] for name in variants}
    cpu = {name: [] for name in variants}
    for _ in range(repeats):
        for name, fn in variants.items():
            fn()  # untimed: each timed call follows a call of the same variant (allocator/cache state)
            wall, used = timed_call(fn)
            times[name].append(wall)
            cpu[name].append(used)

    def summary(name):
        med = median(times[name])
        return {
            "median_s": med,
            "min_s": float(min(times[name])),
            "times_s": times[name],
            "mpairs_per_s": n / med / 1e6,
            "ns_per_pair": med / n * 1e9,
            "cpu_median_s": median(cpu[name]),
        }

    # [3] sweep_many, radii (n,), horizon float
    r = results["sweep_many"]
    counts = np.bincount(r.status.astype(np.int64), minlength=len(Status))
    batch = {
        "n": n,
        "horizon": h,
        "call": "sweep_many(ca, va, ra, cb, vb, rb, horizon=1.0)",
        **summary("sweep_many"),
        "exact_pairs": int(r.exact.sum()),
        "hits": int(r.hit.sum()),
        "status_counts": {Status(i).name: int(c) for i, c in enumerate(counts)},
    }

    # [4] textbook vs exact
    hit_t, toi_t = results["textbook"]
    dis = np.flatnonzero(hit_t != r.hit)
    tb_only = np.flatnonzero(hit_t & ~r.hit)
    ex_only = np.flatnonzero(~hit_t & r.hit)
    both = hit_t & r.hit
    diff = np.abs(toi_t[both] - r.toi[both])
    examples = []
    for i in dis[:5].tolist():
        ex = pair_repr(d, i, h)
        ex.update(
            textbook_hit=bool(hit_t[i]),
            textbook_toi=float(toi_t[i]),
            solver_hit=bool(r.hit[i]),
            solver_status=Status(int(r.status[i])).name,
            solver_toi=float(r.toi[i]),
            solver_exact=bool(r.exact[i]),
        )
        examples.append(ex)
    tb = {
        **summary("textbook"),
        "ratio_textbook_over_sweep_many": median(times["textbook"]) / batch["median_s"],
        "hits": int(hit_t.sum()),
        "verdict_disagreements": int(dis.size),
        "textbook_hit_solver_miss": int(tb_only.size),
        "textbook_miss_solver_hit": int(ex_only.size),
        "both_hit": int(both.sum()),
        "toi_max_abs_diff_both_hit": float(diff.max()) if diff.size else float("nan"),
        "toi_pairs_diff_gt_1e-10": int((diff > 1e-10).sum()),
        "disagreement_examples": examples,
    }

    # [6] broadcast scalars, and a per-pair horizon array
    r1 = results["sweep_many_scalar_radii"]
    kk = min(n, 100_000)
    ones = np.ones(kk)
    r1x = sweep_many(ca[:kk], va[:kk], ones, cb[:kk], vb[:kk], ones, horizon=np.full(kk, h))
    r2 = results["sweep_many_horizon_array"]
    bc = {
        "scalar_radii_scalar_horizon": {
            "call": "sweep_many(ca, va, 1.0, cb, vb, 1.0, horizon=1.0)  (different data: radii 1)",
            **summary("sweep_many_scalar_radii"),
            "ratio_vs_array_radii": median(times["sweep_many_scalar_radii"]) / batch["median_s"],
            "hits": int(r1.hit.sum()),
            "exact_pairs": int(r1.exact.sum()),
            # same answers as explicit (n,) arrays of ones, checked on a slice
            "same_verdicts_as_array_path": bool(
                np.array_equal(r1x.status, r1.status[:kk]) and np.array_equal(r1x.toi, r1.toi[:kk], equal_nan=True)
            ),
        },
        "array_radii_array_horizon": {
            "call": "sweep_many(ca, va, ra, cb, vb, rb, horizon=np.full(n, 1.0))",
            **summary("sweep_many_horizon_array"),
            "ratio_vs_array_radii": median(times["sweep_many_horizon_array"]) / batch["median_s"],
            "hits": int(r2.hit.sum()),
            "exact_pairs": int(r2.exact.sum()),
            "same_verdicts_as_array_path": bool(
                np.array_equal(r2.status, r.status) and np.array_equal(r2.toi, r.toi, equal_nan=True)
            ),
        },
    }
    return {"batch": batch, "textbook": tb, "broadcast": bc, "_result": r}


def bench_fcl(d: dict, h: float, sample: int, repeats: int, batch: dict, full) -> dict:
    try:
        import fcl
        from fcl.version import __version__ as fcl_version
    except Exception as exc:  # noqa: BLE001
        return {"skipped": True, "reason": f"import fcl failed: {type(exc).__name__}: {exc}"}

    m = min(sample, d["ra"].shape[0])
    s = {k: v[:m] for k, v in d.items()}
    req = fcl.ContinuousCollisionRequest()  # defaults: conservative advancement, CCDM_TRANS, libccd GJK
    req_desc = {
        "ccd_solver_type": "CCDC_CONSERVATIVE_ADVANCEMENT"
        if req.ccd_solver_type == fcl.CCDSolverType.CCDC_CONSERVATIVE_ADVANCEMENT
        else req.ccd_solver_type,
        "ccd_motion_type": "CCDM_TRANS" if req.ccd_motion_type == fcl.CCDMotionType.CCDM_TRANS else req.ccd_motion_type,
        "gjk_solver_type": "GST_LIBCCD" if req.gjk_solver_type == fcl.GJKSolverType.GST_LIBCCD else req.gjk_solver_type,
        "num_max_iterations": req.num_max_iterations,
        "toc_err": req.toc_err,
    }
    # Pre-built objects: start pose in the CollisionObject, end pose as a separate Transform.
    objs = []
    for i in range(m):
        o1 = fcl.CollisionObject(fcl.Sphere(float(s["ra"][i])), fcl.Transform(s["ca"][i].copy()))
        o2 = fcl.CollisionObject(fcl.Sphere(float(s["rb"][i])), fcl.Transform(s["cb"][i].copy()))
        t1 = fcl.Transform(s["ca"][i] + s["va"][i] * h)
        t2 = fcl.Transform(s["cb"][i] + s["vb"][i] * h)
        objs.append((o1, t1, o2, t2))

    Result = fcl.ContinuousCollisionResult
    cc = fcl.continuousCollide
    fcl_hit = np.zeros(m, bool)
    fcl_toc = np.zeros(m)
    fcl_ret = np.zeros(m)

    def run_fcl_record():
        for i, (o1, t1, o2, t2) in enumerate(objs):
            res = Result()  # the result accumulates (OR / min), so a fresh one per query
            fcl_ret[i] = cc(o1, t1, o2, t2, req, res)
            fcl_hit[i] = res.is_collide
            fcl_toc[i] = res.time_of_contact

    def run_fcl():
        for o1, t1, o2, t2 in objs:
            cc(o1, t1, o2, t2, req, Result())

    run_fcl_record()
    first = (fcl_hit.copy(), fcl_toc.copy())
    run_fcl_record()  # deterministic, and the objects are not mutated by a query?
    deterministic = bool(np.array_equal(first[0], fcl_hit) and np.array_equal(first[1], fcl_toc))

    # Scalar sweep on the same pre-built pairs.
    bodies = [
        (
            Body(tuple(s["ca"][i].tolist()), tuple(s["va"][i].tolist()), float(s["ra"][i])),
            Body(tuple(s["cb"][i].tolist()), tuple(s["vb"][i].tolist()), float(s["rb"][i])),
        )
        for i in range(m)
    ]
    scal = [sweep(a, b, h) for a, b in bodies]

    def run_scalar():
        for a, b in bodies:
            sweep(a, b, h)

    # sweep_many on the sample (small n: call overhead visible).
    args = (s["ca"], s["va"], s["ra"], s["cb"], s["vb"], s["rb"])
    r = sweep_many(*args, horizon=h)
    sample_vs_full_mismatch = int((r.status != full.status[:m]).sum())

    def run_many():
        for _ in range(10):  # one pass = 10 calls, the sample being small
            sweep_many(*args, horizon=h)

    # Interleaved passes, so that load from other processes hits all three alike.
    t_fcl, t_scalar, t_many = [], [], []
    for _ in range(repeats):
        t_fcl += timed_runs(run_fcl, 1)
        t_scalar += timed_runs(run_scalar, 1)
        t_many += [x / 10 for x in timed_runs(run_many, 1)]

    # Scalar vs batch consistency (docstring promises equal verdicts).
    sc_status = np.array([int(x.status) for x in scal], dtype=np.int8)
    sc_toi = np.array([np.nan if x.toi is None else x.toi for x in scal])
    scalar_batch_mismatch = int(
        (sc_status != r.status).sum() + (~np.isclose(sc_toi, r.toi, rtol=0, atol=0, equal_nan=True)).sum()
    )

    # FCL vs exact.  FCL's time of contact is normalised to the motion, [0, 1]; toi = toc * h.
    fcl_toi = fcl_toc * h
    fcl_only = np.flatnonzero(fcl_hit & ~r.hit)
    ex_only = np.flatnonzero(~fcl_hit & r.hit)
    both = fcl_hit & r.hit
    diff = np.abs(fcl_toi[both] - r.toi[both])
    overl = r.status == int(Status.OVERLAPPING)
    diff_moving = np.abs(fcl_toi[both & ~overl] - r.toi[both & ~overl])
    signed = fcl_toi[both] - r.toi[both]
    examples = []
    for i in np.concatenate([fcl_only[:3], ex_only[:3]]).tolist():
        ex = pair_repr(s, i, h)
        ex.update(
            fcl_is_collide=bool(fcl_hit[i]),
            fcl_time_of_contact=float(fcl_toc[i]),
            fcl_return=float(fcl_ret[i]),
            solver_status=Status(int(r.status[i])).name,
            solver_toi=float(r.toi[i]),
        )
        examples.append(ex)
    worst = int(np.flatnonzero(both)[np.argmax(diff)]) if diff.size else None
    worst_ex = None
    if worst is not None:
        worst_ex = pair_repr(s, worst, h)
        worst_ex.update(
            fcl_time_of_contact=float(fcl_toc[worst]),
            solver_toi=float(r.toi[worst]),
            solver_status=Status(int(r.status[worst])).name,
        )

    us = lambda ts: median(ts) / m * 1e6  # noqa: E731
    return {
        "skipped": False,
        "fcl_version": fcl_version,
        "sample": m,
        "request": req_desc,
        "deterministic_between_runs": deterministic,
        "fcl_us_per_pair": us(t_fcl),
        "sweep_us_per_pair": us(t_scalar),
        "sweep_many_sample_us_per_pair": us(t_many),
        "sweep_many_full_us_per_pair": batch["median_s"] / batch["n"] * 1e6,
        "ratio_fcl_over_sweep": us(t_fcl) / us(t_scalar),
        "ratio_fcl_over_sweep_many_sample": us(t_fcl) / us(t_many),
        "ratio_fcl_over_sweep_many_full": us(t_fcl) / (batch["median_s"] / batch["n"] * 1e6),
        "solver_hits": int(r.hit.sum()),
        "fcl_hits": int(fcl_hit.sum()),
        "fcl_negative_return": int((fcl_ret < 0).sum()),
        "hit_disagreements": int(fcl_only.size + ex_only.size),
        "fcl_hit_solver_miss": int(fcl_only.size),
        "fcl_miss_solver_hit": int(ex_only.size),
        "both_hit": int(both.sum()),
        "toi_max_abs_diff_both_hit": float(diff.max()) if diff.size else float("nan"),
        "toi_median_abs_diff_both_hit": float(np.median(diff)) if diff.size else float("nan"),
        "toi_max_abs_diff_both_hit_not_overlapping": float(diff_moving.max()) if diff_moving.size else float("nan"),
        "toi_signed_diff_min": float(signed.min()) if signed.size else float("nan"),
        "toi_signed_diff_max": float(signed.max()) if signed.size else float("nan"),
        "toi_pairs_diff_gt_toc_err": int((diff > req.toc_err * h).sum()),
        "scalar_vs_sweep_many_mismatches": scalar_batch_mismatch,
        "sample_vs_full_batch_status_mismatches": sample_vs_full_mismatch,
        "disagreement_examples": examples,
        "worst_toi_example": worst_ex,
    }


def bench_fcl_grazing(n: int, seed: int, h: float) -> dict | None:
    """Supplement to [5]: FCL and the exact solver on near-grazing pairs (verdicts only, untimed)."""
    try:
        import fcl
    except Exception:  # noqa: BLE001 - reported by bench_fcl
        return None
    d = make_grazing(n, seed)
    r = sweep_many(d["ca"], d["va"], d["ra"], d["cb"], d["vb"], d["rb"], horizon=h)
    req = fcl.ContinuousCollisionRequest()
    hit = np.zeros(n, bool)
    toc = np.zeros(n)
    for i in range(n):
        o1 = fcl.CollisionObject(fcl.Sphere(float(d["ra"][i])), fcl.Transform(d["ca"][i].copy()))
        o2 = fcl.CollisionObject(fcl.Sphere(float(d["rb"][i])), fcl.Transform(d["cb"][i].copy()))
        res = fcl.ContinuousCollisionResult()
        fcl.continuousCollide(
            o1, fcl.Transform(d["ca"][i] + d["va"][i] * h), o2, fcl.Transform(d["cb"][i] + d["vb"][i] * h), req, res
        )
        hit[i] = res.is_collide
        toc[i] = res.time_of_contact
    both = hit & r.hit
    diff = np.abs(toc[both] * h - r.toi[both])
    examples = []
    for i in np.flatnonzero(hit != r.hit)[:3].tolist():
        ex = pair_repr(d, i, h)
        ex.update(
            fcl_is_collide=bool(hit[i]), fcl_time_of_contact=float(toc[i]), solver_status=Status(int(r.status[i])).name
        )
        examples.append(ex)
    return {
        "n": n,
        "solver_hits": int(r.hit.sum()),
        "fcl_hits": int(hit.sum()),
        "fcl_hit_solver_miss": int((hit & ~r.hit).sum()),
        "fcl_miss_solver_hit": int((~hit & r.hit).sum()),
        "toi_max_abs_diff_both_hit": float(diff.max()) if diff.size else float("nan"),
        "disagreement_examples": examples,
    }


# --------------------------------------------------------------------------
# [7] the exact path

#: Integer Pythagorean quadruples a^2 + b^2 + c^2 = d^2, and triples a^2 + b^2 = c^2.
_QUADS = ((1, 2, 2, 3), (2, 3, 6, 7), (1, 4, 8, 9), (4, 4, 7, 9), (2, 6, 9, 11))
_TRIPLES = ((3, 4, 5), (5, 12, 13), (8, 15, 17), (7, 24, 25), (20, 21, 29))


def make_touching(kind: str, n: int, seed: int) -> dict:
    """n pairs that touch exactly, each scaled by powers of two (lengths 2^i, velocities 2^j).

    ``kind``: ``"t0"``: the spheres touch at t = 0 (|p| = rA + rB from a
    Pythagorean quadruple), random velocities; ``"tangent"``: B lies exactly
    R off A's relative path (a triple), a graze with a double root;
    ``"horizon"``: first contact exactly at the horizon (per pair);
    ``"mix"``: a third of each.  The quantity that decides is exactly zero,
    so no error bound can prove its sign.
    """
    rng = np.random.default_rng(seed)
    if kind == "mix":
        parts = [make_touching(k, n // 3 + (i < n % 3), seed + i) for i, k in enumerate(("t0", "tangent", "horizon"))]
        return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
    rows = np.arange(n)
    k = rng.integers(1, 50, n).astype(float)
    signs = rng.choice([-1.0, 1.0], (n, 3))
    split = rng.integers(1, 64, n) / 64.0  # rA = R split, rB = R (1 - split): exact
    ca = rng.integers(-1000, 1000, (n, 3)).astype(float)
    h = np.ones(n)
    if kind == "t0":
        q = np.array(_QUADS, dtype=float)[rng.integers(0, len(_QUADS), n)]
        perm = np.array([rng.permutation(3) for _ in range(n)])
        cb = ca + np.take_along_axis(q[:, :3], perm, 1) * signs * k[:, None]
        R = q[:, 3] * k
        va = rng.normal(0.0, 3.0, (n, 3))
        vb = rng.normal(0.0, 3.0, (n, 3))
    else:  # relative motion along one axis: A at speed L, B at rest or moving along it
        t = np.array(_TRIPLES, dtype=float)[rng.integers(0, len(_TRIPLES), n)]
        axis = rng.integers(0, 3, n)
        o1, o2 = (axis + 1) % 3, (axis + 2) % 3
        e = np.zeros((n, 3))
        e[rows, axis] = 1.0
        L = rng.integers(1, 40, n).astype(float)
        vb_along = rng.choice([0.0, -1.0, 0.5], n) * L
        va, vb = e * L[:, None], e * vb_along[:, None]
        closing = L - vb_along  # > 0, exact
        R = t[:, 2] * k
        off = np.zeros((n, 3))
        if kind == "tangent":  # B exactly R off the line, ahead by a whole number of unit times
            off[rows, o1] = t[:, 0] * k * signs[:, 1]
            off[rows, o2] = t[:, 1] * k * signs[:, 2]
            cb = ca + off + e * (closing * rng.integers(1, 4, n))[:, None]
        else:  # at t = h the relative offset is (t0 k, t1 k) along and across: |.| = R, approaching
            off[rows, o1] = t[:, 1] * k * signs[:, 1]
            cb = ca + off + e * (closing * h + t[:, 0] * k)[:, None]
    ra, rb = R * split, R * (1.0 - split)
    i = rng.integers(-16, 17, n).astype(float)
    j = i - rng.integers(-16, 17, n)  # keeps the horizon 2^(i - j) within 2^16
    sl, sv = 2.0**i, 2.0**j
    return {
        "ca": ca * sl[:, None],
        "va": va * sv[:, None],
        "ra": ra * sl,
        "cb": cb * sl[:, None],
        "vb": vb * sv[:, None],
        "rb": rb * sl,
        "h": h * sl / sv,
    }


def integers_only(batch_module, stage, on: bool) -> None:
    """Make ``sweep_many`` decide what the float filter leaves with Python integers alone (``on``), or undo it."""
    if stage is None:  # before issue 17 the switch was USE_JIT in solver.batch
        batch_module.USE_JIT = not on
    else:
        batch_module.exact_stage = (lambda pairs: None) if on else stage.exact_stage


def previous_batch(n: int, seed: int, box: float, vel_sigma: float, horizon: float, repeats: int) -> dict:
    """Sections [3] and [4] alone, for ``--previous`` (run on that checkout by :func:`previous.run_previous`)."""
    res = bench_batch(make_pairs(n, seed, box, vel_sigma), horizon, repeats)
    return {"sweep_many_s": res["batch"]["median_s"], "mpairs_per_s": res["batch"]["mpairs_per_s"],
            "textbook_s": res["textbook"]["median_s"],
            "textbook_over_sweep_many": res["textbook"]["ratio_textbook_over_sweep_many"],
            "sweep_many_cpu_s": res["batch"]["cpu_median_s"],
            "textbook_cpu_s": res["textbook"]["cpu_median_s"]}  # fmt: skip


def previous_exact(n: int, seed: int, repeats: int, python_sample: int) -> dict:
    """Section [7] alone, for ``--previous``: by kind, M pairs/s by wall time and by CPU time."""
    return {kind: {"mpairs_per_s": k["mpairs_per_s"], "cpu_mpairs_per_s": k["cpu_mpairs_per_s"]}
            for kind, k in bench_exact(n, seed, repeats, python_sample)["kinds"].items()}  # fmt: skip


def checkout_label(checkout: str, taken=()) -> str:
    """A short name for a ``--previous`` checkout: its commit when it is a git checkout, else (or when ``taken``
    has it) its folder's name."""
    try:
        out = subprocess.run(["git", "-C", checkout, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        commit = out.stdout.strip() if out.returncode == 0 else ""
    except OSError:
        commit = ""
    label = commit if commit and commit not in taken else Path(checkout).resolve().name
    return label if label not in taken else f"{label} ({sum(x.startswith(label) for x in taken) + 1})"


def bench_exact(n: int, seed: int, repeats: int, python_sample: int) -> dict:
    """[7] sweep_many where every pair needs the exact path; and Python integers alone on a sample."""
    import solver.batch as batch_module

    try:
        from solver import _compile as stage
    except ImportError:
        try:
            import solver._stage as stage  # a checkout before the compile policy moved to solver/_compile.py
        except ImportError:  # a checkout before issue 17 (--previous): the compiled stage was always used
            stage = None
    if stage is not None:
        getattr(stage, "load_exact_stage", getattr(stage, "load", None))()  # loaded (or compiled) before any timing
    out = {"n": n, "python_sample": python_sample, "kinds": {}}
    for kind in ("t0", "tangent", "horizon", "mix"):
        d = make_touching(kind, n, seed)
        args = (d["ca"], d["va"], d["ra"], d["cb"], d["vb"], d["rb"])
        box = {}
        sweep_many(*args, horizon=d["h"])  # warm-up (the compiled loop and exact stage, not their plain Python copies)
        runs = [timed_call(lambda: box.__setitem__("r", sweep_many(*args, horizon=d["h"]))) for _ in range(repeats)]  # noqa: B023
        times, cpu = [wall for wall, _ in runs], [used for _, used in runs]
        r = box["r"]
        sample = tuple(a[:python_sample] for a in args)
        integers_only(batch_module, stage, True)  # for the ratio
        try:
            t_py = timed_runs(lambda: box.__setitem__("p", sweep_many(*sample, horizon=d["h"][:python_sample])), 3)  # noqa: B023
        finally:
            integers_only(batch_module, stage, False)
        p = box["p"]
        same = bool((p.status == r.status[:python_sample]).all())
        close = np.allclose(
            np.nan_to_num(p.toi, nan=-1.0), np.nan_to_num(r.toi[:python_sample], nan=-1.0), rtol=1e-13, atol=0.0
        )
        out["kinds"][kind] = {
            "median_s": median(times),
            "min_s": float(min(times)),
            "mpairs_per_s": n / median(times) / 1e6,
            "cpu_mpairs_per_s": n / median(cpu) / 1e6,
            "exact_pairs": int(r.exact.sum()),
            "status_counts": {Status(int(c)).name: int(v) for c, v in zip(*np.unique(r.status, return_counts=True))},
            "python_us_per_pair": median(t_py) / python_sample * 1e6,
            "speedup_vs_python": (median(t_py) / python_sample) / (median(times) / n),
            "python_same_status": same,
            "python_toi_within_1e-13": bool(close),
        }
    return out


# --------------------------------------------------------------------------
# report


def _header(res: dict) -> list[str]:
    """The machine and arguments lines of the report."""
    m = res["machine"]
    cfg = res["config"]
    out = []
    out.append("solver benchmark  (benchmarks/bench_solver.py)")
    out.append("=" * 46)
    rows = [
        ["date", m["date"]],
        ["cpu", m["cpu_model"]],
        [
            "cpus (logical / usable)",
            f"{m['logical_cpus']} / {m['usable_cpus']}" + ("  (virtual machine)" if m["hypervisor"] else ""),
        ],
        ["simd", " ".join(m["simd"]) or "n/a"],
        [
            "load average at start",
            " ".join(f"{x:.2f}" for x in m["loadavg_at_start"]) if m["loadavg_at_start"] else "n/a",
        ],
        [
            "load average at end",
            " ".join(f"{x:.2f}" for x in res["loadavg_at_end"]) if res["loadavg_at_end"] else "n/a",
        ],
        ["platform", m["platform"]],
        ["python / numpy / numba", f"{m['python']} / {m['numpy']} / {m['numba']}"],
        ["python-fcl", m["fcl"]],
        ["solver sources sha256[:16]", m["solver_sha256_16"]],
        ["NUMBA_* env", ", ".join(f"{k}={v}" for k, v in m["numba_env"].items()) or "(none)"],
        ["arguments", " ".join(f"--{k.replace('_', '-')} {v}" for k, v in cfg.items())],
    ]
    w = max(len(r[0]) for r in rows)
    out += [f"{k.ljust(w)}  {v}" for k, v in rows]
    out.append("")

    return out


def report(res: dict) -> str:
    cfg = res["config"]
    out = _header(res)
    cs = res["cold_start"]
    out.append(
        f"[1] cold start in this process: first sweep() {cs['first_sweep_s'] * 1e3:.1f} ms "
        "(numba cache load, or compilation if the cache is stale), "
        f"first sweep_many() on 1000 pairs {cs['first_sweep_many_1000_s'] * 1e3:.1f} ms "
        "(a process's first 10,000 pairs: the plain Python copy of its loop; see bench_cold_start.py)"
    )
    out.append("")
    sc = res["scalar"]
    out.append(
        fmt_table(
            ["case", "function", "status", "path", "median us", "p95 us", "min us"],
            [
                [
                    c["case"],
                    c["function"],
                    c["status"] + ("" if c["status_ok"] else f" (expected {c['expected_status']}!)"),
                    "exact" if c["exact_path"] else "filter",
                    c["median_us"],
                    c["p95_us"],
                    c["min_us"],
                ]
                for c in sc["cases"]
            ],
            f"[2] scalar latency per call: {sc['repeats']} repeats x {sc['calls_per_repeat']} calls, "
            f"stats over {sc['chunk']}-call chunks (timeit empty-loop overhead {sc['timeit_empty_loop_us_per_call'] * 1e3:.1f} ns/call, not subtracted)",
        )
    )

    b, t = res["batch"], res["textbook"]
    bc = res["broadcast"]
    a1, a2 = bc["scalar_radii_scalar_horizon"], bc["array_radii_array_horizon"]
    rows = [
        [
            "sweep_many  radii (n,), horizon 1.0",
            b["median_s"] * 1e3,
            b["min_s"] * 1e3,
            b["mpairs_per_s"],
            1.0,
            b["exact_pairs"],
            b["hits"],
        ],
        [
            "textbook numpy (same pairs)",
            t["median_s"] * 1e3,
            t["min_s"] * 1e3,
            t["mpairs_per_s"],
            t["ratio_textbook_over_sweep_many"],
            "-",
            t["hits"],
        ],
        [
            "sweep_many  radii (n,), horizon (n,)",
            a2["median_s"] * 1e3,
            a2["min_s"] * 1e3,
            a2["mpairs_per_s"],
            a2["ratio_vs_array_radii"],
            a2["exact_pairs"],
            a2["hits"],
        ],
        [
            "sweep_many  radii 1.0, horizon 1.0 [6]",
            a1["median_s"] * 1e3,
            a1["min_s"] * 1e3,
            a1["mpairs_per_s"],
            a1["ratio_vs_array_radii"],
            a1["exact_pairs"],
            a1["hits"],
        ],
    ]
    out.append(
        fmt_table(
            ["variant", "median ms", "min ms", "Mpairs/s", "time/sweep_many", "exact", "hits"],
            rows,
            f"[3,4,6] batch on n={b['n']:,} random pairs, median of {cfg['repeats']} interleaved runs after warm-up",
        )
    )
    sc_ = b["status_counts"]
    out.append("  status mix (sweep_many): " + ", ".join(f"{k} {v}" for k, v in sc_.items()))
    out.append(
        f"  textbook vs exact: {t['verdict_disagreements']} hit/miss disagreements "
        f"({t['textbook_hit_solver_miss']} textbook-only hits, {t['textbook_miss_solver_hit']} solver-only hits); "
        f"toi max |diff| on {t['both_hit']} common hits = {t['toi_max_abs_diff_both_hit']:.3g} "
        f"({t['toi_pairs_diff_gt_1e-10']} pairs > 1e-10)"
    )
    prev = (res.get("previous") or {}).get("batch")
    if prev:
        out.append(
            f"  previous (--previous checkout, measured in this run): sweep_many {prev['mpairs_per_s']:.1f} "
            f"Mpairs/s, textbook {prev['textbook_s'] * 1e3:.1f} ms, "
            f"time/sweep_many {prev['textbook_over_sweep_many']:.2f}; "
            f"by CPU time sweep_many {prev['sweep_many_cpu_s'] * 1e3:.1f} ms, textbook "
            f"{prev['textbook_cpu_s'] * 1e3:.1f} ms"
        )
    else:
        q = ISSUE_17
        out.append(
            f"  previous ({QUOTED}): sweep_many {q['sweep_many_mpairs_per_s']:.0f} Mpairs/s, time/sweep_many "
            f"{q['textbook_over_sweep_many']:.1f}; before its per-pair validation "
            f"{q['before_validation_mpairs_per_s']:.0f} Mpairs/s, "
            f"{q['before_validation_textbook_over_sweep_many']:.1f}"
        )
    out.append(
        f"  by CPU time of this process (what other processes on the machine take is not counted): "
        f"sweep_many {b['cpu_median_s'] * 1e3:.1f} ms, textbook {t['cpu_median_s'] * 1e3:.1f} ms, "
        f"time/sweep_many {t['cpu_median_s'] / b['cpu_median_s']:.2f}"
    )
    out.append(
        f"  target (issue 17): textbook time / sweep_many time >= 3 in the same run; this run "
        f"{t['ratio_textbook_over_sweep_many']:.2f}"
    )
    out.append(
        f"  broadcast scalars == explicit (n,) arrays on 100k-pair slice: {a1['same_verdicts_as_array_path']}; "
        f"horizon (n,) == horizon float on all pairs: {a2['same_verdicts_as_array_path']}"
    )
    g = res.get("grazing")
    if g:
        out.append(
            f"  [4b] near-grazing pairs (n={g['n']:,}): textbook vs exact {g['verdict_disagreements']} disagreements "
            f"({g['textbook_hit_solver_miss']} textbook-only hits, {g['textbook_miss_solver_hit']} solver-only hits); "
            f"sweep_many {g['sweep_many_median_s'] * 1e3:.1f} ms with {g['exact_pairs']} pairs on the exact path, "
            f"textbook {g['textbook_median_s'] * 1e3:.1f} ms"
        )
    out.append("")

    f = res["fcl"]
    if f.get("skipped"):
        out.append(f"[5] FCL: skipped ({f['reason']})")
    else:
        rq = f["request"]
        out.append(
            fmt_table(
                ["method", "us / pair", "fcl / method"],
                [
                    [f"fcl.continuousCollide (python-fcl {f['fcl_version']})", f["fcl_us_per_pair"], 1.0],
                    ["solver.sweep (scalar, pre-built bodies)", f["sweep_us_per_pair"], f["ratio_fcl_over_sweep"]],
                    [
                        f"solver.sweep_many on the {f['sample']} pairs",
                        f["sweep_many_sample_us_per_pair"],
                        f["ratio_fcl_over_sweep_many_sample"],
                    ],
                    [
                        f"solver.sweep_many on {b['n']:,} pairs",
                        f["sweep_many_full_us_per_pair"],
                        f["ratio_fcl_over_sweep_many_full"],
                    ],
                ],
                f"[5] FCL CCD vs solver on the first {f['sample']} pairs, median of {cfg['repeats']} passes "
                f"(request: {rq['ccd_solver_type']}, {rq['ccd_motion_type']}, {rq['gjk_solver_type']}, "
                f"max_iter {rq['num_max_iterations']}, toc_err {rq['toc_err']})",
            )
        )
        out.append(
            f"  hits: solver {f['solver_hits']}, fcl {f['fcl_hits']}; hit/miss disagreements {f['hit_disagreements']} "
            f"(fcl-only {f['fcl_hit_solver_miss']}, solver-only {f['fcl_miss_solver_hit']}); fcl negative returns {f['fcl_negative_return']}"
        )
        out.append(
            f"  toi |fcl - exact| on {f['both_hit']} common hits: max {f['toi_max_abs_diff_both_hit']:.3g}, "
            f"median {f['toi_median_abs_diff_both_hit']:.3g}, max excluding OVERLAPPING {f['toi_max_abs_diff_both_hit_not_overlapping']:.3g}, "
            f"{f['toi_pairs_diff_gt_toc_err']} pairs > toc_err; "
            f"fcl - exact in [{f['toi_signed_diff_min']:.3g}, {f['toi_signed_diff_max']:.3g}]"
        )
        out.append(
            f"  scalar sweep vs sweep_many mismatches on the sample (status or toi bitwise): {f['scalar_vs_sweep_many_mismatches']}; "
            f"fcl deterministic across passes: {f['deterministic_between_runs']}; "
            f"sample batch == full batch: {f['sample_vs_full_batch_status_mismatches'] == 0}"
        )
        fg = res.get("fcl_grazing")
        if fg:
            out.append(
                f"  [5b] first {fg['n']} near-grazing pairs of [4b]: solver {fg['solver_hits']} hits, fcl {fg['fcl_hits']}; "
                f"fcl-only {fg['fcl_hit_solver_miss']}, solver-only {fg['fcl_miss_solver_hit']}; "
                f"toi max |diff| on common hits {fg['toi_max_abs_diff_both_hit']:.3g}"
            )
    out.append("")
    out += _exact_lines(res)
    out.append(f"total wall time {res['wall_time_s']:.1f} s")
    return "\n".join(out)


def _exact_lines(res: dict) -> list[str]:
    """Section [7] of the report."""
    out: list[str] = []
    cfg = res["config"]
    ex = res.get("exact")
    if ex:
        measured = (res.get("previous") or {}).get("exact") or {}
        rows = [[kind, k["median_s"] * 1e3, k["min_s"] * 1e3, k["mpairs_per_s"], k["cpu_mpairs_per_s"]]
                + ([EXACT_PATH_001CA0B.get(kind, "-")] if not measured else
                   [x for prev in measured.values() for x in (prev[kind]["mpairs_per_s"], prev[kind]["cpu_mpairs_per_s"])])
                + [k["exact_pairs"], k["python_us_per_pair"], k["speedup_vs_python"],
                   "yes" if k["python_same_status"] and k["python_toi_within_1e-13"] else "NO"]
                for kind, k in ex["kinds"].items()]  # fmt: skip
        previous_columns = (
            [x for label in measured for x in (f"{label} Mpairs/s", f"{label} by CPU")]
            if measured
            else ["previous Mpairs/s"]
        )
        out.append(
            fmt_table(
                ["pairs that touch exactly", "median ms", "min ms", "Mpairs/s", "by CPU time"]
                + previous_columns
                + ["exact", "integers us/pair", "speed-up", "same answers"],
                rows,
                f"[7] the exact path: sweep_many on n={ex['n']:,} pairs the float filter cannot decide, median of {cfg['repeats']} runs; "
                f"Python integers alone on the first {ex['python_sample']:,} (median of 3)",
            )
        )
        out.append(
            "  status mix: "
            + "; ".join(
                f"{kind}: " + ", ".join(f"{a} {b}" for a, b in k["status_counts"].items())
                for kind, k in ex["kinds"].items()
            )
        )
        out.append(
            "  previous: "
            + (
                "each --previous checkout (" + ", ".join(measured) + "), measured in a subprocess of this run after it"
                if measured
                else "main at 001ca0b, benchmarks/README.md (quoted, not measured here)"
            )
            + "; target (issue 17): >= 1 Mpairs/s"
        )
        out.append("")
    return out


def report_exact_only(res: dict) -> str:
    """The machine header and section [7] (``--only-exact``)."""
    return "\n".join(_header(res) + _exact_lines(res) + [f"total wall time {res['wall_time_s']:.1f} s"])


def _json_safe(x):
    """NaN/inf -> None, tuples -> lists, numpy scalars -> Python, so the blob is strict JSON."""
    if isinstance(x, dict):
        return {str(k): _json_safe(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_json_safe(v) for v in x]
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    ap.add_argument("--json", metavar="PATH", help="also write all results as JSON to PATH")
    ap.add_argument("--n", type=int, default=1_000_000, help="random pairs for the batch sections")
    ap.add_argument("--seed", type=int, default=20240601, help="rng seed of the random pairs")
    ap.add_argument("--box", type=float, default=5.0, help="centres uniform in [-box, box]^3")
    ap.add_argument("--vel-sigma", type=float, default=3.0, help="velocity components ~ N(0, sigma^2)")
    ap.add_argument("--horizon", type=float, default=1.0)
    ap.add_argument("--repeats", type=int, default=11, help="timed runs per batch / FCL measurement (>= 5)")
    ap.add_argument("--scalar-repeats", type=int, default=7)
    ap.add_argument("--scalar-calls", type=int, default=20_000, help="calls per scalar repeat")
    ap.add_argument("--chunk", type=int, default=100, help="calls per timed chunk in the scalar section")
    ap.add_argument("--fcl-sample", type=int, default=2000, help="pairs for the FCL comparison")
    ap.add_argument(
        "--grazing-n", type=int, default=200_000, help="near-grazing pairs for the [4b] supplement (0: skip)"
    )
    ap.add_argument(
        "--exact-n", type=int, default=100_000, help="pairs per kind in the [7] exact-path section (0: skip)"
    )
    ap.add_argument(
        "--exact-python-sample", type=int, default=5_000, help="pairs decided by Python integers alone in [7]"
    )
    ap.add_argument("--only-exact", action="store_true", help="run only the machine header and section [7]")
    ap.add_argument("--cpu", type=int, default=None, help="pin this process to one CPU (os.sched_setaffinity)")
    ap.add_argument(
        "--previous",
        metavar="CHECKOUT",
        action="append",
        default=None,
        help="also measure sections [3,4] and [7] on another checkout's solver (e.g. main), in a subprocess; "
        "repeat it to compare several in section [7] (sections [3,4]: the first)",
    )
    args = ap.parse_args(argv)
    if args.repeats < 5:
        ap.error("--repeats must be >= 5")
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})

    wall0 = time.perf_counter()
    config = {k: v for k, v in vars(args).items() if k != "json"}
    res = {"config": config, "machine": machine_info()}
    d = make_pairs(args.n, args.seed, args.box, args.vel_sigma)
    h = float(args.horizon)

    # Cold start: first calls in a fresh process (numba loads its on-disk cache, or compiles if stale).
    b0, b1 = Body((0, 0, 0), (10, 0, 0), 1.0), Body((5, 0, 0))
    t0 = time.perf_counter()
    sweep(b0, b1, h)
    t1 = time.perf_counter()
    sweep_many(
        d["ca"][:1000], d["va"][:1000], d["ra"][:1000], d["cb"][:1000], d["vb"][:1000], d["rb"][:1000], horizon=h
    )
    t2 = time.perf_counter()
    res["cold_start"] = {"first_sweep_s": t1 - t0, "first_sweep_many_1000_s": t2 - t1}

    res["exact"] = (
        bench_exact(args.exact_n, args.seed, args.repeats, args.exact_python_sample) if args.exact_n > 0 else None
    )
    if args.previous:
        exact = None
        if args.exact_n > 0:
            exact = {}
            for checkout in args.previous:
                exact[checkout_label(checkout, exact)] = run_previous(
                    Path(checkout),
                    "bench_solver",
                    "previous_exact",
                    n=args.exact_n,
                    seed=args.seed,
                    repeats=args.repeats,
                    python_sample=args.exact_python_sample,
                )
        res["previous"] = {"exact": exact}
    if args.only_exact:
        res["loadavg_at_end"] = os.getloadavg()
        res["wall_time_s"] = time.perf_counter() - wall0
        print(report_exact_only(res))
        return 0
    res["scalar"] = bench_scalar(args.scalar_repeats, args.scalar_calls, args.chunk)
    batch = bench_batch(d, h, args.repeats)
    batch_result = batch.pop("_result")
    res.update(batch)
    if args.previous:
        res["previous"]["batch"] = run_previous(Path(args.previous[0]), "bench_solver", "previous_batch", n=args.n,
                                                seed=args.seed, box=args.box, vel_sigma=args.vel_sigma, horizon=h,
                                                repeats=args.repeats)  # fmt: skip
    res["grazing"] = bench_grazing(args.grazing_n, args.seed, h, 5) if args.grazing_n > 0 else None
    res["fcl"] = bench_fcl(d, h, args.fcl_sample, args.repeats, res["batch"], batch_result)
    res["fcl_grazing"] = (
        bench_fcl_grazing(min(args.fcl_sample, args.grazing_n), args.seed, h)
        if args.grazing_n > 0 and not res["fcl"].get("skipped")
        else None
    )
    try:
        res["loadavg_at_end"] = os.getloadavg()
    except OSError:
        res["loadavg_at_end"] = None
    res["wall_time_s"] = time.perf_counter() - wall0

    print(report(res))
    safe = _json_safe(res)
    print("\nJSON:")
    print(json.dumps(safe, allow_nan=False, separators=(",", ":")))
    if args.json:
        Path(args.json).write_text(json.dumps(safe, indent=2, allow_nan=False) + "\n")
        print(f"\nwrote {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
