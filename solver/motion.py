"""Event-driven motion of many spheres, certified event by event.

:func:`simulate` moves every body in a straight line between events.  Every
pair of bodies can collide (ball against ball, ball against the wall of an
enclosing container), fixed bodies (``mass = math.inf``) never change velocity,
and two fixed bodies pass through each other.

How it works
------------
The motion is a list of *frames*: at time ``t_k`` the centres ``X_k`` and
velocities ``V_k`` (floats; the represented state).  Centres are kept
relative to an origin (the container's centre, else body 0's starting
centre), so a scene far from the coordinate origin keeps the rounding of a
scene near it.  From a frame, every pair's
next event (:mod:`solver._events`: the first time it is in contact and
approaching) is decided with the certified float filter of
:mod:`solver._filter`, and with exact integers where the filter cannot prove
a sign; its time is within :data:`~solver.tolerances.TIME_RTOL` of the exact
time of that frame.  The earliest event ends the frame: every centre moves
to it (``X + V dt``, rounded: the one rounding of the positions themselves),
the pair exchanges an impulse along the line of centres (from the relative
position, never from absolute ones), and a new frame starts.

After each impulse the pair is *proved* not to approach any more: the sign of
``(V_j - V_i) . (X_j - X_i)`` on the rounded state is checked (exactly when the
float bound cannot tell) and the impulse is raised by a few ulps until it
holds.  Rounding therefore can never leave a pair creeping into contact again,
which is what made restitution 0 and jammed balls produce storms of bounces.

Rules
-----
*Simultaneous events* (Newton's cradle, a break where several balls touch):
events are processed one at a time in order of time; events at the same float
time in order of their pair ``(i, j)``, the container wall counting as
``j = n`` (after every ball).  Each is a two-body impulse with the pair's
masses and the restitution (the sequential-impulse model: it gives the
textbook cradle, where the last ball leaves with the first one's velocity).
If the contacts of one instant (one float time: steps too small to move
the clock count as the same instant) take more than
:data:`~solver.tolerances.MAX_IMPULSES_PER_INSTANT` impulses per body (a
*jam*: a ball squeezed between fixed spheres bounces between them forever at
that instant), the bodies of the contacts of that instant, joined through
those contacts, move on together: they take their common
centre-of-mass velocity (a perfectly plastic collision of the cluster), or the
velocity of the fixed body among them.  The event has ``kind = "jam"``.
A cluster holding two fixed bodies with different velocities cannot be
resolved: the motion stops (``stop_kind = "jammed"``).

*Resting and sliding contact*: two bodies touching with no relative normal
velocity are a state: nothing happens until something else moves them (a ball
at rest against a fixed sphere stays there; two balls pushed together with
restitution 0 move on together).  Against the *curved* wall of a container, a
ball left with no normal speed (restitution 0, or a grazing hit: less than
:data:`~solver.tolerances.SLIDING_COSINE` of its speed along the normal) would
slide along the wall, which straight segments cannot follow: the motion stops
there (``stop_kind = "sliding"``); a ball at rest against the wall stays.

*Limits*: after ``max_events`` events the motion stops at the last one
(``stop_kind = "events"``; the reason says when the events accumulate at one
time, a Zeno sequence).  No motion is ever appended past a stop: ``end`` is the
time the motion is known to, and :meth:`Motion.positions` refuses later times.
"""

from __future__ import annotations

import bisect
import math
import numbers
from dataclasses import dataclass
from fractions import Fraction

from . import vec
from ._compile import exact_stage, motion_loop
from ._events import IMPACT, NONE, SLIDE, event_exact, event_one
from .body import Body, Vector3
from .limits import check_horizon, check_restitution
from .tolerances import MAX_EVENTS, MAX_IMPULSES_PER_INSTANT, SLIDING_COSINE, UNIT_ROUNDOFF

#: ``Event.pair[1]`` for the container wall.
WALL = -1


