"""The audit's row check is the solver's: a row is kept exactly when :func:`solver.sweep_many` accepts its pair.

One chunk holds, row after row, every column of a log set in turn to the values at and just beyond
the edges of its range in :mod:`solver.limits` (and NaN, infinities, zero); every other value of a
row is an ordinary one.  :func:`explorer.audit.decision.rows.gather` keeps a row or names the column it
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

from explorer.audit.decision.rows import REASON_COLUMNS, gather, skip_reason
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
    kept = gather(columns, n, 0)
    kept_rows = set(kept.row.tolist())
    refused = 0
    for i, (column, value) in enumerate(cases):
        verdict = _solver_verdict({name: float(values[i]) for name, values in columns.items()})
        assert (i in kept_rows) == (verdict is None), (column, value, verdict)
        if verdict is None:
            assert kept.reason[i] == 0
            continue
        refused += 1
        assert REASON_COLUMNS[kept.reason[i] - 1] == column, (column, value)
        assert verdict.startswith(f"{_solver_name(column)}: "), verdict
        if math.isfinite(value):  # the solver says "must be finite" for the others
            words = skip_reason(column, value)
            assert words.startswith("must be ") and words.endswith(f", got {value!r}"), words
            bounds = re.findall(r"\d+e[+-]\d+", verdict.partition(" must be ")[2].partition(", got")[0])
            assert bounds and all(bound in words for bound in bounds), (words, verdict)
    assert 0 < refused < n and len(kept) == n - refused


PLAIN_SOLVER_SCRIPT = """
import numpy as np
from solver import _kernel
from explorer.audit.log.columns import GEOMETRY
from explorer.audit.decision.rows import gather

assert not hasattr(_kernel.within, "py_func"), "the solver should run as plain Python here"
columns = {name: np.ones(4) for name in GEOMETRY}
columns["horizon"] = np.ones(4)
columns["b_vy"][1] = 1e-200
columns["horizon"][2] = 0.0
print(gather(columns, 4, 0).reason.tolist())
"""


def test_rows_are_checked_where_the_solver_runs_as_plain_python(tmp_path):
    """SPHERE_SOLVER_JIT=0 (as the app sets it) and nothing compiled yet: the audit compiles the solver's tests itself."""
    env = {**os.environ, "SPHERE_SOLVER_JIT": "0", "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-c", PLAIN_SOLVER_SCRIPT], capture_output=True, text=True, env=env,
                          timeout=300)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == str([0, GEOMETRY.index("b_vy") + 1, REASON_COLUMNS.index(HORIZON) + 1, 0])


def test_the_compiled_checks_see_one_type_of_column_whatever_the_reader_handed_over():
    """A file's columns read in place are read-only, converted ones writable: one compiled version serves both."""
    from explorer.audit.decision import rows

    def chunk(read_only: set[str]) -> dict[str, np.ndarray]:
        columns = {name: np.full(3, value) for name, value in ORDINARY.items()}
        columns["b_r"][1] = -1.0  # a refused row: the reasons are compiled too
        for name in read_only:
            columns[name].flags.writeable = False
        return columns

    names = list(GEOMETRY + (HORIZON,))
    for read_only in (set(), set(names), set(names[::2]), {"a_cx", HORIZON}):
        assert gather(chunk(read_only), 3, 0).reason.tolist() == [0, REASON_COLUMNS.index("b_r") + 1, 0]
    assert len(rows._check_and_interleave.signatures) == 1 and len(rows._reasons.signatures) == 1
