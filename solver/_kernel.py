"""The batch loop over arrays of pairs, compiled like :mod:`solver._filter`."""

import math

import numpy as np

from ._filter import USE_JIT, classify, finish, jit, jit_loop
from .limits import MAX_COORDINATE, MAX_HORIZON, MAX_RADIUS, MIN_RADIUS, MIN_VELOCITY_COMPONENT
from .status import HIT, OVERLAPPING

_LC = MAX_COORDINATE
_LV = MIN_VELOCITY_COMPONENT


def item(x, i):
    """``x[i]`` for an array, ``x`` itself for a scalar (a per-pair or shared value)."""
    return x[i] if isinstance(x, np.ndarray) else x


if USE_JIT:
    try:
        from numba import types
        from numba.extending import overload

        @overload(item, inline="always")
        def _item_compiled(x, i):
            if isinstance(x, types.Array):
                return lambda x, i: x[i]
            return lambda x, i: x

    except ImportError:  # pragma: no cover - numba is a declared dependency
        pass


@jit
def within_limits(c0, c1, c2, v0, v1, v2, r):
    """True when a body's centre, velocity and radius are in the ranges of :mod:`solver.limits`."""
    ok_c = (abs(c0) <= _LC) & (abs(c1) <= _LC) & (abs(c2) <= _LC)
    ok_v = (abs(v0) <= _LC) & (abs(v1) <= _LC) & (abs(v2) <= _LC)
    ok_v &= ((v0 == 0.0) | (abs(v0) >= _LV)) & ((v1 == 0.0) | (abs(v1) >= _LV)) & ((v2 == 0.0) | (abs(v2) >= _LV))
    return ok_c & ok_v & (r >= MIN_RADIUS) & (r <= MAX_RADIUS)


@jit
def valid(c0, c1, c2, v0, v1, v2, r):
    """True when a body's numbers are finite and its radius positive (no range)."""
    finite = (abs(c0) < math.inf) & (abs(c1) < math.inf) & (abs(c2) < math.inf)
    finite &= (abs(v0) < math.inf) & (abs(v1) < math.inf) & (abs(v2) < math.inf)
    return finite & (r > 0.0) & (r < math.inf)


@jit_loop
def sweep_kernel(ca, va, ra, cb, vb, rb, h, inside, check, hit, toi, t_lo, t_hi, status, exact):
    """Run the filter on every pair, checking its input in the same pass; flag what it cannot prove.

    Vectors come flattened, ``(3 n,)`` with x, y, z interleaved: with the
    stride known to be 3 the compiler loads them as whole vectors and
    shuffles, instead of gathering element by element (19 ms instead of 50 ms
    per million pairs during development; see ``benchmarks/README.md``).  A radius or the
    horizon shared by all pairs comes as a plain float, so the loop needs no
    broadcast copy of it.  The loop has no data-dependent branch, so it is
    vectorized; the counts it returns are reductions of the same pass, so the
    caller needs no further pass over the flags when nothing is flagged.

    Parameters
    ----------
    ca, va, cb, vb : (3 n,) float64, C-contiguous
    ra, rb, h : (n,) float64, C-contiguous, or float
    inside : bool
    check : bool
        Refuse every pair outside the ranges of :mod:`solver.limits` (the
        caller then raises for it); without, only non-finite numbers and sizes
        that are not positive are refused.
    hit : (n,) bool, output
    toi, t_lo, t_hi : (n,) float64, output
    status : (n,) int8, output
    exact : (n,) bool, output
        Left for the exact stages (the other outputs are then meaningless).

    Returns
    -------
    first_refused : int
        Index of the first pair with bad input (also an inside pair whose
        container is not larger than its ball), or ``n`` when there is none.
    n_exact : int
        Pairs left for the exact stages (meaningful when nothing was refused).
    """
    n = toi.shape[0]
    first_refused = n
    n_exact = 0
    for i in range(n):
        k = 3 * i
        hi_ = item(h, i)
        rai = item(ra, i)
        rbi = item(rb, i)
        out = classify(
            ca[k], ca[k + 1], ca[k + 2], va[k], va[k + 1], va[k + 2], rai,
            cb[k], cb[k + 1], cb[k + 2], vb[k], vb[k + 1], vb[k + 2], rbi, hi_, inside,
        )  # fmt: skip
        t, lo, up = finish(out[0], out[1], out[2], hi_, inside)
        hit[i] = (out[0] == OVERLAPPING) | (out[0] == HIT)
        toi[i] = t
        t_lo[i] = lo
        t_hi[i] = up
        status[i] = out[0]
        if check:
            ok = within_limits(ca[k], ca[k + 1], ca[k + 2], va[k], va[k + 1], va[k + 2], rai)
            ok &= within_limits(cb[k], cb[k + 1], cb[k + 2], vb[k], vb[k + 1], vb[k + 2], rbi)
            ok &= (hi_ > 0.0) & (hi_ <= MAX_HORIZON)
        else:
            ok = valid(ca[k], ca[k + 1], ca[k + 2], va[k], va[k + 1], va[k + 2], rai)
            ok &= valid(cb[k], cb[k + 1], cb[k + 2], vb[k], vb[k + 1], vb[k + 2], rbi)
            ok &= (hi_ > 0.0) & (hi_ < math.inf)
        ok &= (not inside) | (rbi > rai)
        unproved = ok & (out[3] != 0)
        exact[i] = unproved
        n_exact += unproved
        first_refused = min(first_refused, n if ok else i)
    return first_refused, n_exact
