"""The values of a solution as (name, text) rows: what the values panel and the web page list.

One home for the words and number formats of every value, the decision trace,
the other pairs and the event list; each view only lays the rows out (Qt rich
text in the window, HTML in the exported page), escaping the scene's names as
text.  Qt-free.
"""

from __future__ import annotations

import math

from ..derived import conserved
from ..derived.analysis import Solution
from ..derived.frames import WORLD, Frame
from ..derived.inspection import Focus, primary_focus
from ..derived.stepping import SteppedTest
from ..state.scene import Scene
from .frames import frame_name
from .text import coefficient_scales, fmt, pair_name, polynomial, root_label, turn_text, vector

#: The values panel lists at most this many events.
LISTED_EVENTS = 40


def value_rows(scene: Scene, solution: Solution, steps: SteppedTest | None = None, focus: Focus | None = None,
               t: float = 0.0, frame: Frame | None = None) -> list[tuple[str, str]]:  # fmt: skip
    """Every number of the described pair's solution, in plain words: ``[(name, text), ...]``.

    ``focus``: the pair the inspector describes (default: the primary pair); its times are shown
    on the motion's clock.  ``t``: the time shown, for the conserved quantities, which are in ``frame`` (the
    frame at ``t``; the world by default) and say so.  ``steps``: the frame-stepped engine's test of the primary
    pair, while its layer is on.  The solver's own numbers (points, normals, velocities) are the world's.
    """
    f = primary_focus(solution) if focus is None else focus
    s, start = f.sweep, f.start
    a, b, c = s.coefficients
    rows = [] if f.primary else _focus_rows(scene, solution, f)
    rows += [
        ("decided", "exactly (integer arithmetic)" if s.exact else "float64, error-bounded"),
        (
            "f(t)" if start == 0.0 else f"f(τ), τ = t − {fmt(start)}",
            polynomial(a, b, c, "t" if start == 0.0 else "τ", coefficient_scales(s)),
        ),  # fmt: skip
        ("R", fmt(s.radius) + (" = rC − rA" if s.inside else " = rA + rB")),
        ("discriminant", "—" if s.discriminant is None else fmt(s.discriminant)),
    ]
    if s.roots is None:
        rows.append(("roots", "none (no real root)"))
    else:
        span = "[0, h]" if start == 0.0 else f"[{fmt(start)}, h]"
        for k, root in enumerate(s.roots):
            where = f"in {span}" if 0 <= root <= s.horizon else f"outside {span}"
            rows.append((root_label(k), f"{fmt(start + root)}  ({where})"))
    rows.append(("toi", "none" if s.toi is None else fmt(start + s.toi)))
    if s.t_min is not None:
        rows.append(("vertex t_min", fmt(start + s.t_min)))
    closest = s.closest
    rows.append(
        ("closest approach", f"{fmt(closest.distance)} at t = {fmt(start + closest.time)} (gap {fmt(closest.gap)})")
    )
    rows += _contact_rows(scene, solution, f)
    path = solution.path
    motion = f"{len(solution.events)} event(s) before the horizon"
    if path.stopped:
        motion = f"{len(solution.events)} event(s); the motion stops at t = {fmt(path.end)}: {path.stopped}"
    rows.append(("motion", motion))
    rows += conserved_rows(scene, solution, t, f.event, frame)
    if steps is not None and f.primary:
        rows.append(("stepped engine", steps.summary(fmt, " — ")))
    return rows


def _focus_rows(scene: Scene, solution: Solution, f: Focus) -> list[tuple[str, str]]:
    """Which pair is described and over which segment; at an inspected event, the event itself."""
    rows = [("pair", pair_name(scene, *f.pair))]
    end = solution.path.segments[f.segment].t_end
    rows.append(("segment", f"from t = {fmt(f.start)} to t = {fmt(end)}"))
    if f.event is not None:
        e = solution.events[f.event]
        kind = " (a jam: the cluster moves on together)" if e.kind == "jam" else ""
        rows.append(("event", f"{f.event + 1} of {len(solution.events)}, at t = {fmt(e.time)}{kind}"))
        impulse = f"{vector(e.impulse)}  |J| = {fmt(math.hypot(*e.impulse))}"
        rows.append((f"impulse on {scene.bodies[f.pair[0]].name}", impulse))
    return rows


