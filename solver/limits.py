"""The one validation rule for body quantities, and why it keeps every result finite.

:class:`solver.Body`, :func:`solver.sweep_many`, the response helpers, the
motion code and the explorer's scene model all check their inputs with the
functions below, so a value one of them accepts is accepted by all of them.
The batch loop of :func:`solver.sweep_many` and the audit's check of every row
of a log run the same branch-free tests (:func:`coordinate_ok` and its
siblings), compiled, and state the ranges in the same words.
Each function returns the value as float(s) or raises :class:`ValueError` whose
message starts with the field name and states the supported range.  Booleans,
strings, ``None``, NaN and infinities are refused everywhere (``math.inf`` is
accepted in one place only: the mass of a fixed body).

The ranges
----------
======================  ============================================================
centre component        ``|x| <= MAX_COORDINATE`` (1e12)
velocity component      ``0`` or ``MIN_VELOCITY_COMPONENT <= |v| <= MAX_COORDINATE``
                        (1e-100 .. 1e12)
radius                  ``[MIN_RADIUS, MAX_RADIUS]`` (1e-12 .. 1e12)
mass                    ``[MIN_MASS, MAX_MASS]`` (1e-12 .. 1e12), or ``math.inf``
                        (fixed, immovable)
horizon                 ``(0, MAX_HORIZON]`` (at most 1e6)
restitution             ``[0, 1]``
a time argument         ``|t| <= MAX_TIME`` (1e140), e.g. ``Sweep.f(t)``
a point of a ray query  ``|x| <= MAX_POINT`` (1e300), and a ray's sphere radius in
                        ``(0, MAX_POINT]``: a picking ray may start far outside the
                        scene; distances along it stay below 1e301
a direction             three finite numbers, not all zero (any magnitude: only
                        the direction is used, after an exact power-of-two scaling)
======================  ============================================================

Why these ranges keep every result finite
-----------------------------------------
Write ``L = MAX_COORDINATE``.  For two accepted bodies:

* the relative position ``p`` and velocity ``v`` have components of at most
  ``2 L``, so ``|p|, |v| <= 2 sqrt(3) L < 3.5e12``, and a contact radius ``R``
  (sum or difference of two radii) is at most ``2 L``.  Every coefficient of the
  time-of-impact quadratic (``|v|^2``, ``p.v``, ``|p|^2 - R^2``) is below
  ``1.3e25`` and the quarter discriminant ``|v|^2 R^2 - |p x v|^2`` below
  ``1e51``: far from overflow;
* a non-zero relative velocity is at least ``1e-116`` long: the difference of
  two floats that are each 0 or at least ``1e-100`` in magnitude is 0 or at
  least one ulp of ``1e-100``.  A root ``t`` of ``|p + v t| = R`` obeys
  ``|v t| <= |p| + R``, so every root (and the vertex ``t_min``) lies within
  ``7e12 / 1e-116 < 1e129``; ``|v|^2 >= 1e-232`` never underflows.  Without
  the lower bound a velocity of 5e-324 would put roots near 1e336, beyond the
  float range;
* ``|t| <= MAX_TIME`` keeps ``|p + v t|^2 <= (3.5e12 + 3.5e12 * 1e140)^2 < 1e306``
  finite, so ``Sweep.f(t)`` and ``Body.position(t)`` are finite for every
  root the solver can report;
* masses in ``[1e-12, 1e12]``: inverse masses are at most ``1e12``, so an
  impulse ``(1 + e) v_n / (1/m_a + 1/m_b)`` is at most ``2 * 1e12 * |v_n|``,
  and momentum ``m |v|`` and kinetic energy ``m |v|^2 / 2`` stay below
  ``1e50`` for every velocity reachable in a motion: collisions never gain
  energy (restitution <= 1), so a body of the smallest mass can reach at most
  ``sqrt(2 E / MIN_MASS) ~ 1e24 sqrt(n)`` for ``n`` bodies (fixed bodies that
  move, i.e. moving walls, can add ``2 |v_wall|`` per event; the event limit
  of :mod:`solver.motion` bounds that);
* a horizon of at most ``1e6`` keeps positions along a motion below
  ``1e12 + 1e27 * 1e6``, squared below ``1e67``;
* radii of at least ``1e-12`` and at most ``1e12`` keep a ball's size within
  24 decades of the scene; contact points and normals are computed from
  relative positions and scaled by a power of two before normalising, so
  they are finite even where the centres are 1 ulp apart.

Inside these ranges the certified sweep filter of :mod:`solver._filter`
decides almost everything in float64; what it cannot prove the exact integer
path decides, so verdicts stay exact for every accepted input.
"""

from __future__ import annotations

