"""Labels that never cover another body's sphere or another text: placed beside, or left out.

Before every render of the picture (a drag, a turn of the camera, a resize, an
export) :class:`LabelLayout` projects the opaque spheres onto the screen and
places the visible labels one by one, in order of importance: each at the
first spot where its box covers no sphere but its own and no text placed
before it (nor the verdict line and colour key of the overlay).  A body's name
goes beside its sphere (right, left, above, below, then the diagonals, then
further out); other labels (the roots, the closest approach) where they were
anchored, else nudged around that spot.  A label with no free spot is left
out: zoom in and it comes back.  While a sphere is dragged the layout pauses
(:attr:`LabelLayout.paused`): the labels are placed again when it ends.  Qt-free.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from vtkmodules.vtkRenderingCore import vtkRenderer, vtkTextActor

from .items import ItemSet

#: Pixels kept free between a label and what it must not cover.
GAP = 3.0
#: Directions tried around a sphere or an anchor, in order: right, left, up, down, then the diagonals.
DIRECTIONS = np.array([(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)], dtype=float)
#: How far out the spots are tried: multiples of the first ring's distance.
RINGS = (1.0, 1.9, 2.8)


@dataclass
class Plan:
    """What the layout needs from the last drawing.

    Attributes
    ----------
    centers : (n, 3) float
        Sphere centres as drawn.
    radii : (n,) float
    opaque : (n,) bool
        Spheres a label must not cover (not the see-through container, nor B grown into the expanded sphere).
    order : list of str
        The labels to place, most important first.
    owners : dict
        Label name -> the body it names (its own sphere it may touch, and it goes beside it).
    """

    centers: np.ndarray
    radii: np.ndarray
    opaque: np.ndarray
    order: list[str]
    owners: dict[str, int]


def project(renderer: vtkRenderer, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Display pixels ``(k, 2)`` of world ``points`` ``(k, 3)`` and their depth along the view ``(k,)``."""
    width, height = renderer.GetSize()
    camera = renderer.GetActiveCamera()
    matrix = camera.GetCompositeProjectionTransformMatrix(width / max(height, 1), -1.0, 1.0)
    m = np.array([[matrix.GetElement(r, c) for c in range(4)] for r in range(4)])
    homogeneous = np.c_[points, np.ones(len(points))] @ m.T
    w = homogeneous[:, 3:4]
    w = np.where(np.abs(w) < 1e-300, 1e-300, w)
    ndc = homogeneous[:, :2] / w
    return np.c_[(ndc[:, 0] + 1.0) * 0.5 * width, (ndc[:, 1] + 1.0) * 0.5 * height], homogeneous[:, 3]


