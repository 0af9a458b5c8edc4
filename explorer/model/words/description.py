"""The scene in sentences, for a screen reader: what the bodies do, and the verdict (or the question, while asking).

What the window's and the page's 3-D view shows, said in words, since a picture is no use to a student who cannot
see it: :func:`short_description` in a sentence or two, said after each change (the page's live region, the window's
view and its *Description* panel); :func:`full_description` with every body and every event, on request.  While the
answer is hidden (question mode) both hide it as the picture does: the bodies as given, then the question.

Numbers are said with :data:`SPOKEN_DIGITS` significant digits (a screen reader reads every digit); directions by
the world's axes (``towards +x``, ``towards +x and −y``), the same for every camera.  Qt-, VTK- and numpy-free.
"""

from __future__ import annotations

import math

from solver import Status

from ..derived.analysis import Solution
from ..state.scene import Scene, SceneBody
from .text import pair_name

#: Significant digits of a number said to a student (the panels show 6).
SPOKEN_DIGITS = 3
#: A velocity component smaller than this share of the speed is not named in its direction.
MINOR_SHARE = 0.2
#: The short description names each body up to this many; beyond, the moving ones first and a count of the rest.
NAMED_BODIES = 3


def said(x: float, digits: int = SPOKEN_DIGITS) -> str:
    """``x`` as said to a student: ``digits`` significant digits, a minus sign, no ``-0``, a power of ten in words
    (``5 × 10^5``)."""
    mantissa, _, exponent = f"{x + 0.0:.{digits}g}".partition("e")
    text = mantissa if not exponent else f"{mantissa} × 10^{int(exponent)}"
    return text.replace("-", "−")


def said_apart(x: float, y: float) -> tuple[str, str]:
    """``x`` and ``y`` said with as few digits as tell them apart (at least :data:`SPOKEN_DIGITS`): a closest
    approach of 0.1000001 is not said to be more than R = 0.1 as ``0.1 > 0.1``."""
    digits = SPOKEN_DIGITS
    while digits < 17 and said(x, digits) == said(y, digits):
        digits += 1
    return said(x, digits), said(y, digits)


def direction(v) -> str:
    """The axes a velocity ``v`` (3,) goes along, its largest component first: ``+x``, ``+x and −y``."""
    speed = math.sqrt(sum(c * c for c in v))
    parts = sorted(((abs(c), k) for k, c in enumerate(v) if abs(c) >= MINOR_SHARE * speed), reverse=True)
    return " and ".join(f"{'+' if v[k] > 0 else '−'}{'xyz'[k]}" for _, k in parts)


def body_motion(body: SceneBody) -> str:
    """What a body does, as given: ``A moves at 10 per frame towards +x``, ``B is at rest``, ``W is fixed``."""
    if not math.isfinite(body.mass):
        return f"{body.name} is fixed"
    speed = math.sqrt(sum(c * c for c in body.velocity))
    if speed == 0.0:
        return f"{body.name} is at rest"
    return f"{body.name} moves at {said(speed)} per frame towards {direction(body.velocity)}"


def bodies_sentence(scene: Scene) -> str:
    """What the bodies do, in one sentence (at most :data:`NAMED_BODIES` named; the rest counted)."""
    bodies = scene.bodies
    if len(bodies) <= NAMED_BODIES:
        return _listed([body_motion(b) for b in bodies]) + "."
    moving = [b for b in bodies if math.isfinite(b.mass) and any(b.velocity)]
    named = moving[:NAMED_BODIES]
    more, still = len(moving) - len(named), len(bodies) - len(moving)
    words = [body_motion(b) for b in named]
    if more:
        words.append(f"{more} more {'moves' if more == 1 else 'move'}")
    if still:
        words.append(f"all {still} are still" if not moving else "the other one is still" if still == 1
                     else f"the other {still} are still")  # fmt: skip
    return f"{len(bodies)} bodies: " + _listed(words) + "."


