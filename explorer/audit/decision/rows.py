"""Which rows the solver can decide, gathered into the arrays :func:`solver.sweep_many` takes.

A row is *skipped* (counted in the summary, never decided) when a value is
missing or outside the range the solver and the scene files accept,
:mod:`solver.limits`: NaN or infinite numbers, centre components beyond
±1e12, velocity components of magnitude below 1e-100 (other than 0) or beyond
1e12, radii outside [1e-12, 1e12], a horizon outside (0, 1e6], or an empty
``engine_hit``.  The first bad column names the reason.  An ``engine_hit``
that is neither true/false nor 0/1 is not a skip but an error in the log.

The ranges are the solver's: every row is checked by the test of its batch loop
(:func:`solver._kernel.within`, built of the branch-free tests of
:mod:`solver.limits`), in one compiled pass without branches (so it
vectorizes) that also writes the vectors interleaved (``x, y, z`` per pair),
the layout the solver's kernel reads.  Only a chunk with refused rows needs
more: the kept rows are moved together in place, and the refused ones are
tested quantity by quantity with the same tests to find the reason.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numba import njit

from solver import limits
from solver._kernel import coordinate_ok, horizon_ok, radius_ok, velocity_ok, within
from solver.limits import RANGES

from ..log.columns import ENGINE_HIT, GEOMETRY, HORIZON, LogError

if not hasattr(within, "py_func"):  # the solver runs as plain Python here (SPHERE_SOLVER_JIT=0): compile its tests
    from numba.extending import register_jitable

    for test in (coordinate_ok, velocity_ok, radius_ok, horizon_ok, within):
        register_jitable(test)

#: Reason codes of :func:`gather`: 0 keeps the row, ``k`` in 1..16 skips it for
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
def _check_and_interleave(acx, acy, acz, avx, avy, avz, ar, bcx, bcy, bcz, bvx, bvy, bvz, br, h, ehit, hit_mode, ok,
                          a_center, a_velocity, b_center, b_velocity):  # fmt: skip
    """``ok[i]``: row ``i`` is decidable; every row's vectors written interleaved; returns the number of other rows.

    One pass over the columns: the solver's own check (:func:`solver._kernel.within`,
    inlined) is branch-free, so the loop vectorizes; every row is copied,
    ``a_center[3 i : 3 i + 3] = acx[i], acy[i], acz[i]`` and so on, whatever its
    check, so that a chunk without refused rows (nearly every chunk) is gathered
    without a second pass; :func:`_compact` then moves the kept rows together
    when some were refused.  The four outputs are ``(3 n,)`` float64.
    """
    bad = 0
    for i in range(acx.shape[0]):
        good = within(acx[i], acy[i], acz[i], avx[i], avy[i], avz[i], ar[i], RANGES)
        good &= within(bcx[i], bcy[i], bcz[i], bvx[i], bvy[i], bvz[i], br[i], RANGES)
        good &= horizon_ok(h[i], RANGES)
        if hit_mode == 1:
            good &= (ehit[i] == 0.0) | (ehit[i] == 1.0)
        ok[i] = good
        bad += not good
        k = 3 * i
        a_center[k], a_center[k + 1], a_center[k + 2] = acx[i], acy[i], acz[i]
        a_velocity[k], a_velocity[k + 1], a_velocity[k + 2] = avx[i], avy[i], avz[i]
        b_center[k], b_center[k + 1], b_center[k + 2] = bcx[i], bcy[i], bcz[i]
        b_velocity[k], b_velocity[k + 1], b_velocity[k + 2] = bvx[i], bvy[i], bvz[i]
    return bad


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
    """``reason[i]`` for each ``i`` of ``rows`` (the rare rows :func:`_check_and_interleave` refused).

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
def _compact(rows, vectors):
    """Move row ``rows[j]``'s three values to ``3 j`` in each of ``vectors``, in place (``rows`` ascending).

    ``vectors`` is ``(4, 3 n)``: the rows :func:`_check_and_interleave` wrote.
    Row ``rows[j] >= j``, so going forward never overwrites a row still to be moved.
    """
    for j in range(rows.shape[0]):
        i = rows[j]
        for v in range(vectors.shape[0]):
            vectors[v, 3 * j] = vectors[v, 3 * i]
            vectors[v, 3 * j + 1] = vectors[v, 3 * i + 1]
            vectors[v, 3 * j + 2] = vectors[v, 3 * i + 2]


