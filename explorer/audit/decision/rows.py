"""Every row of a chunk decided by the solver as the log holds it, and the rows it could not decide.

A row is *skipped* (counted in the summary, never decided) when a value is
missing or outside the range the solver and the scene files accept,
:mod:`solver.limits`: NaN or infinite numbers, centre components beyond
±1e12, velocity components of magnitude below 1e-100 (other than 0) or beyond
1e12, radii outside [1e-12, 1e12], a horizon outside (0, 1e6], or an empty
``engine_hit``.  The first bad column names the reason.  An ``engine_hit``
that is neither true/false nor 0/1 is not a skip but an error in the log.

The chunk's columns go to the solver as they were read (:func:`solver.batch.sweep_columns`, no copy):
its compiled loop tests every row with the solver's own range checks in the pass that decides it, and
marks the rows it refuses instead of stopping at the first.  Only a chunk with skipped rows needs more:
the refused rows are tested quantity by quantity with the same tests (:func:`solver._kernel.within`'s
parts, :mod:`solver.limits`) to find the reason.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, fields

import numpy as np
from numba import njit

from solver import limits
from solver._kernel import coordinate_ok, horizon_ok, radius_ok, velocity_ok
from solver.batch import BatchResult, batch_arrays, sweep_columns
from solver.limits import RANGES

from ..log.columns import ENGINE_HIT, ENGINE_TOI, GEOMETRY, HORIZON, LogError, read_only

if not hasattr(horizon_ok, "py_func"):  # the solver runs as plain Python here (SPHERE_SOLVER_JIT=0): compile its tests
    from numba.extending import register_jitable

    for test in (coordinate_ok, velocity_ok, radius_ok, horizon_ok):
        register_jitable(test)

#: Reason codes of :func:`decide`: 0 keeps the row, ``k`` in 1..16 skips it for
#: ``REASON_COLUMNS[k - 1]``; ``BAD_ENGINE_HIT`` is an error in the log.
REASON_COLUMNS = GEOMETRY + (HORIZON, ENGINE_HIT)
BAD_ENGINE_HIT = len(REASON_COLUMNS) + 1
#: Where B's quantities start in ``GEOMETRY``; the codes of the horizon and of an empty ``engine_hit``.
_B_OFFSET = GEOMETRY.index("b_cx")
_HORIZON_CODE = REASON_COLUMNS.index(HORIZON) + 1
_EMPTY_HIT_CODE = REASON_COLUMNS.index(ENGINE_HIT) + 1


def _range_words(column: str) -> str:
    """The range of :mod:`solver.limits` that ``column`` (one of ``GEOMETRY`` or ``horizon``) must be in, in words."""
    if column == HORIZON:
        return limits.HORIZON_WORDS
    if column in ("a_r", "b_r"):
        return limits.RADIUS_WORDS
    if "_v" in column:
        return limits.VELOCITY_WORDS
    return limits.COORDINATE_WORDS


@njit(cache=True, nogil=True)
def _first_failing(c0, c1, c2, v0, v1, v2, r):
    """0 when a body passes the solver's tests, else 1 + the index of its first failing quantity.

    The quantities in the order of :data:`~explorer.audit.log.columns.GEOMETRY`:
    centre x, y, z, velocity x, y, z, radius; the tests of :func:`solver._kernel.within`.
    """
    passed = (
        coordinate_ok(c0, RANGES), coordinate_ok(c1, RANGES), coordinate_ok(c2, RANGES),
        velocity_ok(v0, RANGES), velocity_ok(v1, RANGES), velocity_ok(v2, RANGES), radius_ok(r, RANGES),
    )  # fmt: skip
    for k in range(len(passed)):
        if not passed[k]:
            return k + 1
    return 0


@njit(cache=True, nogil=True)
def _reasons(rows, acx, acy, acz, avx, avy, avz, ar, bcx, bcy, bcz, bvx, bvy, bvz, br, h, ehit, reason):
    """``reason[i]`` for each ``i`` of ``rows`` (the rare rows :func:`decide` skipped).

    The code of the first column whose test fails; for a row whose every range
    holds, its ``engine_hit``: empty (NaN), or :data:`BAD_ENGINE_HIT`.
    """
    for i in rows:
        code = _first_failing(acx[i], acy[i], acz[i], avx[i], avy[i], avz[i], ar[i])
        if code == 0:
            code = _first_failing(bcx[i], bcy[i], bcz[i], bvx[i], bvy[i], bvz[i], br[i])
            if code != 0:
                code += _B_OFFSET
            elif not horizon_ok(h[i], RANGES):
                code = _HORIZON_CODE
            elif ehit[i] != ehit[i]:
                code = _EMPTY_HIT_CODE
            else:
                code = BAD_ENGINE_HIT
        reason[i] = code


@njit(cache=True, nogil=True)
def _engine_verdicts(ehit, kept, said_hit):
    """``said_hit[i]``: the engine said hit at row ``i`` (``engine_hit`` 1); a kept row whose ``engine_hit`` is
    neither 0 nor 1 (empty, or an error in the log) is no longer kept.  Returns the number of those rows."""
    dropped = 0
    for i in range(ehit.shape[0]):
        e = ehit[i]
        said_hit[i] = e == 1.0
        drop = kept[i] & (e != 0.0) & (e != 1.0)
        kept[i] &= not drop
        dropped += drop
    return dropped


@dataclass(frozen=True)
class Decided:
    """A chunk's rows, decided by the solver where it accepts them.

    Attributes
    ----------
    columns : dict of str to (n,) float64
        The :data:`~explorer.audit.log.columns.GEOMETRY` columns and ``horizon`` as read (read-only views).
    result : solver.BatchResult
        The exact answers, ``(n,)`` arrays; meaningless where ``kept`` is False.  Views of arrays the thread
        reuses: valid until it decides its next chunk.
    kept : (n,) bool
        The rows decided; the others are skipped (``result.accepted``, and an ``engine_hit`` of 0 or 1).
    pairs : int
        Rows kept.
    reason : (n,) int8
        Per row: 0 kept, else the 1-based index into :data:`REASON_COLUMNS`.
    engine_hit : (n,) bool
        The engine's verdicts (empty without engine columns).
    engine_toi : (n,) float64
        NaN where the engine gave none; meaningless without an ``engine_toi`` column (empty without engine columns).
    """

    columns: dict[str, np.ndarray]
    result: BatchResult
    kept: np.ndarray
    pairs: int
    reason: np.ndarray
    engine_hit: np.ndarray
    engine_toi: np.ndarray

    def vectors(self, quantity: str, rows: np.ndarray) -> np.ndarray:
        """``(k, 3)`` float64: a vector quantity (``"a_c"``, ``"a_v"``, ``"b_c"`` or ``"b_v"``) at ``rows``."""
        return np.stack([self.columns[f"{quantity}{axis}"][rows] for axis in "xyz"], axis=1)

    def values(self, row: int) -> dict[str, float]:
        """The geometry columns and ``horizon`` at ``row``."""
        return {name: float(self.columns[name][row]) for name in GEOMETRY + (HORIZON,)}


_workspace = threading.local()


def _answers(n: int) -> BatchResult:
    """Arrays for the solver's answers on ``n`` rows, reused from chunk to chunk by each thread (valid until the
    thread decides its next chunk): fresh ones took a page fault every 4 kB, 7,000 a million rows."""
    held = getattr(_workspace, "answers", None)
    if held is None or held.hit.shape[0] < n:
        held = _workspace.answers = batch_arrays(n)
    return BatchResult(*(getattr(held, f.name)[:n] for f in fields(BatchResult)))


def decide(columns: dict[str, np.ndarray], n: int, hit_mode: int) -> Decided:
    """Decide every row of a chunk that the solver accepts, and say why the others are skipped.

    Parameters
    ----------
    columns : dict of str to (n,) float64
        The :data:`~explorer.audit.log.columns.GEOMETRY` columns, ``horizon``, and
        ``engine_hit`` / ``engine_toi`` as ``hit_mode`` needs them.
    n : int
        Rows in the chunk.
    hit_mode : {0, 1, 2}
        0: no engine columns; 1: ``engine_hit`` and ``engine_toi`` (all NaN when
        the log has none); 2: ``engine_toi`` only, a finite value meaning hit.

    Raises
    ------
    LogError
        For an ``engine_hit`` that is neither 0 nor 1, naming the row.
    """
    held = {name: read_only(columns[name]) for name in GEOMETRY + (HORIZON,)}
    g = [held[name] for name in GEOMETRY]
    h = held[HORIZON]
    result = sweep_columns(g[0:3], g[3:6], g[6], g[7:10], g[10:13], g[13], h, skip_refused=True, out=_answers(n))
    kept = result.accepted
    skipped = n - int(np.count_nonzero(kept))
    ehit = read_only(columns[ENGINE_HIT]) if hit_mode == 1 else h
    if hit_mode == 1:
        engine_hit, engine_toi = np.empty(n, dtype=np.bool_), read_only(columns[ENGINE_TOI])
        skipped += _engine_verdicts(ehit, kept, engine_hit)
    elif hit_mode == 2:
        engine_toi = read_only(columns[ENGINE_TOI])
        engine_hit = np.isfinite(engine_toi)
    else:
        engine_hit, engine_toi = np.zeros(0, dtype=np.bool_), np.zeros(0)
    reason = np.zeros(n, dtype=np.int8)
    if skipped:
        _reasons(np.flatnonzero(~kept), *g, h, ehit, reason)
        if (reason == BAD_ENGINE_HIT).any():
            row = int(np.flatnonzero(reason == BAD_ENGINE_HIT)[0])
            raise LogError(f"expected true/false or 1/0, got {float(ehit[row])!r}", ENGINE_HIT, row)
    return Decided(held, result, kept, n - skipped, reason, engine_hit, engine_toi)


def skip_reason(column: str, value: float) -> str:
    """Why ``value`` in ``column`` made its row be skipped (the range of :mod:`solver.limits` it left)."""
    if column == ENGINE_HIT:
        return "empty: the engine's verdict is missing"
    return f"must be {_range_words(column)}, got {value!r}"