def verdict_sentence(scene: Scene, solution: Solution) -> str:
    """The primary pair's verdict in words: who touches whom and when, or why they do not."""
    s = solution.sweep
    a, b = scene.bodies[0].name, scene.bodies[solution.other].name
    h = said(scene.horizon)
    if s.status is Status.OVERLAPPING:
        return f"{pair_name(scene, 0, solution.other)} already overlap at the start."
    if s.status is Status.HIT:
        verb = f"reaches the wall of {b}" if s.inside else f"touches {b}"
        line = f"{a} {verb} at t = {said(s.toi)}, within the horizon h = {h}"
        angle = solution.impact.ricochet_angle if solution.impact is not None else None
        if angle is not None and not s.inside and not math.isfinite(scene.bodies[solution.other].mass):
            line += f"; it leaves at {said(math.degrees(angle))}° to the tangent plane"
        return line + "."
    if s.status is Status.LATER:
        root = s.roots[1] if s.inside else s.roots[0]
        return f"{a} would touch {b} at t = {said(root)}, after the horizon h = {h}: no contact before it."
    if s.status is Status.MISS:
        distance, reach = said_apart(s.closest.distance, s.radius)
        return f"{a} misses {b}: the closest approach, {distance}, is more than R = {reach}."
    if s.status is Status.SEPARATING:
        return f"{a} and {b} move apart: no contact."
    if s.status is Status.OUTSIDE:
        return f"{a} is outside the container {b}: there is no wall to reach."
    return f"{a} and {b} keep the same gap, {said(s.closest.gap)}: no contact."


def events_sentence(scene: Scene, solution: Solution) -> str:
    """Which bodies touch first and how many events the motion has before its end (all-bodies mode)."""
    n = len(solution.events)
    if n == 0:
        return f"No two bodies touch before t = {said(solution.path.end)}."
    first = solution.events[0]
    names = " and ".join(scene.bodies[i].name for i in first.pair)
    more = "" if n == 1 else f"; {n} events in all before t = {said(solution.path.end)}"
    return f"{names} touch first, at t = {said(first.time)}{more}."


def short_description(scene: Scene, solution: Solution, asking: bool, question: str) -> str:
    """A sentence or two: what the bodies do, then the verdict; while ``asking``, the ``question`` instead of
    anything that depends on the answer."""
    if asking:
        return f"{bodies_sentence(scene)} {question}"
    outcome = events_sentence(scene, solution) if scene.mode == "all" else verdict_sentence(scene, solution)
    return f"{bodies_sentence(scene)} {outcome}"


def full_description(scene: Scene, solution: Solution, asking: bool, question: str) -> list[str]:
    """Every body as given (centre, velocity, radius, mass or fixed), then the verdict and every event; while
    ``asking``, the bodies and the ``question`` only.  One line each."""
    lines = [f"{len(scene.bodies)} bodies, mode {scene.mode}, horizon h = {said(scene.horizon)}."]
    for body in scene.bodies:
        mass = "fixed" if not math.isfinite(body.mass) else f"mass {said(body.mass)}"
        lines.append(f"{body.name}: centre {_point(body.center)}, velocity {_point(body.velocity)}, "
                     f"radius {said(body.radius)}, {mass}.")  # fmt: skip
    if asking:
        return [*lines, question]
    lines.append(events_sentence(scene, solution) if scene.mode == "all" else verdict_sentence(scene, solution))
    for k, event in enumerate(solution.events, 1):
        names = " and ".join(scene.bodies[i].name for i in event.pair)
        lines.append(f"Event {k}: {names} at t = {said(event.time)} ({event.kind}).")
    return lines


def _point(p) -> str:
    return "(" + ", ".join(said(c) for c in p) + ")"


def _listed(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def selection_words(body, step: float) -> str:
    """What the keyboard has selected (``body``: a scene's body), where it is and how it moves, and the step: said
    when a key selects or moves it (the window's status bar and view, the page's live region)."""
    point = lambda p: "(" + ", ".join(said(c) for c in p) + ")"  # noqa: E731
    return (f"{body.name} selected: centre {point(body.center)}, velocity {point(body.velocity)}; "
            f"arrow keys move it by {said(step)} (Shift: its velocity, Ctrl: a tenth, + and −: the step)")  # fmt: skip
