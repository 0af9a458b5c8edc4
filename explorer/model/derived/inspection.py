"""The inspector: which two bodies the values panel, the parabola and the 3-D view describe, and the event inspected.

:class:`Inspection` is a view part (like those of :mod:`.view_parts`): the
event the user inspects (an index into the solution's events) and the pair
they picked, with its rule (an event that exists, two different bodies).
:meth:`Inspection.focus` turns it, with the solution and the time shown, into
a :class:`Focus`: that pair's quadratic over its own segment of the motion —
from the last event before, as the solver holds the bodies there — with the
response at its contact.  An inspected event is in force while the time shown
is its time; moved off it, the pair stays described over the segment of the
time shown.  Without a choice the focus is the solution's primary pair (A and
its first partner, from t = 0), which the rest of the picture draws.
Qt-free.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver import Body, Impact, Sweep, impact, sweep, sweep_inside, vec

from ..state.scene import SceneError
from ..state.view_parts import Change, Part
from .analysis import SceneEvent, Solution, first_turn, segment_start, touches_by
from .conserved import segment_index


@dataclass(frozen=True)
class Focus:
    """One pair's quadratic over one segment of the motion: what the inspector describes.

    Attributes
    ----------
    pair : (int, int)
        Scene indices; a container is always the second.
    segment : int
        Index into ``solution.path.segments``; the sweep starts where it starts.
    start : float
        When the segment starts: the sweep's own time is ``τ = t − start``.
    origin : (3,) float
        The sweep's bodies are placed relative to this point (as the solver holds them).
    sweep : Sweep
        The two bodies as they are at ``start``, over the rest of the horizon.
    impact : Impact or None
        The response at the sweep's contact (None without one, or between two fixed bodies).
    event : int or None
        The inspected event (index into ``solution.events``): the contact this segment ends with.
    turn : SceneEvent or None
        The first event from the segment on that turns a body of the pair.
    contact_happens : bool
        The sweep's first contact is really reached (no other event turns either body first).
    primary : bool
        The solution's own primary pair from t = 0, which the whole picture describes.
    """

    pair: tuple[int, int]
    segment: int
    start: float
    origin: tuple[float, float, float]
    sweep: Sweep
    impact: Impact | None
    event: int | None
    turn: SceneEvent | None
    contact_happens: bool
    primary: bool

    def point(self, local) -> tuple[float, float, float]:
        """A point of the sweep (relative to :attr:`origin`) in the world, ``(3,) float``."""
        return vec.add(self.origin, tuple(map(float, local)))


def primary_focus(solution: Solution) -> Focus:
    """The solution's primary pair from t = 0: A and the body it meets first (or passes closest)."""
    pair = (0, solution.other)
    return Focus(pair, 0, 0.0, (0.0, 0.0, 0.0), solution.sweep, solution.impact, None, solution.first_turn,
                 solution.contact_happens, True)  # fmt: skip


def pair_focus(solution: Solution, pair: tuple[int, int], segment: int, event: int | None = None) -> Focus:
    """``pair``'s quadratic over ``segment`` of the motion (the sweep of the two bodies from its start)."""
    scene = solution.scene
    origin, centers, velocities = segment_start(solution, segment)
    start = solution.path.segments[segment].t_start
    a, b = (Body(tuple(centers[i]), tuple(velocities[i]), scene.bodies[i].radius, scene.bodies[i].mass) for i in pair)
    window = scene.horizon - start if scene.horizon > start else scene.horizon  # a segment starting at h: look on
    s = sweep_inside(a, b, window) if pair[1] == scene.container else sweep(a, b, window)
    try:
        response = impact(s, scene.restitution)
    except ValueError:  # two fixed bodies: a contact, but no response
        response = None
    turn = first_turn(scene, solution.events, pair, segment)
    happens = turn is None or set(turn.pair) == set(pair) or touches_by(s, start, turn)
    if scene.mode == "pair" and 0 not in pair:  # pair mode: only A collides; the others pass through one another
        turn, happens = None, False
    return Focus(pair, segment, start, origin, s, response, event, turn, happens, False)


def event_focus(solution: Solution, k: int) -> Focus:
    """Event ``k``'s pair over the segment that ends with it."""
    return pair_focus(solution, solution.events[k].pair, k, k)


def ordered_pair(i: int, j: int, container: int | None) -> tuple[int, int]:
    """``(i, j)`` with a container second."""
    return (j, i) if i == container else (i, j)


