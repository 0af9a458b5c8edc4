"""The audit's row check is the solver's: a row is kept exactly when :func:`solver.sweep_many` accepts its pair.

One chunk holds, row after row, every column of a log set in turn to the values at and just beyond
the edges of its range in :mod:`solver.limits` (and NaN, infinities, zero); every other value of a
row is an ordinary one.  :func:`explorer.audit.decision.rows.decide` keeps a row or names the column it
skipped it for; the solver, given the same pair alone, accepts it or refuses it naming that
quantity, and states the bounds the audit's reason states.
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys

import numpy as np

from explorer.audit.decision.rows import REASON_COLUMNS, decide, skip_reason
from explorer.audit.log.columns import GEOMETRY, HORIZON
from solver import limits, sweep_many

L, VMIN = limits.MAX_COORDINATE, limits.MIN_VELOCITY_COMPONENT
RMIN, RMAX, HMAX = limits.MIN_RADIUS, limits.MAX_RADIUS, limits.MAX_HORIZON


def _around(edge: float) -> list[float]:
    """``edge`` and its neighbouring floats, of both signs."""
    near = [edge, math.nextafter(edge, 0.0), math.nextafter(edge, math.inf)]
    return near + [-x for x in near]


#: The values each kind of column is tried with.
SPECIAL = [0.0, -0.0, 1.0, math.nan, math.inf, -math.inf, 5e-324]
VALUES = {
    "centre": SPECIAL + _around(L),
    "velocity": SPECIAL + _around(L) + _around(VMIN),
    "radius": SPECIAL + _around(RMIN) + _around(RMAX),
    "horizon": SPECIAL + _around(HMAX),
}
#: An ordinary row: A at the origin moving along x, B ahead of it at rest.
ORDINARY = dict.fromkeys(GEOMETRY, 0.0) | {"a_vx": 1.0, "a_r": 0.5, "b_cx": 3.0, "b_r": 0.5, HORIZON: 1.0}


def _kind(column: str) -> str:
    if column == HORIZON:
        return "horizon"
    if column.endswith("_r"):
        return "radius"
    return "velocity" if "_v" in column else "centre"


def _cases() -> list[tuple[str, float]]:
    return [(column, value) for column in GEOMETRY + (HORIZON,) for value in VALUES[_kind(column)]]


def _solver_verdict(row: dict[str, float]) -> str | None:
    """None when ``sweep_many`` accepts the row's pair, else its refusal (one line naming the quantity)."""
    vector = lambda body, kind: np.array([[row[f"{body}_{kind}{axis}"] for axis in "xyz"]])
    try:
        sweep_many(vector("a", "c"), vector("a", "v"), np.array([row["a_r"]]),
                   vector("b", "c"), vector("b", "v"), np.array([row["b_r"]]), np.array([row[HORIZON]]))  # fmt: skip
    except ValueError as refusal:
        return str(refusal)
    return None


#: The solver's name for the quantity held by each column.
QUANTITY = {"c": "center", "v": "velocity", "r": "radius"}


def _solver_name(column: str) -> str:
    if column == HORIZON:
        return "horizon"
    body, kind = column.split("_")
    return f"{body}_{QUANTITY[kind[0]]}"


def test_a_row_is_kept_exactly_when_the_solver_accepts_it_and_skipped_for_the_quantity_it_names():
    cases = _cases()
    n = len(cases)
    columns = {name: np.full(n, value) for name, value in ORDINARY.items()}
    for i, (column, value) in enumerate(cases):
        columns[column][i] = value
    decided = decide(columns, n, 0)
    refused = 0
    for i, (column, value) in enumerate(cases):
        verdict = _solver_verdict({name: float(values[i]) for name, values in columns.items()})
        assert decided.kept[i] == (verdict is None), (column, value, verdict)
        if verdict is None:
            assert decided.reason[i] == 0
            continue
        refused += 1
        assert REASON_COLUMNS[decided.reason[i] - 1] == column, (column, value)
        assert verdict.startswith(f"{_solver_name(column)}: "), verdict
        if math.isfinite(value):  # the solver says "must be finite" for the others
            words = skip_reason(column, value)
            assert words.startswith("must be ") and words.endswith(f", got {value!r}"), words
            bounds = re.findall(r"\d+e[+-]\d+", verdict.partition(" must be ")[2].partition(", got")[0])
            assert bounds and all(bound in words for bound in bounds), (words, verdict)
    assert 0 < refused < n and decided.pairs == n - refused