@dataclass(frozen=True)
class Kept:
    """The decidable rows of a chunk, ready for :func:`solver.sweep_many`.

    Attributes
    ----------
    a_center, a_velocity, b_center, b_velocity : (m, 3) float64, C-contiguous
        Views of a per-thread buffer: valid until the thread gathers its next chunk.
    a_radius, b_radius, horizon : (m,) float64
    engine_hit : (m,) bool
        Meaningless without engine columns.
    engine_toi : (m,) float64
        NaN where the engine gave none; meaningless without an ``engine_toi`` column.
    row : (m,) int64
        Row of each kept pair within the chunk.
    reason : (n,) int8
        Per chunk row: 0 kept, else the 1-based index into :data:`REASON_COLUMNS`.
    """

    a_center: np.ndarray
    a_velocity: np.ndarray
    a_radius: np.ndarray
    b_center: np.ndarray
    b_velocity: np.ndarray
    b_radius: np.ndarray
    horizon: np.ndarray
    engine_hit: np.ndarray
    engine_toi: np.ndarray
    row: np.ndarray
    reason: np.ndarray

    def __len__(self) -> int:
        return self.row.shape[0]


_workspace = threading.local()


def _buffer(n: int) -> np.ndarray:
    """A ``(4, 3 n)`` float64 buffer (its rows C-contiguous), reused from chunk to chunk by each thread.

    Fresh arrays this size cost as much in page faults as the copy into them;
    the gathered vectors are views of it, valid until the thread's next chunk.
    """
    buf = getattr(_workspace, "buf", None)
    if buf is None or buf.shape[1] < 3 * n:
        buf = _workspace.buf = np.empty((4, 3 * n))
    return buf[:, : 3 * n]


def _read_only(column: np.ndarray) -> np.ndarray:
    """``column`` seen through a read-only view.

    To the compiled checks a writable array and a read-only one are two types, each compiled on its own: the
    log's readers hand over either (a file's columns read in place are read-only, converted ones writable), and
    a log mixing them waited for the compiler once per mix (seven versions of :func:`_check_and_interleave`).
    """
    view = column.view()
    view.flags.writeable = False
    return view


def gather(columns: dict[str, np.ndarray], n: int, hit_mode: int) -> Kept:
    """Check every row of a chunk and gather the decidable ones.

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
    geometry = [_read_only(columns[name]) for name in GEOMETRY]
    h = _read_only(columns[HORIZON])
    ehit = _read_only(columns[ENGINE_HIT]) if ENGINE_HIT in columns else h
    ok = np.empty(n, dtype=np.bool_)
    buf = _buffer(n)
    bad = _check_and_interleave(*geometry, h, ehit, hit_mode, ok, *buf)
    reason = np.zeros(n, dtype=np.int8)
    if bad:
        rows = np.flatnonzero(ok)
        _reasons(np.flatnonzero(~ok), *geometry, h, ehit, reason)
        if (reason == BAD_ENGINE_HIT).any():
            row = int(np.flatnonzero(reason == BAD_ENGINE_HIT)[0])
            raise LogError(f"expected true/false or 1/0, got {float(ehit[row])!r}", ENGINE_HIT, row)
        _compact(rows, buf)
    else:
        rows = _every_row(n)
    m = rows.shape[0]
    vectors = [buf[k, : 3 * m].reshape(m, 3) for k in range(4)]

    def pick(values: np.ndarray) -> np.ndarray:
        return values[rows] if bad else values

    if hit_mode == 1:
        engine_hit, engine_toi = pick(ehit) == 1.0, pick(columns["engine_toi"])
    elif hit_mode == 2:
        engine_toi = pick(columns["engine_toi"])
        engine_hit = np.isfinite(engine_toi)
    else:
        engine_hit, engine_toi = np.zeros(0, dtype=np.bool_), np.zeros(0)
    return Kept(
        vectors[0], vectors[1], pick(columns["a_r"]), vectors[2], vectors[3], pick(columns["b_r"]), pick(h),
        engine_hit, engine_toi, rows, reason,
    )  # fmt: skip


@lru_cache(maxsize=2)
def _every_row(n: int) -> np.ndarray:
    """A read-only ``(n,)`` ``arange``, the rows of a chunk that keeps them all (shared by the chunks of one size)."""
    out = np.arange(n)
    out.flags.writeable = False
    return out


def skip_reason(column: str, value: float) -> str:
    """Why ``value`` in ``column`` made its row be skipped (the range of :mod:`solver.limits` it left)."""
    if column == ENGINE_HIT:
        return "empty: the engine's verdict is missing"
    return f"must be {_range_words(column)}, got {value!r}"