@dataclass(frozen=True, slots=True)
class Event:
    """One response: an impulse between two bodies (or a jam resolved).

    Attributes
    ----------
    time : float
    pair : (int, int)
        ``(i, j)`` with ``i < j``, indices into the bodies; ``j = -1``
        (:data:`WALL`) for ball ``i`` against the container wall.
    impulse : (3,) float
        Impulse on body ``i`` (mass times change of velocity; body ``j`` or
        the container receives the opposite).  For a fixed body it is the
        impulse the contact exerted, which changes nothing.
    point : (3,) float
        Contact point: on the line of centres, halfway between the surfaces.
    normal : (3,) float
        Unit vector from body ``i`` towards body ``j`` (towards the wall: away
        from the container's centre), from the relative position.
    kind : {"impact", "jam"}
        ``"jam"``: the simultaneous-event rule gave every body of
        ``bodies`` one common velocity (see the module notes).
    bodies : tuple of int
        The bodies whose velocity changed (the pair, or the jammed cluster;
        :data:`WALL` for the container).
    """

    time: float
    pair: tuple[int, int]
    impulse: Vector3
    point: Vector3
    normal: Vector3
    kind: str = "impact"
    bodies: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Segment:
    """Uniform motion of every body from ``t_start`` to ``t_end``: between two events of a motion (the frames of
    :class:`Motion`) or of a bounce path (:class:`solver.path.BouncePath`'s segments).

    Attributes
    ----------
    t_start, t_end : float
    centers : tuple of (3,) float, length m
        Centres at ``t_start``: in a :class:`Motion`, relative to :attr:`Motion.origin` (the bodies, then the
        container, if any); in a bounce path, in the scene's coordinates (index 0 is the ball A; the container is
        index 1 in inside mode).
    velocities : tuple of (3,) float, length m
        Velocities during the segment.
    """

    t_start: float
    t_end: float
    centers: tuple[Vector3, ...]
    velocities: tuple[Vector3, ...]

    def positions(self, t: float) -> tuple[Vector3, ...]:
        """Centres at ``t`` (extrapolated outside the segment), (m, 3) as m 3-tuples, in the centres' coordinates."""
        dt = t - self.t_start
        return tuple(vec.axpy(dt, v, c) for c, v in zip(self.centers, self.velocities))


#: The name :class:`Segment` had in a motion (a motion's ``frames``); the same type.
Frame = Segment


