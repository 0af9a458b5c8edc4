"""The batch loop over arrays of pairs, compiled like :mod:`solver._filter` (see :mod:`solver._compile`)."""

import sys

from . import limits as rules
from ._compile import item, jit, jit_loop
from ._filter import classify, finish
from .limits import RANGES
from .status import HIT, OVERLAPPING

#: The ranges :func:`sweep_kernel` accepts: :data:`solver.limits.RANGES`.
LIMITS = RANGES
#: The same form for the unchecked core (finite numbers and positive sizes only): the checks of
#: :func:`within` with these bounds reduce to ``|x| < inf`` and ``r > 0`` (5e-324 is the smallest positive float).
FINITE = (sys.float_info.max, 0.0, 5e-324, sys.float_info.max, sys.float_info.max)

#: The tests of :mod:`solver.limits`, compiled (each inlined where it is called).
coordinate_ok = jit(rules.coordinate_ok)
velocity_ok = jit(rules.velocity_ok)
radius_ok = jit(rules.radius_ok)
horizon_ok = jit(rules.horizon_ok)


@jit
def within(c0, c1, c2, v0, v1, v2, r, limits):
    """True when a body's centre, velocity and radius are within ``limits`` (:data:`LIMITS` or :data:`FINITE`).

    Branch-free; NaN fails every comparison.
    """
    ok_c = coordinate_ok(c0, limits) & coordinate_ok(c1, limits) & coordinate_ok(c2, limits)
    ok_v = velocity_ok(v0, limits) & velocity_ok(v1, limits) & velocity_ok(v2, limits)
    return ok_c & ok_v & radius_ok(r, limits)


@jit
def decide_pair(cax, cay, caz, vax, vay, vaz, ra, cbx, cby, cbz, vbx, vby, vbz, rb, h, inside, limits):
    """One pair of a batch: the filter's answer and whether the pair is accepted, without a branch.

    Parameters are those of :func:`solver._filter.classify`, and ``limits`` as in :func:`sweep_kernel`.

    Returns
    -------
    hit : bool
    toi, t_lo, t_hi : float
    status : int
        Meaningless, with the three times, when ``unproved`` (or not ``accepted``).
    accepted : bool
        The pair is within ``limits`` (and, inside, the container is larger than the ball).
    unproved : bool
        Accepted, and left for the exact stages.
    """
    out = classify(cax, cay, caz, vax, vay, vaz, ra, cbx, cby, cbz, vbx, vby, vbz, rb, h, inside)
    t, lo, up = finish(out[0], out[1], out[2], h, inside)
    ok = within(cax, cay, caz, vax, vay, vaz, ra, limits)
    ok &= within(cbx, cby, cbz, vbx, vby, vbz, rb, limits)
    ok &= horizon_ok(h, limits) & ((not inside) | (rb > ra))
    return (out[0] == OVERLAPPING) | (out[0] == HIT), t, lo, up, out[0], ok, ok & (out[3] != 0)


@jit_loop("sweep_many's loop")
def sweep_kernel(ca, va, ra, cb, vb, rb, h, inside, limits, hit, toi, t_lo, t_hi, status, exact):
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
    limits : tuple of 5 float
        :data:`LIMITS`: refuse every pair outside the ranges of
        :mod:`solver.limits` (the caller then raises for it); :data:`FINITE`:
        refuse only non-finite numbers and sizes that are not positive.
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
        hit[i], toi[i], t_lo[i], t_hi[i], status[i], ok, unproved = decide_pair(
            ca[k], ca[k + 1], ca[k + 2], va[k], va[k + 1], va[k + 2], item(ra, i),
            cb[k], cb[k + 1], cb[k + 2], vb[k], vb[k + 1], vb[k + 2], item(rb, i), item(h, i), inside, limits,
        )  # fmt: skip
        exact[i] = unproved
        n_exact += unproved
        first_refused = min(first_refused, n if ok else i)
    return first_refused, n_exact


@jit_loop("sweep_many's loop over columns")
def columns_kernel(acx, acy, acz, avx, avy, avz, ra, bcx, bcy, bcz, bvx, bvy, bvz, rb, h, inside, limits,
                   hit, toi, t_lo, t_hi, status, exact, accepted):  # fmt: skip
    """:func:`sweep_kernel` over pairs held as columns, as a log stores them: ``acx[i]`` is A's centre x of pair ``i``.

    Every input is read where it is, one contiguous pass per column (no interleaved copy to make), and a pair
    outside ``limits`` is marked, not only the first: ``accepted[i]`` is False for each.

    Parameters
    ----------
    acx, acy, acz, avx, avy, avz, ra, bcx, bcy, bcz, bvx, bvy, bvz, rb, h : (n,) float64, C-contiguous
    inside : bool
    limits : tuple of 5 float
        As in :func:`sweep_kernel`.
    hit : (n,) bool, output
    toi, t_lo, t_hi : (n,) float64, output
    status : (n,) int8, output
    exact : (n,) bool, output
        Accepted pairs left for the exact stages (the other outputs are then meaningless).
    accepted : (n,) bool, output
        The pair is within ``limits``; the other outputs of a pair that is not are meaningless.

    Returns
    -------
    first_refused : int
        Index of the first pair not accepted, or ``n``.
    refused : int
        Pairs not accepted.
    n_exact : int
        Pairs left for the exact stages.
    """
    n = toi.shape[0]
    first_refused = n
    refused = 0
    n_exact = 0
    for i in range(n):
        hit[i], toi[i], t_lo[i], t_hi[i], status[i], ok, unproved = decide_pair(
            acx[i], acy[i], acz[i], avx[i], avy[i], avz[i], ra[i],
            bcx[i], bcy[i], bcz[i], bvx[i], bvy[i], bvz[i], rb[i], h[i], inside, limits,
        )  # fmt: skip
        accepted[i] = ok
        exact[i] = unproved
        n_exact += unproved
        refused += not ok
        first_refused = min(first_refused, n if ok else i)
    return first_refused, refused, n_exact