def _contact_rows(scene: Scene, solution: Solution, f: Focus) -> list[tuple[str, str]]:
    """The contact point and normal, and the response at it (when the contact happens)."""
    s = f.sweep
    rows: list[tuple[str, str]] = []
    contact = s.contact
    if contact is not None and not f.contact_happens:  # another body turns them first (or pair mode's targets)
        why = turn_text(scene, f.turn) if f.turn is not None else f"only {scene.bodies[0].name} collides in pair mode"
        rows.append(("contact", f"never happens: {why}"))
    elif contact is not None:
        rows.append(("contact point", vector(f.point(contact.point))))
        rows.append(("contact normal", vector(contact.normal) + (" (centres coincide)" if contact.degenerate else "")))
    imp = f.impact
    if imp is None or not f.contact_happens:
        return rows
    since = "" if f.start == 0.0 else f" from t = {fmt(f.start)}"
    rows.append((f"frames to hit{since}", fmt(imp.time)))
    rows.append((f"distance to hit{since}", fmt(imp.distance)))
    rows.append(("reflected velocity", vector(imp.reflected)))
    angle = "—" if imp.ricochet_angle is None else f"{fmt(math.degrees(imp.ricochet_angle))}°"
    rows.append(("ricochet angle", angle + " to the tangent plane"))
    names = [scene.bodies[i].name for i in f.pair]
    if f.event is None:
        return rows + [(f"{names[0]} after", vector(imp.a_after)), (f"{names[1]} after", vector(imp.b_after))]
    segments = solution.path.segments  # the motion's own velocities either side of the event
    before, after = segments[f.event].velocities, segments[min(f.event + 1, len(segments) - 1)].velocities
    for name, i in zip(names, f.pair):
        rows += [(f"{name} before", vector(before[i])), (f"{name} after", vector(after[i]))]
    return rows


def _in_frame(scene: Scene, frame: Frame | None, name: str) -> str:
    """``name`` with the frame it is in, unless the world (``momentum Σ m v, centre-of-mass frame``)."""
    return name if frame is None or frame.kind == WORLD else f"{name}, {frame_name(scene, frame)}"


def conserved_rows(scene: Scene, solution: Solution, t: float, event: int | None = None,
                   frame: Frame | None = None) -> list[tuple[str, str]]:  # fmt: skip
    """The free bodies' total momentum and kinetic energy at ``t`` (in ``frame``, the frame at ``t``, named; else
    the world's), and their change across ``event`` (the world's)."""
    path = solution.path
    moving = frame is not None and frame.kind != WORLD
    now = conserved.at_time(scene, path, t, frame.velocity if moving else None)  # type: ignore[union-attr]
    rows = [
        (
            _in_frame(scene, frame, "momentum Σ m v"),
            f"{vector(now.momentum, now.scale)}  |p| = {fmt(now.magnitude, now.scale)}",
        ),  # fmt: skip
        (_in_frame(scene, frame, "kinetic energy Σ ½ m v²"), fmt(now.kinetic_energy)),
    ]
    if event is None:
        return rows
    before, after = conserved.across_events(scene, path, event + 1)[event]
    change = after.minus(before)
    e = solution.events[event]
    held = [scene.bodies[i].name for i in e.pair if not math.isfinite(scene.bodies[i].mass)]
    why = f"the fixed {' and '.join(held)} takes the impulse" if held else "two free bodies keep it, to rounding"
    moved = math.hypot(*change.momentum)
    rows.append(
        ("Δ momentum here", f"{vector(change.momentum, change.scale)}  |Δp| = {fmt(moved, change.scale)} ({why})")
    )
    fate = _energy_fate(scene, e)
    rows.append(
        (
            "Δ energy here" + ("" if not moving else ", world frame"),
            f"{energy_change(scene, e, change.kinetic_energy)}  (e = {fmt(scene.restitution)}: {fate})",
        )
    )
    return rows


