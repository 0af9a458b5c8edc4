"""The uncompiled solver (``SPHERE_SOLVER_JIT=0``, what the explorer app runs) gives the same answers.

The same source runs compiled by numba (this test process) and as plain Python
(a subprocess); every field of the result must be bit-for-bit equal on every
hard family.  The compiled solver decides what its float filter cannot prove
with the plain Python copy of the exact stage until the compiled one pays
(:mod:`solver._compile`): both give the same answers, so whichever runs first is right.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import families as fam
import motion_families as mf
import numpy as np
from core import core_many, core_sweep, refine_inputs

from solver import Status, _compile, batch, motion, simulate
from solver.tolerances import TIME_RTOL

HERE = Path(fam.__file__).resolve().parent  # the helpers (tests/support), for the subprocesses
PER_FAMILY = 150

SCRIPT = f"""
import json, sys
sys.path.insert(0, {str(HERE)!r})
import families as fam
from solver import _compile
assert not _compile.compiling(), "the subprocess should run the plain Python filter"
from core import core_sweep
out = {{}}
for name in fam.FAMILIES:
    mode = fam.mode(name)
    out[name] = [repr((s.status.name, s.toi, s.roots, s.exact, s.by_vertex))
                 for s in (core_sweep(a, b, h, mode) for a, b, h in fam.cases(name)[:{PER_FAMILY}])]
print(json.dumps(out))
"""


def test_plain_python_filter_matches_the_compiled_one():
    env = {**os.environ, "SPHERE_SOLVER_JIT": "0"}
    proc = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    plain = json.loads(proc.stdout)
    for name in fam.FAMILIES:
        mode = fam.mode(name)
        compiled = [
            repr((s.status.name, s.toi, s.roots, s.exact, s.by_vertex))
            for s in (core_sweep(a, b, h, mode) for a, b, h in fam.cases(name)[:PER_FAMILY])
        ]
        assert len(compiled) == len(plain[name]) > 0
        mismatch = [(i, c, p) for i, (c, p) in enumerate(zip(compiled, plain[name])) if c != p]
        assert not mismatch, f"{name}: first difference {mismatch[0]}"


MOTION_SCRIPT = f"""
import json, sys
sys.path.insert(0, {str(HERE)!r})
from solver import _compile
assert not _compile.compiling(), "the subprocess should run the plain Python solver"
import motion_families as mf
from motion_reference import check_motion
from solver import simulate
bad = []
count = 0
for name in ("cradle", "wall_start", "jam", "grazes", "gas"):
    for case in mf.FAMILIES[name](25):
        m = simulate(case.bodies, case.horizon, case.restitution, case.container, max_events=case.max_events)
        count += 1
        problems = check_motion(m)
        if problems:
            bad.append(repr(case) + ": " + problems[0])
