"""Every object the picture of a scene can show, with its layer and its look, as plain data.

:data:`LOOKS` names each item the picture may show (:mod:`.picture` describes which
are shown, where, and any colour or opacity that changes); :data:`LABEL_LAYERS`
the labels.  The window and ``render`` create one VTK actor per item from it
(:func:`add_scene_items`, the only VTK-facing part); the web page one vtk.js actor.
numpy-free; the layer names are the scene model's (:data:`explorer.model.state.scene.LAYERS`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from ..model.state.scene import MAX_BODIES
from .palette import (
    BODY_COLORS,
    CLOSEST_COLOR,
    COM_COLOR,
    CONTACT_COLOR,
    ENTER_COLOR,
    EXIT_COLOR,
    FADED_COLOR,
    HALO_COLOR,
    MINKOWSKI_COLOR,
    MOMENTUM_COLOR,
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
#: The floor grid's colour.
GRID_COLOR = "#c8c8c8"


#: The least a body and a path are drawn, in pixels (the window's sizes times its style's line scale): a dot this wide
#: at each opaque body's centre and a line this wide along each path, hidden inside anything drawn wider (a long shot
#: framed whole draws a 0.05 ball on a path 500,000 long: less than a pixel each).
LEAST_DOT, LEAST_LINE = 7.0, 2.0


@dataclass(frozen=True)
class Look:
    """How one item is drawn.

    Attributes
    ----------
    layer : str or None
        The layer that shows or hides it (None: always shown when described).
    color : str
        Hex colour (a :class:`~explorer.view.picture.Shape` may replace it).
    opacity : float
    style : {"surface", "wireframe"}
    lit : bool
        Shaded by the light (else flat colour).
    line_width : float
        Pixels, for lines and wireframes.
    on_top : bool
        Drawn over everything else (markers that must never hide inside spheres).
    far_side : bool
        Only its far side is drawn: a ring around a body that never tints the body itself.
    """

    layer: str | None
    color: str
    opacity: float = 1.0
    style: str = "surface"
    lit: bool = True
    line_width: float = 1.0
    on_top: bool = False
    far_side: bool = False

    def as_dict(self) -> dict:
        return asdict(self)


def _looks() -> dict[str, Look]:
    looks: dict[str, Look] = {}
    for i in range(MAX_BODIES):
        color = BODY_COLORS[i]
        looks[f"capsule{i}"] = Look("capsules", color, CAPSULE_OPACITY, lit=False)
        looks[f"body{i}"] = Look(None, color)
        looks[f"arrow{i}"] = Look(None, color)
        looks[f"handle{i}"] = Look(None, color)
        looks[f"time_ring{i}"] = Look("capsules", color)
    looks["container_rim"] = Look(None, BODY_COLORS[1], 0.6, style="wireframe")
    looks["overlap"] = Look(None, OVERLAP_COLOR, 0.35)
    looks["minkowski"] = Look("minkowski", MINKOWSKI_COLOR, MINKOWSKI_OPACITY, lit=False)
    looks["minkowski_rim"] = Look("minkowski", MINKOWSKI_COLOR, 0.35, style="wireframe")
    looks["centre_path"] = Look(None, PATH_COLOR)
    looks["relative_path"] = Look("minkowski", MINKOWSKI_COLOR)
    for k, color in ((0, ENTER_COLOR), (1, EXIT_COLOR)):
        looks[f"ghost_a{k}"] = Look("roots", BODY_COLORS[0], GHOST_OPACITY)
        looks[f"ghost_b{k}"] = Look("roots", BODY_COLORS[1], GHOST_OPACITY)
        looks[f"ghost_a{k}_faded"] = Look("roots", FADED_COLOR, FADED_OPACITY, style="wireframe", lit=False)
        looks[f"marker{k}"] = Look("roots", color, lit=False, on_top=True)
    looks["contact_point"] = Look("contact", CONTACT_COLOR, lit=False, on_top=True)
    looks["contact_normal"] = Look("contact", CONTACT_COLOR, on_top=True)
    looks["reflection"] = Look("reflection", REFLECT_COLOR)
    looks["reflection_end"] = Look("reflection", REFLECT_COLOR, GHOST_OPACITY)
    looks["reflection_b"] = Look("reflection", REFLECT_COLOR)
    looks["reflection_b_end"] = Look("reflection", BODY_COLORS[1], GHOST_OPACITY)
    looks["closest"] = Look("contact", CLOSEST_COLOR)
    looks["grid"] = Look("axes", GRID_COLOR, lit=False)
    looks["paths"] = Look("reflection", BODY_COLORS[0])  # every body's path in its colour, when every pair collides
    looks["steps_a"] = Look("steps", BODY_COLORS[0], lit=False)
    looks["steps_b"] = Look("steps", BODY_COLORS[1], lit=False)
    looks["steps_caught"] = Look("steps", OVERLAP_COLOR, lit=False, line_width=2, on_top=True)
    for k in range(2):  # the inspector: the pair described
        looks[f"focus_halo{k}"] = Look(None, HALO_COLOR, HALO_OPACITY, lit=False, far_side=True)
        looks[f"focus_before{k}"] = Look(None, BODY_COLORS[k], BEFORE_OPACITY, on_top=True)  # over a crowd
        looks[f"focus_after{k}"] = Look(None, BODY_COLORS[k], on_top=True)
    for i in range(MAX_BODIES):  # each free body's momentum, one colour: a quantity of its own, not a velocity
        looks[f"momentum{i}"] = Look("momentum", MOMENTUM_COLOR)
    looks["com"] = Look("momentum", COM_COLOR, lit=False, on_top=True)
    looks["com_path"] = Look("momentum", COM_COLOR, lit=False)
    looks["focus_contact"] = Look("contact", CONTACT_COLOR, lit=False, on_top=True)
    looks["focus_normal"] = Look("contact", CONTACT_COLOR, on_top=True)
    return looks


#: Every item of the scene picture by name.
LOOKS: dict[str, Look] = _looks()


def layer_shown(layer: str | None, shown: dict[str, bool]) -> bool:
    """Whether an item of ``layer`` (None: always drawn) is drawn when the layers ``shown`` (name -> on, after the
    question mode's stage has hidden its own: :func:`explorer.model.actions.asking.shown_layers`) are on: the one
    rule for the window and the page."""
    return layer is None or shown.get(layer, True)


#: Every label of the scene picture by name, with the layer that shows it (besides ``labels``).
LABEL_LAYERS: dict[str, str] = {
    **{f"name{i}": "labels" for i in range(MAX_BODIES)},
    **{f"speed{i}": "labels" for i in range(MAX_BODIES)},  # a stretched velocity arrow's true speed
    "root0": "roots",
    "root1": "roots",
    "closest": "contact",
}


def add_scene_items(items, label_size: int) -> None:
    """Create every item and label of :data:`LOOKS` and :data:`LABEL_LAYERS` in ``items`` (an
    :class:`explorer.view.items.ItemSet`), each hidden until shown."""
    for name, look in LOOKS.items():
        item = items.add(name, look.layer, color=look.color, opacity=look.opacity, style=look.style, lit=look.lit,
                         line_width=look.line_width, on_top=look.on_top)  # fmt: skip
        if look.far_side:
            prop = item.actor.GetProperty()
            prop.BackfaceCullingOff()
            prop.FrontfaceCullingOn()
    for name, layer in LABEL_LAYERS.items():
        items.add_label(name, layer, label_size)
