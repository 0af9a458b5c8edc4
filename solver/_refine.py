"""The second, exact stage between the float filter and Python integers (compiled).

For an input the filter flagged, every sign it proved is kept and every sign it
could not prove is computed exactly from floating-point expansions
(:mod:`solver._expansion`); the decision trees are those of the integer path
(:func:`solver._exact.classify_exact` for a sweep,
:func:`solver._events.event_exact` for a motion event), so the verdicts are the
same.  Times come from the quantities evaluated to a few ulps (exact signs,
near values), within a few ulps of the correctly rounded roots the integer
path gives.  Inputs outside :func:`solver._expansion.in_exact_range`, or an
expansion that outgrows its scratch region, are handed on (``ok`` False).
"""

from __future__ import annotations

import math

import numpy as np

from ._events import IMPACT, NONE, SLIDE
from ._expansion import C, CAPACITY, CO, DISC, FH, PV, REGIONS, VE, VV, in_exact_range, quantity
from ._filter import finish, jit, jit_call, quantities
from .status import HIT, LATER, MISS, NO_RELATIVE_MOTION, OUTSIDE, OVERLAPPING, SEPARATING

NAN = math.nan
INF = math.inf
#: A filter value is used as it is for a root when its bound is this small relative to it
#: (then every root carries a relative error of a few times this, far below TIME_RTOL).
_TIGHT = 2.0**-40


def scratch() -> np.ndarray:
    """A scratch buffer for :func:`solver._expansion.quantity`."""
    return np.empty(REGIONS * CAPACITY)


@jit
def _sign(which, value, bound, buf, x):
    """``(sign, value, near, ok)`` of one quantity.

    From the filter when ``|value| > bound`` (``near``: the bound is also tight
    enough for a root), else from expansions (exact sign, value within a few
    ulps, ``near`` True).
    """
    if value > bound:
        return 1, value, bound <= _TIGHT * value, True
    if value < -bound:
        return -1, value, bound <= -_TIGHT * value, True
    sign, near, ok = quantity(which, buf, x)
    return sign, near, True, ok


@jit
def _near(which, sign, value, near, buf, x):
    """``(value, ok)``: a value from :func:`_sign` made good to a few ulps (0 when the sign is 0)."""
    if sign == 0:
        return 0.0, True
    if near:
        return value, True
    out = quantity(which, buf, x)
    return out[1], out[2]


@jit
def _root_pair(t1, t2):
    """``(min, max)``."""
    return (t1, t2) if t1 <= t2 else (t2, t1)


@jit
def _roots(c, pv, vv, disc):
    """Both roots of ``vv t^2 + 2 pv t + c`` (``vv > 0``, ``disc >= 0``), increasing, cancellation-free."""
    s = math.sqrt(max(disc, 0.0))
    q = -(pv + math.copysign(s, pv))
    if q == 0.0:
        return 0.0, 0.0
    t1 = q / vv
    t2 = c / q
    return min(t1, t2), max(t1, t2)