class Motion:
    """The outcome of :func:`simulate`.

    Attributes
    ----------
    bodies : tuple of Body
    container : Body or None
    horizon, restitution : float
    events : tuple of Event
        In time order (see the simultaneous-event rule for equal times).
    frames : tuple of Segment
        Contiguous from 0 to :attr:`end`; one more than the events.  Their
        centres are relative to :attr:`origin`.
    origin : (3,) float
        The point the frames' centres are measured from.
    end : float
        The time the motion is known to: the horizon, or the stop.
    stopped : str or None
        None when the motion reaches the horizon; else why it ends at ``end``,
        in words for the user, starting ``"cut short after N events"``,
        ``"sliding: "`` or ``"jammed: "``.
    stop_kind : {None, "events", "sliding", "jammed"}
        The same, as a code.  ``"events"``: ``max_events`` were processed; the
        motion is known up to the next event, not processed.  ``"sliding"``: a
        ball would slide along the curved container wall.  ``"jammed"``: fixed
        bodies with different velocities squeeze a cluster.
    """

    def __init__(self, bodies, container, horizon, restitution, events, frames, stopped, stop_kind, origin):
        self.origin = origin
        self.bodies = bodies
        self.container = container
        self.horizon = horizon
        self.restitution = restitution
        self.events = events
        self.frames = frames
        self.stopped = stopped
        self.stop_kind = stop_kind
        self._starts = [f.t_start for f in frames]

    @property
    def end(self) -> float:
        """Time the motion is known to."""
        return self.frames[-1].t_end

    def frame_at(self, t: float) -> Segment:
        """The frame in force at ``t`` (after every event at exactly ``t``).

        Raises
        ------
        ValueError
            ``t`` not a number in ``[0, end]``.
        """
        if not (isinstance(t, numbers.Real) and not isinstance(t, bool) and 0.0 <= t <= self.end):
            raise ValueError(f"t: must be in [0, {self.end!r}] (the motion's span), got {t!r}")
        k = bisect.bisect_right(self._starts, t) - 1
        return self.frames[max(k, 0)]

    def positions(self, t: float) -> tuple[Vector3, ...]:
        """Centres of the bodies at ``t`` in ``[0, end]``: (n, 3), as n 3-tuples."""
        return tuple(vec.add(self.origin, c) for c in self.frame_at(t).positions(t)[: len(self.bodies)])

    def velocities(self, t: float) -> tuple[Vector3, ...]:
        """Velocities of the bodies at ``t`` in ``[0, end]``: (n, 3), as n 3-tuples; after any event at ``t``."""
        return self.frame_at(t).velocities[: len(self.bodies)]

    def container_center(self, t: float) -> Vector3 | None:
        """Centre of the container at ``t``, (3,); None without a container."""
        if self.container is None:
            return None
        return vec.add(self.origin, self.frame_at(t).positions(t)[len(self.bodies)])

    def __repr__(self) -> str:
        return (
            f"Motion({len(self.bodies)} bodies, {len(self.events)} events, end={self.end!r}, stopped={self.stopped!r})"
        )


def simulate(bodies, horizon: float = 1.0, restitution: float = 1.0, container: Body | None = None,
             *, max_events: int = MAX_EVENTS, names=None) -> Motion:  # fmt: skip
    """Move every body over ``[0, horizon]``, every pair colliding, event by event (events at exactly
    ``horizon`` included, every one of that instant).

    Parameters
    ----------
    bodies : sequence of Body, length n >= 1
        ``mass = math.inf`` makes a body fixed (it keeps its velocity).
    horizon : float
        In (0, 1e6].
    restitution : float
        In [0, 1], for every contact.
    container : Body, optional
        A sphere every body moves inside; each body must be smaller than it and
        not entirely outside it at t = 0 (a body straddling the wall is in
        contact with it).
    max_events : int
        The motion stops after this many events (see :class:`Motion`).
    names : sequence of str, optional
        How :attr:`Motion.stopped` names the bodies (default ``"body k"``), one
        per body, and one more for the container (default ``"the container"``).

    Returns
    -------
    Motion

    Raises
    ------
    ValueError
        Naming the field: not Body objects, bad horizon or restitution, a body
        not smaller than the container or entirely outside it.

    Examples
    --------
    >>> import math
    >>> from solver import Body, simulate
    >>> m = simulate([Body((1.5, 0, 0), (-1, 0, 0), 0.5)], 10.0, container=Body((0, 0, 0), radius=2.0, mass=math.inf))
    >>> [e.time for e in m.events]
    [3.0, 6.0, 9.0]
    """
    return _simulate(bodies, horizon, restitution, container, max_events, False, names)


def _simulate(bodies, horizon, restitution, container, max_events, first_only, names=None) -> Motion:
    """:func:`simulate`; with ``first_only`` only pairs with body 0 collide (the bounce path)."""
    bodies = tuple(bodies) if not isinstance(bodies, Body) else (bodies,)
    if not bodies:
        raise ValueError("bodies: at least one body is needed")
    for k, b in enumerate(bodies):
        if not isinstance(b, Body):
            raise ValueError(f"bodies[{k}]: expected a solver.Body, got {type(b).__name__}")
    if container is not None and not isinstance(container, Body):
        raise ValueError(f"container: expected a solver.Body or None, got {type(container).__name__}")
    h = check_horizon(horizon, "horizon")
    e = check_restitution(restitution, "restitution")
    if isinstance(max_events, bool) or not isinstance(max_events, int) or max_events < 1:
        raise ValueError(f"max_events: expected a positive integer, got {max_events!r}")
    if container is not None:
        _check_inside(bodies, container)
    return _Run(bodies, container, h, e, max_events, first_only, _names(names, len(bodies))).run()


