"""When does a pair of bodies in uniform motion next need a response?

The motion of :mod:`solver.motion` asks this of every pair after every event.
It differs from the sweep's question (first contact) in one way: a pair that
is in contact but not pressing (separating, or sliding past) needs nothing, so
the question is about the *approach*:

* a ball pair (contact while ``f(t) = |p + v t|^2 - R^2 <= 0``) needs an
  impulse at the first time it is in contact and approaching
  (``f <= 0`` and ``f' < 0``): now when it touches or overlaps and
  approaches (``c <= 0``, ``p.v < 0``); else at the first root ``t0`` when it
  approaches from apart and the line of motion crosses the expanded sphere
  (``disc > 0``; an exact tangent graze, ``disc = 0``, touches with no
  normal speed and needs nothing);
* a ball in its container (contact while ``f >= 0``) needs an impulse at the
  first time it is at or beyond the wall and moving outwards (``f >= 0``,
  ``f' > 0``): now when ``c >= 0`` and ``p.v > 0``; else at the larger root
  ``t1`` when ``disc > 0``.  When the ball is on the wall with no normal
  speed (``c >= 0``, ``p.v = 0``), or straddles it and never gets back
  inside (``disc <= 0``), it would leave the container with zero normal
  speed, at once or at the vertex ``-p.v / |v|^2``: that is *sliding*, which
  straight-line motion cannot follow along a curved wall.

Signs are proved by the error bounds of :func:`solver._filter.quantities`; what
they cannot prove, or a time they cannot prove to
:data:`~solver.tolerances.TIME_RTOL`, is flagged for :func:`event_exact`, which
decides with integers.
"""

from __future__ import annotations

from ._compile import jit, jit_loop
from ._exact import exact_quantities, ratio_to_float, roots
from ._filter import _HALF_RTOL, quantities

#: Kinds of the next event of a pair.
NONE = 0
IMPACT = 1
SLIDE = 2


@jit
def event_one(cax, cay, caz, vax, vay, vaz, ra, cbx, cby, cbz, vbx, vby, vbz, rb, h, inside):
    """The next event of one pair within ``[0, h]``, from proved float64 signs.

    Parameters
    ----------
    cax, ..., rb, h, inside
        As :func:`solver._filter.classify`: A is the ball, B the other ball
        or (``inside``) the container.

    Returns
    -------
    kind : int
        :data:`NONE`, :data:`IMPACT` or :data:`SLIDE`.
    dt : float
        Its time from now, in ``[0, h]`` (0 for :data:`NONE`).
    unsure : bool
        The float signs or time could not be proved: ask :func:`event_exact`.
    """
    (in_range, c, ec, co, eco, pv, epv, vv, disc, edisc, ve, eve, fh, efh, pv_zero,
     t_lo, t_hi, q_precise, c_precise, q_over_vv, q) = quantities(
        cax, cay, caz, vax, vay, vaz, ra, cbx, cby, cbz, vbx, vby, vbz, rb, h, inside
    )  # fmt: skip
    moving = vv != 0.0
    pv_pos = pv > epv
    pv_neg = pv < -epv
    c_pos = c > ec
    c_neg = c < -ec
    disc_pos = disc > edisc
    disc_neg = disc < -edisc
    fh_pos = fh > efh
    fh_neg = fh < -efh
    ve_pos = ve > eve
    ve_neg = ve < -eve

    kind = NONE
    dt = 0.0
    unsure = False
    if not in_range:
        unsure = True
    elif not moving:
        pass
    elif not inside:
        if pv_pos | pv_zero:
            pass
        elif not pv_neg:
            unsure = True
        elif c_neg:
            kind = IMPACT
        elif not c_pos:
            unsure = True
        elif disc_neg:
            pass
        elif not disc_pos:
            unsure = True
        elif ve_pos | fh_neg:
            kind = IMPACT
            dt = min(max(t_lo, 0.0), h)
            unsure = not (q_precise & c_precise)
        elif not (fh_pos & ve_neg):
            unsure = True
    else:
        # at or beyond the wall and moving out: now; on it with no normal speed: sliding now
        later_root = True
        if pv_pos | pv_zero:
            if c_pos:
                kind = IMPACT if pv_pos else SLIDE
                later_root = False
            elif not c_neg:
                unsure = True
                later_root = False
        elif not pv_neg:
            unsure = True
            later_root = False
        if later_root:  # c < 0, or p.v < 0: the larger root, or the vertex when disc <= 0
            if disc_pos:
                hit = fh_pos if c_neg else fh_pos & ve_pos
                miss = fh_neg if c_neg else fh_neg | ve_neg
                if hit:
                    kind = IMPACT
                    dt = min(max(t_hi, 0.0), h)
                    unsure = not (q_precise & (c_precise | pv_neg))
                elif not miss:
                    unsure = True
            elif disc_neg:
                if ve_pos:
                    kind = SLIDE
                    dt = min(max(-pv / vv, 0.0), h)
                    unsure = epv > _HALF_RTOL * abs(pv)
                elif not ve_neg:
                    unsure = True
            else:
                unsure = True
    return kind, dt, unsure