@jit_call
def refine(buf, cax, cay, caz, vax, vay, vaz, ra, cbx, cby, cbz, vbx, vby, vbz, rb, h, inside, event):
    """Exact decision of a sweep (``event`` False) or of a motion event (``event`` True).

    Returns
    -------
    code : int
        The :class:`~solver.status.Status` code, or the event kind.
    a, b : float
        Sweep: both roots (NaN when none).  Event: the time from now and 0.
    ok : bool
        False: decide with Python integers instead.
    """
    if not in_exact_range(cax, cay, caz, vax, vay, vaz, ra, cbx, cby, cbz, vbx, vby, vbz, rb, h):
        return 0, NAN, NAN, False
    (in_range, c, ec, co, eco, pv, epv, vv, disc, edisc, ve, eve, fh, efh, pv_zero,
     t_lo, t_hi, q_precise, c_precise, q_over_vv, q) = quantities(
        cax, cay, caz, vax, vay, vaz, ra, cbx, cby, cbz, vbx, vby, vbz, rb, h, inside
    )  # fmt: skip
    if not in_range:  # no filter bound holds: every sign from expansions
        ec = eco = epv = edisc = eve = efh = INF
        q_precise = False
    args = (cax, cay, caz, vax, vay, vaz, ra, cbx, cby, cbz, vbx, vby, vbz, rb, h, inside)
    ok = True
    if in_range:
        svv = 0 if vv == 0.0 else 1
    else:
        svv, vv, ok1 = quantity(VV, buf, args)
        ok &= ok1
    sc, c, nc, ok1 = _sign(C, c, ec, buf, args)
    ok &= ok1
    if pv_zero:
        spv, pv, npv = 0, 0.0, True
    else:
        spv, pv, npv, ok1 = _sign(PV, pv, epv, buf, args)
        ok &= ok1
    a = NAN
    b = NAN
    sd, nd = 2, False  # 2: the sign of disc not computed yet
    # the other signs are computed on demand, in the order of the integer path
    if not event:
        code = 0
        if inside:
            if sc >= 0:
                sco, _, _, ok1 = _sign(CO, co, eco, buf, args)
                ok &= ok1
                code = OUTSIDE if sco > 0 else OVERLAPPING
            elif svv == 0:
                code = NO_RELATIVE_MOTION
            else:
                sfh, _, _, ok1 = _sign(FH, fh, efh, buf, args)
                ok &= ok1
                code = HIT if sfh >= 0 else LATER
        elif sc <= 0:
            code = OVERLAPPING
        elif svv == 0:
            code = NO_RELATIVE_MOTION
        elif spv >= 0:
            code = SEPARATING
        else:
            sd, disc, nd, ok1 = _sign(DISC, disc, edisc, buf, args)
            ok &= ok1
            if sd < 0:
                code = MISS
            else:
                reached, ok1 = _reached_by_horizon(fh, efh, ve, eve, buf, args)
                ok &= ok1
                code = HIT if reached else LATER
        if svv != 0:
            if sd == 2:
                sd, disc, nd, ok1 = _sign(DISC, disc, edisc, buf, args)
                ok &= ok1
            if sd >= 0:
                if q_precise and (c_precise or sc == 0):  # the filter's roots are proved (c exactly 0: 0)
                    a, b = _root_pair(q_over_vv, 0.0 if sc == 0 else c / q)
                else:
                    a, b, ok1 = _both_roots(sc, c, nc, spv, pv, npv, sd, disc, nd, vv, buf, args)
                    ok &= ok1
        return code, a, b, ok
    # a motion event (see solver._events.event_exact)
    if svv == 0:
        return NONE, 0.0, 0.0, ok
    if not inside:
        if spv >= 0:
            return NONE, 0.0, 0.0, ok
        if sc <= 0:
            return IMPACT, 0.0, 0.0, ok
        sd, disc, nd, ok1 = _sign(DISC, disc, edisc, buf, args)
        ok &= ok1
        if sd <= 0:
            return NONE, 0.0, 0.0, ok
        reached, ok1 = _reached_by_horizon(fh, efh, ve, eve, buf, args)
        ok &= ok1
        if reached:
            a, b, ok1 = _both_roots(sc, c, nc, spv, pv, npv, sd, disc, nd, vv, buf, args)
            return IMPACT, min(max(a, 0.0), h), 0.0, ok & ok1
        return NONE, 0.0, 0.0, ok
    if sc >= 0 and spv >= 0:
        return (IMPACT if spv > 0 else SLIDE), 0.0, 0.0, ok
    sd, disc, nd, ok1 = _sign(DISC, disc, edisc, buf, args)
    ok &= ok1
    if sd > 0:
        sfh, _, _, ok1 = _sign(FH, fh, efh, buf, args)
        ok &= ok1
        sve = 1
        if sfh >= 0 and sc >= 0:
            sve, _, _, ok1 = _sign(VE, ve, eve, buf, args)
            ok &= ok1
        if sfh >= 0 and (sc < 0 or sve >= 0):
            a, b, ok1 = _both_roots(sc, c, nc, spv, pv, npv, sd, disc, nd, vv, buf, args)
            return IMPACT, min(max(b, 0.0), h), 0.0, ok & ok1
        return NONE, 0.0, 0.0, ok
    sve, _, _, ok1 = _sign(VE, ve, eve, buf, args)
    ok &= ok1
    if sve >= 0:  # sliding at the vertex -p.v / |v|^2
        pn, ok1 = _near(PV, spv, pv, npv, buf, args)
        return SLIDE, min(max(-pn / vv, 0.0), h), 0.0, ok & ok1
    return NONE, 0.0, 0.0, ok


