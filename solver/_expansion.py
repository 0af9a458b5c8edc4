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

from ._filter import USE_JIT, compiled

#: Floats per scratch region.
CAPACITY = 96
#: Regions used by :func:`quantity`.
REGIONS = 16
#: Inputs' non-zero magnitudes must lie in [EXACT_MIN, EXACT_MAX].
EXACT_MIN = 2.0**-200
EXACT_MAX = 2.0**200
#: Length :func:`add_expansion_product` returns for an expansion that outgrew its region.
OVERFLOW = CAPACITY

#: Which quantity :func:`quantity` evaluates (see :mod:`solver._filter`).
C, CO, PV, VV, DISC, FH, VE = 0, 1, 2, 3, 4, 5, 6

# Scratch regions of :func:`quantity`: p (three), v (three), R, the result, then
# e = p + v h or w = p x v (three), |v|^2 and R^2.
_P = 0
_V = 3 * CAPACITY
_R = 6 * CAPACITY
_OUT = 7 * CAPACITY
_T = 8 * CAPACITY
_VV = 12 * CAPACITY
_RR = 13 * CAPACITY

#: numba types of the compiled functions' arguments.
BUFFER = "float64[::1]"


@compiled("UniTuple(float64, 2)(float64, float64)")
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

    @compiled("UniTuple(float64, 2)(float64, float64)")
    def two_prod(a, b):
        """``(p, e)`` with ``p = fl(a b)`` and ``a b = p + e`` exactly (no underflow)."""
        p = a * b
        return p, _fma(a, b, -p)

else:

    def _split(a):
        c = 134217729.0 * a  # 2^27 + 1 (Veltkamp)
        hi = c - (c - a)
        return hi, a - hi

    def two_prod(a, b):
        """``(p, e)`` with ``p = fl(a b)`` and ``a b = p + e`` exactly (Dekker; no underflow or overflow)."""
        p = a * b
        ah, al = _split(a)
        bh, bl = _split(b)
        e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
        return p, e


