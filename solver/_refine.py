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

Its functions, like :mod:`solver._expansion`'s, are compiled once each for one
signature and without numba's reference counting (:func:`solver._compile.compiled`):
each call passes the scratch arrays on, and counting their references took most
of the stage's time.
"""

from __future__ import annotations

import math

from ._compile import compiled, jit, jit_loop
from ._events import IMPACT, NONE, SLIDE
from ._expansion import BUFFER, CO, DISC, FH, LENGTHS, PAIR, PV, VE, VV, C, in_exact_range, quantity, scratch
from ._filter import finish, quantities
from .status import HIT, LATER, MISS, NO_RELATIVE_MOTION, OUTSIDE, OVERLAPPING, SEPARATING

NAN = math.nan
INF = math.inf
#: A filter value is used as it is for a root when its bound is this small relative to it
#: (then every root carries a relative error of a few times this, far below TIME_RTOL).
_TIGHT = 2.0**-40


@jit
def _sign(which, value, bound, buf, lengths, x):
    """``(sign, value, near, ok)`` of one quantity.

    From the filter when ``|value| > bound`` (``near``: the bound is also tight
    enough for a root), else from expansions (exact sign, value within a few
    ulps, ``near`` True).
    """
    if value > bound:
        return 1, value, bound <= _TIGHT * value, True
    if value < -bound:
        return -1, value, bound <= -_TIGHT * value, True
    sign, near, ok = quantity(which, buf, lengths, x)
    return sign, near, True, ok


@jit
def _near(which, sign, value, near, buf, lengths, x):
    """``(value, ok)``: a value from :func:`_sign` made good to a few ulps (0 when the sign is 0)."""
    if sign == 0:
        return 0.0, True
    if near:
        return value, True
    out = quantity(which, buf, lengths, x)
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


@compiled(f"Tuple((boolean, boolean))(float64, float64, float64, float64, {BUFFER}, {LENGTHS}, {PAIR})")
def _reached_by_horizon(fh, efh, ve, eve, buf, lengths, x):
    """Whether an approaching pair whose path meets the expanded sphere touches by the horizon.

    It does when ``f(h) <= 0`` (in contact at h), or else when ``p.v + |v|^2 h >= 0``
    (the closest approach is within h, so the entry root is too).  Returns
    ``(reached, ok)``; ``ok`` is False when a sign needed the integer path.
    """
    sfh, _, _, ok = _sign(FH, fh, efh, buf, lengths, x)
    if sfh <= 0:
        return True, ok
    sve, _, _, ok1 = _sign(VE, ve, eve, buf, lengths, x)
    return sve >= 0, ok & ok1


@compiled(
    "Tuple((float64, float64, boolean))(int64, float64, boolean, int64, float64, boolean, int64, float64, boolean, "
    f"float64, {BUFFER}, {LENGTHS}, {PAIR})"
)
def _both_roots(sc, c, nc, spv, pv, npv, sd, disc, nd, vv, buf, lengths, x):
    """Both roots from the quantities made good to a few ulps; ``(t_lo, t_hi, ok)``."""
    cn, ok1 = _near(C, sc, c, nc, buf, lengths, x)
    pn, ok2 = _near(PV, spv, pv, npv, buf, lengths, x)
    dn, ok3 = _near(DISC, sd, disc, nd, buf, lengths, x)
    lo, hi = _roots(cn, pn, vv, dn)
    return lo, hi, ok1 & ok2 & ok3


@compiled(f"Tuple((int64, float64, float64, boolean))({BUFFER}, {LENGTHS}, {PAIR}, boolean)")
def refine(buf, lengths, x, event):
    """Exact decision of a sweep (``event`` False) or of a motion event (``event`` True).

    Parameters
    ----------
    buf, lengths
        Scratch space (:func:`solver._expansion.scratch`).
    x : (16,) float64
        The pair, as :func:`solver._expansion.quantity` takes it.
    event : bool

    Returns
    -------
    code : int
        The :class:`~solver.status.Status` code, or the event kind.
    a, b : float
        Sweep: both roots (NaN when none).  Event: the time from now and 0.
    ok : bool
        False: decide with Python integers instead.
    """
    if not in_exact_range(x):
        return 0, NAN, NAN, False
    h = x[14]
    inside = x[15] != 0.0
    (in_range, c, ec, co, eco, pv, epv, vv, disc, edisc, ve, eve, fh, efh, pv_zero,
     t_lo, t_hi, q_precise, c_precise, q_over_vv, q) = quantities(
        x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9], x[10], x[11], x[12], x[13], h, inside
    )  # fmt: skip
    if not in_range:  # no filter bound holds: every sign from expansions
        ec = eco = epv = edisc = eve = efh = INF
        q_precise = False
    ok = True
    if in_range:
        svv = 0 if vv == 0.0 else 1
    else:
        svv, vv, ok1 = quantity(VV, buf, lengths, x)
        ok &= ok1
    sc, c, nc, ok1 = _sign(C, c, ec, buf, lengths, x)
    ok &= ok1
    if pv_zero:
        spv, pv, npv = 0, 0.0, True
    else:
        spv, pv, npv, ok1 = _sign(PV, pv, epv, buf, lengths, x)
        ok &= ok1
    a = NAN
    b = NAN
    sd, nd = 2, False  # 2: the sign of disc not computed yet
    # the other signs are computed on demand, in the order of the integer path
    if not event:
        code = 0
        if inside:
            if sc >= 0:
                sco, _, _, ok1 = _sign(CO, co, eco, buf, lengths, x)
                ok &= ok1
                code = OUTSIDE if sco > 0 else OVERLAPPING
            elif svv == 0:
                code = NO_RELATIVE_MOTION
            else:
                sfh, _, _, ok1 = _sign(FH, fh, efh, buf, lengths, x)
                ok &= ok1
                code = HIT if sfh >= 0 else LATER
        elif sc <= 0:
            code = OVERLAPPING
        elif svv == 0:
            code = NO_RELATIVE_MOTION
        elif spv >= 0:
            code = SEPARATING
        else:
            sd, disc, nd, ok1 = _sign(DISC, disc, edisc, buf, lengths, x)
            ok &= ok1
            if sd < 0:
                code = MISS
            else:
                reached, ok1 = _reached_by_horizon(fh, efh, ve, eve, buf, lengths, x)
                ok &= ok1
                code = HIT if reached else LATER
        if svv != 0:
            if sd == 2:
                sd, disc, nd, ok1 = _sign(DISC, disc, edisc, buf, lengths, x)
                ok &= ok1
            if sd >= 0:
                if q_precise and (c_precise or sc == 0):  # the filter's roots are proved (c exactly 0: 0)
                    a, b = _root_pair(q_over_vv, 0.0 if sc == 0 else c / q)
                else:
                    a, b, ok1 = _both_roots(sc, c, nc, spv, pv, npv, sd, disc, nd, vv, buf, lengths, x)
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
        sd, disc, nd, ok1 = _sign(DISC, disc, edisc, buf, lengths, x)
        ok &= ok1
        if sd <= 0:
            return NONE, 0.0, 0.0, ok
        reached, ok1 = _reached_by_horizon(fh, efh, ve, eve, buf, lengths, x)
        ok &= ok1
        if reached:
            a, b, ok1 = _both_roots(sc, c, nc, spv, pv, npv, sd, disc, nd, vv, buf, lengths, x)
            return IMPACT, min(max(a, 0.0), h), 0.0, ok & ok1
        return NONE, 0.0, 0.0, ok
    if sc >= 0 and spv >= 0:
        return (IMPACT if spv > 0 else SLIDE), 0.0, 0.0, ok
    sd, disc, nd, ok1 = _sign(DISC, disc, edisc, buf, lengths, x)
    ok &= ok1
    if sd > 0:
        sfh, _, _, ok1 = _sign(FH, fh, efh, buf, lengths, x)
        ok &= ok1
        sve = 1
        if sfh >= 0 and sc >= 0:
            sve, _, _, ok1 = _sign(VE, ve, eve, buf, lengths, x)
            ok &= ok1
        if sfh >= 0 and (sc < 0 or sve >= 0):
            a, b, ok1 = _both_roots(sc, c, nc, spv, pv, npv, sd, disc, nd, vv, buf, lengths, x)
            return IMPACT, min(max(b, 0.0), h), 0.0, ok & ok1
        return NONE, 0.0, 0.0, ok
    sve, _, _, ok1 = _sign(VE, ve, eve, buf, lengths, x)
    ok &= ok1
    if sve >= 0:  # sliding at the vertex -p.v / |v|^2
        pn, ok1 = _near(PV, spv, pv, npv, buf, lengths, x)
        return SLIDE, min(max(-pn / vv, 0.0), h), 0.0, ok & ok1
    return NONE, 0.0, 0.0, ok


@jit_loop("the exact stage's loop over a batch")
def _sweeps(ca, va, ra, cb, vb, rb, h, inside, idx, buf, lengths, x, hit, toi, t_lo, t_hi, status, left):
    """:func:`refine_sweeps`' loop (scratch space ``buf, lengths, x`` from :func:`solver._expansion.scratch`)."""
    x[15] = 1.0 if inside else 0.0
    for m in range(idx.shape[0]):
        i = idx[m]
        for k in range(3):
            x[k] = float(ca[3 * i + k])
            x[3 + k] = float(va[3 * i + k])
            x[7 + k] = float(cb[3 * i + k])
            x[10 + k] = float(vb[3 * i + k])
        x[6] = float(ra[i] if ra.shape[0] > 1 else ra[0])
        x[13] = float(rb[i] if rb.shape[0] > 1 else rb[0])
        x[14] = float(h[i] if h.shape[0] > 1 else h[0])
        code, lo, up, ok = refine(buf, lengths, x, False)
        left[m] = not ok
        if ok:
            t, lo, up = finish(code, lo, up, x[14], inside)
            hit[i] = (code == OVERLAPPING) | (code == HIT)
            toi[i] = t
            t_lo[i] = lo
            t_hi[i] = up
            status[i] = code


