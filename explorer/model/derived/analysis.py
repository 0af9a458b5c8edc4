"""From a scene to everything the views show: sweeps, first contact, response, the motion and its events.

Qt-free; used by the window, the headless renderer and ``sphere-explorer solve``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from solver import Bounce, BouncePath, Impact, Segment, Sweep, bounce_path, impact, simulate, sweep, sweep_inside, vec
from solver.motion import WALL

from ..state.scene import Scene
from . import conserved


@dataclass(frozen=True)
class SceneEvent:
    """One response of the motion, in the scene's body indices.

    Attributes
    ----------
    time : float
    pair : (int, int)
        Scene indices of the two bodies (a container wall: the container's index).
    impulse : (3,) float
        On the first body of the pair.
    kind : {"impact", "jam"}
    point, normal : (3,) float
        The contact point, and the unit normal from the first body towards the second (towards a
        container's wall: away from its centre).
    """

    time: float
    pair: tuple[int, int]
    impulse: tuple[float, float, float]
    kind: str
    point: tuple[float, float, float] = (0.0, 0.0, 0.0)
    normal: tuple[float, float, float] = (1.0, 0.0, 0.0)


@dataclass(frozen=True)
class Solution:
    """The solver's answer for a scene.

    Attributes
    ----------
    scene : Scene
    sweeps : tuple of Sweep
        A against each other body, in body order (``sweeps[k]`` is A against
        body ``k + 1``; against a container: A inside it).
    primary : int
        Index into ``sweeps`` of the pair the values panel describes: the
        earliest contact, or without any, the closest approach.
    impact : Impact or None
        Response at the first contact (restitution and masses of the scene).
    path : BouncePath
        The motion over the horizon, event after event, with every body's
        centre in scene order.  ``pair``/``inside``: A responds at each contact
        (the others pass through one another); ``all``: every pair collides.
        ``bounces`` are A's contacts.
    events : tuple of SceneEvent
        Every response of the motion, in time order.
    """

    scene: Scene
    sweeps: tuple[Sweep, ...]
    primary: int
    impact: Impact | None
    path: BouncePath
    events: tuple[SceneEvent, ...] = ()

    @property
    def sweep(self) -> Sweep:
        """The primary sweep."""
        return self.sweeps[self.primary]

    @cached_property
    def corners(self) -> tuple:
        """:func:`centres_at_events` of the path, ``(segments + 1, n, 3)`` as tuples, computed once (the picture
        frames and draws the motion at each time it is drawn)."""
        return tuple(centres_at_events(self.path))

    @cached_property
    def reach(self) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
        """``(lo, hi)``: the box holding every body's sphere at every event (:attr:`corners`, each grown by its body's
        radius), computed once (every picture of a long motion is framed by it)."""
        radii = [b.radius for b in self.scene.bodies]
        spheres = [(c, r) for row in self.corners for c, r in zip(row, radii)]
        lo = tuple(min(c[k] - r for c, r in spheres) for k in range(3))
        hi = tuple(max(c[k] + r for c, r in spheres) for k in range(3))
        return lo, hi  # type: ignore[return-value]

    @cached_property
    def polylines(self) -> list[tuple]:
        """:func:`path_polylines` of the path, computed once."""
        return path_polylines(self.path, self.corners)

    @property
    def other(self) -> int:
        """Body index of the primary pair's other body."""
        return self.primary + 1

    @property
    def contact_happens(self) -> bool:
        """Whether A really reaches the primary contact.

        In ``pair`` and ``inside`` mode A flies freely until it, so always.  In
        ``all`` mode another body may strike A (or the other body) first and
        turn it: the primary pair's roots then describe a flight that never
        happens.  The first root is real when A's first event, or the other
        body's, is their contact, or when neither meets anything (free flight);
        and a contact reached before that first turn (a pair touching at rest
        from the start, which no event marks) is reached too.
        """
        if self.scene.mode != "all":
            return True
        turn = self.first_turn
        return turn is None or set(turn.pair) == {0, self.other} or touches_by(self.sweep, 0.0, turn)

    @property
    def first_turn(self) -> SceneEvent | None:
        """The first event that turns A or the primary pair's other body (None: both fly freely)."""
        return first_turn(self.scene, self.events, (0, self.other))


def first_turn(
    scene: Scene, events: tuple[SceneEvent, ...], pair: tuple[int, int], start: int = 0
) -> SceneEvent | None:
    """The first of ``events[start:]`` that turns a body of ``pair`` (None: both fly on freely).

    A fixed body or a container is never turned, so only its partner's events count against one.
    """
    turnable = {i for i in pair if not (scene.bodies[i].fixed or scene.bodies[i].container)}
    return next((e for e in events[start:] if turnable & set(e.pair)), None)


#: Events of an all-bodies motion the explorer computes before it says the motion is cut short there
#: (``Motion.stopped``).  The gallery's busiest motion has 26; a thousand keep a 16-ball motion that never
#: settles (a gas over a horizon of 1e6) within a second or so of the plain-Python solver the app runs,
#: where the solver's own default (10 000) took a minute.
MOTION_EVENTS = 1000


def centres_at_events(path: BouncePath) -> list[tuple[tuple[float, float, float], ...]]:
    """Every body's centre where each segment of ``path`` starts, and at its end.

    Returns
    -------
    (len(path.segments) + 1, n, 3) float, as a list of tuples of 3-tuples
        The corners of each body's polyline; ``n`` bodies in scene order.
    """
    return [seg.centers for seg in path.segments] + [path.positions(path.end)]


def path_polylines(path: BouncePath, corners=None, seen=None) -> list[tuple]:
    """Each body's path as a polyline with a corner only where it turns.

    :func:`centres_at_events` has every body's centre at every event of the
    motion; a body goes straight through the events of the others, so its
    polyline keeps only its start, the corners where its own velocity changes,
    and its end: the same line with far fewer corners (a thousand events among
    fifteen balls: about 2 000 corners instead of 15 000).

    Parameters
    ----------
    path : BouncePath
    corners : (segments + 1, n, 3) float, optional
        :func:`centres_at_events` of ``path``, if known.
    seen : callable, optional
        ``seen(point, time)``: where a corner at ``time`` is drawn (a moving frame's view; by default where it is).

    Returns
    -------
    list of (k_i, 3) float, tuples of 3-tuples
        One per body, in scene order; ``k_i >= 2``.
    """
    corners = centres_at_events(path) if corners is None else corners
    segments = path.segments
    last = len(corners) - 1
    times = [seg.t_start for seg in segments] + [path.end]
    lines = []
    for i in range(len(corners[0])):
        turns = [k for k in range(1, last) if segments[k].velocities[i] != segments[k - 1].velocities[i]]
        kept = (0, *turns, last)
        lines.append(tuple(corners[k][i] if seen is None else seen(corners[k][i], times[k]) for k in kept))
    return lines


def solve(scene: Scene) -> Solution:
    """Run every query the views need for ``scene``."""
    a = scene.bodies[0].to_body()
    others = [b.to_body() for b in scene.bodies[1:]]
    h = scene.horizon
    if scene.mode == "inside":
        sweeps: tuple[Sweep, ...] = (sweep_inside(a, others[0], h),)
    else:
        sweeps = tuple(
            sweep_inside(a, o, h) if b.container else sweep(a, o, h) for b, o in zip(scene.bodies[1:], others)
        )
    hits = [k for k, s in enumerate(sweeps) if s.hit]
    if hits:
        primary = min(hits, key=lambda k: sweeps[k].toi)
    else:
        primary = min(range(len(sweeps)), key=lambda k: sweeps[k].closest.gap)
    try:
        response = impact(sweeps[primary], scene.restitution)
    except ValueError:  # both bodies fixed: a contact, but no response
        response = None
    if scene.mode == "all":
        path, events = _every_pair(scene)
    else:
        path = bounce_path(a, others, h, scene.restitution, inside=scene.mode == "inside")
        rows = list(range(len(scene.bodies)))  # the motion's bodies are the scene's (inside: the wall is body 1)
        events = _scene_events(path.motion, rows, 1)
    return Solution(scene, sweeps, primary, response, path, events)


def _every_pair(scene: Scene) -> tuple[BouncePath, tuple[SceneEvent, ...]]:
    """``all`` mode: :func:`solver.simulate` of every body, as a path with every centre in scene order."""
    rows = motion_rows(scene)  # motion row -> scene index (the container's row comes last)
    wall = scene.container
    balls = [i for i in rows if i != wall]
    container = None if wall is None else scene.bodies[wall].to_body()
    names = [scene.bodies[i].name for i in balls] + (
        [] if wall is None else [f"the container {scene.bodies[wall].name}"]
    )
    motion = simulate([scene.bodies[i].to_body() for i in balls], scene.horizon, scene.restitution, container,
                      max_events=MOTION_EVENTS, names=names)  # fmt: skip
    order = [rows.index(i) for i in range(len(scene.bodies))]  # scene index -> motion row
    segments = tuple(
        Segment(
            f.t_start,
            f.t_end,
            tuple(vec.add(motion.origin, f.centers[k]) for k in order),
            tuple(f.velocities[k] for k in order),
        )
        for f in motion.frames
    )
    events = _scene_events(motion, rows, wall)
    bounces = tuple(
        Bounce(e.time, e.pair[1], ev.point, ev.normal)
        for e, ev in zip(events, motion.events)
        if e.pair[0] == 0 and e.kind == "impact"
    )
    return BouncePath(segments, bounces, motion.stopped, motion), events


def motion_rows(scene: Scene) -> list[int]:
    """The scene index of each body of the solver's motion, in the motion's order.

    ``all`` mode hands the solver the balls and the container apart: the
    container's row comes last.  The other modes keep the scene's order.
    """
    rows = [i for i, b in enumerate(scene.bodies) if not (scene.mode == "all" and b.container)]
    return rows + [i for i in range(len(scene.bodies)) if i not in rows]


def segment_start(solution: Solution, k: int) -> tuple[tuple, tuple, tuple]:
    """Where segment ``k`` of the motion starts, as the solver holds it (relative to its origin).

    Returns
    -------
    origin : (3,) float
    centers : (n, 3) float, n 3-tuples
        Every body's centre at the segment's start, relative to ``origin``, in scene order.
    velocities : (n, 3) float, n 3-tuples
        Every body's velocity during the segment, in scene order.
    """
    path = solution.path
    if path.motion is None:  # no motion (a ball outside its container): the segment's own centres
        seg = path.segments[k]
        return (0.0, 0.0, 0.0), seg.centers, seg.velocities
    rows = motion_rows(solution.scene)
    order = sorted(range(len(rows)), key=rows.__getitem__)  # scene index -> motion row
    frame = path.motion.frames[k]
    return path.motion.origin, tuple(frame.centers[r] for r in order), tuple(frame.velocities[r] for r in order)


def _scene_events(motion, rows: list[int], wall: int | None) -> tuple[SceneEvent, ...]:
    """The motion's events with scene indices: ``rows[k]`` is the scene index of the motion's body ``k``."""
    if motion is None:
        return ()
    out = []
    for ev in motion.events:
        i, j = ev.pair
        pair = (rows[i], wall if j == WALL else rows[j])
        out.append(SceneEvent(ev.time, pair, _floats(ev.impulse), ev.kind, _floats(ev.point), _floats(ev.normal)))
    return tuple(out)


def _floats(v) -> tuple[float, float, float]:
    return tuple(float(x) for x in v)


def _vec(v) -> list[float]:
    return [float(x) for x in v]


def _num(x: float | None) -> float | None:
    return None if x is None or not math.isfinite(x) else float(x)


def to_dict(solution: Solution) -> dict[str, Any]:
    """JSON-ready summary, the output of ``sphere-explorer solve``."""
    scene = solution.scene
    s = solution.sweep
    names = [b.name for b in scene.bodies]
    a_coef, b_coef, c_coef = s.coefficients
    closest = s.closest
    out: dict[str, Any] = {
        "title": scene.title,
        "mode": scene.mode,
        "horizon": scene.horizon,
        "pair": [names[0], names[solution.other]],
        "status": s.status.label,
        "hit": s.hit,
        "toi": _num(s.toi),
        "roots": None if s.roots is None else [_num(s.roots[0]), _num(s.roots[1])],
        "decided_exactly": s.exact,
        "quadratic": {
            "f(t)": "a t^2 + b t + c = |p + v t|^2 - R^2",
            "a": a_coef,
            "b": b_coef,
            "c": c_coef,
            "discriminant": _num(s.discriminant),
            "R": s.radius,
            "t_min": _num(s.t_min),
        },
        "closest_approach": {"time": closest.time, "distance": closest.distance, "gap": closest.gap},
        "contact": None,
        "reflected_velocity": None,
        "ricochet_angle_deg": None,
        "frames_to_hit": None,
        "distance_to_hit": None,
        "velocities_after": None,
        "trace": [str(step) for step in s.trace],
    }
    contact = s.contact
    if contact is not None:
        out["contact"] = {"time": contact.time, "point": _vec(contact.point), "normal": _vec(contact.normal)}
    imp = solution.impact
    if imp is not None:
        out["reflected_velocity"] = _vec(imp.reflected)
        out["ricochet_angle_deg"] = None if imp.ricochet_angle is None else math.degrees(imp.ricochet_angle)
        out["frames_to_hit"] = imp.time
        out["distance_to_hit"] = imp.distance
        out["velocities_after"] = {names[0]: _vec(imp.a_after), names[solution.other]: _vec(imp.b_after)}
    if len(solution.sweeps) > 1:
        out["pairs"] = [
            {
                "pair": [names[0], names[k + 1]],
                "status": sk.status.label,
                "hit": sk.hit,
                "toi": _num(sk.toi),
                "roots": None if sk.roots is None else [_num(sk.roots[0]), _num(sk.roots[1])],
            }
            for k, sk in enumerate(solution.sweeps)
        ]
    out["path"] = _path_dict(solution, names)
    return out


def _path_dict(solution: Solution, names: list[str]) -> dict[str, Any]:
    """The motion for ``solve``'s JSON: bounces, segments, end, and every event with the conserved quantities."""
    path = solution.path
    start = conserved.totals(solution.scene, path.segments[0].velocities)
    changes = conserved.across_events(solution.scene, path, len(solution.events))
    bounces = [{"time": b.time, "body": names[b.other], "point": _vec(b.point), "normal": _vec(b.normal)}
               for b in path.bounces]  # fmt: skip
    return {
        "initial": {"momentum": _vec(start.momentum), "kinetic_energy": start.kinetic_energy},
        "bounces": bounces,
        "segments": len(path.segments),
        "ends_at": path.end,
        "stopped": path.stopped,
        "events": [_event_dict(e, names, before, after) for e, (before, after) in zip(solution.events, changes)],
    }


def _event_dict(e: SceneEvent, names: list[str], before, after) -> dict[str, Any]:
    """One event for ``solve``'s JSON, with the free bodies' totals after it and their change across it."""
    change = after.minus(before)
    return {
        "time": e.time,
        "bodies": [names[i] for i in e.pair],
        "impulse": _vec(e.impulse),
        "kind": e.kind,
        "point": _vec(e.point),
        "normal": _vec(e.normal),
        "momentum": _vec(after.momentum),
        "kinetic_energy": after.kinetic_energy,
        "momentum_change": _vec(change.momentum),
        "kinetic_energy_change": change.kinetic_energy,
    }


def touches_by(sweep: Sweep, start: float, turn: SceneEvent) -> bool:
    """The pair of ``sweep`` touches (at ``start`` + toi on the motion's clock) by the time of ``turn``.

    Only a contact no event marks can come before the turn: a pair touching at rest from the segment's start
    (an approaching contact is itself an event, so it would be the turn); one at the turn's instant is
    reached as well (they touch then, whichever simultaneous event is listed first).
    """
    return sweep.hit and start + sweep.toi <= turn.time