PLAIN_SOLVER_SCRIPT = """
import numpy as np
from solver import _kernel
from explorer.audit.log.columns import GEOMETRY
from explorer.audit.decision.rows import decide

assert not hasattr(_kernel.within, "py_func"), "the solver should run as plain Python here"
columns = {name: np.ones(4) for name in GEOMETRY}
columns["horizon"] = np.ones(4)
columns["b_vy"][1] = 1e-200
columns["horizon"][2] = 0.0
print(decide(columns, 4, 0).reason.tolist())
"""


def test_rows_are_checked_where_the_solver_runs_as_plain_python(tmp_path):
    """SPHERE_SOLVER_JIT=0 (as the app sets it) and nothing compiled yet: the audit compiles the solver's tests itself."""
    env = {**os.environ, "SPHERE_SOLVER_JIT": "0", "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-c", PLAIN_SOLVER_SCRIPT], capture_output=True, text=True, env=env,
                          timeout=300)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == str([0, GEOMETRY.index("b_vy") + 1, REASON_COLUMNS.index(HORIZON) + 1, 0])


def test_the_compiled_checks_see_one_type_of_column_whatever_the_reader_handed_over(monkeypatch):
    """A file's columns read in place are read-only, converted ones writable: one compiled version serves both."""
    from explorer.audit.decision import rows
    from solver import _compile, _kernel

    monkeypatch.setattr(_compile, "BATCH_BUDGET", _compile._Budget(0))  # the compiled loop from the first row

    def chunk(read_only: set[str]) -> dict[str, np.ndarray]:
        columns = {name: np.full(3, value) for name, value in ORDINARY.items()}
        columns["b_r"][1] = -1.0  # a refused row: the reasons are compiled too
        for name in read_only:
            columns[name].flags.writeable = False
        return columns

    names = list(GEOMETRY + (HORIZON,))
    for read_only in (set(), set(names), set(names[::2]), {"a_cx", HORIZON}):
        assert decide(chunk(read_only), 3, 0).reason.tolist() == [0, REASON_COLUMNS.index("b_r") + 1, 0]
    assert len(_kernel.columns_kernel.dispatcher.signatures) == 1 and len(rows._reasons.signatures) == 1


def test_chunks_of_growing_and_shrinking_sizes_decided_in_one_thread():
    """The answers are written into arrays each thread reuses, made on its first chunk and grown when a chunk
    needs more: in a new thread (none yet), chunks of 2, 7, 3 and 7 rows in turn each get their own answers, as
    ``sweep_many`` gives them for that chunk alone (arrays kept too small, or shared, would cut or mix them)."""
    import threading

    rng = np.random.default_rng(8)
    decided, errors = [], []

    def work():
        try:
            for n in (2, 7, 3, 7):
                columns = {name: rng.uniform(-2.0, 2.0, n) for name in GEOMETRY}
                columns["a_r"], columns["b_r"], columns[HORIZON] = np.full(n, 1.0), np.full(n, 0.5), np.ones(n)
                result = decide(columns, n, 0).result
                decided.append((columns, [getattr(result, f).copy() for f in ("hit", "status", "toi", "t_enter")]))
        except Exception as err:  # noqa: BLE001 - reported by the test below
            errors.append(err)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert errors == [] and len(decided) == 4
    for columns, answers in decided:
        a_c, a_v, b_c, b_v = (
            np.column_stack([columns[f"{q}{x}"] for x in "xyz"]) for q in ("a_c", "a_v", "b_c", "b_v")
        )
        alone = sweep_many(a_c, a_v, columns["a_r"], b_c, b_v, columns["b_r"], columns[HORIZON])
        expected = [alone.hit, alone.status, alone.toi, alone.t_enter]
        assert [a.tobytes() for a in answers] == [e.tobytes() for e in expected]
    assert {bool(x) for _, answers in decided for x in answers[0]} == {True, False}