import math
import sys

from .vec import unit

Vector3 = tuple[float, float, float]

#: Bound on the magnitude of each component of a centre or a velocity.
MAX_COORDINATE = 1e12
#: Smallest magnitude of a non-zero velocity component (see the module notes:
#: keeps every root of the time-of-impact quadratic inside the float range).
MIN_VELOCITY_COMPONENT = 1e-100
#: Radius range.
MIN_RADIUS = 1e-12
MAX_RADIUS = 1e12
#: Range of finite masses; ``math.inf`` (a fixed, immovable body) is also accepted.
MIN_MASS = 1e-12
MAX_MASS = 1e12
#: Longest time window.
MAX_HORIZON = 1e6
#: Bound on the magnitude of a time argument (``Sweep.f(t)``, ``Body.position(t)``).
MAX_TIME = 1e140
#: Bound on the components of a ray's origin and of the sphere it is cast at
#: (:func:`solver.ray_sphere`), and on that sphere's radius.
MAX_POINT = 1e300

#: The ranges of a pair's quantities, in the form the branch-free tests below take them:
#: the largest magnitude of a centre or velocity component, the smallest non-zero magnitude
#: of a velocity component, the smallest and largest radius, the largest horizon.
RANGES = (MAX_COORDINATE, MIN_VELOCITY_COMPONENT, MIN_RADIUS, MAX_RADIUS, MAX_HORIZON)

#: The same ranges in words, as every refusal states them: ``f"must be {RADIUS_WORDS}"``.
COORDINATE_WORDS = f"within ±{MAX_COORDINATE:g}"
VELOCITY_WORDS = f"0 or of magnitude in [{MIN_VELOCITY_COMPONENT:g}, {MAX_COORDINATE:g}]"
RADIUS_WORDS = f"in [{MIN_RADIUS:g}, {MAX_RADIUS:g}]"
HORIZON_WORDS = f"in (0, {MAX_HORIZON:g}]"


# -- the branch-free tests ------------------------------------------------------------------
# One comparison per rule, written once.  They use only ``abs``, comparisons, ``&`` and ``|``,
# so the same functions serve three ways: on floats here (the ``check_*`` functions below), on
# numpy arrays element by element, and compiled by numba in the solver's batch loop
# (:func:`solver._kernel.within`), which the audit runs on every row of a log.  NaN fails every
# test.  ``ranges`` is :data:`RANGES`, or the kernel's wider form for its unchecked core.


def coordinate_ok(x, ranges):
    """True where ``x``, a centre component, is within ``±ranges[0]``.

    Parameters
    ----------
    x : float, or (n,) float64
    ranges : tuple of 5 float
        :data:`RANGES` or the same form.

    Returns
    -------
    bool, or (n,) bool
    """
    return abs(x) <= ranges[0]


def velocity_ok(x, ranges):
    """True where ``x``, a velocity component, is within ``±ranges[0]`` and is 0 or at least ``ranges[1]`` in magnitude.

    Shapes as :func:`coordinate_ok`.
    """
    return (abs(x) <= ranges[0]) & ((x == 0.0) | (abs(x) >= ranges[1]))


def radius_ok(r, ranges):
    """True where ``r``, a radius, is in ``[ranges[2], ranges[3]]``.  Shapes as :func:`coordinate_ok`."""
    return (r >= ranges[2]) & (r <= ranges[3])


def horizon_ok(h, ranges):
    """True where ``h``, a horizon, is in ``(0, ranges[4]]``.  Shapes as :func:`coordinate_ok`."""
    return (h > 0.0) & (h <= ranges[4])


#: Types refused wherever a number is expected (``float()`` would accept them); numpy's bool too.
_NOT_NUMBERS = (bool, str, bytes)


def not_a_number_type(value: object) -> bool:
    """True for a value of a type refused wherever a number is expected: a bool (Python's or numpy's), text, bytes.

    numpy is not imported for this: a numpy bool exists only where numpy was imported already.
    """
    if isinstance(value, _NOT_NUMBERS):
        return True
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(value, numpy.bool_)


def finite_number(value: object, field: str) -> float:
    """``value`` as a finite float, refusing bools, text, None, NaN and infinities (no range)."""
    if not_a_number_type(value) or value is None:
        raise ValueError(f"{field}: expected a number, got {value!r}")
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{field}: expected a finite number, got {value!r}") from None
    if not math.isfinite(number):
        raise ValueError(f"{field}: must be finite, got {number!r}")
    return number


