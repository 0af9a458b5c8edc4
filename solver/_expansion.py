"""Exact signs of the tested polynomials from floating-point expansions (compiled).

The float filter of :mod:`solver._filter` leaves undecided only the inputs
where a tested quantity is zero or within its rounding error of zero: spheres
that touch exactly, exact tangents, contact exactly at the horizon.  Python
integers (:mod:`solver._exact`) decide those in tens of microseconds each;
this module decides nearly all of them in well under a microsecond.

An *expansion* is a list of floats whose exact sum is the value, in order of
increasing magnitude and non-overlapping (Shewchuk, "Adaptive precision
floating-point arithmetic and fast robust geometric predicates", 1997).  The
error-free transformations ``two_sum`` (Knuth) and ``two_prod`` (one fused
multiply-add) turn every sum and product of floats into such lists without
rounding; ``grow`` adds one float to an expansion (Shewchuk's
GROW-EXPANSION with zero elimination).  The largest component then carries the
sign of the exact value, and the sum of the components is the value to a few
ulps.

Exactness needs every product's rounding error to be representable: no
underflow, no overflow.  :func:`in_exact_range` admits inputs whose non-zero
magnitudes lie in ``[2^-200, 2^200]``: then every term of these degree-4
polynomials has its lowest bit above ``2^-1010`` and its magnitude below
``2^830``.  Anything else goes to the integer path.

Expansions live in a scratch array: a polynomial is accumulated in the region
``buf[o : o + CAPACITY]``; a length beyond the region sets the result's ``ok``
to False (never seen in practice: the components are non-overlapping, so a
few dozen cover the whole exponent range met here).
"""

from __future__ import annotations

from ._filter import USE_JIT, jit, jit_call

#: Floats per scratch region.
CAPACITY = 96
#: Regions used by :func:`quantity`.
REGIONS = 16
#: Inputs' non-zero magnitudes must lie in [EXACT_MIN, EXACT_MAX].
EXACT_MIN = 2.0**-200
EXACT_MAX = 2.0**200

#: Which quantity :func:`quantity` evaluates (see :mod:`solver._filter`).
C, CO, PV, VV, DISC, FH, VE = 0, 1, 2, 3, 4, 5, 6


@jit
def two_sum(a, b):
    """``(s, e)`` with ``s = fl(a + b)`` and ``a + b = s + e`` exactly (Knuth)."""
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)
    return s, e


if USE_JIT:
    from numba.core import types
    from numba.extending import intrinsic

    @intrinsic
    def _fma(typingctx, a, b, c):
        """``a * b + c`` with one rounding (LLVM's fma intrinsic)."""
        sig = types.float64(types.float64, types.float64, types.float64)

        def codegen(context, builder, signature, args):
            return builder.fma(*args)

        return sig, codegen

    @jit
    def two_prod(a, b):
        """``(p, e)`` with ``p = fl(a b)`` and ``a b = p + e`` exactly (no underflow)."""
        p = a * b
        return p, _fma(a, b, -p)

else:

    @jit
    def _split(a):
        c = 134217729.0 * a  # 2^27 + 1 (Veltkamp)
        hi = c - (c - a)
        return hi, a - hi

    @jit
    def two_prod(a, b):
        """``(p, e)`` with ``p = fl(a b)`` and ``a b = p + e`` exactly (Dekker; no underflow or overflow)."""
        p = a * b
        ah, al = _split(a)
        bh, bl = _split(b)
        e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
        return p, e


@jit
def grow(buf, o, n, b):
    """Add ``b`` to the expansion ``buf[o : o + n]`` in place; return the new length.

    Zero components are dropped, so the value 0 is the empty expansion.
    """
    q = b
    k = 0
    for i in range(n):
        q, hh = two_sum(q, buf[o + i])
        if hh != 0.0:
            buf[o + k] = hh
            k += 1
    if q != 0.0:
        buf[o + k] = q
        k += 1
    return k


@jit
def add_product(buf, o, n, a, b):
    """Add the exact product ``a b`` to the expansion at ``o``; return the new length."""
    p, e = two_prod(a, b)
    if e != 0.0:
        n = grow(buf, o, n, e)
    if p != 0.0:
        n = grow(buf, o, n, p)
    return n


@jit
def add_expansion_product(buf, o, n, x, ox, nx, y, oy, ny, k):
    """Add ``k`` times the product of expansions ``x[ox:ox+nx]`` and ``y[oy:oy+ny]``; ``k`` is +-1 or +-2."""
    for i in range(nx):
        xi = k * x[ox + i]
        for j in range(ny):
            n = add_product(buf, o, n, xi, y[oy + j])
            if n > CAPACITY - 2:
                return CAPACITY
    return n


@jit
def diff(buf, o, a, b):
    """The expansion of ``a - b`` at ``o``; return its length (0 to 2)."""
    s, e = two_sum(a, -b)
    n = 0
    if e != 0.0:
        buf[o] = e
        n = 1
    if s != 0.0:
        buf[o + n] = s
        n += 1
    return n


@jit
def summary(buf, o, n):
    """``(sign, value)``: the exact sign (-1, 0, 1) and the value to a few ulps of an expansion."""
    if n == 0:
        return 0, 0.0
    top = buf[o + n - 1]
    value = 0.0
    for i in range(n):
        value += buf[o + i]
    return (1 if top > 0.0 else -1), value


