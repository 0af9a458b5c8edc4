"""The words that say which frame a number or a picture is in, and what a student could misread there.

Every table, panel, diagram and CSV file says its frame (:func:`frame_name`, :func:`frame_line`); the picture
says where a fixed body only appears to move and where the frame changed (:func:`frame_notes`).  The frame itself
is :mod:`explorer.model.derived.frames`.  Qt- and VTK-free.
"""

from __future__ import annotations

import math

from ..derived.analysis import SceneEvent
from ..derived.frames import COM, RELATIVE, WORLD, Frame
from ..state.scene import Scene
from .text import fmt, vector


def names(items: list[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def frame_name(scene: Scene, frame: Frame) -> str:
    """``world frame``, ``centre-of-mass frame`` or ``B's rest frame``."""
    if frame.kind == COM:
        return "centre-of-mass frame"
    if frame.kind == RELATIVE:
        return f"{scene.bodies[frame.anchor].name}'s rest frame"
    return "world frame"


def frame_line(scene: Scene, frame: Frame) -> str:
    """The line over a table or under a diagram that says which frame its numbers are in (and how it moves)."""
    if frame.kind == WORLD:
        why = ": no free body, so no centre of mass" if frame.asked == COM else ""
        return f"Numbers in the world frame{why}."
    if frame.kind == COM:
        name, follows = "the centre-of-mass frame", "the free bodies' centre of mass does"
    else:
        name, follows = frame_name(scene, frame), f"{scene.bodies[frame.anchor].name} does"
    return (
        f"Numbers in {name}: it moves at {vector(frame.velocity)} in the world, as {follows} at t = {fmt(frame.time)}."
    )


def _event_words(scene: Scene, event: SceneEvent) -> str:
    """``A hit the fixed B``, ``E hit the wall of W``, ``A hit B``."""
    i, j = event.pair
    bodies = scene.bodies
    if j == scene.container:
        return f"{bodies[i].name} hit the wall of {bodies[j].name}"
    if not math.isfinite(bodies[i].mass):
        i, j = j, i
    fixed = "the fixed " if not math.isfinite(bodies[j].mass) else ""
    return f"{bodies[i].name} hit {fixed}{bodies[j].name}"


def frame_notes(scene: Scene, frame: Frame) -> list[str]:
    """What the picture says in the ``frame`` drawn: that there is no centre of mass to follow, that a fixed body
    only appears to move, and where the frame changed (the last time), each one line; none in the world frame."""
    if frame.kind == WORLD:
        return ["No free body, so no centre of mass: the view stays in the world frame."] if frame.asked == COM else []
    lines = []
    fixed = [b.name for b in scene.bodies if not math.isfinite(b.mass)]
    if fixed and frame.moving:
        verb = "is" if len(fixed) == 1 else "are"
        lines.append(f"{names(fixed)} {verb} fixed in the world: {'it' if len(fixed) == 1 else 'they'} only "
                     "appear" + ("s" if len(fixed) == 1 else "") + " to move in this frame.")  # fmt: skip
    if frame.changes:
        last = frame.changes[-1]
        when = f"at t = {fmt(last.time)}" if len(frame.changes) == 1 else (
            f"{len(frame.changes)} times so far, last at t = {fmt(last.time)}")  # fmt: skip
        follows = "the centre of mass" if frame.kind == COM else scene.bodies[frame.anchor].name
        lines.append(f"The frame changed {when} ({names([_event_words(scene, e) for e in last.events])}): "
                     f"it moves with {follows} as it moves now.")  # fmt: skip
    return lines
