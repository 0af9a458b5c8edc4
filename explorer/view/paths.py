"""The motion's paths in the picture: where the bodies go after the bounce, and every path in ``all`` mode.

Functions of :class:`~explorer.view.scene_view.SceneView`'s items, drawn in the
world frame only (B's rest frame ends at the impact).  ``width`` is the
picture's line width unit: the marker size times the style's line scale.
Qt-free.
"""

from __future__ import annotations

import numpy as np

from ..model.analysis import Solution
from ..model.scene import Scene
from . import geometry
from .items import ItemSet, rgb
from .palette import BODY_COLORS
from .placement import Placement


def draw_reflection(items: ItemSet, scene: Scene, solution: Solution, at: Placement, width: float) -> None:
    """A's path after its first bounce, and the other body's after the impact (``pair`` and ``inside`` mode)."""
    path = solution.path
    if not path.bounces or at.reference >= 0.5 or scene.mode == "all":  # B's frame ends at the impact; all: every path
        return
    h = scene.horizon
    first = path.bounces[0].time
    times = [first] + [seg.t_end for seg in path.segments if seg.t_start >= first]
    centres = [at.at(path.positions(tau)[0], tau) for tau in times]
    if len(centres) > 1:
        items.show("reflection", geometry.tube, centres, 0.035 * width)
        items.show("reflection_end", geometry.sphere, centres[-1], at.radii[0], (24, 12))
    j = path.bounces[0].other
    start_j, after = at.at(path.positions(first)[j], first), at.at(path.positions(h)[j], h)
    if scene.mode != "inside" and not scene.bodies[j].fixed and np.any(np.subtract(after, start_j)):
        items.show("reflection_b", geometry.tube, [start_j, after], 0.035 * width)
        items.set_color("reflection_b_end", BODY_COLORS[j])
        items.show("reflection_b_end", geometry.sphere, after, at.radii[j], (24, 12))


def draw_paths(items: ItemSet, scene: Scene, solution: Solution, at: Placement, width: float) -> None:
    """``all`` mode: every moving body's centre over the motion, through each of its events."""
    if scene.mode != "all" or at.reference >= 0.5:
        return
    lines = solution.polylines  # a corner where a body turns, not at every event of the motion
    moving = [i for i, body in enumerate(scene.bodies) if not (i == scene.container or body.fixed)]
    colors = [rgb(BODY_COLORS[i]) for i in moving]
    items.show("paths", geometry.coloured_tubes, [lines[i] for i in moving], colors, 0.03 * width)
