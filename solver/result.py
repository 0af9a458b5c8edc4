"""The result object of a sweep query and its small value types."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from . import vec
from .body import Body, Vector3
from .limits import MAX_TIME, check_time
from .status import Status

Mode = Literal["pair", "inside"]

#: Normal used when the two centres coincide and no direction is defined.
FALLBACK_NORMAL: Vector3 = (1.0, 0.0, 0.0)


@dataclass(frozen=True, slots=True)
class Contact:
    """Where and how the two surfaces meet at the first contact.

    Attributes
    ----------
    point : (3,) float
        On the line of centres, halfway between the two surfaces (the touching
        point itself when they just touch; the middle of the overlap when they
        start interpenetrated).
    normal : (3,) float
        Unit vector from A towards B (pair) or from A's centre towards the
        container wall (inside).
    time : float
        Time of the contact, the sweep's ``toi``.
    degenerate : bool
        True when the centres coincide, so ``normal`` is the arbitrary
        :data:`FALLBACK_NORMAL`.
    """

    point: Vector3
    normal: Vector3
    time: float
    degenerate: bool = False


@dataclass(frozen=True, slots=True)
class Approach:
    """Closest approach of the two centres.

    Attributes
    ----------
    time : float
    distance : float
        Distance between the centres at ``time``.
    gap : float
        ``distance - R`` for a pair (negative when overlapping); for a ball in a
        container, ``R - distance``, the room left before the wall.
    """

    time: float
    distance: float
    gap: float


class Sweep:
    """Outcome of :func:`solver.sweep` or :func:`solver.sweep_inside`.

    The verdict fields (``status``, ``hit``, ``toi``, ``roots``) are exact; the
    descriptive ones (contact, closest approach, coefficients, trace) are
    computed on first access.

    Attributes
    ----------
    a, b : Body
        The query's bodies (``b`` is the container in ``inside`` mode).
    horizon : float
    mode : {"pair", "inside"}
    status : Status
    toi : float or None
        First contact time in [0, horizon].
    roots : (float, float) or None
        ``(t_enter, t_exit)``, both real roots of ``|d(t)|^2 = R^2`` in
        increasing order, even when outside [0, horizon].
    exact : bool
        True when exact integer arithmetic decided (the float filter could not
        prove its answer); False when the proved float64 path did.
    by_vertex : bool
        For a pair: the vertex of the parabola is proved to lie at or before
        the horizon (``p.v + |v|^2 h >= 0``), the test that decided a hit;
        otherwise a hit was decided by ``f(h) <= 0``.
    """

    __slots__ = (
        "a",
        "b",
        "horizon",
        "mode",
        "status",
        "toi",
        "roots",
        "exact",
        "by_vertex",
        "_values",
        "_at_horizon",
        "_cache",
    )

    def __init__(
        self,
        a: Body,
        b: Body,
        horizon: float,
        mode: Mode,
        status: Status,
        toi: float,
        t_lo: float,
        t_hi: float,
        exact: bool,
        values: tuple[float, float, float, float],
        by_vertex: bool,
        at_horizon: tuple[float, float] | None = None,
    ) -> None:
        self.a = a
        self.b = b
        self.horizon = horizon
        self.mode = mode
        self.status = status
        self.toi = toi if toi == toi else None  # NaN means none
        self.roots = (t_lo, t_hi) if t_lo == t_lo else None
        self.exact = exact
        self.by_vertex = bool(by_vertex)
        self._values = values  # c, pv, vv, disc (a quarter of the discriminant)
        self._at_horizon = at_horizon  # exact path: f(h), pv + vv h correctly rounded
        self._cache: dict[str, object] = {}

    # -- verdict ---------------------------------------------------------
    @property
    def hit(self) -> bool:
        """True when the spheres touch at some t in [0, horizon]."""
        return self.status.is_hit

    @property
    def inside(self) -> bool:
        """True for a ball inside a container."""
        return self.mode == "inside"

    # -- the quadratic ---------------------------------------------------
    @property
    def relative_position(self) -> Vector3:
        """``p = cB - cA`` at t = 0, shape (3,)."""
        return vec.sub(self.b.center, self.a.center)

    @property
    def relative_velocity(self) -> Vector3:
        """``v = vB - vA``, shape (3,)."""
        return vec.sub(self.b.velocity, self.a.velocity)

    @property
    def radius(self) -> float:
        """``R``: ``rA + rB`` (pair) or ``rB - rA`` (inside), the expanded or shrunken sphere."""
        return self.b.radius - self.a.radius if self.inside else self.a.radius + self.b.radius

    @property
    def coefficients(self) -> tuple[float, float, float]:
        """``(a, b, c)`` with ``f(t) = a t^2 + b t + c = |p + v t|^2 - R^2``."""
        c, pv, vv = self._values[0], self._values[1], self._values[2]
        return (vv, 2.0 * pv, c)

    @property
    def discriminant(self) -> float | None:
        """``b^2 - 4 a c``, evaluated as ``4 (|v|^2 R^2 - |p x v|^2)``; None without relative motion."""
        disc = self._values[3]
        if self._values[2] == 0.0 or math.isnan(disc):  # no relative motion: no quadratic
            return None
        return 4.0 * disc

    @property
    def gap_at_horizon(self) -> float:
        """``f(horizon) = |p + v h|^2 - R^2`` (correctly rounded when ``exact``)."""
        if self._at_horizon is not None:
            return self._at_horizon[0]
        return self.f(self.horizon)

    @property
    def vertex_test(self) -> float:
        """``p.v + |v|^2 h``: >= 0 when the parabola's vertex lies before the horizon."""
        if self._at_horizon is not None:
            return self._at_horizon[1]
        pv, vv = self._values[1], self._values[2]
        return pv + vv * self.horizon

    def f(self, t: float) -> float:
        """``|d(t)|^2 - R^2`` evaluated in float at time ``t``.

        Parameters
        ----------
        t : float
            ``|t| <= MAX_TIME`` (1e140, beyond every root of accepted bodies),
            which keeps the value finite.

        Raises
        ------
        ValueError
            ``t`` out of that range or not a number.
        """
        if not (t.__class__ is float and -MAX_TIME <= t <= MAX_TIME):
            t = check_time(t, "t")
        d = self.relative_offset(t)
        return vec.dot(d, d) - self.radius**2

    def relative_offset(self, t: float) -> Vector3:
        """``d(t) = p + v t``, B's centre seen from A's at time ``t``, shape (3,).

        From the relative position and velocity, never from the difference of
        absolute positions, so it keeps its relative accuracy far from the origin.
        """
        return vec.axpy(t, self.relative_velocity, self.relative_position)

    @property
    def outside_gap(self) -> float:
        """``|p|^2 - (rA + rB)^2`` correctly rounded: > 0 when the spheres are disjoint.

        In inside mode, positive means the ball lies entirely outside the
        container (:attr:`Status.OUTSIDE`).  Exact integer arithmetic, for
        the trace.
        """
        from ._exact import ratio_to_float, scaled_integers

        (ax, ay, az, bx, by, bz, ra, rb), k = scaled_integers(
            (*self.a.center, *self.b.center, self.a.radius, self.b.radius)
        )
        value = (bx - ax) ** 2 + (by - ay) ** 2 + (bz - az) ** 2 - (ra + rb) ** 2
        return ratio_to_float(value, 1, -2 * k)

    @property
    def t_min(self) -> float | None:
        """Vertex of the parabola, ``-p.v / |v|^2`` (seed 003's t_min); None without motion."""
        v = self.relative_velocity
        vv = vec.dot(v, v)
        if vv == 0.0:
            return None
        return -vec.dot(self.relative_position, v) / vv

    @property
    def closest(self) -> Approach:
        """Closest approach of the centres within [0, horizon]."""
        if "closest" not in self._cache:
            self._cache["closest"] = self._closest()
        return self._cache["closest"]  # type: ignore[return-value]

    def _closest(self) -> Approach:
        p, v = self.relative_position, self.relative_velocity
        t_min = self.t_min
        if t_min is None or t_min <= 0.0:
            t, d = 0.0, vec.norm(p)
        elif t_min >= self.horizon:
            t, d = self.horizon, vec.norm(vec.axpy(self.horizon, v, p))
        else:  # |p x v| / |v| avoids the cancellation of |p + v t_min|
            t, d = t_min, vec.norm(vec.cross(p, v)) / vec.norm(v)
        gap = self.radius - d if self.inside else d - self.radius
        return Approach(t, d, gap)

    # -- geometry at contact -------------------------------------------
    def positions(self, t: float) -> tuple[Vector3, Vector3]:
        """Centres of A and B at time ``t``, each shape (3,)."""
        return self.a.position(t), self.b.position(t)

    @property
    def contact(self) -> Contact | None:
        """The first contact (point, normal, time), or None without a hit."""
        if "contact" not in self._cache:
            self._cache["contact"] = None if self.toi is None else self._contact(self.toi)
        return self._cache["contact"]  # type: ignore[return-value]

    def _contact(self, t: float) -> Contact:
        ca, cb = self.positions(t)
        d = self.relative_offset(t)
        if self.inside:
            d = vec.scale(d, -1.0)
        n = vec.unit(d)
        degenerate = n is None
        if n is None:
            n = FALLBACK_NORMAL
        dist = vec.norm(d)
        if self.inside:  # from the container centre, halfway between the ball's far side and the wall
            point = vec.axpy(0.5 * (dist + self.a.radius + self.b.radius), n, cb)
        else:
            point = vec.axpy(0.5 * (dist + self.a.radius - self.b.radius), n, ca)
        return Contact(point, n, t, degenerate)

    # -- teaching ----------------------------------------------------------
    @property
    def trace(self):
        """The tests that decided, in order, as :class:`solver.trace.TraceStep` records."""
        from .trace import build_trace

        if "trace" not in self._cache:
            self._cache["trace"] = build_trace(self)
        return self._cache["trace"]

    def __repr__(self) -> str:
        return f"Sweep(status={self.status.name}, hit={self.hit}, toi={self.toi!r}, roots={self.roots!r}, mode={self.mode!r})"