print(json.dumps({{"count": count, "bad": bad}}))
"""


def test_plain_python_motion_passes_the_exact_reference():
    """simulate() as plain Python (no numba, no expansion stage: integers decide) obeys the same invariants."""
    env = {**os.environ, "SPHERE_SOLVER_JIT": "0"}
    proc = subprocess.run([sys.executable, "-c", MOTION_SCRIPT], capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["count"] == 125 and not out["bad"], out["bad"][:3]


# -- the exact stage: plain Python first, compiled once it pays; the same answers bit for bit ------------------------


def _family_pairs(name: str) -> tuple:
    """Every case of family ``name`` as the arguments of :func:`solver._refine.refine_sweeps` before ``idx``."""
    return (*refine_inputs(fam.cases(name)), fam.mode(name) == "inside")


def _sweeps(module, pairs: tuple) -> list[np.ndarray]:
    """``module.refine_sweeps`` on every pair: ``[hit, toi, t_lo, t_hi, status, left]`` (NaN where not decided)."""
    n = pairs[2].shape[0]
    out = [np.zeros(n, bool), np.full(n, np.nan), np.full(n, np.nan), np.full(n, np.nan), np.zeros(n, np.int8),
           np.zeros(n, bool)]  # fmt: skip
    module.refine_sweeps(*pairs, np.arange(n), *out)
    return out


def _same_bits(x: np.ndarray, y: np.ndarray) -> bool:
    """The same values bit for bit (so 0.0 differs from -0.0), NaN where the other is NaN."""
    if x.dtype.kind != "f":
        return bool(np.array_equal(x, y))
    nan = np.isnan(x)
    return bool(np.array_equal(nan, np.isnan(y)) and np.array_equal(x[~nan].view(np.int64), y[~nan].view(np.int64)))


def test_plain_and_compiled_exact_stages_give_the_same_answers():
    """The exact stage as plain Python (what a process runs first) and compiled (once it pays) decide every
    case of every hard family, touching or not, with the same verdicts and the same times, bit for bit."""
    plain = _compile.plain("_refine")
    compiled = _compile.load_exact_stage()
    assert plain.__name__ == "solver._plain._refine" and compiled.__name__ == "solver._refine"
    assert _compile.plain("_compile").compiling() is False and _compile.compiling()
    decided = in_range = 0
    for name in fam.FAMILIES:
        pairs = _family_pairs(name)
        got, want = _sweeps(compiled, pairs), _sweeps(plain, pairs)
        for field, x, y in zip(("hit", "toi", "t_lo", "t_hi", "status", "left"), got, want):
            assert _same_bits(x, y), f"{name}: {field} differs, first at case {np.flatnonzero(x != y)[:1]}"
        decided += int((~got[5]).sum())
        in_range += sum(all(x == 0 or 2.0**-200 <= abs(x) <= 2.0**200 for x in (*a.center, *a.velocity, a.radius,
                        *b.center, *b.velocity, b.radius, h)) for a, b, h in fam.cases(name))  # fmt: skip
    assert decided >= 0.99 * in_range > 9000  # the expansions decide them, rather than handing them to the integers


def test_plain_and_compiled_batches_give_the_same_answers():
    """``sweep_many``'s core, all of it as plain Python (what a process runs on its first pairs: the loop and the
    exact stage) and compiled (the loop, then the exact stage), on every case of every hard family: every field
    the same, bit for bit."""
    plain = _compile.plain("batch")
    _compile.load_exact_stage()
    checked = 0
    for name in fam.FAMILIES:
        cases, inside = fam.cases(name), fam.mode(name) == "inside"
        arrays = [np.array(values, dtype=np.float64) for values in zip(*(
            (a.center, a.velocity, a.radius, b.center, b.velocity, b.radius, h) for a, b, h in cases))]  # fmt: skip
        got = batch._sweep_arrays(*arrays, inside, False)
        want = plain._sweep_arrays(*arrays, inside, False)
        for field in ("hit", "toi", "t_enter", "t_exit", "status", "exact"):
            x, y = getattr(got, field), getattr(want, field)
            assert _same_bits(x, y), f"{name}: {field} differs, first at case {np.flatnonzero(x != y)[:1]}"
        checked += len(cases)
    assert checked > 10_000


def test_plain_and_compiled_exact_stages_give_the_same_motion(monkeypatch):
    """simulate() with the exact stage as plain Python and compiled: the same events, times and impulses, bit for
    bit."""
    plain = _compile.plain("_refine")
    compiled = _compile.load_exact_stage()
    count = 0
    for name in ("cradle", "wall_start", "jam", "grazes", "gas"):
        for case in mf.FAMILIES[name](25):
            runs = []
            for module in (plain, compiled):
                monkeypatch.setattr(motion, "exact_stage", lambda pairs, module=module: module)
                m = simulate(case.bodies, case.horizon, case.restitution, case.container, max_events=case.max_events)
                runs.append([(e.time, e.pair, tuple(e.impulse)) for e in m.events] + [(m.end, m.stopped)])
            assert repr(runs[0]) == repr(runs[1]), f"{case}: plain {runs[1][:3]}, compiled {runs[0][:3]}"
            count += 1
    assert count == 125


BATCH_SCRIPT = f"""
import sys
import numpy as np
sys.path.insert(0, {str(HERE)!r})
import families as fam
from solver import _compile
assert not _compile.compiling(), "the subprocess should run the plain Python solver"
from core import core_many
out = {{}}
for name in fam.FAMILIES:
    result = core_many(fam.cases(name), fam.mode(name) == "inside")
    for field in ("hit", "status", "exact", "toi", "t_enter", "t_exit"):
        out[name + "." + field] = getattr(result, field)