@compiled(f"int64({BUFFER}, int64, int64, float64)")
def grow(buf, o, n, b):
    """Add ``b`` to the expansion ``buf[o : o + n]`` in place; return the new length (at most ``n + 1``).

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


@compiled(f"int64({BUFFER}, int64, int64, float64, float64)")
def add_product(buf, o, n, a, b):
    """Add the exact product ``a b`` to the expansion at ``o``; return the new length (at most ``n + 2``)."""
    p, e = two_prod(a, b)
    if e != 0.0:
        n = grow(buf, o, n, e)
    if p != 0.0:
        n = grow(buf, o, n, p)
    return n


@compiled(f"int64({BUFFER}, int64, int64, int64, int64, int64, int64, float64)")
def add_expansion_product(buf, o, n, ox, nx, oy, ny, k):
    """Add ``k`` times the product of the expansions ``buf[ox:ox+nx]`` and ``buf[oy:oy+ny]`` to the one at ``o``.

    ``k`` is +-1; the region at ``o`` is neither input's.  Returns the new
    length, or :data:`OVERFLOW` when the result would outgrow its region
    (also when ``n`` already had).
    """
    if n > CAPACITY - 2:
        return OVERFLOW
    for i in range(nx):
        xi = k * buf[ox + i]
        for j in range(ny):
            n = add_product(buf, o, n, xi, buf[oy + j])
            if n > CAPACITY - 2:
                return OVERFLOW
    return n


@compiled(f"int64({BUFFER}, int64, float64, float64)")
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


@compiled(f"Tuple((int64, float64))({BUFFER}, int64, int64)")
def summary(buf, o, n):
    """``(sign, value)``: the exact sign (-1, 0, 1) and the value to a few ulps of an expansion."""
    if n == 0:
        return 0, 0.0
    top = buf[o + n - 1]
    value = 0.0
    for i in range(n):
        value += buf[o + i]
    return (1 if top > 0.0 else -1), value


@compiled(f"int64({BUFFER}, int64, int64, int64, int64, int64, float64)")
def offset_at_horizon(buf, o, op, npk, ov, nvk, h):
    """The expansion of ``e_k = p_k + v_k h`` at ``o`` from those of ``p_k`` and ``v_k``; return its length (<= 6)."""
    m = 0
    for i in range(npk):
        m = grow(buf, o, m, buf[op + i])
    for i in range(nvk):
        m = add_product(buf, o, m, buf[ov + i], h)
    return m


@compiled(f"boolean({BUFFER})")
def in_exact_range(x):
    """True when every non-zero input magnitude ``x[:15]`` lies in ``[EXACT_MIN, EXACT_MAX]``."""
    ok = True
    for i in range(15):
        ax = abs(x[i])
        ok &= (ax == 0.0) | ((ax >= EXACT_MIN) & (ax <= EXACT_MAX))
    return ok


@compiled(f"Tuple((int64, float64, boolean))(int64, {BUFFER}, {BUFFER})")
def quantity(which, buf, x):
    """Exact sign and near value of one tested polynomial of :mod:`solver._filter`.

    Parameters
    ----------
    which : int
        :data:`C`, :data:`CO`, :data:`PV`, :data:`VV`, :data:`DISC`,
        :data:`FH` or :data:`VE`.
    buf : (REGIONS * CAPACITY,) float64
        Scratch space.
    x : (16,) float64
        ``cax, cay, caz, vax, vay, vaz, ra, cbx, cby, cbz, vbx, vby, vbz, rb, h``
        (they must pass :func:`in_exact_range`) and ``inside`` (1.0 or 0.0).

    Returns
    -------
    sign : int
        -1, 0 or 1, exact.
    value : float
        The value within a few ulps.
    ok : bool
        False when an expansion outgrew its region (then ask the integer path).
    """
    h = x[14]
    np_ = (diff(buf, _P, x[7], x[0]), diff(buf, _P + CAPACITY, x[8], x[1]), diff(buf, _P + 2 * CAPACITY, x[9], x[2]))
    nv = (diff(buf, _V, x[10], x[3]), diff(buf, _V + CAPACITY, x[11], x[4]), diff(buf, _V + 2 * CAPACITY, x[12], x[5]))
    if which == CO or x[15] == 0.0:
        nr = diff(buf, _R, x[6], -x[13])  # rA + rB
    else:
        nr = diff(buf, _R, x[13], x[6])  # rC - rA
    n = 0
    if which == DISC:  # |v|^2 R^2 - |p x v|^2
        nvv = 0
        for k in range(3):
            ov = _V + k * CAPACITY
            nvv = add_expansion_product(buf, _VV, nvv, ov, nv[k], ov, nv[k], 1.0)
        nrr = add_expansion_product(buf, _RR, 0, _R, nr, _R, nr, 1.0)
        n = add_expansion_product(buf, _OUT, 0, _VV, nvv, _RR, nrr, 1.0)
        for k in range(3):  # w_k = p_a v_b - p_b v_a
            a = (k + 1) % 3
            b = (k + 2) % 3
            w = _T + k * CAPACITY
            nw = add_expansion_product(buf, w, 0, _P + a * CAPACITY, np_[a], _V + b * CAPACITY, nv[b], 1.0)
            nw = add_expansion_product(buf, w, nw, _P + b * CAPACITY, np_[b], _V + a * CAPACITY, nv[a], -1.0)
            n = add_expansion_product(buf, _OUT, n, w, nw, w, nw, -1.0)
    else:  # a sum of three products x_k y_k of p, v or e = p + v h; minus R^2 for c, co and f(h)
        for k in range(3):
            op, ov, oe = _P + k * CAPACITY, _V + k * CAPACITY, _T + k * CAPACITY
            ne = 0
            if which == FH or which == VE:
                ne = offset_at_horizon(buf, oe, op, np_[k], ov, nv[k], h)
            if which == PV:
                n = add_expansion_product(buf, _OUT, n, op, np_[k], ov, nv[k], 1.0)
            elif which == VV:
                n = add_expansion_product(buf, _OUT, n, ov, nv[k], ov, nv[k], 1.0)
            elif which == FH:
                n = add_expansion_product(buf, _OUT, n, oe, ne, oe, ne, 1.0)
            elif which == VE:
                n = add_expansion_product(buf, _OUT, n, ov, nv[k], oe, ne, 1.0)
            else:  # C, CO
                n = add_expansion_product(buf, _OUT, n, op, np_[k], op, np_[k], 1.0)
        if which == C or which == CO or which == FH:
            n = add_expansion_product(buf, _OUT, n, _R, nr, _R, nr, -1.0)
    if n == OVERFLOW:
        return 0, 0.0, False
    sign, value = summary(buf, _OUT, n)
    return sign, value, True
