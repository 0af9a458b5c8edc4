"""The values of a solution as (name, text) rows: what the values panel and the web page list.

One home for the words and number formats of every value, the decision trace,
the other pairs and the event list; each view only lays the rows out (Qt rich
text in the window, HTML in the exported page), escaping the scene's names as
text.  Qt-free.
"""

from __future__ import annotations

import math

from .analysis import Solution
from .scene import Scene
from .stepping import SteppedTest
from .text import first_turn_text, fmt, polynomial, root_label

#: The values panel lists at most this many events.
LISTED_EVENTS = 40


def vector(v) -> str:
    """``(x, y, z)`` with :func:`fmt` numbers."""
    return "(" + ", ".join(fmt(x) for x in v) + ")"


def value_rows(scene: Scene, solution: Solution, steps: SteppedTest | None = None) -> list[tuple[str, str]]:
    """Every number of the primary pair's solution, in plain words: ``[(name, text), ...]``.

    ``steps``: the frame-stepped engine's test, while its layer is on.
    """
    s = solution.sweep
    a, b, c = s.coefficients
    rows: list[tuple[str, str]] = [
        ("decided", "exactly (integer arithmetic)" if s.exact else "float64, error-bounded"),
        ("f(t)", polynomial(a, b, c)),
        ("R", fmt(s.radius) + (" = rC − rA" if s.inside else " = rA + rB")),
        ("discriminant", "—" if s.discriminant is None else fmt(s.discriminant)),
    ]
    if s.roots is None:
        rows.append(("roots", "none (no real root)"))
    else:
        for k, root in enumerate(s.roots):
            where = "in [0, h]" if 0 <= root <= scene.horizon else "outside [0, h]"
            rows.append((root_label(k), f"{fmt(root)}  ({where})"))
    rows.append(("toi", "none" if s.toi is None else fmt(s.toi)))
    if s.t_min is not None:
        rows.append(("vertex t_min", fmt(s.t_min)))
    closest = s.closest
    rows.append(("closest approach", f"{fmt(closest.distance)} at t = {fmt(closest.time)} (gap {fmt(closest.gap)})"))
    rows += _contact_rows(scene, solution)
    path = solution.path
    motion = f"{len(solution.events)} event(s) before the horizon"
    if path.stopped:
        motion = f"{len(solution.events)} event(s); the motion stops at t = {fmt(path.end)}: {path.stopped}"
    rows.append(("motion", motion))
    if steps is not None:
        rows.append(("stepped engine", steps.summary(fmt, " — ")))
    return rows


def _contact_rows(scene: Scene, solution: Solution) -> list[tuple[str, str]]:
    """The contact point and normal, and the response at it (when the contact happens)."""
    s = solution.sweep
    rows: list[tuple[str, str]] = []
    contact = s.contact
    if contact is not None and not solution.contact_happens:  # all mode: another body turns them first
        rows.append(("contact", f"never happens: {first_turn_text(scene, solution)}"))
    elif contact is not None:
        rows.append(("contact point", vector(contact.point)))
        rows.append(("contact normal", vector(contact.normal) + (" (centres coincide)" if contact.degenerate else "")))
    imp = solution.impact
    if imp is not None and solution.contact_happens:
        rows.append(("frames to hit", fmt(imp.time)))
        rows.append(("distance to hit", fmt(imp.distance)))
        rows.append(("reflected velocity", vector(imp.reflected)))
        angle = "—" if imp.ricochet_angle is None else f"{fmt(math.degrees(imp.ricochet_angle))}°"
        rows.append(("ricochet angle", angle + " to the tangent plane"))
        names = scene.bodies[0].name, scene.bodies[solution.other].name
        rows.append((f"{names[0]} after", vector(imp.a_after)))
        rows.append((f"{names[1]} after", vector(imp.b_after)))
    return rows


def trace_rows(solution: Solution) -> list[tuple[str, str, str, str]]:
    """How the verdict was decided, in order: ``[(question, quantity, value, answer), ...]``."""
    return [(step.question, step.quantity, fmt(step.value), step.answer) for step in solution.sweep.trace]


def pair_rows(scene: Scene, solution: Solution) -> list[str]:
    """With more than one other body: each pair's verdict, e.g. ``A–C: hit at 0.4`` (empty otherwise)."""
    if len(solution.sweeps) < 2:
        return []
    a = scene.bodies[0].name
    return [
        f"{a}–{scene.bodies[k + 1].name}: {sk.status.label}{'' if sk.toi is None else ' at ' + fmt(sk.toi)}"
        for k, sk in enumerate(solution.sweeps)
    ]


def event_rows(scene: Scene, solution: Solution, limit: int | None = LISTED_EVENTS) -> list[tuple[str, str, str]]:
    """The motion's events: ``[(time, pair, impulse on the pair's first body), ...]``, at most ``limit``."""
    names = [b.name for b in scene.bodies]
    events = solution.events if limit is None else solution.events[:limit]
    rows = []
    for e in events:
        pair = f"{names[e.pair[0]]}–{names[e.pair[1]]}{' (jam)' if e.kind == 'jam' else ''}"
        rows.append((f"t = {fmt(e.time)}", pair, vector(e.impulse)))
    return rows