np.savez(sys.argv[1], **out)
"""


def _within_accuracy(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Per element: within twice the proved accuracy of the roots (both NaN counts)."""
    scale = np.maximum(np.maximum(np.abs(x), np.abs(y)), 2.0**-1022)
    with np.errstate(invalid="ignore"):  # NaN against a number: not within
        return (np.isnan(x) & np.isnan(y)) | (x == y) | (np.abs(x - y) <= 2 * TIME_RTOL * scale)


def test_batch_without_numba_gives_the_same_verdicts(tmp_path):
    """``sweep_many``'s core on every case of every hard family without numba (the explorer's setting: the
    filter, then integers) and compiled: the same verdicts and flags, the filter's times bit for bit, the
    exact stage's within the proved accuracy of the integers' correctly rounded ones."""
    path = tmp_path / "plain.npz"
    env = {**os.environ, "SPHERE_SOLVER_JIT": "0"}
    proc = subprocess.run([sys.executable, "-c", BATCH_SCRIPT, str(path)], capture_output=True, text=True, env=env,
                          timeout=600)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    with np.load(path) as plain:
        for name in fam.FAMILIES:
            result = core_many(fam.cases(name), fam.mode(name) == "inside")
            exact = plain[f"{name}.exact"]
            for field in ("hit", "status", "exact"):
                assert np.array_equal(getattr(result, field), plain[f"{name}.{field}"]), f"{name}: {field}"
            for field in ("toi", "t_enter", "t_exit"):
                got, want = getattr(result, field), plain[f"{name}.{field}"]
                assert _same_bits(got[~exact], want[~exact]), f"{name}: {field} of a pair the filter decided"
                bad = np.flatnonzero(~_within_accuracy(got, want))
                assert bad.size == 0, f"{name} case {bad[0]}: {field} {got[bad[0]]!r}, plain Python {want[bad[0]]!r}"


STAGE_SCRIPT = """
import json, sys
import numpy as np
from solver import _compile, sweep_many

def grazes(n):
    # A moving along x at speeds 1..n, B at rest 2 off its path: exact tangents (radii 1 + 1)
    a_velocity = np.zeros((n, 3))
    a_velocity[:, 0] = np.arange(1, n + 1)
    b_center = np.tile([5.0, 2.0, 0.0], (n, 1))
    return np.zeros((n, 3)), a_velocity, 1.0, b_center, np.zeros((n, 3)), 1.0

first = sweep_many(*grazes(1000))
loaded = [["solver._plain._refine" in sys.modules, "solver._refine" in sys.modules]]
later = sweep_many(*grazes(_compile.PLAIN_BUDGET))
loaded.append(["solver._plain._refine" in sys.modules, "solver._refine" in sys.modules])
print(json.dumps({
    "exact": [int(first.exact.sum()), int(later.exact.sum())],
    "loaded": loaded,
    "status": [first.status.tolist(), later.status[:1000].tolist()],
    "toi": [first.toi.tobytes().hex(), later.toi[:1000].tobytes().hex()],
    "roots": [first.t_enter.tobytes().hex(), later.t_enter[:1000].tobytes().hex()],
}))
"""


def test_the_compiled_exact_stage_is_loaded_only_once_it_pays():
    """A fresh process decides its first thousand exact tangents with the plain Python copy of the exact stage,
    without loading the compiled one; once PLAIN_BUDGET pairs have gone that way it is loaded, and the same
    pairs get the same answers, bit for bit."""
    proc = subprocess.run([sys.executable, "-c", STAGE_SCRIPT], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["exact"] == [1000, _compile.PLAIN_BUDGET]
    assert out["loaded"] == [[True, False], [True, True]]
    assert out["status"][0] == out["status"][1]
    assert set(out["status"][0]) >= {int(Status.HIT), int(Status.LATER)}
    assert out["toi"][0] == out["toi"][1] and out["roots"][0] == out["roots"][1]
