"""What the reference-frame tests share: the gallery's scenes with two or more free bodies, a time before and a
time after an event of each, and the check that a total momentum is zero to rounding."""

from __future__ import annotations

import math
import re

from explorer.model.derived.analysis import solve
from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.formats.scene_io import load


def _free(scene) -> int:
    return sum(math.isfinite(b.mass) for b in scene.bodies)


#: The gallery's scenes with two or more free bodies (read from the files, not listed by hand).
FREE_SCENES = tuple(p.stem for p in sorted(SCENES_DIR.glob("*.json")) if _free(load(p)) >= 2)


def times_around_an_event(scene, solution=None) -> tuple[float, float]:
    """A time before the motion's first event that acts from outside (a fixed body or a wall: where the
    centre-of-mass frame changes; else its first event), and a time after it, midway to the next event (or the
    horizon); a third and two thirds of the horizon in a motion without events."""
    solution = solve(scene) if solution is None else solution
    h, events = scene.horizon, solution.events
    if not events:
        return h / 3, 2 * h / 3
    outside = [e for e in events if any(not math.isfinite(scene.bodies[i].mass) for i in e.pair)]
    event = (outside or events)[0]
    later = min((e.time for e in events if e.time > event.time), default=h)
    return event.time / 2, (event.time + later) / 2


def zero_to_rounding(total, parts) -> bool:
    """Whether ``total`` (3,) is zero to the rounding of summing ``parts`` ((k, 3), the terms added): each component
    within 1e-12 of the sum of the terms' sizes (a frame off by any real velocity misses by far more)."""
    scale = [max(1.0, math.fsum(abs(p[k]) for p in parts)) for k in range(3)]
    return all(abs(total[k]) <= 1e-12 * scale[k] for k in range(len(total)))


def numbers(text: str) -> list[float]:
    """The numbers of a vector as the views write it, e.g. ``(1.5, -2.22045e-16, 0)``."""
    return [float(x) for x in re.findall(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?", text)]
