"""Words and numbers as the views show them: number format, root names, the verdict line.

Qt-free and VTK-free, shared by the drawing code and the panels.
"""

from __future__ import annotations

from solver import Status

from .analysis import Solution
from .scene import Scene


#: How the status bar starts a refusal; an accepted change takes the refusal away.
REFUSED = "Refused: "


def refusal(reason: object) -> str:
    """The status-bar line for a refused action."""
    return f"{REFUSED}{reason}"


def fmt(x: float) -> str:
    """A number as the values panel and labels show it (6 significant digits; a negative zero as 0)."""
    return f"{x + 0.0:.6g}"


def polynomial(a: float, b: float, c: float) -> str:
    """``a t² + b t + c`` with proper signs, e.g. ``81 t² − 126 t + 44.16``."""
    text = f"{fmt(a)} t²"
    for value, tail in ((b, " t"), (c, "")):
        sign = "−" if value < 0 else "+"
        text += f" {sign} {fmt(abs(value))}{tail}"
    return text


def root_label(k: int, subscripts: bool = True) -> str:
    """``t₀`` / ``t₁`` (``t0`` / ``t1`` where the font has no subscript digits)."""
    return f"t{'₀₁'[k] if subscripts else k}"


def status_text(scene: Scene, solution: Solution, subscripts: bool = True) -> str:
    """The one-line verdict shown above the view and in the values panel.

    ``all`` mode adds the count of events; when another body turns A (or its
    partner) before the primary contact, the line says so instead of the
    contact that never happens.
    """
    line = _pair_status(scene, solution, subscripts)
    if scene.mode != "all":
        return line
    if not solution.contact_happens:
        line = first_turn_text(scene, solution)
    count = len(solution.events)
    return f"{line}   ·   {count} event{'' if count == 1 else 's'} in all"


def first_turn_text(scene: Scene, solution: Solution) -> str:
    """Who meets first when another body turns A (or its partner) before the primary contact."""
    first = solution.first_turn
    names = " and ".join(scene.bodies[i].name for i in first.pair)
    return f"{names} meet first, at t = {fmt(first.time)}"


def _pair_status(scene: Scene, solution: Solution, subscripts: bool) -> str:
    """The verdict of the primary pair alone."""
    s = solution.sweep
    names = scene.bodies[0].name, scene.bodies[solution.other].name
    pair = f"{names[0]} in {names[1]}" if scene.mode == "inside" else f"{names[0]}–{names[1]}"
    t0, t1 = root_label(0, subscripts), root_label(1, subscripts)
    if s.status is Status.OVERLAPPING:
        return f"{pair}: OVERLAPPING at t = 0 (toi = 0)"
    if s.status is Status.HIT:
        root = t1 if scene.mode == "inside" else t0
        return f"{pair}: HIT at {root} = {fmt(s.toi)}  (h = {fmt(scene.horizon)})"
    if s.status is Status.LATER:
        root = s.roots[1] if scene.mode == "inside" else s.roots[0]
        name = t1 if scene.mode == "inside" else t0
        return f"{pair}: LATER — {name} = {fmt(root)} > h = {fmt(scene.horizon)}"
    if s.status is Status.MISS:
        return f"{pair}: MISS — closest approach {fmt(s.closest.distance)} > R = {fmt(s.radius)}"
    if s.status is Status.SEPARATING:
        return f"{pair}: SEPARATING — moving apart, no contact"
    if s.status is Status.OUTSIDE:
        return f"{pair}: OUTSIDE — entirely outside the container at t = 0, no wall to reach"
    return f"{pair}: NO RELATIVE MOTION — the gap stays {fmt(s.closest.gap)}"


def state_note(scene: Scene, solution: Solution) -> str | None:
    """A status-bar hint for states that need a word of explanation, else None."""
    s = solution.sweep
    contact = s.contact
    if contact is not None and contact.degenerate:
        return "The centres coincide: the contact normal is undefined (x axis shown)."
    if s.status is Status.OUTSIDE:
        return f"{scene.bodies[0].name} is entirely outside the container at t = 0: there is no wall to reach from inside."
    if s.status is Status.OVERLAPPING and scene.mode == "inside":
        return f"{scene.bodies[0].name} touches or crosses the container wall at t = 0."
    if s.status is Status.OVERLAPPING:
        return "The spheres already overlap at t = 0: contact at toi = 0."
    if s.status is Status.NO_RELATIVE_MOTION:
        return "No relative motion: the gap never changes, so there is no contact."
    return None
