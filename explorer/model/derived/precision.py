"""The precision lab: what the textbook formula answers in float32 and float64, beside the exact verdict.

The textbook test (the quadratic as most tutorials write it) computes, in one floating-point
type throughout (every input first rounded to it)::

    v = vB - vA,  R = rA + rB  (inside mode: R = rC - rA)
    a = v.v,  disc = b^2 - 4 a c
    pair:    hit  <=>  c <= 0  or  (disc >= 0 and 0 <= t0 <= h),  t0 = (-b - sqrt(disc)) / (2 a)
    inside:  hit  <=>  c >= 0  or  t1 <= h,                       t1 = (-b + sqrt(disc)) / (2 a)

in one of two variants for ``b`` and ``c``:

``"relative"``
    Subtract positions first: ``p = cB - cA``, ``b = 2 p.v``, ``c = p.p - R^2``.
``"expanded"``
    From the ABSOLUTE coordinates, squares expanded:
    ``c = |cB|^2 - 2 cB.cA + |cA|^2 - R^2`` and ``b = 2 (cB.v - cA.v)``.
    Far from the origin the three terms of ``c`` are huge and nearly cancel.

The discriminant subtracts two products of size ~ (|p||v|)^2, so for long
shots, far-from-origin coordinates and near-tangent grazes its sign comes out
wrong.  :func:`lab` puts the four combinations (variant x float32/float64)
next to the exact solver's answer; :func:`translate` and :func:`nudge_graze`
push a scene towards failure one exact step at a time.

Every number a view would display is a finite float, ``inf`` (a textbook
overflow, worth showing) or ``None`` (no such quantity) -- never NaN.
Qt-free and pyvista-free; used by the precision lab panel and the tests.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Sequence

from solver import sweep, sweep_inside

from ..state.scene import Scene, SceneError
from .float32 import Float32, square_root

#: The two ways to form ``b`` and ``c`` (see the module docstring).
VARIANTS = ("relative", "expanded")
#: The floating-point types the lab compares, by name.
DTYPES = ("float32", "float64")
#: Each one's scalar type: every input is rounded to it and every operation done in it.
SCALARS = {"float32": Float32, "float64": float}


def dtype_name(dtype: Any) -> str:
    """The name of a floating type the lab compares: ``"float32"`` or ``"float64"``, from the name itself or
    a type that has it (numpy's ``np.float32``, ``np.dtype("float64")``); ValueError otherwise."""
    name = dtype if isinstance(dtype, str) else getattr(dtype, "__name__", None) or getattr(dtype, "name", None)
    if name not in SCALARS:
        raise ValueError(f"dtype: expected float32 or float64, got {dtype!r}")
    return name


def _shown(x: Any) -> float | None:
    """A number as a view shows it: a Python float, ``inf`` kept, NaN as None."""
    x = float(x)
    return None if math.isnan(x) else x


@dataclass(frozen=True)
class TextbookAnswer:
    """The textbook formula's view of a pair.

    Attributes
    ----------
    dtype : str
        ``"float32"`` or ``"float64"``.
    hit : bool
    toi : float or None
        ``t0`` (pair) or ``t1`` (inside) when hit; 0 when already in contact.
    discriminant : float or None
        ``b^2 - 4 a c`` as that type computes it (0 without relative motion,
        like the solver's); ``inf`` when it overflowed; None when it came out
        as ``inf - inf`` (see ``reason``).
    variant : str
        ``"relative"`` or ``"expanded"``.
    coefficients : (float or None, float or None, float or None) or None
        ``(a, b, c)`` as that type computes them (``inf`` on overflow).
    reason : str
        The test that decided, in words (e.g. ``"b^2 - 4ac < 0: no real root"``).
    """

    dtype: str
    hit: bool
    toi: float | None
    discriminant: float | None
    variant: str = "relative"
    coefficients: tuple[float | None, float | None, float | None] | None = None
    reason: str = ""

    @property
    def overflow(self) -> bool:
        """True when a coefficient or the discriminant overflowed (inf or inf - inf)."""
        values = [*(self.coefficients or ()), self.discriminant]
        return any(x is not None and math.isinf(x) for x in values) or "overflow" in self.reason


def _check_other(scene: Scene, other: Any) -> None:
    if not isinstance(other, numbers.Integral) or isinstance(other, bool) or not 1 <= other < len(scene.bodies):
        raise ValueError(f"other: expected a body index from 1 to {len(scene.bodies) - 1}, got {other!r}")


def _dot(x: Sequence[Any], y: Sequence[Any]) -> Any:
    """``x.y`` in the scalars' own type, left to right, no fused multiply-add."""
    return x[0] * y[0] + x[1] * y[1] + x[2] * y[2]


def textbook(scene: Scene, dtype: Any = "float64", other: int = 1, variant: str = "relative") -> TextbookAnswer:
    """Evaluate the textbook formula for body 0 against body ``other`` in ``dtype``.

    Parameters
    ----------
    scene : Scene
        ``pair`` mode uses the contact condition ``|d| <= rA + rB``;
        ``inside`` mode uses the exit root with ``R = rC - rA``.
    dtype : {"float32", "float64"} or a type of that name (numpy's ``np.float32``)
        Every input is first rounded to it and every operation is done in it,
        correctly rounded (no fused multiply-add; :mod:`.float32` without numpy).
    other : int
        Index of the other body (>= 1).
    variant : {"relative", "expanded"}
        Subtract the centres first, or expand ``|cB - cA|^2`` from the
        absolute coordinates (as some tutorials do).

    Raises
    ------
    ValueError
        For an unknown variant, a bad ``other`` index or a dtype that is not
        float32 or float64.
    """
    if variant not in VARIANTS:
        raise ValueError(f"variant: expected one of {', '.join(VARIANTS)}, got {variant!r}")
    _check_other(scene, other)
    name = dtype_name(dtype)
    f = SCALARS[name]
    inside = scene.mode == "inside"
    a, b, c, h = _coefficients(scene, other, f, variant)
    disc = b * b - f(4) * a * c
    moving = bool(a != 0)
    hit, toi, reason = (_textbook_inside if inside else _textbook_pair)(a, b, c, disc, h, f)
    if moving and math.isnan(float(disc)) and "overflow" not in reason:
        reason += " (b^2 - 4ac overflowed to inf - inf)"
    elif moving and math.isinf(float(disc)) and "overflow" not in reason:
        reason += " (b^2 - 4ac overflowed to inf)"
    shown_toi = None if toi is None else _shown(toi)
    return TextbookAnswer(name, hit, shown_toi, _shown(disc), variant, (_shown(a), _shown(b), _shown(c)), reason)


def _coefficients(scene: Scene, other: int, f: type, variant: str) -> tuple[Any, Any, Any, Any]:
    """``(a, b, c, h)`` of the textbook quadratic, every input rounded to ``f`` and every operation in it."""
    a_body, b_body = scene.bodies[0], scene.bodies[other]
    ca = [f(x) for x in a_body.center]
    va = [f(x) for x in a_body.velocity]
    cb = [f(x) for x in b_body.center]
    vb = [f(x) for x in b_body.velocity]
    ra, rb, h = f(a_body.radius), f(b_body.radius), f(scene.horizon)
    v = [vb[i] - va[i] for i in range(3)]
    r = rb - ra if scene.mode == "inside" else ra + rb
    a = _dot(v, v)
    if variant == "relative":
        p = [cb[i] - ca[i] for i in range(3)]
        return a, f(2) * _dot(p, v), _dot(p, p) - r * r, h
    b = f(2) * (_dot(cb, v) - _dot(ca, v))
    return a, b, _dot(cb, cb) - f(2) * _dot(cb, ca) + _dot(ca, ca) - r * r, h


def _textbook_inside(a: Any, b: Any, c: Any, disc: Any, h: Any, f: type) -> tuple[bool, Any, str]:
    """The textbook's container verdict: ``(hit, time or None, reason)``, the exit root in ``f``."""
    if c >= 0:
        return True, 0.0, "c >= 0: at or beyond the wall at t = 0"
    if a == 0:
        return False, None, "a = 0: no relative motion"
    t1 = (-b + square_root(max(disc, f(0)))) / (f(2) * a)
    if t1 <= h:
        return True, t1, "t1 <= h: reaches the wall within the horizon"
    if math.isnan(float(t1)):
        return False, None, "t1 is not a number: overflow"
    return False, None, "t1 > h: reaches the wall after the horizon"


def _textbook_pair(a: Any, b: Any, c: Any, disc: Any, h: Any, f: type) -> tuple[bool, Any, str]:
    """The textbook's pair verdict: ``(hit, time or None, reason)``, the first root in ``f``."""
    if c <= 0:
        return True, 0.0, "c <= 0: touching at t = 0"
    if a == 0:
        return False, None, "a = 0: no relative motion"
    if disc < 0:
        return False, None, "b^2 - 4ac < 0: no real root"
    t0 = (-b - square_root(disc)) / (f(2) * a)
    if f(0) <= t0 <= h:
        return True, t0, "0 <= t0 <= h: first contact within the horizon"
    if math.isnan(float(t0)):
        return False, None, "t0 is not a number: overflow"
    if t0 < 0:
        return False, None, "t0 < 0: the contact lies in the past"
    return False, None, "t0 > h: contact after the horizon"


# -- the lab: four textbook answers beside the exact one ----------------------


@dataclass(frozen=True)
class ExactAnswer:
    """The exact solver's verdict for the same pair.

    Attributes
    ----------
    status : str
        :class:`solver.Status` name, e.g. ``"HIT"``, ``"MISS"``.
    hit : bool
    toi : float or None
    discriminant : float or None
        ``b^2 - 4 a c`` as the solver evaluates it (``4 (|v|^2 R^2 - |p x v|^2)``);
        None where the solver reports none.
    exact : bool
        True when the float64 filter could not prove the verdict and exact
        integer arithmetic decided.
    """

    status: str
    hit: bool
    toi: float | None
    discriminant: float | None
    exact: bool


@dataclass(frozen=True)
class LabRow:
    """One combination of the lab: a variant in a dtype, and whether it is fooled.

    Attributes
    ----------
    variant : str
    dtype : str
    answer : TextbookAnswer
    wrong : bool
        The textbook verdict differs from the exact one.
    toi_error : float or None
        ``|toi - exact toi|`` when both report a hit (``inf`` on overflow).
    """

    variant: str
    dtype: str
    answer: TextbookAnswer
    wrong: bool
    toi_error: float | None

    @property
    def hit(self) -> bool:
        return self.answer.hit

    @property
    def toi(self) -> float | None:
        return self.answer.toi

    @property
    def discriminant(self) -> float | None:
        return self.answer.discriminant


@dataclass(frozen=True)
class LabReport:
    """The lab's table for body 0 against body ``other``.

    Attributes
    ----------
    scene : Scene
    other : int
    exact : ExactAnswer
    rows : tuple of LabRow
        In the order relative-float32, relative-float64, expanded-float32,
        expanded-float64.
    """

    scene: Scene
    other: int
    exact: ExactAnswer
    rows: tuple[LabRow, ...]

    def row(self, variant: str, dtype: Any) -> LabRow:
        """The row of ``variant`` in ``dtype`` (its name, or a type of that name)."""
        name = dtype_name(dtype)
        for row in self.rows:
            if row.variant == variant and row.dtype == name:
                return row
        raise KeyError(f"no lab row for {variant!r} in {name!r}")

    @property
    def fooled(self) -> tuple[tuple[str, str], ...]:
        """``(variant, dtype)`` of every combination that gets the verdict wrong."""
        return tuple((row.variant, row.dtype) for row in self.rows if row.wrong)


def exact(scene: Scene, other: int = 1) -> ExactAnswer:
    """The exact solver's verdict for body 0 against body ``other``."""
    _check_other(scene, other)
    a, b = scene.bodies[0].to_body(), scene.bodies[other].to_body()
    s = sweep_inside(a, b, scene.horizon) if scene.mode == "inside" else sweep(a, b, scene.horizon)
    return ExactAnswer(s.status.name, s.hit, s.toi, s.discriminant, s.exact)


def lab(scene: Scene, other: int = 1) -> LabReport:
    """The textbook formula in both variants and both dtypes beside the exact verdict.

    Parameters
    ----------
    scene : Scene
    other : int
        Index of the other body (inside mode: 1, the container).

    Returns
    -------
    LabReport
        Four rows; a row is ``wrong`` when its hit/no-hit verdict differs from
        the exact solver's.
    """
    truth = exact(scene, other)
    rows = []
    for variant in VARIANTS:
        for dtype in DTYPES:
            ans = textbook(scene, dtype, other, variant)
            error = None
            if ans.hit and truth.hit and ans.toi is not None and truth.toi is not None:
                error = abs(ans.toi - truth.toi)
            rows.append(LabRow(variant, ans.dtype, ans, ans.hit != truth.hit, error))
    return LabReport(scene, other, truth, tuple(rows))


# -- pushing a scene towards failure ----------------------------------------------


def translate(scene: Scene, offset: Sequence[float]) -> Scene:
    """The scene with the same ``offset`` added to every body's centre.

    Moving the whole scene far from the origin changes nothing physically, but
    float coordinates near ``1e7`` carry only ~9 (float64: ~16) significant
    digits *in total*, so the expanded formula -- and float32 anything --
    loses the small distances that decide a graze.

    The exact verdict is unchanged whenever the translation is exact in
    float64, i.e. every sum ``centre + offset`` is representable (for example
    offsets that are multiples of a power of two no finer than the centres'
    own last bits, such as ``2**20`` on a scene with short binary coordinates);
    :func:`translation_is_exact` checks it.  Otherwise each centre is rounded
    to the nearest float and a razor graze may flip.

    Raises
    ------
    SceneError
        When a centre would leave the scene limits (±1e12), naming the field.
    ValueError
        For an offset that is not three finite numbers.
    """
    o = _offset(offset)
    bodies = tuple(
        replace(b, center=(b.center[0] + o[0], b.center[1] + o[1], b.center[2] + o[2])) for b in scene.bodies
    )
    return scene.with_changes(bodies=bodies)


def translation_is_exact(scene: Scene, offset: Sequence[float]) -> bool:
    """True when ``centre + offset`` is computed without rounding for every body."""
    o = _offset(offset)
    return all(Fraction(c) + Fraction(d) == Fraction(c + d) for b in scene.bodies for c, d in zip(b.center, o))


def _offset(offset: Sequence[float]) -> tuple[float, float, float]:
    try:
        items = [float(x) for x in offset]
    except (TypeError, ValueError):
        raise ValueError(f"offset: expected 3 numbers, got {offset!r}") from None
    if len(items) != 3 or not all(math.isfinite(x) for x in items):
        raise ValueError(f"offset: expected 3 finite numbers, got {offset!r}")
    return (items[0], items[1], items[2])


def graze_direction(scene: Scene, other: int = 1) -> tuple[int, int]:
    """``(axis, sign)``: the coordinate axis of the other body's centre that best changes
    the closest-approach distance of the pair, and the direction (+1 or -1) that moves
    it AWAY from A's path.

    The distance from B's centre to A's relative path is ``|p_perp|`` with
    ``p_perp = p - (p.v / v.v) v`` (``p = cB - cA``, ``v = vB - vA``); its
    gradient with respect to ``cB`` is ``p_perp / |p_perp|``, so the best axis
    is the largest component of ``p_perp``, computed exactly (rationals).
    Components within 0.1 % of the largest count as tied and the lowest axis
    wins, so a nudge of a few ulps never switches the axis (that keeps
    :func:`nudge_graze` reversible).  Without relative motion the distance is
    ``|p|`` itself.  When the path runs exactly through B's centre every
    direction is away; the axis least aligned with ``v`` and ``+1`` are used.
    """
    if scene.mode == "inside":
        raise SceneError("nudge: inside mode has no graze (the ball always reaches the wall)")
    _check_other(scene, other)
    a_body, b_body = scene.bodies[0], scene.bodies[other]
    p = [Fraction(b_body.center[i]) - Fraction(a_body.center[i]) for i in range(3)]
    v = [Fraction(b_body.velocity[i]) - Fraction(a_body.velocity[i]) for i in range(3)]
    vv = sum(x * x for x in v)
    pv = sum(p[i] * v[i] for i in range(3))
    perp = p if vv == 0 else [p[i] * vv - pv * v[i] for i in range(3)]  # p_perp scaled by v.v > 0
    size = [abs(x) for x in perp]
    top = max(size)
    if top == 0:
        if vv == 0:
            return 0, 1
        axis = min(range(3), key=lambda i: (abs(v[i]), i))
        return axis, 1
    axis = next(i for i in range(3) if size[i] * 1000 >= top * 999)
    return axis, 1 if perp[axis] > 0 else -1


def nudge_graze(scene: Scene, ulps: int, other: int = 1) -> Scene:
    """The scene with the other body's centre moved by ``ulps`` ulps along :func:`graze_direction`.

    Positive ``ulps`` moves B's centre away from A's path (towards a miss),
    negative towards it (towards a hit).  Each ulp is one ``math.nextafter``
    step of that coordinate, so the move is exact, the smallest change float64
    can make, and reversible: ``nudge_graze(nudge_graze(s, k), -k) == s``
    (except from a path running exactly through B's centre, where "away" has
    no unique direction).

    Raises
    ------
    ValueError
        For a non-integer ``ulps`` or bad ``other``.
    SceneError
        In inside mode, or when the coordinate would leave the scene limits.
    """
    if not isinstance(ulps, numbers.Integral) or isinstance(ulps, bool):
        raise ValueError(f"ulps: expected an integer, got {ulps!r}")
    ulps = int(ulps)
    _check_other(scene, other)
    if abs(ulps) > 10_000_000:
        raise ValueError(f"ulps: at most 10000000 steps, got {ulps}")
    axis, sign = graze_direction(scene, other)
    center = list(scene.bodies[other].center)
    target = math.inf if ulps * sign > 0 else -math.inf
    x = center[axis]
    for _ in range(abs(ulps)):
        x = math.nextafter(x, target)
    center[axis] = x + 0.0  # -0.0 back to 0.0
    return scene.with_body(other, center=(center[0], center[1], center[2]))
