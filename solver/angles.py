"""Arc tangent and arc sine from + − × ÷ and √ only: the same bits on every platform.

``math.asin`` and ``math.atan`` come from the platform's C library, whose last
bit differs between libraries (a browser's Python and a desktop's answered a
ricochet angle 1 ulp apart).  These follow fdlibm's ``atan`` (Sun
Microsystems, 1993: argument reduction to |x| < 7/16 around 1/2, 1, 3/2 or
infinity, then an odd polynomial of degree 21), in IEEE arithmetic alone, which
every platform rounds alike; the error stays below one ulp (``atan``) and a few
ulps (``asin``).  Pure Python.
"""

from __future__ import annotations

import math

#: atan(1/2), atan(1), atan(3/2), atan(inf) = pi/2: high and low parts.
_ATAN_HI = (4.63647609000806093515e-01, 7.85398163397448278999e-01, 9.82793723247329054082e-01,
            1.57079632679489655800e00)  # fmt: skip
_ATAN_LO = (2.26987774529616870924e-17, 3.06161699786838301793e-17, 1.39033110312309984516e-17,
            6.12323399573676603587e-17)  # fmt: skip
#: The polynomial's coefficients.
_AT = (
    3.33333333333329318027e-01, -1.99999999998764832476e-01, 1.42857142725034663711e-01,
    -1.11111104054623557880e-01, 9.09088713343650656196e-02, -7.69187620504482999495e-02,
    6.66107313738753120669e-02, -5.83357013379057348645e-02, 4.97687799461593236017e-02,
    -3.65315727442169155270e-02, 1.62858201153657823623e-02,
)  # fmt: skip


def atan(x: float) -> float:
    """The arc tangent of ``x``, in (-pi/2, pi/2), within one ulp; NaN for NaN."""
    if math.isnan(x):
        return x
    ax = abs(x)
    if ax >= 2.0**66:
        return math.copysign(_ATAN_HI[3] + _ATAN_LO[3], x)
    if ax < 0.4375:
        if ax < 2.0**-27:
            return x
        part = -1
    elif ax < 0.6875:
        part, ax = 0, (2.0 * ax - 1.0) / (2.0 + ax)
    elif ax < 1.1875:
        part, ax = 1, (ax - 1.0) / (ax + 1.0)
    elif ax < 2.4375:
        part, ax = 2, (ax - 1.5) / (1.0 + 1.5 * ax)
    else:
        part, ax = 3, -1.0 / ax
    z = ax * ax
    w = z * z
    s1 = z * (_AT[0] + w * (_AT[2] + w * (_AT[4] + w * (_AT[6] + w * (_AT[8] + w * _AT[10])))))
    s2 = w * (_AT[1] + w * (_AT[3] + w * (_AT[5] + w * (_AT[7] + w * _AT[9]))))
    if part < 0:
        return x - x * (s1 + s2)
    z = _ATAN_HI[part] - ((ax * (s1 + s2) - _ATAN_LO[part]) - ax)
    return -z if x < 0 else z


def asin(x: float) -> float:
    """The arc sine of ``x`` in [-1, 1], in [-pi/2, pi/2], within a few ulps; ValueError outside."""
    if not -1.0 <= x <= 1.0:
        raise ValueError(f"x: must be in [-1, 1], got {x!r}")
    ax = abs(x)
    if ax == 1.0:
        return math.copysign(_ATAN_HI[3] + _ATAN_LO[3], x)
    return atan(x / math.sqrt((1.0 - ax) * (1.0 + ax)))