def _names(names, n: int) -> list[str]:
    """The ``names`` argument of :func:`simulate` completed to ``n + 1`` names (the last the container's)."""
    default = [f"body {k}" for k in range(n)] + ["the container"]
    if names is None:
        return default
    try:
        given = None if isinstance(names, (str, bytes)) else list(names)
    except TypeError:
        given = None
    if given is None or not all(isinstance(x, str) for x in given) or len(given) not in (n, n + 1):
        raise ValueError(f"names: expected {n} strings (or one more for the container), got {names!r:.80}")
    return [*given, *default[len(given) :]]


def entirely_outside(body: Body, container: Body) -> bool:
    """True when ``body`` lies entirely outside ``container`` (centres farther apart than the radii's sum), exactly."""
    d2 = sum((Fraction(body.center[i]) - Fraction(container.center[i])) ** 2 for i in range(3))
    return d2 > (Fraction(body.radius) + Fraction(container.radius)) ** 2


def _check_inside(bodies, container: Body) -> None:
    for k, b in enumerate(bodies):
        if not b.radius < container.radius:
            raise ValueError(
                f"bodies[{k}]: radius {b.radius!r} must be smaller than the container's {container.radius!r}"
            )
        if entirely_outside(b, container):
            raise ValueError(f"bodies[{k}]: lies entirely outside the container at t = 0")


