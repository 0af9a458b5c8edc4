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

Expansions live in a scratch array of :data:`REGIONS` regions of
:data:`CAPACITY` floats, their lengths in an integer array beside it.  Each
polynomial is a short program of steps ``dst += sign * x * y`` over those
regions (:data:`STEPS`), run by one loop, so the whole evaluation compiles as
one small function; a result that outgrows its region sets ``ok`` to False and
the integer path decides (never seen in practice: the components are
non-overlapping, so a few dozen cover the exponent range met here).  The
scratch arrays are allocated once per batch by the caller, so the compiled
code allocates nothing and runs without numba's reference counting
(:data:`solver._compile.OPTIONS`).
"""

from __future__ import annotations

import numpy as np

from ._compile import array, compiled, fma, jit

#: Floats per scratch region.
CAPACITY = 96
#: Regions used by :func:`quantity`.
REGIONS = 15
#: Inputs' non-zero magnitudes must lie in [EXACT_MIN, EXACT_MAX].
EXACT_MIN = 2.0**-200
EXACT_MAX = 2.0**200
#: Length :func:`add_expansion_product` returns for an expansion that outgrew its region.
OVERFLOW = CAPACITY

#: Which quantity :func:`quantity` evaluates (see :mod:`solver._filter`).
C, CO, PV, VV, DISC, FH, VE = 0, 1, 2, 3, 4, 5, 6

#: Scratch regions: the components of p and v, R (rA + rB, or rC - rA), the
#: result, three temporaries (e = p + v h, or the components of w = p x v),
#: |v|^2, R^2, and the one-float expansions 1 and h.
P0, P1, P2, V0, V1, V2, R, OUT, T0, T1, T2, VVR, RRR, ONE, H = range(15)


def _steps() -> np.ndarray:
    """The programs of :func:`quantity`, ``(7, 16, 4)`` int64: per quantity, steps ``(dst, x, y, sign)``, -1 ends."""
    p, v, t = (P0, P1, P2), (V0, V1, V2), (T0, T1, T2)
    squares_minus_r2 = lambda z: [(OUT, z[k], z[k], 1) for k in range(3)] + [(OUT, R, R, -1)]  # noqa: E731
    at_horizon = [step for k in range(3) for step in ((t[k], p[k], ONE, 1), (t[k], v[k], H, 1))]  # e_k = p_k + v_k h
    cross = []  # |p x v|^2 from w_k = p_a v_b - p_b v_a
    for k in range(3):
        a, b = (k + 1) % 3, (k + 2) % 3
        cross += [(t[k], p[a], v[b], 1), (t[k], p[b], v[a], -1), (OUT, t[k], t[k], -1)]
    programs = {
        C: squares_minus_r2(p),
        CO: squares_minus_r2(p),
        PV: [(OUT, p[k], v[k], 1) for k in range(3)],
        VV: [(OUT, v[k], v[k], 1) for k in range(3)],
        DISC: [(VVR, v[k], v[k], 1) for k in range(3)] + [(RRR, R, R, 1), (OUT, VVR, RRR, 1)] + cross,
        FH: at_horizon + squares_minus_r2(t),
        VE: at_horizon + [(OUT, v[k], t[k], 1) for k in range(3)],
    }
    out = np.full((7, 16, 4), -1, dtype=np.int64)
    for which, steps in programs.items():
        out[which, : len(steps)] = steps
    return out


#: Each quantity as steps ``dst += sign * x * y`` over the scratch regions.
STEPS = _steps()

#: numba types of the compiled functions' arguments.
BUFFER = "float64[::1]"
LENGTHS = "int64[::1]"
#: One pair's inputs (read only: a row of the caller's array).
PAIR = "Array(float64, 1, 'C', readonly=True)"


@jit
def two_sum(a, b):
    """``(s, e)`` with ``s = fl(a + b)`` and ``a + b = s + e`` exactly (Knuth)."""
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)
    return s, e


def _split(a):
    """``(hi, lo)`` with ``a = hi + lo`` exactly, each with at most 26 significant bits (Veltkamp)."""
    c = 134217729.0 * a  # 2^27 + 1
    hi = c - (c - a)
    return hi, a - hi


def _two_prod_python(a, b):
    """:func:`two_prod` as plain Python, which has no fused multiply-add before 3.13: the same pair.

    Dekker's product is exact while its partial products do not underflow,
    which holds for ``|p| >= 2^-900`` (the smallest, of the two low halves, is
    about ``|a b| 2^-54``; the inputs' range keeps every value far from
    overflow); below that, ``e`` comes from the exact integer ratios (the
    division is correctly rounded, so exact, ``e`` being a float).
    """
    p = a * b
    if abs(p) >= 2.0**-900:
        ah, al = _split(a)
        bh, bl = _split(b)
        return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl
    na, da = float(a).as_integer_ratio()
    nb, db = float(b).as_integer_ratio()
    n_p, d_p = float(p).as_integer_ratio()
    return p, (na * nb * d_p - n_p * da * db) / (da * db * d_p)


@jit(plain=_two_prod_python)
def two_prod(a, b):
    """``(p, e)`` with ``p = fl(a b)`` and ``a b = p + e`` exactly (no underflow): one fused multiply-add."""
    p = a * b
    return p, fma(a, b, -p)


@jit
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


@jit
def add_product(buf, o, n, a, b):
    """Add the exact product ``a b`` to the expansion at ``o``; return the new length (at most ``n + 2``)."""
    p, e = two_prod(a, b)
    if e != 0.0:
        n = grow(buf, o, n, e)
    if p != 0.0:
        n = grow(buf, o, n, p)
    return n


@jit
def add_expansion_product(buf, o, n, ox, nx, oy, ny, k):
    """Add ``k`` times the product of the expansions ``buf[ox:ox+nx]`` and ``buf[oy:oy+ny]`` to the one at ``o``.

    ``k`` is +-1; the region at ``o`` is neither input's.  Returns the new
    length, or :data:`OVERFLOW` when the result would outgrow its region.
    """
    for i in range(nx):
        xi = k * buf[ox + i]
        for j in range(ny):
            n = add_product(buf, o, n, xi, buf[oy + j])
            if n > CAPACITY - 2:
                return OVERFLOW
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
def in_exact_range(x):
    """True when every non-zero input magnitude ``x[:15]`` lies in ``[EXACT_MIN, EXACT_MAX]``."""
    ok = True
    for i in range(15):
        ax = abs(x[i])
        ok &= (ax == 0.0) | ((ax >= EXACT_MIN) & (ax <= EXACT_MAX))
    return ok


#: Values per pair in the input vector of :func:`quantity`.
INPUTS = 16


def scratch() -> tuple:
    """Scratch space for :func:`quantity`: ``(REGIONS * CAPACITY,) float64``, ``(REGIONS,) int64`` and a pair's
    ``(INPUTS,) float64``.

    As plain Python, lists of the same sizes (:func:`solver._compile.array`).
    """
    return array(REGIONS * CAPACITY), array(REGIONS, int), array(INPUTS)


@compiled(f"Tuple((int64, float64, boolean))(int64, {BUFFER}, {LENGTHS}, {PAIR})")
def quantity(which, buf, lengths, x):
    """Exact sign and near value of one tested polynomial of :mod:`solver._filter`.

    Parameters
    ----------
    which : int
        :data:`C`, :data:`CO`, :data:`PV`, :data:`VV`, :data:`DISC`,
        :data:`FH` or :data:`VE`.
    buf : (REGIONS * CAPACITY,) float64
    lengths : (REGIONS,) int64
        Scratch space (:func:`scratch`).
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
    for k in range(3):  # p = cB - cA, v = vB - vA, exactly
        lengths[P0 + k] = diff(buf, (P0 + k) * CAPACITY, x[7 + k], x[k])
        lengths[V0 + k] = diff(buf, (V0 + k) * CAPACITY, x[10 + k], x[3 + k])
    sum_of_radii = which == CO or x[15] == 0.0
    lengths[R] = diff(buf, R * CAPACITY, x[6] if sum_of_radii else x[13], -x[13] if sum_of_radii else x[6])
    buf[ONE * CAPACITY] = 1.0
    lengths[ONE] = 1
    buf[H * CAPACITY] = x[14]
    lengths[H] = 1 if x[14] != 0.0 else 0
    for region in (T0, T1, T2, OUT, VVR, RRR):  # accumulated by the steps
        lengths[region] = 0
    for step in range(STEPS.shape[1]):
        dst = STEPS[which, step, 0]
        if dst < 0:
            break
        a = STEPS[which, step, 1]
        b = STEPS[which, step, 2]
        n = add_expansion_product(
            buf, dst * CAPACITY, lengths[dst], a * CAPACITY, lengths[a], b * CAPACITY, lengths[b],
            float(STEPS[which, step, 3]),
        )  # fmt: skip
        if n == OVERFLOW:
            return 0, 0.0, False
        lengths[dst] = n
    sign, value = summary(buf, OUT * CAPACITY, lengths[OUT])
    return sign, value, True
