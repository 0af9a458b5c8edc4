"""Every object the picture of a scene can show, created once (hidden) with its layer and its look.

:class:`~explorer.view.scene_view.SceneView` shows, moves and hides them; the
layer names are the scene model's (:data:`explorer.model.scene.LAYERS`).
Qt-free.
"""

from __future__ import annotations

from ..model.scene import MAX_BODIES
from .items import ItemSet
from .overlay import LABEL_SIZE
from .palette import (
    BODY_COLORS,
    CLOSEST_COLOR,
    CONTACT_COLOR,
    ENTER_COLOR,
    EXIT_COLOR,
    FADED_COLOR,
    HALO_COLOR,
    MINKOWSKI_COLOR,
    OVERLAP_COLOR,
    PATH_COLOR,
    REFLECT_COLOR,
)

#: Opacity of see-through items.
CAPSULE_OPACITY = 0.16
MINKOWSKI_OPACITY = 0.14
GHOST_OPACITY = 0.35
FADED_OPACITY = 0.25
HALO_OPACITY = 0.7
#: The inspector's arrow of a velocity before an event (the one after is opaque).
BEFORE_OPACITY = 0.35


def add_scene_items(items: ItemSet) -> None:
    """Create every item of the scene picture in ``items`` (each hidden until shown)."""
    add = items.add
    for i in range(MAX_BODIES):
        color = BODY_COLORS[i]
        add(f"capsule{i}", "capsules", color=color, opacity=CAPSULE_OPACITY, lit=False)
        add(f"body{i}", None, color=color)
        add(f"arrow{i}", None, color=color)
        add(f"handle{i}", None, color=color)
        add(f"time_ring{i}", "capsules", color=color)
        items.add_label(f"name{i}", "labels", LABEL_SIZE)
    add("container_rim", None, color=BODY_COLORS[1], opacity=0.6, style="wireframe", line_width=1)
    add("overlap", None, color=OVERLAP_COLOR, opacity=0.35)
    add("minkowski", "minkowski", color=MINKOWSKI_COLOR, opacity=MINKOWSKI_OPACITY, lit=False)
    add("minkowski_rim", "minkowski", color=MINKOWSKI_COLOR, opacity=0.35, style="wireframe", line_width=1)
    add("centre_path", None, color=PATH_COLOR)
    add("relative_path", "minkowski", color=MINKOWSKI_COLOR)
    for k, color in ((0, ENTER_COLOR), (1, EXIT_COLOR)):
        add(f"ghost_a{k}", "roots", color=BODY_COLORS[0], opacity=GHOST_OPACITY)
        add(f"ghost_b{k}", "roots", color=BODY_COLORS[1], opacity=GHOST_OPACITY)
        add(f"ghost_a{k}_faded", "roots", color=FADED_COLOR, opacity=FADED_OPACITY, style="wireframe", lit=False)
        add(f"marker{k}", "roots", color=color, lit=False, on_top=True)
        items.add_label(f"root{k}", "roots", LABEL_SIZE)
    add("contact_point", "contact", color=CONTACT_COLOR, lit=False, on_top=True)
    add("contact_normal", "contact", color=CONTACT_COLOR, on_top=True)
    add("reflection", "reflection", color=REFLECT_COLOR)
    add("reflection_end", "reflection", color=REFLECT_COLOR, opacity=GHOST_OPACITY)
    add("reflection_b", "reflection", color=REFLECT_COLOR)
    add("reflection_b_end", "reflection", color=BODY_COLORS[1], opacity=GHOST_OPACITY)
    add("closest", "contact", color=CLOSEST_COLOR)
    items.add_label("closest", "contact", LABEL_SIZE)
    add("grid", "axes", color="#c8c8c8", lit=False)
    add("paths", "reflection", color=BODY_COLORS[0])  # every body's path in its colour, when every pair collides
    add("steps_a", "steps", color=BODY_COLORS[0], lit=False, line_width=1)
    add("steps_b", "steps", color=BODY_COLORS[1], lit=False, line_width=1)
    add("steps_caught", "steps", color=OVERLAP_COLOR, lit=False, line_width=2, on_top=True)
    for k in range(2):  # the inspector (:mod:`.inspection`): the pair described
        halo = add(f"focus_halo{k}", None, color=HALO_COLOR, opacity=HALO_OPACITY, lit=False).actor.GetProperty()
        halo.BackfaceCullingOff()
        halo.FrontfaceCullingOn()  # only its far side: a ring around the body that never tints the body itself
        add(f"focus_before{k}", None, color=BODY_COLORS[k], opacity=BEFORE_OPACITY, on_top=True)  # over a crowd
        add(f"focus_after{k}", None, color=BODY_COLORS[k], on_top=True)
    add("focus_contact", "contact", color=CONTACT_COLOR, lit=False, on_top=True)
    add("focus_normal", "contact", color=CONTACT_COLOR, on_top=True)