@jit_loop("the motion's loop over pairs")
def events_kernel(X, V, R, I, J, inside, h, kind, dt, unsure):
    """:func:`event_one` for every pair of a list.

    Parameters
    ----------
    X, V : (m, 3) float64
        Centres now and velocities (the container, if any, is one of the rows).
    R : (m,) float64
        Radii.
    I, J : (k,) int64
        The pairs: ball ``I[p]`` and ball or container ``J[p]``.
    inside : (k,) bool
        Pair ``p`` is a ball in its container ``J[p]``.
    h : float
        Time left to the horizon, > 0.
    kind : (k,) int8, output
    dt : (k,) float64, output
    unsure : (k,) bool, output
    """
    for p in range(I.shape[0]):
        i = I[p]
        j = J[p]
        out = event_one(
            X[i, 0], X[i, 1], X[i, 2], V[i, 0], V[i, 1], V[i, 2], R[i],
            X[j, 0], X[j, 1], X[j, 2], V[j, 0], V[j, 1], V[j, 2], R[j], h, inside[p],
        )  # fmt: skip
        kind[p] = out[0]
        dt[p] = out[1]
        unsure[p] = out[2]


def event_exact(cax, cay, caz, vax, vay, vaz, ra, cbx, cby, cbz, vbx, vby, vbz, rb, h, inside) -> tuple[int, float]:
    """:func:`event_one` decided with exact integers; returns ``(kind, dt)``.

    The time is correctly rounded from the exact root (or vertex).
    """
    c, co, pv, vv, disc, fh, ve, kl, kv, kh = exact_quantities(
        cax, cay, caz, vax, vay, vaz, ra, cbx, cby, cbz, vbx, vby, vbz, rb, h, inside
    )
    if vv == 0:
        return NONE, 0.0
    if not inside:
        if pv >= 0 or (c > 0 and disc <= 0):
            return NONE, 0.0
        if c <= 0:
            return IMPACT, 0.0
        if fh <= 0 or ve >= 0:
            return IMPACT, min(max(roots(c, pv, vv, disc, kl, kv)[0], 0.0), h)
        return NONE, 0.0
    if c >= 0 and pv >= 0:
        return (IMPACT if pv > 0 else SLIDE), 0.0
    if disc > 0:
        if fh >= 0 and (c < 0 or ve >= 0):
            return IMPACT, min(max(roots(c, pv, vv, disc, kl, kv)[1], 0.0), h)
        return NONE, 0.0
    if ve >= 0:  # c >= 0, p.v < 0, disc <= 0: sliding at the vertex
        return SLIDE, min(max(ratio_to_float(-pv, vv, kv - kl), 0.0), h)
    return NONE, 0.0
