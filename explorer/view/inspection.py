"""The inspector's marks in the picture: the described pair's halos, its contact, and an event's velocities.

With a :class:`~explorer.model.inspection.Focus` other than the primary pair,
:class:`~explorer.view.scene_view.SceneView` draws these instead of the primary
pair's expanded sphere, roots and contact: a halo around each body of the pair
(the container's wall has none: the contact point shows where), the contact
point and normal where their contact happens, and at an inspected event each
body's velocity before it (faint) and after it, as arrows from its centre, all
to one scale.  Only the pair's names are shown then.  The items are made by
:mod:`.catalogue`.  Qt-free.
"""

from __future__ import annotations

import numpy as np

from ..model.analysis import Solution
from ..model.inspection import Focus
from ..model.scene import Scene
from . import geometry
from .items import ItemSet
from .palette import BODY_COLORS
from .placement import Placement

#: A halo's radius, times its body's.
HALO_SCALE = 1.3
#: The longest velocity arrow at an event, times the larger radius of the pair.
ARROW_SCALE = 3.0


def draw_focus(items: ItemSet, scene: Scene, solution: Solution, focus: Focus, at: Placement, width: float) -> None:
    """The marks of ``focus`` at the time and frame of ``at`` (``width``: the line width unit, see :mod:`.paths`)."""
    for k, i in enumerate(focus.pair):
        if i != scene.container:
            items.show(f"focus_halo{k}", geometry.sphere, at.centers[i], HALO_SCALE * at.radii[i], (32, 16))
    _draw_contact(items, scene, solution, focus, at, width)
    if focus.event is not None:
        for i in range(len(scene.bodies)):
            if i not in focus.pair:
                items.labels[f"name{i}"][0].SetVisibility(False)
        if at.reference < 0.5:
            _draw_velocities(items, scene, solution, focus, at, width)


def _draw_contact(items: ItemSet, scene: Scene, solution: Solution, focus: Focus, at: Placement, width: float) -> None:
    """The pair's contact point and the normal there, pointing back towards the first body (where it happens)."""
    if focus.event is not None:
        event = solution.events[focus.event]
        point, normal, time = np.asarray(event.point), np.asarray(event.normal), event.time
    else:
        contact = focus.sweep.contact
        if contact is None or not focus.contact_happens:
            return
        point, normal, time = focus.point(contact.point), np.asarray(contact.normal), focus.start + contact.time
    point = at.at(point, time)
    items.show("focus_contact", geometry.sphere, point, 0.2 * width, (20, 10))
    tip = point - normal * 0.9 * scene.bodies[focus.pair[0]].radius
    shaft = 0.04 * width
    items.show("focus_normal", geometry.arrow, point, tip, shaft, 2.5 * shaft, 4 * shaft)


def _draw_velocities(
    items: ItemSet, scene: Scene, solution: Solution, focus: Focus, at: Placement, width: float
) -> None:
    """Each body's velocity before the event (faint) and after it, from its centre, to one scale."""
    segments = solution.path.segments
    before = np.asarray(segments[focus.event].velocities, dtype=float)
    after = np.asarray(segments[min(focus.event + 1, len(segments) - 1)].velocities, dtype=float)
    pair = list(focus.pair)
    fastest = max(
        float(np.max(np.linalg.norm(before[pair], axis=1))), float(np.max(np.linalg.norm(after[pair], axis=1)))
    )
    if fastest == 0.0:
        return
    scale = ARROW_SCALE * max(scene.bodies[i].radius for i in pair) / fastest
    shaft = 0.06 * width
    for k, i in enumerate(pair):
        for name, velocity in ((f"focus_before{k}", before[i]), (f"focus_after{k}", after[i])):
            if np.any(velocity):
                items.set_color(name, BODY_COLORS[i])
                end = at.centers[i] + velocity * scale
                items.show(name, geometry.arrow, at.centers[i], end, shaft, 2.6 * shaft, 5.0 * shaft)
