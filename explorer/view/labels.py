"""Labels that never cover another body's sphere or another text, in the window and ``render``: placed, or left out.

Before every render of the picture (a drag, a turn of the camera, a resize, an
export) :class:`LabelLayout` projects the opaque spheres and the labels onto
the screen with VTK and places the visible labels by the rule of
:mod:`.label_places` (the web page's too): beside a body's sphere for its name,
near its anchor for the others, never over another sphere or label (nor the
verdict line and colour key of the overlay), within a few pixels of its item, or left out (its anchor out of
the view, or no room there): turn or zoom and it comes back.  While a sphere is dragged the layout pauses
(:attr:`LabelLayout.paused`): the labels are placed again when it ends.  Qt-free.
"""

from __future__ import annotations

import numpy as np
from vtkmodules.vtkRenderingCore import vtkRenderer

from .items import ItemSet
from .label_places import Plan, place


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


def screen_arrows(renderer: vtkRenderer, plan: Plan) -> list:
    """Each body's velocity arrow of ``plan`` on screen, ``(x0, y0, x1, y1)``, or None where it has none."""
    drawn = [k for k, arrow in enumerate(plan.arrows) if arrow is not None]
    out: list = [None] * len(plan.arrows)
    if drawn:
        ends, _ = project(renderer, np.array([point for k in drawn for point in plan.arrows[k]], dtype=float))
        for row, k in enumerate(drawn):
            out[k] = (*ends[2 * row], *ends[2 * row + 1])
    return out


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
        centers, radii = np.asarray(plan.centers, dtype=float), np.asarray(plan.radii, dtype=float)
        discs = screen_discs(renderer, centers, radii).tolist()
        labels = {}
        for name in plan.order:
            actor, _ = self.items.labels[name]
            bbox = [0.0] * 4
            actor.GetBoundingBox(renderer, bbox)  # x0, x1, y0, y1 where it is drawn now
            reference = np.array([actor.GetPositionCoordinate().GetReferenceCoordinate().GetValue()])
            anchor, depth = project(renderer, reference)
            seen = tuple(anchor[0]) if depth[0] > 0.0 else None  # behind the camera: out of view
            labels[name] = (seen, (bbox[1] - bbox[0], bbox[3] - bbox[2]), self.base.get(name, (0.0, 0.0)))
        spots = place(
            plan, discs, labels, self._fixed_boxes(), tuple(renderer.GetSize()), screen_arrows(renderer, plan)
        )
        for name, offset in spots.items():
            actor, _ = self.items.labels[name]
            actor.SetVisibility(offset is not None)
            if offset is not None:
                actor.GetPositionCoordinate().SetValue(float(offset[0]), float(offset[1]))

    def _fixed_boxes(self) -> list:
        """The overlay's texts (verdict, note, colour key) as boxes ``(x0, y0, x1, y1)``."""
        actors, renderer = self.overlay_texts()
        boxes = []
        for actor in actors:
            if actor.GetVisibility() and actor.GetInput():
                bbox = [0.0] * 4
                actor.GetBoundingBox(renderer, bbox)
                boxes.append((bbox[0], bbox[2], bbox[1], bbox[3]))
        return boxes
