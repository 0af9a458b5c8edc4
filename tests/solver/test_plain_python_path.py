"""The uncompiled filter (``SPHERE_SOLVER_JIT=0``, what the explorer app runs) gives the same answers.

The same source runs compiled by numba (this test process) and as plain Python
(a subprocess); every field of the result must be bit-for-bit equal on every
hard family.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import families as fam
from core import core_sweep

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