def event_marks(events: tuple[SceneEvent, ...], span: tuple[float, float]) -> tuple[list[float], list[int]]:
    """The time slider's marks: each event time within ``span`` once, as a fraction of it, in order; and the
    first event at each (the one a click on the mark inspects)."""
    lo, hi = span
    firsts: dict[float, int] = {}
    for k, e in enumerate(events):
        if hi > lo and lo <= e.time <= hi:
            firsts.setdefault((e.time - lo) / (hi - lo), k)
    fractions = sorted(firsts)
    return fractions, [firsts[f] for f in fractions]


def mark_of(solution: Solution, marked: list[int], active: int | None) -> int | None:
    """The mark (index into ``marked``, the first event of each) of the ``active`` event's time, or None."""
    if active is None:
        return None
    time = solution.events[active].time
    return next((m for m, k in enumerate(marked) if solution.events[k].time == time), None)


def step_target(events: tuple[SceneEvent, ...], t: float, active: int | None, direction: int) -> int | None:
    """The event to inspect after ``active`` (``direction`` +1) or before it (−1); None at either end.

    Without an active event: the first event at or after ``t`` (+1), the last at or before it (−1).
    """
    if active is not None:
        k = active + direction
        return k if 0 <= k < len(events) else None
    if direction > 0:
        return next((k for k, e in enumerate(events) if e.time >= t), None)
    return next((k for k in reversed(range(len(events))) if events[k].time <= t), None)


class Inspection(Part):
    """The inspected event and the pair described, with their rule, and the :class:`Focus` they give."""

    def __init__(self) -> None:
        super().__init__()
        self._event: int | None = None
        self._pair: tuple[int, int] | None = None
        # ((solution, key, focus), ...): the last two foci, each computed once per change (the one shown, and a
        # drag's next preview, worked out in another thread: explorer.qt.viewport); replaced whole, never edited
        self._cached: tuple = ()

    @property
    def event(self) -> int | None:
        """The inspected event (an index into the solution's events), or None."""
        return self._event

    @property
    def pair(self) -> tuple[int, int] | None:
        """The pair described (scene indices, a container second), or None for the solution's primary pair."""
        return self._pair

    def choose(self, solution: Solution, event: int | None = None, pair: tuple[int, int] | None = None) -> None:
        """Inspect ``event`` (its pair is described from then on), or describe ``pair``; neither: the primary pair.

        Raises
        ------
        SceneError
            No such event, or not two different bodies of the scene; nothing changed.
        """
        events, bodies = solution.events, len(solution.scene.bodies)
        if event is not None:
            if isinstance(event, bool) or not isinstance(event, int) or not 0 <= event < len(events):
                raise SceneError(f"event: no event {event!r} (the motion has {len(events)})")
            self._set(Change.INSPECTION, event=event, pair=events[event].pair)
        elif pair is not None:
            i, j = pair
            if not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < bodies for x in pair) or i == j:
                raise SceneError(f"pair: expected two different bodies, got {pair!r}")
            self._set(Change.INSPECTION, event=None, pair=ordered_pair(i, j, solution.scene.container))
        else:
            self._set(Change.INSPECTION, event=None, pair=None)

    def keep_within(self, bodies: int) -> None:
        """The scene changed (its events with it): no event stays inspected; the pair stays if both bodies do."""
        pair = self._pair if self._pair is not None and max(self._pair) < bodies else None
        self._set(Change.INSPECTION, event=None, pair=pair)

    def step(self, solution: Solution, t: float, direction: int) -> int:
        """The event to inspect next (``direction`` +1) or before (−1), from the active one or the time ``t``.

        Raises
        ------
        SceneError
            The motion has no events, or none later (earlier).
        """
        k = step_target(solution.events, t, self.active(solution, t), direction)
        if k is None:
            which = (
                "events in this motion" if not solution.events else f"{'later' if direction > 0 else 'earlier'} event"
            )
            raise SceneError(f"event: no {which}")
        return k

    def active(self, solution: Solution, t: float) -> int | None:
        """The inspected event while the time shown is its time, else None."""
        k, events = self._event, solution.events
        return k if k is not None and k < len(events) and events[k].time == t else None

    def focus(self, solution: Solution, t: float) -> Focus:
        """What the inspector describes at time ``t`` (see the module docstring); computed once per change."""
        active = self.active(solution, t)
        segment = active if active is not None else segment_index(solution.path, t)
        key = (active, self._pair, segment if self._pair is not None else None)
        cached = self._cached
        for known, known_key, focus in cached:
            if known is solution and known_key == key:
                return focus
        if active is not None:
            focus = event_focus(solution, active)
        elif self._pair is None or (self._pair == (0, solution.other) and segment == 0):
            focus = primary_focus(solution)
        else:
            focus = pair_focus(solution, self._pair, segment)
        self._cached = ((solution, key, focus),) + cached[:1]
        return focus