def screen_discs(renderer: vtkRenderer, centers: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """The spheres' outlines on screen as discs ``(n, 3)``: centre x, y and radius in pixels."""
    camera = renderer.GetActiveCamera()
    sight = np.subtract(camera.GetFocalPoint(), camera.GetPosition())
    across = np.cross(sight, camera.GetViewUp())
    norm = np.linalg.norm(across)
    across = across / norm if norm > 0 else np.array([1.0, 0.0, 0.0])
    middle, _ = project(renderer, centers)
    edge, _ = project(renderer, centers + across * radii[:, None])
    return np.c_[middle, np.linalg.norm(edge - middle, axis=1)]


def boxes_hit_discs(boxes: np.ndarray, discs: np.ndarray) -> np.ndarray:
    """Which of ``boxes`` ``(k, 4)`` (x0, y0, x1, y1) overlap any of ``discs`` ``(n, 3)``: ``(k,)`` bool."""
    if len(discs) == 0:
        return np.zeros(len(boxes), dtype=bool)
    nearest_x = np.clip(discs[None, :, 0], boxes[:, None, 0], boxes[:, None, 2])
    nearest_y = np.clip(discs[None, :, 1], boxes[:, None, 1], boxes[:, None, 3])
    distance2 = (nearest_x - discs[None, :, 0]) ** 2 + (nearest_y - discs[None, :, 1]) ** 2
    return np.any(distance2 < (discs[None, :, 2] + GAP) ** 2, axis=1)


def boxes_hit_boxes(boxes: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Which of ``boxes`` ``(k, 4)`` overlap any of ``others`` ``(m, 4)`` (with :data:`GAP`): ``(k,)`` bool."""
    if len(others) == 0:
        return np.zeros(len(boxes), dtype=bool)
    b, o = boxes[:, None, :], others[None, :, :]
    apart = (
        (b[..., 2] + GAP <= o[..., 0])
        | (o[..., 2] + GAP <= b[..., 0])
        | (b[..., 3] + GAP <= o[..., 1])
        | (o[..., 3] + GAP <= b[..., 1])
    )
    return np.any(~apart, axis=1)


def candidate_offsets(size: np.ndarray, disc: np.ndarray | None, base: np.ndarray) -> np.ndarray:
    """Offsets ``(k, 2)`` from a label's anchor to try, best first.

    Beside its body's ``disc`` (x, y, r; the anchor at its centre) for a name; else ``base`` (the
    offset it was drawn with) and spots around it, the nearest first.
    """
    half = np.asarray(size, dtype=float) / 2.0
    if disc is not None:  # beside the sphere: the box's near edge (or corner) just off its outline
        unit = np.abs(DIRECTIONS / np.linalg.norm(DIRECTIONS, axis=1, keepdims=True))
        return np.vstack([DIRECTIONS * (k * disc[2] * unit + GAP + half) for k in RINGS])
    step = 2.0 * half + GAP  # a step of its own size: a few lines up or down before one whole width aside
    moves = np.vstack([np.zeros((1, 2))] + [DIRECTIONS * step * k for k in RINGS])
    return base + moves[np.argsort(np.hypot(*moves.T), kind="stable")]


class LabelLayout:
    """Places the labels of an :class:`ItemSet` before each render of ``renderer`` (see the module docstring).

    Parameters
    ----------
    renderer : vtkRenderer
        The scene's renderer (the labels are its props).
    items : ItemSet
    overlay_texts : callable
        Returns the overlay's text actors (verdict, note, colour key) and their renderer, which labels keep clear of.
    """

    def __init__(self, renderer: vtkRenderer, items: ItemSet, overlay_texts) -> None:
        self.renderer = renderer
        self.items = items
        self.overlay_texts = overlay_texts
        self.plan: Plan | None = None
        #: While True (a sphere is dragged) the labels stay where they are drawn: a drag gains no work.
        self.paused = False
        self.base: dict[str, tuple[float, float]] = {}  # each label's offset as drawn (before placing)
        renderer.AddObserver("StartEvent", self.place)

    def arrange(self, plan: Plan) -> None:
        """Place by ``plan`` from the next render on: the labels shown now, from the offsets they were drawn with."""
        labels = self.items.labels
        plan.order = [name for name in plan.order if labels[name][0].GetVisibility()]
        self.plan = plan
        self.base = {name: tuple(labels[name][0].GetPositionCoordinate().GetValue()[:2]) for name in plan.order}

    def place(self, *_args) -> None:
        """Place every visible label of the plan (a renderer observer: runs before each render)."""
        plan, renderer = self.plan, self.renderer
        window = renderer.GetRenderWindow()
        if (
            self.paused
            or plan is None
            or window is None
            or tuple(window.GetTileScale()) != (1, 1)
            or min(renderer.GetSize()) <= 0
        ):
            return  # a tiled export keeps the spots of the last ordinary render
        discs = screen_discs(renderer, plan.centers, plan.radii)
        taken = [self._fixed_boxes()]
        for name in plan.order:
            actor, _ = self.items.labels[name]
            owner = plan.owners.get(name)
            others = [k for k in range(len(discs)) if plan.opaque[k] and k != owner]
            spot = self._spot(actor, name, discs, others, owner, np.vstack(taken))
            actor.SetVisibility(spot is not None)
            if spot is not None:
                offset, box = spot
                actor.GetPositionCoordinate().SetValue(float(offset[0]), float(offset[1]))
                taken.append(box[None, :])

    def _spot(
        self, actor: vtkTextActor, name: str, discs, others, owner, taken
    ) -> tuple[np.ndarray, np.ndarray] | None:
        """The first free offset for ``actor`` and its box, or None."""
        bbox = [0.0] * 4
        actor.GetBoundingBox(self.renderer, bbox)  # x0, x1, y0, y1 where it is drawn now
        size = np.array([bbox[1] - bbox[0], bbox[3] - bbox[2]])
        anchor, _ = project(
            self.renderer, np.array([actor.GetPositionCoordinate().GetReferenceCoordinate().GetValue()])
        )
        base = np.array(self.base.get(name, (0.0, 0.0)))
        offsets = candidate_offsets(size, None if owner is None else discs[owner], base)
        centres = anchor[0] + offsets
        boxes = np.c_[centres - size / 2.0, centres + size / 2.0]
        free = ~(boxes_hit_discs(boxes, discs[others]) | boxes_hit_boxes(boxes, taken))
        inside = (boxes[:, 0] >= 0) & (boxes[:, 1] >= 0)
        width, height = self.renderer.GetSize()
        inside &= (boxes[:, 2] <= width) & (boxes[:, 3] <= height)
        first = np.flatnonzero(free & inside)
        if first.size == 0:
            return None
        return offsets[first[0]], boxes[first[0]]

    def _fixed_boxes(self) -> np.ndarray:
        """The overlay's texts (verdict, note, colour key) as boxes ``(m, 4)``."""
        actors, renderer = self.overlay_texts()
        boxes = []
        for actor in actors:
            if actor.GetVisibility() and actor.GetInput():
                bbox = [0.0] * 4
                actor.GetBoundingBox(renderer, bbox)
                boxes.append((bbox[0], bbox[2], bbox[1], bbox[3]))
        return np.array(boxes, dtype=float).reshape(-1, 4)


def label_plan(scene, solution, at, focus=None) -> Plan:
    """The plan of a scene's picture: the described pair's names first, then the roots, the closest
    approach and the other names; the see-through bodies (a container, B grown in its rest frame) may be covered.

    Parameters
    ----------
    scene : Scene
    solution : Solution
    at : Placement
        Where the bodies were drawn.
    focus : Focus, optional
        The pair the inspector describes (default: the primary pair).
    """
    pair = (0, solution.other) if focus is None else focus.pair
    n = len(scene.bodies)
    opaque = np.array([i != scene.container and not (i == solution.other and at.reference > 0.0) for i in range(n)])
    names = [f"name{i}" for i in pair] + ["root0", "root1", "closest"] + [f"name{i}" for i in range(n) if i not in pair]
    centers, radii = np.asarray(at.centers, dtype=float), np.asarray(at.radii, dtype=float)
    return Plan(centers, radii, opaque, names, {f"name{i}": i for i in range(n)})