def three_numbers(value: object, field: str) -> Vector3:
    """``value`` as three finite floats (no range); ValueError naming ``field`` otherwise."""
    if isinstance(value, (str, bytes)):
        raise ValueError(f"{field}: expected 3 numbers, got {value!r}")
    try:
        items = tuple(value)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"{field}: expected 3 numbers, got {value!r}") from None
    if len(items) != 3:
        raise ValueError(f"{field}: expected 3 numbers, got {len(items)}")
    x, y, z = (finite_number(item, field) for item in items)
    return (x, y, z)


def check_vector(value: object, field: str) -> Vector3:
    """A centre: three finite floats, each within ``±MAX_COORDINATE``.

    For a velocity use :func:`check_velocity`, which adds the lower bound on
    non-zero components.

    Parameters
    ----------
    value : sequence of 3 real numbers
    field : str
        Name used in the error message, e.g. ``"center"``.

    Returns
    -------
    (3,) tuple of float

    Raises
    ------
    ValueError
        Naming ``field`` and the supported range: not three real numbers
        (bools and strings refused), NaN, inf or a component out of range.
    """
    v = three_numbers(value, field)
    if not (coordinate_ok(v[0], RANGES) and coordinate_ok(v[1], RANGES) and coordinate_ok(v[2], RANGES)):
        raise ValueError(f"{field}: components must be {COORDINATE_WORDS}, got {v!r}")
    return v


def check_velocity(value: object, field: str) -> Vector3:
    """A velocity: :func:`check_vector`, and each component 0 or at least ``MIN_VELOCITY_COMPONENT``.

    Raises
    ------
    ValueError
        Naming ``field`` and the range ``0 or 1e-100 <= |component| <= 1e12``.
    """
    v = check_vector(value, field)
    if not (velocity_ok(v[0], RANGES) and velocity_ok(v[1], RANGES) and velocity_ok(v[2], RANGES)):
        raise ValueError(f"{field}: each component must be {VELOCITY_WORDS}, got {v!r}")
    return v


def check_point(value: object, field: str) -> Vector3:
    """A point of a ray query: three finite floats within ``±MAX_POINT``.

    Raises
    ------
    ValueError
        Naming ``field`` and the range.
    """
    v = three_numbers(value, field)
    if not (abs(v[0]) <= MAX_POINT and abs(v[1]) <= MAX_POINT and abs(v[2]) <= MAX_POINT):
        raise ValueError(f"{field}: components must be within ±{MAX_POINT:g}, got {v!r}")
    return v


def check_direction(value: object, field: str) -> Vector3:
    """A direction: three finite floats, not all zero, of any magnitude.

    Returns
    -------
    (3,) tuple of float
        The unit vector, computed after scaling by a power of two so that
        neither huge nor subnormal components lose it.

    Raises
    ------
    ValueError
        Naming ``field``: not three finite numbers, or the zero vector.
    """
    n = unit(three_numbers(value, field))
    if n is None:
        raise ValueError(f"{field}: must not be the zero vector")
    return n


def _in(value: object, field: str, lo: float, hi: float, otherwise: str = "") -> float:
    x = finite_number(value, field)
    if not lo <= x <= hi:
        raise ValueError(f"{field}: must be in [{lo:g}, {hi:g}]{otherwise}, got {x!r}")
    return x


def check_radius(value: object, field: str) -> float:
    """A radius in ``[MIN_RADIUS, MAX_RADIUS]``; ValueError naming ``field`` otherwise."""
    x = finite_number(value, field)
    if not radius_ok(x, RANGES):
        raise ValueError(f"{field}: must be {RADIUS_WORDS}, got {x!r}")
    return x


def check_mass(value: object, field: str) -> float:
    """A mass in ``[MIN_MASS, MAX_MASS]``, or ``math.inf`` for a fixed body.

    Raises
    ------
    ValueError
        Naming ``field`` and the range (NaN, -inf, bools, text, out of range).
    """
    if not not_a_number_type(value) and value == math.inf:
        return math.inf
    return _in(value, field, MIN_MASS, MAX_MASS, " (or infinite: a fixed body)")


def check_horizon(value: object, field: str) -> float:
    """A time window length in ``(0, MAX_HORIZON]``; ValueError naming ``field`` otherwise."""
    x = finite_number(value, field)
    if not horizon_ok(x, RANGES):
        raise ValueError(f"{field}: must be {HORIZON_WORDS}, got {x!r}")
    return x


def check_restitution(value: object, field: str) -> float:
    """A coefficient of restitution in ``[0, 1]``; ValueError naming ``field`` otherwise."""
    return _in(value, field, 0.0, 1.0)


def check_time(value: object, field: str) -> float:
    """A time argument within ``±MAX_TIME``; ValueError naming ``field`` otherwise."""
    return _in(value, field, -MAX_TIME, MAX_TIME)
