"""Certified float64 filter for the time-of-impact quadratic.

Both queries reduce to the relative motion of B's centre seen from A's::

    d(t) = p + v t,   p = cB - cA,   v = vB - vA
    f(t) = |d(t)|^2 - R^2 = vv t^2 + 2 pv t + c,   c = pp - R^2

with ``R = rA + rB`` (pair: contact while f <= 0) or ``R = rC - rA`` (inside a
container: contact once f >= 0).  Every verdict is the sign of one of a few
polynomials in the inputs:

* ``c``                     contact at t = 0?
* ``co = |p|^2 - (rA + rB)^2``    inside mode, when ``c >= 0``: is the ball
  entirely outside the container?
* ``pv = p.v``              approaching?
* ``disc = vv R^2 - |p x v|^2``   a quarter of the discriminant, from the cross
  product, so long shots (|p| >> R) do not cancel catastrophically;
* ``ve = pv + vv h``        is the vertex of the parabola before the horizon?
* ``fh = |p + v h|^2 - R^2``      f at the horizon, from the position at the
  horizon rather than the expanded polynomial, so a long shot that ends near
  its target keeps its accuracy.

Each is computed in float64 together with a rigorous bound on its rounding
error (see :func:`classify`).  A sign is trusted only when ``|value| > bound``;
otherwise the ``NEEDS_EXACT_VERDICT`` flag is raised and the caller decides with
integer arithmetic (:mod:`solver._exact`).  Roots are returned only with a
proved relative error below :data:`~solver.tolerances.TIME_RTOL`, else the
``NEEDS_EXACT_TIMES`` flag is raised.

The body of :func:`classify` has no data-dependent branches: it computes every
quantity and selects the answer, so the compiled batch loop vectorizes.  The
functions use nothing but float arithmetic and :mod:`math`; :mod:`solver._compile`
decides whether numba compiles them or the very same source runs as plain Python.
"""

import math

from ._compile import jit
from .status import HIT, LATER, MISS, NO_RELATIVE_MOTION, OUTSIDE, OVERLAPPING, SEPARATING
from .tolerances import FILTER_MAX, FILTER_MIN, TIME_RTOL, UNIT_ROUNDOFF

U = UNIT_ROUNDOFF
NAN = math.nan

#: Flag bits returned by :func:`classify`.
NEEDS_EXACT_VERDICT = 1
NEEDS_EXACT_TIMES = 2
NEEDS_EXACT = NEEDS_EXACT_VERDICT | NEEDS_EXACT_TIMES

#: Half of the relative time budget, for each of the two error sources of a root.
_HALF_RTOL = 0.45 * TIME_RTOL
#: Absolute floor of the p.v bound: covers the products of tiny components that
#: underflow (each errs by at most 2^-1075).
_PV_FLOOR = 2.0**-1060


