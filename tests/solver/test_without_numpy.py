"""The solver where numpy cannot be imported (a browser's Python): the same answers as the compiled solver.

A subprocess refuses every import of numpy (and so of numba), then runs
:func:`solver.sweep`, :func:`solver.sweep_inside`, :func:`solver.simulate` and
:func:`solver.bounce_path` on the hard families, sent to it as JSON (a float's
``repr`` survives the trip exactly).  This process runs the same queries
compiled by numba; every field must be equal bit for bit.  ``sweep_many``
needs numpy and says so in one line.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import families as fam
import motion_families as mf
from answers_as_text import data, motion_answer, path_answer, sweep_answer

from solver import _compile

#: Cases of each sweep family and of each motion family sent to the subprocess.
PER_FAMILY = 120
PER_MOTION_FAMILY = 12

#: Families made for the maths beyond the public API's ranges (it refuses every case of them).
OUT_OF_RANGE = ("extreme",)

#: Makes ``import numpy`` fail in the subprocess, before anything else is imported.
REFUSE_NUMPY = "import sys; sys.modules['numpy'] = None\n"

CHILD = (
    REFUSE_NUMPY
    + """
import json
from solver import Body, bounce_path, simulate, sweep, sweep_inside
from solver import _compile
sys.path.insert(0, sys.argv[1])
import answers_as_text as this

cases = json.load(sys.stdin)
out = {"use_jit": _compile.compiling(), "sweeps": [this.sweep_answer(*c) for c in cases["sweeps"]],
       "motions": [this.motion_answer(c) for c in cases["motions"]], "paths": [this.path_answer(c) for c in cases["paths"]]}
try:
    from solver import sweep_many
except ImportError as exc:
    out["sweep_many"] = str(exc)
out["modules"] = sorted(m for m, mod in sys.modules.items() if mod is not None and m.split(".")[0] in ("numpy", "numba"))
print(json.dumps(out))
"""
)


def _cases() -> dict:
    sweeps = [
        [data(a), data(b), h, fam.mode(name)]
        for name in fam.FAMILIES
        if name not in OUT_OF_RANGE
        for a, b, h in fam.cases(name)[:PER_FAMILY]
    ]
    motions = []
    for name in sorted(mf.FAMILIES):
        for case in mf.FAMILIES[name](PER_MOTION_FAMILY):
            motions.append({
                "bodies": [data(b) for b in case.bodies],
                "container": None if case.container is None else data(case.container),
                "horizon": case.horizon, "restitution": case.restitution, "max_events": case.max_events,
            })  # fmt: skip
    paths = [m for m in motions if m["container"] is None or len(m["bodies"]) == 1]
    return {"sweeps": sweeps, "motions": motions, "paths": paths}


def test_the_solver_without_numpy_answers_as_the_compiled_one_bit_for_bit():
    assert _compile.compiling(), "this process should run the compiled solver"
    cases = _cases()
    proc = subprocess.run([sys.executable, "-c", CHILD, str(Path(fam.__file__).parent)], input=json.dumps(cases),
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    plain = json.loads(proc.stdout)
    assert plain["use_jit"] is False and plain["modules"] == [], plain["modules"]
    assert (
        plain["sweep_many"].startswith("solver.sweep_many needs numpy (") and "pip install numpy" in plain["sweep_many"]
    )
    for kind, answer in (("sweeps", lambda c: sweep_answer(*c)), ("motions", motion_answer), ("paths", path_answer)):
        compiled = [answer(c) for c in cases[kind]]
        assert len(compiled) == len(plain[kind]) > 10
        mismatch = [(k, c, p) for k, (c, p) in enumerate(zip(compiled, plain[kind])) if c != p]
        assert not mismatch, f"{kind}: {len(mismatch)} differ; the first: {mismatch[0]}"
        assert sum(c.startswith("refused") for c in compiled) < 0.2 * len(compiled), kind