def _energy_fate(scene: Scene, event) -> str:
    """What ``event`` does to the free bodies' kinetic energy: ``"changed"`` by a blow from a moving fixed body
    (it does work), ``"lost"`` below restitution 1 or in a jam (plastic), else ``"kept"`` (an elastic impact)."""
    if any(not math.isfinite(scene.bodies[i].mass) and any(scene.bodies[i].velocity) for i in event.pair):
        return "changed"
    return "lost" if scene.restitution < 1.0 or event.kind == "jam" else "kept"


def energy_change(scene: Scene, event, change: float) -> str:
    """The change of kinetic energy across ``event`` as shown: an elastic impact keeps it exactly, so what the
    floats give there is rounding and reads 0, not a change (the difference itself under
    :func:`.text.exact_numbers`)."""
    return fmt(change, math.inf if _energy_fate(scene, event) == "kept" else None)


def conserved_line(scene: Scene, solution: Solution, t: float, frame: Frame | None = None) -> str:
    """The conserved quantities in one line, for the note under the verdict (the ``conserved`` layer); in
    ``frame`` (the frame at ``t``, named) when given, else the world's."""
    moving = frame is not None and frame.kind != WORLD
    now = conserved.at_time(scene, solution.path, t, frame.velocity if moving else None)  # type: ignore[union-attr]
    momentum = f"Σ m v = {vector(now.momentum, now.scale)}, |p| = {fmt(now.magnitude, now.scale)}"
    where = f"   ·   {frame_name(scene, frame)}" if moving else ""  # type: ignore[arg-type]
    return f"{momentum}   ·   kinetic energy {fmt(now.kinetic_energy)}{where}"


def trace_rows(solution: Solution, focus: Focus | None = None) -> list[tuple[str, str, str, str]]:
    """How the verdict was decided, in order: ``[(question, quantity, value, answer), ...]`` (of ``focus``'s pair)."""
    s = solution.sweep if focus is None else focus.sweep
    return [(step.question, step.quantity, fmt(step.value), step.answer) for step in s.trace]


def pair_rows(scene: Scene, solution: Solution) -> list[str]:
    """With more than one other body: each pair's verdict, e.g. ``A–C: hit at 0.4`` (empty otherwise)."""
    if len(solution.sweeps) < 2:
        return []
    a = scene.bodies[0].name
    return [
        f"{a}–{scene.bodies[k + 1].name}: {sk.status.label}{'' if sk.toi is None else ' at ' + fmt(sk.toi)}"
        for k, sk in enumerate(solution.sweeps)
    ]


def event_rows(scene: Scene, solution: Solution, limit: int | None = LISTED_EVENTS,
               energy: bool = False) -> list[tuple[str, ...]]:  # fmt: skip
    """The motion's events: ``[(time, pair, impulse on the pair's first body), ...]``, at most ``limit``.

    ``energy``: each row also gets the change of the free bodies' kinetic energy across the event.
    """
    names = [b.name for b in scene.bodies]
    events = solution.events if limit is None else solution.events[:limit]
    changes = conserved.across_events(scene, solution.path, len(events)) if energy else []
    rows = []
    for k, e in enumerate(events):
        pair = f"{names[e.pair[0]]}–{names[e.pair[1]]}{' (jam)' if e.kind == 'jam' else ''}"
        row = (f"t = {fmt(e.time)}", pair, vector(e.impulse))
        if energy:
            before, after = changes[k]
            row += (f"ΔE = {energy_change(scene, e, after.kinetic_energy - before.kinetic_energy)}",)
        rows.append(row)
    return rows