@jit_loop("the exact stage's loop over a motion's pairs")
def _events(X, V, R, I, J, inside, h, idx, buf, lengths, x, kind, dt, left):
    """:func:`refine_events`' loop (scratch space ``buf, lengths, x`` from :func:`solver._expansion.scratch`)."""
    x[14] = h
    for m in range(idx.shape[0]):
        p = idx[m]
        i = I[p]
        j = J[p]
        for k in range(3):
            x[k] = float(X[i, k])
            x[3 + k] = float(V[i, k])
            x[7 + k] = float(X[j, k])
            x[10 + k] = float(V[j, k])
        x[6] = float(R[i])
        x[13] = float(R[j])
        x[15] = 1.0 if inside[p] else 0.0
        code, t, _, ok = refine(buf, lengths, x, True)
        left[m] = not ok
        if ok:
            kind[p] = code
            dt[p] = t


def refine_sweeps(ca, va, ra, cb, vb, rb, h, inside, idx, hit, toi, t_lo, t_hi, status, left) -> None:
    """:func:`refine` for the flagged pairs ``idx`` of a batch.

    Parameters
    ----------
    ca, va, cb, vb : (3 n,) float64
        As in :func:`solver._kernel.sweep_kernel`.
    ra, rb, h : (n,) or (1,) float64
        Per pair, or one value shared by all.
    inside : bool
    idx : (m,) int64
        The pairs to decide.
    hit, toi, t_lo, t_hi, status : (n,) outputs
        Written at ``idx`` where decided.
    left : (m,) bool, output
        ``left[j]``: pair ``idx[j]`` still needs the integer path.
    """
    _sweeps(ca, va, ra, cb, vb, rb, h, bool(inside), idx, *scratch(), hit, toi, t_lo, t_hi, status, left)


def refine_events(X, V, R, I, J, inside, h, idx, kind, dt, left) -> None:
    """:func:`refine` for the flagged pairs ``idx`` of a motion step.

    Parameters
    ----------
    X, V : (m, 3) float64
    R : (m,) float64
    I, J : (k,) int64
    inside : (k,) bool
    h : float
        As in :func:`solver._events.events_kernel`.
    idx : (j,) int64
        The pairs to decide.
    kind : (k,) int8, output
    dt : (k,) float64, output
        Written at ``idx`` where decided.
    left : (j,) bool, output
        Where the integer path is still needed.
    """
    _events(X, V, R, I, J, inside, float(h), idx, *scratch(), kind, dt, left)
