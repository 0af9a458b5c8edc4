"""The uncompiled solver (``SPHERE_SOLVER_JIT=0``, what the explorer app runs) gives the same answers.

The same source runs compiled by numba (this test process) and as plain Python
(a subprocess); every field of the result must be bit-for-bit equal on every
hard family.  The compiled solver decides what its float filter cannot prove
with Python integers until the compiled exact stage pays (:mod:`solver._stage`):
both give the plain Python answers, so whichever runs first is right.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

import families as fam
import motion_families as mf
from core import core_many, core_sweep
from motion_reference import check_motion
from solver import Status, simulate
from solver import _stage as stage
from solver import batch, motion
from solver.tolerances import TIME_RTOL

HERE = Path(__file__).resolve().parent
PER_FAMILY = 150

SCRIPT = f"""
import json, sys
sys.path.insert(0, {str(HERE)!r})
import families as fam
import solver._filter as f
assert not f.USE_JIT, "the subprocess should run the plain Python filter"
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
        compiled = [repr((s.status.name, s.toi, s.roots, s.exact, s.by_vertex)) for s in (core_sweep(a, b, h, mode) for a, b, h in fam.cases(name)[:PER_FAMILY])]
        assert len(compiled) == len(plain[name]) > 0
        mismatch = [(i, c, p) for i, (c, p) in enumerate(zip(compiled, plain[name])) if c != p]
        assert not mismatch, f"{name}: first difference {mismatch[0]}"


MOTION_SCRIPT = f"""
import json, sys
sys.path.insert(0, {str(HERE)!r})
import solver._filter as f
assert not f.USE_JIT, "the subprocess should run the plain Python solver"
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


# -- the batch query: whichever exact stage decides first, the answers are the same ---------------------------------

#: Fields of a :class:`solver.BatchResult`.
FIELDS = ("hit", "status", "exact", "toi", "t_enter", "t_exit")

BATCH_SCRIPT = f"""
import sys
import numpy as np
sys.path.insert(0, {str(HERE)!r})
import families as fam
import solver._filter as f
assert not f.USE_JIT, "the subprocess should run the plain Python solver"
from core import core_many
out = {{}}
for name in fam.FAMILIES:
    result = core_many(fam.cases(name), fam.mode(name) == "inside")
    for field in {FIELDS!r}:
        out[name + "." + field] = getattr(result, field)
np.savez(sys.argv[1], **out)
"""


def _plain_batches(tmp_path) -> dict:
    """``sweep_many``'s core on every case of every hard family, run as plain Python (no numba) in a subprocess."""
    path = tmp_path / "plain.npz"
    env = {**os.environ, "SPHERE_SOLVER_JIT": "0"}
    proc = subprocess.run([sys.executable, "-c", BATCH_SCRIPT, str(path)], capture_output=True, text=True, env=env,
                          timeout=600)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    with np.load(path) as data:
        return {key: data[key] for key in data.files}


def _same_bits(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Per element: the same float, bit for bit (so 0.0 differs from -0.0), or both NaN."""
    nan = np.isnan(x) & np.isnan(y)
    return nan | (x.view(np.int64) == y.view(np.int64))


def _within_accuracy(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Per element: within twice the proved accuracy of the roots (both NaN counts)."""
    scale = np.maximum(np.maximum(np.abs(x), np.abs(y)), 2.0**-1022)
    with np.errstate(invalid="ignore"):  # NaN against a number: not within
        return (np.isnan(x) & np.isnan(y)) | (x == y) | (np.abs(x - y) <= 2 * TIME_RTOL * scale)


def test_batch_answers_are_the_same_whichever_stage_decides_first(tmp_path, monkeypatch):
    """On every case of every hard family, ``sweep_many`` (its core, over the whole float range) gives
    the plain Python answers (no numba: the float filter, then integers) with the compiled filter and
    integers (what a fresh process runs first) bit for bit, and with the compiled exact stage (what
    runs once it pays) the same verdicts, with times within the proved accuracy."""
    plain = _plain_batches(tmp_path)
    stages = {"integers": lambda pairs: None, "compiled": lambda pairs: stage.load()}
    compared = dict.fromkeys(stages, 0)
    for label, choose in stages.items():
        monkeypatch.setattr(batch, "compiled_stage", choose)
        for name in fam.FAMILIES:
            result = core_many(fam.cases(name), fam.mode(name) == "inside")
            exact = plain[f"{name}.exact"]
            for field in FIELDS:
                got, want = getattr(result, field), plain[f"{name}.{field}"]
                if got.dtype.kind == "f":
                    same = _same_bits(got, want) if label == "integers" else _within_accuracy(got, want)
                else:
                    same = got == want
                bad = np.flatnonzero(~same)
                assert bad.size == 0, (
                    f"{label}, {name} case {bad[0]}: {field} {got[bad[0]]!r}, plain Python {want[bad[0]]!r}"
                )
            compared[label] += int(exact.sum())
    assert compared["integers"] == compared["compiled"] > 1000  # the filter left over a thousand pairs to them


STAGE_SCRIPT = """
import json, sys
import numpy as np
import solver._stage as stage
from solver import sweep_many

def grazes(n):
    # A moving along x at speeds 1..n, B at rest 2 off its path: exact tangents (radii 1 + 1)
    a_velocity = np.zeros((n, 3))
    a_velocity[:, 0] = np.arange(1, n + 1)
    b_center = np.tile([5.0, 2.0, 0.0], (n, 1))
    return np.zeros((n, 3)), a_velocity, 1.0, b_center, np.zeros((n, 3)), 1.0

first = sweep_many(*grazes(1000))
loaded_first = "solver._refine" in sys.modules
later = sweep_many(*grazes(stage.INTEGER_BUDGET))
print(json.dumps({
    "exact": [int(first.exact.sum()), int(later.exact.sum())],
    "loaded": [loaded_first, "solver._refine" in sys.modules],
    "status": [first.status.tolist(), later.status[:1000].tolist()],
    "toi": [first.toi.tolist(), later.toi[:1000].tolist()],
}))
"""


def test_the_compiled_exact_stage_is_loaded_only_once_it_pays():
    """A fresh process decides its first thousand exact tangents with integers, without loading the compiled
    stage; once the integers have decided INTEGER_BUDGET pairs it is loaded, and the same pairs get the same
    verdicts (tangents at 5 - 1/k ... have exact double roots: the same times)."""
    proc = subprocess.run([sys.executable, "-c", STAGE_SCRIPT], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["exact"] == [1000, stage.INTEGER_BUDGET]
    assert out["loaded"] == [False, True]
    assert out["status"][0] == out["status"][1]
    assert set(out["status"][0]) >= {int(Status.HIT), int(Status.LATER)}
    assert out["toi"][0] == out["toi"][1]


def test_compiled_motion_with_integers_for_the_rest_passes_the_exact_reference(monkeypatch):
    """simulate() before the compiled exact stage is loaded: compiled filter, integers where it cannot prove."""
    monkeypatch.setattr(motion, "compiled_stage", lambda pairs: None)
    count = 0
    for name in ("cradle", "wall_start", "jam", "grazes", "gas"):
        for case in mf.FAMILIES[name](25):
            m = simulate(case.bodies, case.horizon, case.restitution, case.container, max_events=case.max_events)
            problems = check_motion(m)
            assert not problems, f"{case}: {problems[0]}"
            count += 1
    assert count == 125
