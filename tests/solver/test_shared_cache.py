"""numba's cache shared by every process (solver._shared_cache): whoever wrote an entry, every other process loads it
or compiles its own, never fails.

Each test runs fresh processes on a private copy of the solver's folder, so its cache starts empty and no other
test's entries are seen: a *window* (plain Python, loading the compiled motion loop in the background, as the window
does after its first frame) and a *worker* (the solver compiled, as a site export's workers and ``audit --workers``
run it), in either order.  At 4decb2d a worker after a window failed with ``No module named 'solver._compiled'``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import solver
from solver import _compile
from solver._shared_cache import entry_name

#: A process like the window: plain Python, then the compiled motion loop loaded in the background.
WINDOW = """
import json, solver
from solver import _compile
solver.configure(jit=False)
_compile.load_motion_loop().join()
loop = _compile.motion_loop()
print(json.dumps({"loop": loop is not None and loop.dispatcher.py_func.__module__}))
"""
#: A process like a site's worker: the solver compiled, one motion through its own loop.
WORKER = """
import json
from solver import Body, simulate, _compile
m = simulate([Body((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0), Body((3.0, 0.0, 0.0))], 1.0)
print(json.dumps({"compiling": _compile.compiling(), "events": [[e.time, list(e.pair)] for e in m.events]}))
"""


@pytest.fixture
def solver_copy(tmp_path) -> Path:
    """A folder holding a copy of the solver's package without its cache: the processes below import it."""
    shutil.copytree(Path(solver.__file__).parent, tmp_path / "solver", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def run(folder: Path, script: str) -> dict:
    """Run ``script`` in a fresh process importing the solver of ``folder``; its JSON line (fails on an error)."""
    env = {key: value for key, value in os.environ.items() if key != _compile.VARIABLE}
    env["PYTHONPATH"] = str(folder)
    done = subprocess.run([sys.executable, "-c", script], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def entries(folder: Path) -> dict[str, int]:
    """The cache's machine-code files: name -> the time it was last written (ns)."""
    return {p.name: p.stat().st_mtime_ns for p in (folder / "solver" / "__pycache__").glob("*.nbc")}


def test_a_copy_s_entries_carry_the_copy_s_name_and_the_solver_s_keep_numba_s():
    assert entry_name("solver._events", "_events.events_kernel") == "_events.events_kernel"
    assert entry_name("solver._compiled._events", "_events.events_kernel") == "solver._compiled._events.events_kernel"
    assert entry_name("elsewhere._events", "_events.f") == "_events.f"  # a module not of the solver: numba's name


@pytest.mark.parametrize("order", [("window", "worker"), ("worker", "window")])
def test_window_and_worker_in_either_order_load_what_the_other_left_and_neither_compiles_twice(solver_copy, order):
    scripts = {"window": WINDOW, "worker": WORKER}
    first = {name: run(solver_copy, scripts[name]) for name in order}
    assert first["window"]["loop"] == "solver._compiled._events"
    assert first["worker"] == {"compiling": True, "events": [[1.0, [0, 1]]]}
    written = entries(solver_copy)
    assert len(written) == 2, written  # one loop each, under two names
    again = {name: run(solver_copy, scripts[name]) for name in order}
    assert again == first
    assert entries(solver_copy) == written  # each loaded its own entry: nothing compiled and written over


def test_an_entry_cut_short_is_compiled_again_not_a_failure(solver_copy):
    run(solver_copy, WORKER)
    (name,) = entries(solver_copy)
    cut = solver_copy / "solver" / "__pycache__" / name
    cut.write_bytes(cut.read_bytes()[:100])  # a disk that filled up, a process killed while writing
    assert run(solver_copy, WORKER)["events"] == [[1.0, [0, 1]]]
    assert cut.stat().st_size > 100  # written again, whole


def test_an_entry_naming_a_module_this_process_lacks_is_compiled_again(solver_copy):
    """4decb2d's window wrote the copy's machine code under the solver's own name; a worker meets it."""
    old_window = "import solver._shared_cache as shared\nshared.entry_name = lambda module, fullname: fullname\n"
    run(solver_copy, old_window + WINDOW)
    assert [name.partition("-")[0] for name in entries(solver_copy)] == ["_events.events_kernel"]
    assert run(solver_copy, WORKER)["events"] == [[1.0, [0, 1]]]