@jit
def quantities(cax, cay, caz, vax, vay, vaz, ra, cbx, cby, cbz, vbx, vby, vbz, rb, h, inside):
    """Every tested polynomial of the quadratic, each with a proved bound on its rounding error.

    Shared by :func:`classify` (the sweep's verdict) and the motion's event
    test (:mod:`solver._events`); the parameters are those of :func:`classify`.

    Returns
    -------
    in_range : bool
        Inside the range gate; otherwise no bound below is valid.
    c, ec, co, eco, pv, epv, vv, disc, edisc, ve, eve, fh, efh : float
        Each value followed by its error bound (``vv`` is exact in sign:
        ``vv != 0`` exactly when the relative velocity is not zero).
    pv_zero : bool
        ``p.v`` is exactly zero (every product has a zero factor).
    t_lo, t_hi : float
        The roots (meaningful when ``vv > 0`` and ``disc >= 0``), from
        ``q = -(pv + sign(pv) sqrt(disc))`` as ``q / vv`` and ``c / q``.
    q_precise, c_precise : bool
        ``q / vv`` is proved within :data:`_HALF_RTOL` relative; ``c / q`` as
        well when both hold.
    q_over_vv, q : float
        The root ``q / vv`` itself (the larger root when ``pv < 0``, the
        smaller when ``pv > 0``), and ``q``.

    Notes
    -----
    Error bounds.  ``p``, ``v`` and ``R`` carry one rounding each (relative
    error ``u``) and every further operation adds one; counting them, with
    margin: ``|c~ - c| <= 8u (|p|^2 + R^2)``, and likewise for ``co``; ``|pv~ - pv| <= 8u sum|p_i v_i|``;
    each cross-product component errs by at most ``ew_i = 6u (|p_j v_k| +
    |p_k v_j|)``, so ``|p x v|^2`` errs by at most ``sum ew_i (2 |w_i| + ew_i)
    + 6u |p x v|^2``, and ``R^2 |v|^2`` by at most ``16u R^2 |v|^2``; each
    component of ``e = p + v h`` errs by at most ``ee_i = 4u (|p_i| + |v_i h|)``,
    so ``|e|^2 - R^2`` errs by at most ``sum ee_i (2 |e_i| + ee_i) + 8u |e|^2 +
    12u R^2``; ``pv + vv h`` errs by at most ``10u (sum|p_i v_i| + vv h)``.
    The range gate keeps the largest component of ``p`` and of ``v``, ``R`` and
    ``h`` within 2^±200, so every bound has a term of at least about 2^-850
    except the one for ``pv``, which gets an explicit floor; an underflow of a
    small term (absolute error 2^-1075) therefore cannot escape a bound.
    """
    px = cbx - cax
    py = cby - cay
    pz = cbz - caz
    vx = vbx - vax
    vy = vby - vay
    vz = vbz - vaz
    r = rb - ra if inside else ra + rb
    # Range gate.  Outside it the relative-error model behind the bounds could
    # fail, so the exact path decides; it also catches every invalid input (a
    # non-finite input makes a component of p or v, R or h infinite or NaN, and
    # NaN fails every comparison), which the exact path then reports.
    pm = max(abs(px), max(abs(py), abs(pz)))
    vm = max(abs(vx), max(abs(vy), abs(vz)))
    in_range = (
        (abs(px) <= FILTER_MAX)
        & (abs(py) <= FILTER_MAX)
        & (abs(pz) <= FILTER_MAX)
        & (abs(vx) <= FILTER_MAX)
        & (abs(vy) <= FILTER_MAX)
        & (abs(vz) <= FILTER_MAX)
        & ((pm == 0.0) | (pm >= FILTER_MIN))
        & ((vm == 0.0) | (vm >= FILTER_MIN))
        & (r >= FILTER_MIN)
        & (r <= FILTER_MAX)
        & (h >= FILTER_MIN)
        & (h <= FILTER_MAX)
        & (ra > 0.0)
        & (rb > 0.0)
    )

    pp = px * px + py * py + pz * pz
    rr = r * r
    c = pp - rr
    ec = 8.0 * U * (pp + rr)
    ro = ra + rb  # inside mode: the ball is entirely outside once |p| > rA + rC
    co = pp - ro * ro
    eco = 8.0 * U * (pp + ro * ro)

    vv = vx * vx + vy * vy + vz * vz
    pv = px * vx + py * vy + pz * vz
    apv = abs(px * vx) + abs(py * vy) + abs(pz * vz)
    epv = 8.0 * U * apv + _PV_FLOOR
    pv_zero = ((px == 0.0) | (vx == 0.0)) & ((py == 0.0) | (vy == 0.0)) & ((pz == 0.0) | (vz == 0.0))

    wx = py * vz - pz * vy
    wy = pz * vx - px * vz
    wz = px * vy - py * vx
    ewx = 6.0 * U * (abs(py * vz) + abs(pz * vy))
    ewy = 6.0 * U * (abs(pz * vx) + abs(px * vz))
    ewz = 6.0 * U * (abs(px * vy) + abs(py * vx))
    ww = wx * wx + wy * wy + wz * wz
    vvrr = vv * rr
    disc = vvrr - ww
    edisc = (
        ewx * (2.0 * abs(wx) + ewx)
        + ewy * (2.0 * abs(wy) + ewy)
        + ewz * (2.0 * abs(wz) + ewz)
        + 6.0 * U * ww
        + 16.0 * U * vvrr
    )

    ve = pv + vv * h
    eve = 10.0 * U * (apv + vv * h)

    ex = px + vx * h
    ey = py + vy * h
    ez = pz + vz * h
    eex = 4.0 * U * (abs(px) + abs(vx * h))
    eey = 4.0 * U * (abs(py) + abs(vy * h))
    eez = 4.0 * U * (abs(pz) + abs(vz * h))
    ee = ex * ex + ey * ey + ez * ez
    fh = ee - rr
    efh = eex * (2.0 * abs(ex) + eex) + eey * (2.0 * abs(ey) + eey) + eez * (2.0 * abs(ez) + eez) + 8.0 * U * ee
    efh += 12.0 * U * rr

    # Both roots, by the cancellation-free form q = -(pv + sign(pv) sqrt(disc)):
    # the roots are q / vv and c / q.  |sqrt(a) - sqrt(b)| <= |a - b| / sqrt(a).
    moving = vv != 0.0
    s = math.sqrt(max(disc, 0.0))
    q = -(pv + math.copysign(s, pv))
    aq = abs(q)
    # proved: (epv + edisc / s + u s + u |q|) <= HALF_RTOL |q|, multiplied by s > 0
    eq_s = (epv + U * s + U * aq) * s + edisc
    disc_known = abs(disc) > edisc
    q_precise = disc_known & (s > 0.0) & (eq_s <= _HALF_RTOL * aq * s)
    c_precise = ec <= _HALF_RTOL * abs(c)
    q_safe = q if q != 0.0 else 1.0
    t1 = q / (vv if moving else 1.0)
    t2 = c / q_safe
    t_lo = min(t1, t2)
    t_hi = max(t1, t2)

    return (in_range, c, ec, co, eco, pv, epv, vv, disc, edisc, ve, eve, fh, efh, pv_zero,
            t_lo, t_hi, q_precise, c_precise, t1, q)  # fmt: skip