@jit
def offset_at_horizon(buf, o, src, op, npk, ov, nvk, h):
    """The expansion of ``e_k = p_k + v_k h`` at ``o`` from those of ``p_k`` and ``v_k``; return its length."""
    m = 0
    for i in range(npk):
        m = grow(buf, o, m, src[op + i])
    for i in range(nvk):
        m = add_product(buf, o, m, src[ov + i], h)
    return m


@jit
def in_exact_range(cax, cay, caz, vax, vay, vaz, ra, cbx, cby, cbz, vbx, vby, vbz, rb, h):
    """True when every non-zero input magnitude lies in ``[EXACT_MIN, EXACT_MAX]``."""
    ok = True
    for x in (cax, cay, caz, vax, vay, vaz, ra, cbx, cby, cbz, vbx, vby, vbz, rb, h):
        ax = abs(x)
        ok &= (ax == 0.0) | ((ax >= EXACT_MIN) & (ax <= EXACT_MAX))
    return ok


@jit_call
def quantity(which, buf, x):
    """Exact sign and near value of one tested polynomial of :mod:`solver._filter`.

    Parameters
    ----------
    which : int
        :data:`C`, :data:`CO`, :data:`PV`, :data:`VV`, :data:`DISC`,
        :data:`FH` or :data:`VE`.
    buf : (REGIONS * CAPACITY,) float64
        Scratch space.
    x : tuple
        ``(cax, ..., rb, h, inside)``, the arguments of
        :func:`solver._filter.quantities`; they must pass :func:`in_exact_range`.

    Returns
    -------
    sign : int
        -1, 0 or 1, exact.
    value : float
        The value within a few ulps.
    ok : bool
        False when an expansion outgrew its region (then ask the integer path).
    """
    cax, cay, caz, vax, vay, vaz, ra, cbx, cby, cbz, vbx, vby, vbz, rb, h, inside = x
    # regions: 0-2 p, 3-5 v, 6 R, 7 result, 8-10 w or e, 12 vv, 13 R^2
    P = 0
    Vr = 3 * CAPACITY
    Rr = 6 * CAPACITY
    out = 7 * CAPACITY
    T = 8 * CAPACITY
    np_ = (diff(buf, P, cbx, cax), diff(buf, P + CAPACITY, cby, cay), diff(buf, P + 2 * CAPACITY, cbz, caz))
    nv = (diff(buf, Vr, vbx, vax), diff(buf, Vr + CAPACITY, vby, vay), diff(buf, Vr + 2 * CAPACITY, vbz, vaz))
    if which == CO:
        nr = diff(buf, Rr, ra, -rb)
    elif inside:
        nr = diff(buf, Rr, rb, ra)
    else:
        nr = diff(buf, Rr, ra, -rb)
    n = 0
    if which == C or which == CO or which == FH:
        for k in range(3):
            if which == FH:  # e_k = p_k + v_k h
                m = offset_at_horizon(buf, T, buf, P + k * CAPACITY, np_[k], Vr + k * CAPACITY, nv[k], h)
                n = add_expansion_product(buf, out, n, buf, T, m, buf, T, m, 1.0)
            else:
                n = add_expansion_product(buf, out, n, buf, P + k * CAPACITY, np_[k], buf, P + k * CAPACITY, np_[k], 1.0)
        n = add_expansion_product(buf, out, n, buf, Rr, nr, buf, Rr, nr, -1.0)
    elif which == PV:
        for k in range(3):
            n = add_expansion_product(buf, out, n, buf, P + k * CAPACITY, np_[k], buf, Vr + k * CAPACITY, nv[k], 1.0)
    elif which == VV:
        for k in range(3):
            n = add_expansion_product(buf, out, n, buf, Vr + k * CAPACITY, nv[k], buf, Vr + k * CAPACITY, nv[k], 1.0)
    elif which == VE:
        for k in range(3):
            m = offset_at_horizon(buf, T, buf, P + k * CAPACITY, np_[k], Vr + k * CAPACITY, nv[k], h)
            n = add_expansion_product(buf, out, n, buf, Vr + k * CAPACITY, nv[k], buf, T, m, 1.0)
    else:  # DISC = vv R^2 - |p x v|^2
        vvr = 12 * CAPACITY
        rrr = 13 * CAPACITY
        nvv = 0
        for k in range(3):
            nvv = add_expansion_product(buf, vvr, nvv, buf, Vr + k * CAPACITY, nv[k], buf, Vr + k * CAPACITY, nv[k], 1.0)
        nrr = add_expansion_product(buf, rrr, 0, buf, Rr, nr, buf, Rr, nr, 1.0)
        n = add_expansion_product(buf, out, n, buf, vvr, nvv, buf, rrr, nrr, 1.0)
        for k in range(3):  # w_k = p_a v_b - p_b v_a
            a = (k + 1) % 3
            b = (k + 2) % 3
            w = T + k * CAPACITY
            nw = add_expansion_product(buf, w, 0, buf, P + a * CAPACITY, np_[a], buf, Vr + b * CAPACITY, nv[b], 1.0)
            nw = add_expansion_product(buf, w, nw, buf, P + b * CAPACITY, np_[b], buf, Vr + a * CAPACITY, nv[a], -1.0)
            n = add_expansion_product(buf, out, n, buf, w, nw, buf, w, nw, -1.0)
    if n >= CAPACITY - 2:
        return 0, 0.0, False
    sign, value = summary(buf, out, n)
    return sign, value, True