class _Run:
    """The state of one simulation while it runs.

    Plain Python lists throughout, so the motion runs where numpy cannot be
    imported (a browser's Python): ``X`` and ``V`` are the (m, 3) centres
    (relative to :attr:`origin`) and velocities as lists of 3-tuples, ``R``,
    ``W`` (inverse masses, 0 for a fixed body) and ``M`` the (m,) radii and
    masses, ``pairs`` the (k,) pairs ``(i, j, inside)``, and ``kind`` and ``dt``
    each pair's next event as last decided.  With numba the pairs are tested
    by the compiled loop over arrays made from these lists (:class:`_CompiledPairs`;
    in a plain Python process too, once its compiled loop is loaded:
    :func:`solver._compile.load_motion_loop`).
    """

    def __init__(self, bodies, container, h, e, max_events, first_only, names):
        self.bodies, self.container, self.h, self.e, self.max_events = bodies, container, h, e, max_events
        self.names = names  # for the reasons: one per body, then the container
        everything = (*bodies, container) if container is not None else bodies
        self.n = len(bodies)
        self.origin: Vector3 = tuple((container or bodies[0]).center)
        self.X: list[Vector3] = [vec.sub(b.center, self.origin) for b in everything]
        self.V: list[Vector3] = [tuple(b.velocity) for b in everything]
        self.R = [float(b.radius) for b in everything]
        self.W = [0.0 if b.immovable else 1.0 / b.mass for b in everything]
        self.M = [float(b.mass) for b in everything]
        n, w = self.n, self.W
        pairs = [
            (i, j, False) for i in range(n) for j in range(i + 1, n) if w[i] + w[j] > 0 and (not first_only or i == 0)
        ]
        if container is not None:
            pairs += [(i, n, True) for i in range(n) if w[i] + w[n] > 0 and (not first_only or i == 0)]
        self.pairs = pairs
        self.kind = [NONE] * len(pairs)
        self.dt = [0.0] * len(pairs)
        loop = motion_loop() if pairs else None  # compiled code, if this process has it
        self.compiled = _CompiledPairs(self, loop) if loop is not None else None
        self.t = 0.0
        self.frames: list[Segment] = []
        self.events: list[Event] = []
        self._frame_start = (0.0, tuple(self.X), tuple(self.V))  # the open frame: t_start, centres, velocities

    # -- the loop ------------------------------------------------------------------
    def run(self) -> Motion:
        same_instant = 0  # impulses at the current (float) time
        instant_pairs: set[int] = set()  # the pairs they were between
        limit = MAX_IMPULSES_PER_INSTANT * max(1, self.n)
        while True:
            left = self.h - self.t
            # left == 0: events at the horizon itself (an event found there, and others at the same instant)
            p = self._next_pair(left) if left >= 0.0 and self.pairs else -1
            if p < 0:
                return self._finish(self.h, None, None)
            before = self.t
            dt = self.dt[p]
            if dt > 0.0:
                self._advance(dt)
            if self.t > before:
                same_instant = 0
                instant_pairs.clear()
            if self.kind[p] == SLIDE:
                return self._finish(self.t, self._sliding(p), "sliding")
            if len(self.events) >= self.max_events:
                return self._finish(self.t, self._limit_reason(), "events")
            same_instant += 1
            instant_pairs.add(p)
            if same_instant > limit:
                stop = self._jam(p, instant_pairs)
                if stop is not None:
                    return self._finish(self.t, stop, "jammed")
                same_instant = 0
                instant_pairs.clear()
                continue
            sliding = self._impact(p)
            if sliding:
                return self._finish(self.t, self._sliding(p), "sliding")

    def _next_pair(self, left: float) -> int:
        """Index of the pair with the earliest event (ties: the pair order), or -1."""
        if self.compiled is not None:
            self.compiled.decide_all(left)
        else:  # plain Python: test only the pairs a cheap proof does not rule out, soonest first
            self.kind = [NONE] * len(self.pairs)
            self.dt = [0.0] * len(self.pairs)
            self._test_soonest_first(left)
        return self._earliest()

    def _earliest(self) -> int:
        """Index of the pair with the earliest event in ``kind``/``dt`` (ties: the pair order), or -1."""
        best, first = math.inf, -1  # pairs are listed in the documented order: (i, j), the wall after every ball
        for p, (kind, dt) in enumerate(zip(self.kind, self.dt)):
            if kind != NONE and dt < best:
                best, first = dt, p
        return first

    def _decide(self, p: int, left: float) -> None:
        """Pair ``p``'s next event: the certified float test, and exact integers where it is unsure."""
        i, j, inside = self.pairs[p]
        args = (*self.X[i], *self.V[i], self.R[i], *self.X[j], *self.V[j], self.R[j], left, inside)
        kind, dt, unsure = event_one(*args)
        if unsure:
            kind, dt = event_exact(*args)
        self.kind[p], self.dt[p] = kind, dt

    def decide_exactly(self, pairs, left: float) -> None:
        """:func:`event_exact` for each of ``pairs`` (those the float filter left unsure)."""
        for p in pairs:
            i, j, inside = self.pairs[p]
            self.kind[p], self.dt[p] = event_exact(
                *self.X[i], *self.V[i], self.R[i], *self.X[j], *self.V[j], self.R[j], left, inside
            )

    def _test_soonest_first(self, left: float, batch: int = 8) -> None:
        """Decide the pairs that may need an impulse in order of a lower bound on their time, until the
        bound passes the earliest event found.

        Every pair whose event could come at or before the earliest one is decided
        (so :meth:`_earliest` and its tie rule see exactly what deciding every
        pair would give), and so is every pair whose bound does not move the
        clock (the pairs :meth:`_jam` counts as due now).  The bound
        (:meth:`_may_approach`) is loose by a relative 1e-9; the cut-off adds 1e-6.
        """
        candidates = sorted(self._may_approach(left), key=lambda pair_bound: pair_bound[1])  # stable: pair order
        best = math.inf
        for start in range(0, len(candidates), batch):
            bound = candidates[start][1]
            if bound > best * (1.0 + 1e-6) and self.t + bound > self.t:
                break
            for p, _ in candidates[start : start + batch]:
                self._decide(p, left)
                if self.kind[p] != NONE:
                    best = min(best, self.dt[p])

    def _may_approach(self, left: float) -> list[tuple[int, float]]:
        """The pairs that may need an impulse within ``left`` (all but those proved to need none), each with a
        lower bound on the time of its event.

        Proved none: no relative velocity (the float velocities are equal); a
        ball pair proved not approaching, ``p.v > 16 u sum|p_k v_k| + 1e-300``
        (the differences, products and sums carry at most 5 roundings of ``u``
        relative to that sum, and underflow at most 2^-1074 a product); a ball
        pair too far apart to touch, ``|p| - R > |v| left``, or a ball too far
        inside its container to reach the wall, ``|p| + |v| left < R``, each
        with a relative margin of 1e-9, far above the rounding of these few
        operations.  The same verdicts :func:`solver._events.event_one` would
        reach; with numba every pair goes through it directly, which is cheaper.

        The bound: a ball pair cannot touch before ``(|p| - R) / |v|``, nor a
        ball reach its wall before ``(R - |p|) / |v|``, less the same margin
        (0 for a pair touching now).

        Returns
        -------
        list of (int, float)
            Indices into the pair list, in order, each with its bound (>= 0).
        """
        X, V, R = self.X, self.V, self.R
        out = []
        for p, (i, j, wall) in enumerate(self.pairs):
            vi, vj = V[i], V[j]
            if vi == vj:  # no relative velocity: finite floats differ by exactly 0 only when equal
                continue
            xi, xj = X[i], X[j]
            px, py, pz = xj[0] - xi[0], xj[1] - xi[1], xj[2] - xi[2]
            vx, vy, vz = vj[0] - vi[0], vj[1] - vi[1], vj[2] - vi[2]
            ax, ay, az = px * vx, py * vy, pz * vz
            if not wall and ax + ay + az > 16.0 * UNIT_ROUNDOFF * (abs(ax) + abs(ay) + abs(az)) + 1e-300:
                continue
            dist = math.sqrt(px * px + py * py + pz * pz)
            speed = math.sqrt(vx * vx + vy * vy + vz * vz)
            reach = speed * left
            radius = R[j] - R[i] if wall else R[i] + R[j]
            margin = 1e-9 * (dist + reach + radius)
            if wall:
                if dist + reach < radius - margin:
                    continue
                gap = radius - dist - margin
            else:
                if dist - radius > reach + margin:
                    continue
                gap = dist - radius - margin
            out.append((p, gap / speed if gap > 0.0 and speed > 0.0 else 0.0))
        return out

    def _advance(self, dt: float) -> None:
        """Move every centre on by ``dt`` (the one rounding of the positions)."""
        self.X = [vec.axpy(dt, v, x) for x, v in zip(self.X, self.V)]
        self.t = min(self.t + dt, self.h)

    def _set_velocities(self, rows, values) -> None:
        """Close the open frame at the current time, give body ``rows[k]`` the velocity ``values[k]``, open the next frame."""
        t0, X0, V0 = self._frame_start
        self.frames.append(Segment(t0, self.t, X0, V0))
        for row, value in zip(rows, values):
            self.V[row] = tuple(value)
        self._frame_start = (self.t, tuple(self.X), tuple(self.V))

    # -- responses -----------------------------------------------------------------
    def _impact(self, p: int) -> bool:
        """Exchange the impulse of pair ``p`` (certified not approaching after); True when it leaves a ball sliding."""
        i, j, wall = self.pairs[p]
        X = self.X
        xi, xj = X[i], X[j]
        d = vec.sub(xi, xj) if wall else vec.sub(xj, xi)
        n = vec.unit(d)
        vi, vj = self.V[i], self.V[j]
        wi, wj = self.W[i], self.W[j]
        vn = vec.dot(vec.sub(vj, vi), n)
        wsum = wi + wj
        J = max(0.0, -(1.0 + self.e) * vn / wsum)
        step = (vec.norm(vi) + vec.norm(vj)) * 2.0**-50 / wsum
        for attempt in range(200):
            ni = vec.axpy(-J * wi, n, vi)
            nj = vec.axpy(J * wj, n, vj)
            if _not_approaching(X, i, j, ni, nj, wall):
                break
            J += step * 2.0**attempt
        else:  # pragma: no cover - the separation grows linearly with J
            raise AssertionError("no impulse separates the pair")
        self._set_velocities([i, j], [ni, nj])
        dist, ri, rj = vec.norm(d), self.R[i], self.R[j]
        if wall:
            point = vec.axpy(0.5 * (dist + ri + rj), n, xj)
        else:
            point = vec.axpy(0.5 * (dist + ri - rj), n, xi)
        point = vec.add(point, self.origin)
        self.events.append(Event(self.t, (i, WALL if wall else j), vec.scale(n, -J), point, n, "impact",
                                 (i, WALL if wall else j)))  # fmt: skip
        if wall:
            rel = vec.sub(ni, nj)
            speed = vec.norm(rel)
            return speed > 0.0 and abs(vec.dot(rel, n)) <= SLIDING_COSINE * speed
        return False

    def _jam(self, p: int, instant_pairs: set[int]) -> str | None:
        """Resolve the contacts of this instant as one plastic cluster; a reason when impossible.

        The cluster: the bodies of the pairs that exchanged impulses at this
        instant or are due to (an event too close to move the clock), joined
        through those pairs, that pair ``p``'s bodies belong to.
        """
        t = self.t
        due = [q for q, (kind, dt) in enumerate(zip(self.kind, self.dt)) if kind == IMPACT and t + dt <= t]
        touching = sorted(instant_pairs.union(due, [p]))
        parent = list(range(len(self.X)))

        def root(a):
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        for q in touching:
            parent[root(self.pairs[q][0])] = root(self.pairs[q][1])
        i, j, wall = self.pairs[p]
        members = [k for k in range(len(self.X)) if root(k) == root(i)]
        fixed = [k for k in members if self.W[k] == 0.0]
        if fixed:
            speeds = {self.V[k] for k in fixed}
            if len(speeds) > 1:
                return f"jammed: fixed bodies {', '.join(map(self._name, fixed))} squeeze a cluster at t = {self.t!r}"
            common = speeds.pop()
        else:
            mass = 0.0
            momentum = (0.0, 0.0, 0.0)
            for k in members:
                mass += self.M[k]
                momentum = vec.axpy(self.M[k], self.V[k], momentum)
            common = tuple(q / mass for q in momentum)
        before = self.V[i]
        self._set_velocities(members, [common] * len(members))
        xi, xj = self.X[i], self.X[j]
        n = vec.unit(vec.sub(xi, xj) if wall else vec.sub(xj, xi))
        impulse = (0.0, 0.0, 0.0) if self.W[i] == 0.0 else vec.scale(vec.sub(common, before), self.M[i])
        point = vec.add(vec.axpy(self.R[i], n, xi), self.origin)
        names = tuple(WALL if k == self.n else k for k in members)
        self.events.append(Event(self.t, (i, WALL if wall else j), impulse, point, n, "jam", names))
        return None

    # -- endings -------------------------------------------------------------------
    def _name(self, k: int) -> str:
        return self.names[k]

    def _sliding(self, p: int) -> str:
        return (f"sliding: {self._name(self.pairs[p][0])} slides along the container wall at t = {self.t!r} "
                "(straight segments cannot follow the curved wall)")  # fmt: skip

    def _limit_reason(self) -> str:
        reason = f"cut short after {self.max_events} events at t = {self.t!r}: the motion is not known beyond"
        times = [ev.time for ev in self.events[-64:]]
        if len(times) == 64:
            early, late = times[31] - times[0], times[63] - times[32]
            if late < 0.5 * early:
                reason += " (the events come ever faster: a Zeno sequence)"
            else:
                reason += f" (the last 64 events took {times[-1] - times[0]:.3g} time units)"
        return reason

    def _finish(self, end: float, stopped: str | None, kind: str | None) -> Motion:
        t0, X0, V0 = self._frame_start
        self.frames.append(Segment(t0, end, X0, V0))
        return Motion(self.bodies, self.container, self.h, self.e, tuple(self.events), tuple(self.frames), stopped, kind,
                      self.origin)  # fmt: skip