@jit
def classify(cax, cay, caz, vax, vay, vaz, ra, cbx, cby, cbz, vbx, vby, vbz, rb, h, inside):
    """Decide the case and both roots with proved float64 arithmetic.

    Parameters
    ----------
    cax, cay, caz, vax, vay, vaz, ra : float
        Centre, velocity and radius of A (the ball in ``inside`` mode).
    cbx, cby, cbz, vbx, vby, vbz, rb : float
        The same for B (the container in ``inside`` mode, with ``rb > ra``).
    h : float
        Horizon, > 0.
    inside : bool
        Container mode.

    Returns
    -------
    status : int
        A :class:`~solver.status.Status` code; meaningless when ``flags`` has
        ``NEEDS_EXACT_VERDICT``.
    t_lo, t_hi : float
        The roots of f in increasing order; NaN when there are none or when
        ``flags`` is non-zero.
    flags : int
        0, or a combination of ``NEEDS_EXACT_VERDICT`` and ``NEEDS_EXACT_TIMES``.
    c, pv, vv, disc : float
        Float values of the tested quantities, for display.
    by_vertex : bool
        Pair mode: the parabola's vertex is proved to lie before the horizon
        (``pv + vv h >= 0``), the test that decides a hit when true; otherwise a
        hit was decided by ``f(h) <= 0``.  Tells the trace which test to show.

    """
    (in_range, c, ec, co, eco, pv, epv, vv, disc, edisc, ve, eve, fh, efh, pv_zero,
     t_lo, t_hi, q_precise, c_precise, _, _) = quantities(
        cax, cay, caz, vax, vay, vaz, ra, cbx, cby, cbz, vbx, vby, vbz, rb, h, inside
    )  # fmt: skip
    # Proved signs.
    c_pos = c > ec
    c_neg = c < -ec
    moving = vv != 0.0  # exact: v is a difference of floats, zero only when they are equal
    pv_known = (abs(pv) > epv) | pv_zero
    disc_known = abs(disc) > edisc
    fh_pos = fh > efh
    fh_neg = fh < -efh
    ve_pos = ve > eve
    ve_neg = ve < -eve

    by_vertex = False
    if inside:
        hit = fh_pos
        later = fh_neg
        outside = co > eco
        status = (
            (OUTSIDE if outside else OVERLAPPING)
            if c_pos
            else (NO_RELATIVE_MOTION if not moving else (HIT if hit else LATER))
        )
        unsure = (not (c_pos | c_neg)) | (c_neg & moving & (not (hit | later))) | (c_pos & (abs(co) <= eco))
    else:
        hit = ve_pos | fh_neg
        by_vertex = ve_pos
        later = fh_pos & ve_neg
        approaching = pv < 0.0
        meets = disc >= 0.0
        status = (
            OVERLAPPING
            if c_neg
            else NO_RELATIVE_MOTION
            if not moving
            else SEPARATING
            if not approaching
            else MISS
            if not meets
            else HIT
            if hit
            else LATER
        )
        unsure = (
            (not (c_pos | c_neg))
            | (c_pos & moving & (not pv_known))
            | (c_pos & moving & approaching & (not disc_known))
            | (c_pos & moving & approaching & meets & (not (hit | later)))
        )

    has_roots = moving & (disc >= 0.0)
    precise = q_precise & c_precise
    ok_roots = has_roots & precise
    t_lo = t_lo if ok_roots else NAN
    t_hi = t_hi if ok_roots else NAN

    out_of_range = not in_range
    verdict_unproved = unsure | out_of_range
    times_unproved = out_of_range | (moving & (not disc_known)) | (has_roots & (not precise))
    flags = (NEEDS_EXACT_VERDICT if verdict_unproved else 0) | (NEEDS_EXACT_TIMES if times_unproved else 0)
    return status, t_lo, t_hi, flags, c, pv, vv, disc, by_vertex


