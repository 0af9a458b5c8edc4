"""How the solver runs (solver._compile): chosen once per process, by solver.configure or the user's SPHERE_SOLVER_JIT.

This test process runs the solver compiled (nothing configured it otherwise); a
fresh process, with the setting left to the program, shows what ``import solver``
decides (nothing) and what a late ``configure`` says.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import solver
from solver import _compile

FRESH = """
import json, sys
import solver
from solver import Body, Status, configure, limits, _compile
out = {"decided on import": _compile._decided is not None, "numba on import": "numba" in sys.modules}
configure(jit=False)
from solver import bounce_path, ray_sphere, simulate, sweep
hit = sweep(Body((0, 0, 0), (10, 0, 0), 1.0), Body((5, 0, 0)), 1.0)
motion = simulate([Body((0, 0, 0), (10, 0, 0), 1.0), Body((5, 0, 0))], 1.0)
out.update({"compiled": _compile.compiling(), "numba": "numba" in sys.modules, "toi": hit.toi,
            "events": [e.time for e in motion.events]})
configure(jit=False)  # the same again: nothing to refuse
try:
    configure(jit=True)
except ValueError as exc:
    out["refused"] = str(exc)
print(json.dumps(out))
"""


def test_import_solver_decides_nothing_and_configure_chooses_before_the_first_query():
    """``import solver`` (and Body, Status, limits) neither decides nor imports numba; ``configure(jit=False)``
    then makes the queries plain Python, without numba ever imported; asking for the other way after the first
    query is one line naming ``jit``."""
    env = {k: v for k, v in os.environ.items() if k != _compile.VARIABLE}
    done = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["decided on import"] is False and out["numba on import"] is False
    assert out["compiled"] is False and out["numba"] is False
    assert out["toi"] == 0.3 and out["events"] == [0.3]  # A's front at 1 + 10 t meets B's back at 4
    assert out["refused"] == (
        "jit: the solver already runs as plain Python in this process; call solver.configure(jit=True) before "
        "its first query (a sweep, or importing simulate, bounce_path, ray_sphere or sweep_many)"
    )


def test_configure_refuses_what_is_not_a_bool():
    with pytest.raises(ValueError, match=r"^jit: expected True or False, got 'no'$"):
        solver.configure(jit="no")
    with pytest.raises(ValueError, match=r"^jit: expected True or False, got 1$"):
        solver.configure(jit=1)


def test_after_the_first_query_configure_accepts_only_what_changes_nothing(monkeypatch):
    """This process runs compiled: asking for that again is fine; plain Python is refused, unless the user's
    SPHERE_SOLVER_JIT=1 says compiled anyway (it wins over the program's call, so nothing would change)."""
    assert _compile.compiling()
    monkeypatch.delenv(_compile.VARIABLE, raising=False)
    solver.configure(jit=True)
    with pytest.raises(ValueError, match=r"^jit: the solver already runs compiled in this process; "):
        solver.configure(jit=False)
    monkeypatch.setenv(_compile.VARIABLE, "1")
    solver.configure(jit=False)
    assert _compile.compiling()


def test_the_queries_are_imported_on_first_use_under_their_own_names():
    """The lazily imported names are the functions and classes themselves (not their modules), listed by dir();
    ``solver.sweep`` stays the function although a module has that name."""
    import solver.sweep  # noqa: F401  (the module: the package's name stays the function)

    assert callable(solver.sweep) and solver.sweep.__module__ == "solver.sweep"
    assert solver.simulate.__name__ == "simulate" and solver.Motion.__name__ == "Motion"
    assert {"simulate", "bounce_path", "ray_sphere", "sweep_many", "configure"} <= set(dir(solver))
    assert set(solver.__all__) <= set(dir(solver))
    with pytest.raises(AttributeError, match="has no attribute 'simulation'"):
        solver.simulation  # noqa: B018


def test_sweep_many_s_loop_runs_its_plain_copy_within_its_budget_then_the_compiled_one_for_good(monkeypatch):
    """A call that would go beyond the budget runs the compiled loop, and so does every later one, however small."""
    from solver import _kernel

    monkeypatch.setattr(_compile, "BATCH_BUDGET", _compile._Budget(_compile.PLAIN_BATCH_BUDGET))
    plain, compiled = _compile.plain("_kernel").sweep_kernel, _kernel.sweep_kernel
    assert plain.__module__ == "solver._plain._kernel" and compiled.dispatcher.py_func.__module__ == "solver._kernel"
    assert _compile.batch_loop(1000) is plain and _compile.batch_loop(1000) is plain
    assert _compile.batch_loop(_compile.PLAIN_BATCH_BUDGET - 1000) is compiled  # 2,000 spent: this one goes beyond
    assert _compile.batch_loop(1) is compiled


LATER = """
import json, sys
sys.path.insert(0, sys.argv[1])
import solver
solver.configure(jit=False)
import motion_families as mf
from solver import _compile, simulate

cases = [case for name in ("cradle", "wall_start", "jam", "grazes", "gas") for case in mf.FAMILIES[name](25)]


def motions():
    out = []
    for case in cases:
        m = simulate(case.bodies, case.horizon, case.restitution, case.container, max_events=case.max_events)
        out.append(repr([(e.time, e.pair, tuple(e.impulse)) for e in m.events] + [(m.end, m.stopped)]))
    return out


out = {"loop before": _compile.motion_loop() is not None}
plain = motions()
out["numba before"] = "numba" in sys.modules
loader = _compile.load_motion_loop()
out["started"] = loader is not None
if loader is not None:
    loader.join()
    loop = _compile.motion_loop()
    out["loop"] = type(loop.dispatcher.py_func).__name__ + " " + loop.dispatcher.py_func.__module__
    out["machine code loaded"] = len(loop.dispatcher.signatures)
    out["second call"] = _compile.load_motion_loop() is not None
    calls = []

    def counted(*args):
        calls.append(1)
        return loop(*args)

    _compile._motion_loop = counted
    out["same motions"] = motions() == plain
    out["motions through the loop"] = len(calls) > 0
    out["machine code after"] = len(loop.dispatcher.signatures)
out["compiling"] = _compile.compiling()
out["numba"] = "numba" in sys.modules
out["count"] = len(plain)
print(json.dumps(out))
"""


def _later(env: dict) -> dict:
    from pathlib import Path

    import motion_families

    support = str(Path(motion_families.__file__).resolve().parent)
    done = subprocess.run([sys.executable, "-c", LATER, support], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_plain_process_loads_the_compiled_motion_loop_later_and_its_motions_stay_the_same_bit_for_bit():
    """The window's case: plain Python from the start (numba not even imported); after load_motion_loop() every
    new motion goes through the compiled copy's loop, whose machine code was loaded in the background (the first
    motion compiles nothing more), and every motion of the hard families is the same bit for bit."""
    env = {k: v for k, v in os.environ.items() if k != _compile.VARIABLE}
    out = _later(env)
    assert out["loop before"] is False and out["numba before"] is False and out["count"] == 125
    assert out["started"] is True and out["second call"] is False
    assert out["loop"] == "function solver._compiled._events"
    assert out["machine code loaded"] == out["machine code after"] == 1
    assert out["motions through the loop"] is True and out["same motions"] is True
    assert out["compiling"] is False  # the process itself still runs as plain Python


def test_the_user_s_plain_python_setting_keeps_the_motion_loop_plain():
    out = _later({**os.environ, _compile.VARIABLE: "0"})
    assert out["started"] is False and out["numba"] is False and out["loop before"] is False


def test_a_process_that_compiles_uses_its_own_loop_and_loads_nothing_more():
    from solver import _events

    assert _compile.compiling()
    assert _compile.motion_loop() is _events.events_kernel
    assert _compile.load_motion_loop() is None
    assert "solver._compiled" not in sys.modules