@jit
def _reached_by_horizon(fh, efh, ve, eve, buf, args):
    """Whether an approaching pair whose path meets the expanded sphere touches by the horizon.

    It does when ``f(h) <= 0`` (in contact at h), or else when ``p.v + |v|^2 h >= 0``
    (the closest approach is within h, so the entry root is too).  Returns
    ``(reached, ok)``; ``ok`` is False when a sign needed the integer path.
    """
    sfh, _, _, ok = _sign(FH, fh, efh, buf, args)
    if sfh <= 0:
        return True, ok
    sve, _, _, ok1 = _sign(VE, ve, eve, buf, args)
    return sve >= 0, ok & ok1


@jit
def _both_roots(sc, c, nc, spv, pv, npv, sd, disc, nd, vv, buf, args):
    """Both roots from the quantities made good to a few ulps; ``(t_lo, t_hi, ok)``."""
    cn, ok1 = _near(C, sc, c, nc, buf, args)
    pn, ok2 = _near(PV, spv, pv, npv, buf, args)
    dn, ok3 = _near(DISC, sd, disc, nd, buf, args)
    lo, hi = _roots(cn, pn, vv, dn)
    return lo, hi, ok1 & ok2 & ok3


@jit_call
def refine_sweeps(ca, va, ra, cb, vb, rb, h, inside, idx, hit, toi, t_lo, t_hi, status, left):
    """:func:`refine` for the flagged pairs ``idx`` of a batch (arrays as in :func:`solver._kernel.sweep_kernel`).

    ``left[m]`` is set where pair ``idx[m]`` still needs the integer path.
    """
    buf = np.empty(REGIONS * CAPACITY)
    for m in range(idx.shape[0]):
        i = idx[m]
        k = 3 * i
        hi_ = h[i] if h.shape[0] > 1 else h[0]
        rai = ra[i] if ra.shape[0] > 1 else ra[0]
        rbi = rb[i] if rb.shape[0] > 1 else rb[0]
        code, lo, up, ok = refine(
            buf, ca[k], ca[k + 1], ca[k + 2], va[k], va[k + 1], va[k + 2], rai,
            cb[k], cb[k + 1], cb[k + 2], vb[k], vb[k + 1], vb[k + 2], rbi, hi_, inside, False,
        )  # fmt: skip
        if not ok:
            left[m] = True
            continue
        t, lo, up = finish(code, lo, up, hi_, inside)
        hit[i] = (code == OVERLAPPING) | (code == HIT)
        toi[i] = t
        t_lo[i] = lo
        t_hi[i] = up
        status[i] = code
        left[m] = False


@jit_call
def refine_events(X, V, R, I, J, inside, h, idx, kind, dt, left):
    """:func:`refine` for the flagged pairs ``idx`` of a motion step (arrays as in
    :func:`solver._events.events_kernel`); ``left[m]`` where the integer path is still needed."""
    buf = np.empty(REGIONS * CAPACITY)
    for m in range(idx.shape[0]):
        p = idx[m]
        i = I[p]
        j = J[p]
        code, t, _, ok = refine(
            buf, X[i, 0], X[i, 1], X[i, 2], V[i, 0], V[i, 1], V[i, 2], R[i],
            X[j, 0], X[j, 1], X[j, 2], V[j, 0], V[j, 1], V[j, 2], R[j], h, inside[p], True,
        )  # fmt: skip
        left[m] = not ok
        if ok:
            kind[p] = code
            dt[p] = t