@jit
def finish(status, t_lo, t_hi, h, inside):
    """Time of impact from the case and the roots, kept consistent with the verdict.

    Parameters
    ----------
    status : int
        Exact case code.
    t_lo, t_hi : float
        Roots (NaN when none), each within the proved accuracy.
    h : float
        Horizon.
    inside : bool
        Container mode (contact at the larger root).

    Returns
    -------
    toi, t_lo, t_hi : float
        ``toi`` is 0 when overlapping, the contact root when hit, else NaN.
        A root that the verdict places on one side of the horizon is moved by
        at most the root's proved error so that its float agrees with the
        verdict: into ``[0, h]`` for a hit, above ``h`` when later.
    """
    contact = t_hi if inside else t_lo
    contact_in = min(max(contact, 0.0), h)
    contact_after = contact if contact > h else h + max(h * 2.0**-52, 5e-324)  # the next float above h
    is_hit = status == HIT
    is_later = status == LATER
    contact = contact_in if is_hit else (contact_after if is_later else contact)
    if inside:
        t_hi = contact
    else:
        t_lo = contact
        t_hi = max(t_hi, t_lo)
    toi = 0.0 if status == OVERLAPPING else (contact if is_hit else NAN)
    return toi, t_lo, t_hi


@jit
def sweep_one(cax, cay, caz, vax, vay, vaz, ra, cbx, cby, cbz, vbx, vby, vbz, rb, h, inside):
    """:func:`classify` then :func:`finish` in one call (one dispatch for the scalar query).

    Returns
    -------
    tuple
        ``(status, toi, t_lo, t_hi, flags, c, pv, vv, disc, by_vertex)``.
    """
    out = classify(cax, cay, caz, vax, vay, vaz, ra, cbx, cby, cbz, vbx, vby, vbz, rb, h, inside)
    t, lo, hi = finish(out[0], out[1], out[2], h, inside)
    return out[0], t, lo, hi, out[3], out[4], out[5], out[6], out[7], out[8]