class _CompiledPairs:
    """Every pair of a :class:`_Run` tested at once by numba's compiled ``loop`` over arrays
    (:func:`solver._events.events_kernel`, as :func:`solver._compile.motion_loop` gives it).

    The arrays are made from the run's lists at each call; the exact stage
    (compiled expansions, in a process that compiles) and then exact integers
    decide what the float test leaves unsure.  The same verdicts as the plain
    loop's, bit for bit.
    """

    def __init__(self, run: _Run, loop) -> None:
        import numpy as np

        self.np = np
        self.run = run
        self.loop = loop
        self.R = np.array(run.R, dtype=np.float64)
        self.I = np.array([p[0] for p in run.pairs], dtype=np.int64)
        self.J = np.array([p[1] for p in run.pairs], dtype=np.int64)
        self.inside = np.array([p[2] for p in run.pairs], dtype=np.bool_)
        self.kind = np.zeros(len(run.pairs), dtype=np.int8)
        self.dt = np.zeros(len(run.pairs))
        self.unsure = np.zeros(len(run.pairs), dtype=np.bool_)

    def decide_all(self, left: float) -> None:
        """Set the run's ``kind`` and ``dt`` of every pair."""
        np, run = self.np, self.run
        X = np.array(run.X, dtype=np.float64)
        V = np.array(run.V, dtype=np.float64)
        self.loop(X, V, self.R, self.I, self.J, self.inside, left, self.kind, self.dt, self.unsure)
        todo = np.flatnonzero(self.unsure)
        stage = exact_stage(todo.size) if todo.size else None
        if stage is not None:  # the expansion stage decides nearly all of them
            still = np.empty(todo.size, dtype=np.bool_)
            stage.refine_events(X, V, self.R, self.I, self.J, self.inside, left, todo, self.kind, self.dt, still)
            # its verdicts are exact, its times within a few ulps: an event it found is timed again with integers,
            # so the time is the correctly rounded one the plain loop gives (the same motion bit for bit)
            todo = todo[still | (self.kind[todo] != NONE)]
        run.kind = self.kind.tolist()
        run.dt = self.dt.tolist()
        run.decide_exactly(todo.tolist(), left)


def _not_approaching(X: list[Vector3], i: int, j: int, vi: Vector3, vj: Vector3, wall: bool) -> bool:
    """Decide exactly whether bodies ``i`` and ``j`` no longer approach after the impulse.

    With ``s = (vj - vi) . (X_j - X_i)`` on the represented (rounded) centres:
    a pair does not approach when ``s >= 0``; a ball ``i`` in its container
    ``j`` does not move outwards when ``s <= 0``.  Float with a proved error
    bound first; exact rationals when the bound cannot tell.
    """
    s = 0.0
    bound = 0.0
    for k in range(3):
        prod = (X[j][k] - X[i][k]) * (vj[k] - vi[k])
        s += prod
        bound += abs(prod)
    bound = 8.0 * UNIT_ROUNDOFF * bound + 1e-300  # two roundings of the factors, one of each product, two sums
    if s > bound:
        return not wall
    if s < -bound:
        return wall
    exact = sum((Fraction(X[j][k]) - Fraction(X[i][k])) * (Fraction(vj[k]) - Fraction(vi[k])) for k in range(3))
    return exact <= 0 if wall else exact >= 0
