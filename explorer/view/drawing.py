"""The drawing code: (scene, solution) -> named meshes and actors in a PyVista plotter.

Used by both the Qt window (a ``pyvistaqt.QtInteractor`` is a plotter) and the
headless ``sphere-explorer render`` command, so a PNG from the command line and
the window show the same thing.  Every item is created once and then updated in
place (new points and faces into the same mesh, visibility toggled), which keeps
a drag from re-creating actors.  Qt-free.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import pyvista as pv
from vtkmodules.util.numpy_support import numpy_to_vtk, numpy_to_vtkIdTypeArray, vtk_to_numpy
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkPolyData
from vtkmodules.vtkRenderingCore import vtkActor, vtkCoordinate, vtkPolyDataMapper, vtkRenderer, vtkTextActor

from solver import Status

from . import geometry
from ..model.analysis import Solution
from .palette import (
    BACKGROUND,
    BODY_COLORS,
    CLOSEST_COLOR,
    CONTACT_COLOR,
    ENTER_COLOR,
    EXIT_COLOR,
    FADED_COLOR,
    MINKOWSKI_COLOR,
    OVERLAP_COLOR,
    PATH_COLOR,
    REFLECT_COLOR,
    TEXT_COLOR,
)
from ..model.scene import LAYERS, MAX_BODIES, Scene
from ..model.text import fmt, root_label, status_text

#: Opacity of see-through items.
CAPSULE_OPACITY = 0.16
MINKOWSKI_OPACITY = 0.14
GHOST_OPACITY = 0.35
FADED_OPACITY = 0.25
CONTAINER_OPACITY = 0.12
#: B in its own rest frame, grown into the expanded sphere: see-through, so the ray shows inside.
RELATIVE_B_OPACITY = 0.3
#: A's size in B's rest frame, where it is a point, as a fraction of the smaller radius.
POINT_RADIUS = 0.1
#: The colour key: (colour, meaning).
LEGEND_ROWS = (
    (MINKOWSKI_COLOR, "expanded sphere rA + rB"),
    (BODY_COLORS[0], "swept capsule over [0, h]"),
    (ENTER_COLOR, "first root t₀: contact starts"),
    (EXIT_COLOR, "second root t₁: contact ends"),
    (FADED_COLOR, "root outside [0, h]"),
    (CONTACT_COLOR, "contact point and normal"),
    (REFLECT_COLOR, "path after the bounce"),
)
#: The same key for a ball in a container, where the larger root is the contact.
LEGEND_INSIDE = {
    "expanded sphere rA + rB": "shrunken container rC − rA",
    "first root t₀: contact starts": "first root t₀: in the past",
    "second root t₁: contact ends": "second root t₁: reaches the wall",
}
#: Direction towards the light (world space) and the shading terms of :func:`shade`.
LIGHT = np.array([-0.35, -0.45, 1.0]) / np.linalg.norm([-0.35, -0.45, 1.0])
AMBIENT, DIFFUSE, SPECULAR = 0.35, 0.7, 0.35
#: Near clipping plane as a fraction of the far one (VTK's default is 1e-3).
NEAR_CLIP_TOLERANCE = 1e-7
#: Marker sizes are capped at this fraction of the framed region's diagonal.
MARK_SPAN = 0.08
#: Motion longer than this many radii gets a close-up default camera.
FOCUS_RATIO = 60.0

_FONT_CANDIDATES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
)


def font_file() -> str | None:
    """A TrueType font with subscript digits (DejaVu Sans), or None."""
    for candidate in _FONT_CANDIDATES:
        if Path(candidate).exists():
            return candidate
    return None


FONT = font_file()
#: VTK's built-in font has no subscript digits: write t0, t1 without DejaVu Sans.
SUBSCRIPTS = FONT is not None
@dataclass
class _Item:
    mesh: vtkPolyData
    actor: vtkActor
    layer: str | None
    color: np.ndarray
    shaded: bool
    key: object = None
    cells: object = None
    mesh_empty: bool = True


def _assign(owner, values: np.ndarray, current, setter) -> None:
    """Write ``values`` into the VTK array ``current`` in place when the shape fits, else a new array via ``setter``."""
    if current is not None and current.GetNumberOfTuples() == len(values) and current.GetNumberOfComponents() == values.shape[1]:
        view = vtk_to_numpy(current)
        if view.dtype == values.dtype:
            view[...] = values
            current.Modified()
            owner.Modified()
            return
    setter(numpy_to_vtk(np.ascontiguousarray(values), deep=True))


def shade(color: np.ndarray, normals: np.ndarray) -> np.ndarray:
    """Per-vertex colours lit by the fixed :data:`LIGHT`, ``(n, 3) uint8``.

    Lighting baked into vertex colours and drawn unlit costs half the
    per-pixel time of VTK's lit shader on a software renderer (measured in
    ``benchmarks/bench_explorer.py``); the light stays put in the world like a
    lamp above the table, which reads naturally while the camera turns.
    """
    if not normals.flags.writeable:  # a cached template (spheres): shade it once per colour
        return _shade_template(tuple(color), normals)
    return _shade(color, normals)


def _shade(color, normals: np.ndarray) -> np.ndarray:
    cos = np.clip(normals @ LIGHT, 0.0, 1.0)
    rgb = np.asarray(color)[None, :] * (AMBIENT + DIFFUSE * cos[:, None]) + SPECULAR * (cos**24)[:, None]
    return (np.clip(rgb, 0.0, 1.0) * 255.0 + 0.5).astype(np.uint8)


_TEMPLATE_SHADES: dict = {}


def _shade_template(color: tuple, normals: np.ndarray) -> np.ndarray:
    key = (color, id(normals))
    if key not in _TEMPLATE_SHADES:
        _TEMPLATE_SHADES[key] = (_shade(color, normals), normals)  # keep normals alive: id stays unique
    return _TEMPLATE_SHADES[key][0]


@lru_cache(maxsize=64)
def _rgb(color) -> tuple[float, float, float]:
    """A colour name, hex string or RGB tuple as floats in [0, 1]."""
    return tuple(pv.Color(color).float_rgb)


def _freeze(value):
    """A hashable copy of builder arguments (arrays and lists become tuples)."""
    if isinstance(value, np.ndarray):
        return tuple(value.ravel().tolist()) + (value.shape,)
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


class SceneView:
    """All the meshes of one scene in one plotter, updated in place.

    Parameters
    ----------
    plotter : pyvista.Plotter
        Off-screen plotter or ``pyvistaqt.QtInteractor``.
    handles : bool
        Draw drag handles (arrow tips and centre knobs), for the window.
    """

    def __init__(self, plotter: pv.Plotter, handles: bool = False) -> None:
        self.plotter = plotter
        self.handles = handles
        self.items: dict[str, _Item] = {}
        self.overlay: vtkRenderer
        self.labels: dict[str, vtkTextActor] = {}
        self.layers = dict(LAYERS)
        self.scale = 1.0
        self.drawn_centers: list[tuple[float, float, float]] = []
        self.drawn_tips: list[tuple[float, float, float]] = []
        self.drawn_radii: list[float] = []
        self.status_actor = vtkTextActor()
        self._text_style(self.status_actor.GetTextProperty(), 16)
        self.status_actor.GetPositionCoordinate().SetCoordinateSystemToNormalizedViewport()
        self.status_actor.SetPosition(0.012, 0.955)
        self.status_actor.GetTextProperty().SetVerticalJustificationToTop()
        plotter.renderer.AddViewProp(self.status_actor)
        self.legend: list[vtkTextActor] = []
        for k in range(len(LEGEND_ROWS)):
            actor = vtkTextActor()
            self._text_style(actor.GetTextProperty(), 13)
            actor.GetTextProperty().SetJustificationToRight()
            actor.GetPositionCoordinate().SetCoordinateSystemToNormalizedViewport()
            actor.SetPosition(0.985, 0.03 + 0.032 * (len(LEGEND_ROWS) - 1 - k))
            actor.SetVisibility(False)
            plotter.renderer.AddViewProp(actor)
            self.legend.append(actor)
        plotter.set_background(BACKGROUND)
        # one head light: every extra light is paid per pixel by the software renderer
        plotter.remove_all_lights()
        plotter.add_light(pv.Light(light_type="headlight", intensity=1.0))
        # long shots: a close-up of a 0.05 sphere beside a path 1e6 long must not fall
        # in front of the near clipping plane that VTK derives from all the bounds
        plotter.renderer.SetNearClippingPlaneTolerance(NEAR_CLIP_TOLERANCE)
        # plain alpha blending: order-independent transparency and depth peeling cost
        # several full-screen passes on a software renderer (measured: 2x per frame)
        plotter.renderer.SetUseOIT(False)
        plotter.renderer.SetUseDepthPeeling(False)
        # overlay layer for markers that must stay visible, sharing the scene's camera
        self.overlay = vtkRenderer()
        self.overlay.SetLayer(1)
        self.overlay.InteractiveOff()
        self.overlay.SetActiveCamera(plotter.renderer.GetActiveCamera())
        window = plotter.render_window if hasattr(plotter, "render_window") else plotter.ren_win
        window.SetNumberOfLayers(max(2, window.GetNumberOfLayers()))
        window.AddRenderer(self.overlay)
        self._axes_added = False
        self._build()

    # -- creation ------------------------------------------------------------
    def _add(
        self,
        name: str,
        layer: str | None,
        color: str,
        opacity: float = 1.0,
        style: str = "surface",
        lit: bool = True,
        line_width: float = 1.0,
        on_top: bool = False,
    ) -> _Item:
        """Create item ``name``: an empty mesh, its mapper and actor, hidden until shown.

        Every actor is drawn unlit; ``lit`` items get their shading baked into
        vertex colours by :func:`shade` at upload.  ``on_top`` items go to an
        overlay layer drawn after the scene, so small markers (the contact
        point, the roots) are never hidden inside spheres.
        """
        mesh = vtkPolyData()
        mapper = vtkPolyDataMapper()
        mapper.SetInputData(mesh)
        shaded = lit and style == "surface"
        if shaded:
            mapper.SetColorModeToDirectScalars()
            mapper.SetScalarModeToUsePointData()
            mapper.ScalarVisibilityOn()
        else:
            mapper.ScalarVisibilityOff()
        actor = vtkActor()
        actor.SetMapper(mapper)
        prop = actor.GetProperty()
        rgb = np.array(pv.Color(color).float_rgb)
        prop.SetColor(*rgb)
        prop.SetOpacity(opacity)
        prop.SetLineWidth(line_width)
        prop.LightingOff()
        if style == "wireframe":
            prop.SetRepresentationToWireframe()
        if opacity < 1.0 and style != "wireframe":
            prop.BackfaceCullingOn()  # one translucent layer per closed surface, half the fill cost
        actor.SetVisibility(False)
        (self.overlay if on_top else self.plotter.renderer).AddActor(actor)
        item = _Item(mesh, actor, layer, rgb, shaded)
        self.items[name] = item
        return item

    def _text_style(self, prop, size: int, color=TEXT_COLOR, bold: bool = False) -> None:
        if FONT:
            prop.SetFontFamily(4)  # VTK_FONT_FILE
            prop.SetFontFile(FONT)
        prop.SetFontSize(size)
        prop.SetColor(*color)
        prop.SetBold(bold)

    def _label(self, name: str, layer: str | None = "labels") -> vtkTextActor:
        """A text overlay anchored at a 3-D point: drawn on top, so geometry never hides it."""
        actor = vtkTextActor()
        self._text_style(actor.GetTextProperty(), 15, bold=True)
        prop = actor.GetTextProperty()
        prop.SetBackgroundColor(1.0, 1.0, 1.0)
        prop.SetBackgroundOpacity(0.75)
        prop.SetFrame(False)
        actor.GetTextProperty().SetJustificationToCentered()
        actor.GetTextProperty().SetVerticalJustificationToCentered()
        anchor = vtkCoordinate()
        anchor.SetCoordinateSystemToWorld()
        position = actor.GetPositionCoordinate()
        position.SetCoordinateSystemToDisplay()  # a pixel offset from the anchor
        position.SetReferenceCoordinate(anchor)
        actor.SetVisibility(False)
        self.plotter.renderer.AddViewProp(actor)
        self.labels[name] = actor
        return actor

    def _build(self) -> None:
        for i in range(MAX_BODIES):
            color = BODY_COLORS[i]
            self._add(f"capsule{i}", "capsules", color=color, opacity=CAPSULE_OPACITY, lit=False)
            self._add(f"body{i}", None, color=color)
            self._add(f"arrow{i}", None, color=color)
            self._add(f"handle{i}", None, color=color)
            self._add(f"time_ring{i}", "capsules", color=color)
            self._label(f"name{i}")
        self._add("container_rim", None, color=BODY_COLORS[1], opacity=0.6, style="wireframe", line_width=1)
        self._add("overlap", None, color=OVERLAP_COLOR, opacity=0.35)
        self._add("minkowski", "minkowski", color=MINKOWSKI_COLOR, opacity=MINKOWSKI_OPACITY, lit=False)
        self._add("minkowski_rim", "minkowski", color=MINKOWSKI_COLOR, opacity=0.35, style="wireframe", line_width=1)
        self._add("centre_path", None, color=PATH_COLOR)
        self._add("relative_path", "minkowski", color=MINKOWSKI_COLOR)
        for k, color in ((0, ENTER_COLOR), (1, EXIT_COLOR)):
            self._add(f"ghost_a{k}", "roots", color=BODY_COLORS[0], opacity=GHOST_OPACITY)
            self._add(f"ghost_b{k}", "roots", color=BODY_COLORS[1], opacity=GHOST_OPACITY)
            self._add(f"ghost_a{k}_faded", "roots", color=FADED_COLOR, opacity=FADED_OPACITY, style="wireframe", lit=False)
            self._add(f"marker{k}", "roots", color=color, lit=False, on_top=True)
            self._label(f"root{k}", "roots")
        self._add("contact_point", "contact", color=CONTACT_COLOR, lit=False, on_top=True)
        self._add("contact_normal", "contact", color=CONTACT_COLOR, on_top=True)
        self._add("reflection", "reflection", color=REFLECT_COLOR)
        self._add("reflection_end", "reflection", color=REFLECT_COLOR, opacity=GHOST_OPACITY)
        self._add("reflection_b", "reflection", color=REFLECT_COLOR)
        self._add("reflection_b_end", "reflection", color=BODY_COLORS[1], opacity=GHOST_OPACITY)
        self._add("closest", "contact", color=CLOSEST_COLOR)
        self._label("closest", "contact")
        self._add("grid", "axes", color="#c8c8c8", lit=False)

    # -- helpers ---------------------------------------------------------------
    def _show(self, name: str, builder, *args) -> None:
        """Show item ``name`` as ``builder(*args)`` (a :class:`geometry.Mesh`).

        The mesh is rebuilt and uploaded only when the arguments changed since
        the last call for this item: during a drag most items stay as they are.
        """
        item = self.items[name]
        key = (builder, _freeze(args))
        if key != item.key:
            self._upload(item, builder(*args))
            item.key = key
        item.actor.SetVisibility(not item.mesh_empty and (item.layer is None or self.layers.get(item.layer, True)))

    @staticmethod
    def _upload(item: _Item, mesh: geometry.Mesh) -> None:
        """Put ``mesh`` into the item's VTK polydata in place (points, cells, normals)."""
        data = item.mesh
        item.mesh_empty = mesh.empty
        if mesh.empty:
            return
        points = data.GetPoints()
        if points is None:
            points = vtkPoints()
            data.SetPoints(points)
        _assign(points, mesh.points, points.GetData(), points.SetData)
        cells = mesh.faces if mesh.faces is not None else mesh.lines
        if cells is not item.cells:
            array = vtkCellArray()
            array.ImportLegacyFormat(numpy_to_vtkIdTypeArray(np.ascontiguousarray(cells, dtype=np.int64), deep=True))
            empty = vtkCellArray()
            data.SetPolys(array if mesh.faces is not None else empty)
            data.SetLines(array if mesh.faces is None else vtkCellArray())
            item.cells = cells
        if item.shaded and mesh.normals is not None:
            attributes = data.GetPointData()
            _assign(attributes, shade(item.color, mesh.normals), attributes.GetScalars(), attributes.SetScalars)
        data.Modified()

    def _set_color(self, name: str, color: str) -> None:
        """Change an item's colour (re-shading it at the next upload)."""
        item = self.items[name]
        rgb = np.array(_rgb(color))
        if not np.array_equal(rgb, item.color):
            item.color = rgb
            item.actor.GetProperty().SetColor(*rgb)
            item.key = None

    def _show_label(self, name: str, position, text: str, color=TEXT_COLOR, offset=(0, 0)) -> None:
        """Show label ``name`` at a 3-D ``position``, shifted by ``offset`` pixels."""
        actor = self.labels[name]
        actor.SetInput(text)
        actor.GetPositionCoordinate().GetReferenceCoordinate().SetValue(*(float(x) for x in position))
        actor.GetPositionCoordinate().SetValue(float(offset[0]), float(offset[1]))
        actor.GetTextProperty().SetColor(*_rgb(color))
        layer = "labels" if name.startswith("name") else ("roots" if name.startswith("root") else "contact")
        actor.SetVisibility(self.layers.get("labels", True) and self.layers.get(layer, True))

    def hide_all(self) -> None:
        """Hide every item (the next :meth:`update` shows what applies)."""
        for item in self.items.values():
            item.actor.SetVisibility(False)
        for label in self.labels.values():
            label.SetVisibility(False)

    # -- the update ------------------------------------------------------------
    def update(self, scene: Scene, solution: Solution, t: float = 0.0, frame: float = 0.0) -> None:
        """Redraw everything for ``scene`` at time ``t``, in the world frame or B's rest frame.

        Parameters
        ----------
        scene : Scene
        solution : Solution
            ``explorer.analysis.solve(scene)``.
        t : float
            Time at which the spheres are drawn along their bounce paths (the
            roots, capsules and arrows do not depend on it; a ring on each
            capsule marks it).
        frame : float
            0 for the world frame, 1 for the rest frame of the primary other body
            B, in between for the animated transition.  In B's frame a point seen
            at time τ is shifted by ``-vB τ``; A shrinks to a point and B grows
            into the expanded sphere of radius rA + rB (in a container, shrinks
            to rC - rA): the Minkowski reduction of seeds 000, 001 and 002.
        """
        self.layers = scene.layers
        self.hide_all()
        s = solution.sweep
        bodies = scene.bodies
        h = scene.horizon
        a_index, b_index = 0, solution.other
        grid_box = view_bounds(scene, solution)  # the grid stays under the world-frame view
        lo, hi = grid_box if frame < 0.5 else view_bounds(scene, solution, frame)
        # markers, arrows and tubes: sized by the smaller sphere, but never large in the view
        self.scale = min(min(b.radius for b in bodies[:2]), MARK_SPAN * float(np.linalg.norm(hi - lo)))
        r_small = self.scale
        inside = scene.mode == "inside"
        a_body, other = bodies[a_index], bodies[b_index]
        shift = np.multiply(other.velocity, frame)  # B's frame: a point at time tau moves by -shift * tau

        def at(point, tau: float) -> np.ndarray:
            return np.asarray(point, dtype=float) - shift * tau

        def radius(i: int) -> float:
            r = bodies[i].radius
            if i == a_index:
                return r + frame * (POINT_RADIUS * r_small - r)
            if i == b_index:
                return r - frame * a_body.radius if inside else r + frame * a_body.radius
            return r

        world = solution.path.positions(min(max(t, 0.0), h)) if t <= h else _beyond(solution, t)
        positions = [at(p, t) for p in world]
        #: What was drawn, for picking: centres, arrow tips and radii as displayed.
        self.drawn_centers = [tuple(float(x) for x in p) for p in positions]
        self.drawn_tips = [
            tuple(float(x) for x in np.add(b.center, np.subtract(b.velocity, shift) * h)) for b in bodies
        ]
        self.drawn_radii = [radius(i) for i in range(len(bodies))]

        # spheres, arrows, capsules, the time ring, names
        for i, body in enumerate(bodies):
            translucent = (inside and i == 1) or (i == b_index and not inside and frame > 0.0)
            prop = self.items[f"body{i}"].actor.GetProperty()
            if inside and i == 1:
                prop.SetOpacity(CONTAINER_OPACITY)
            elif i == b_index and frame > 0.0:
                prop.SetOpacity(1.0 - frame * (1.0 - RELATIVE_B_OPACITY))
            else:
                prop.SetOpacity(1.0)
            prop.SetBackfaceCulling(translucent)
            res = (48, 24) if translucent else geometry.SPHERE_RES
            self._show(f"body{i}", geometry.sphere, positions[i], radius(i), res)
            if inside and i == 1:
                self._show("container_rim", geometry.circles, positions[i], radius(i))
            velocity = np.subtract(body.velocity, shift)
            end = np.add(body.center, velocity * h)
            moving = bool(np.any(velocity))
            if moving:
                self._show(f"capsule{i}", geometry.capsule, body.center, end, radius(i))
                shaft = 0.06 * r_small
                self._show(f"arrow{i}", geometry.arrow, body.center, end, shaft, 2.6 * shaft, 5.0 * shaft)
                if 0.0 < t <= h:
                    ring_at = np.add(body.center, velocity * t)
                    self._show(f"time_ring{i}", geometry.ring, ring_at, velocity, radius(i) * 1.02, 0.02 * r_small)
            if self.handles and frame == 0.0:
                knob = end if moving else np.asarray(body.center)
                self._show(f"handle{i}", geometry.sphere, knob, 0.22 * r_small, (16, 8))
            self._show_label(f"name{i}", positions[i], body.name, BODY_COLORS[i])

        # expanded (pair) or shrunken (inside) sphere, with the relative path of A's centre
        if frame < 1.0:
            self._show("minkowski", geometry.sphere, other.center, s.radius, (48, 24))
        self._show("minkowski_rim", geometry.circles, other.center, s.radius)
        rel_v = np.subtract(a_body.velocity, other.velocity)
        t_lo, t_hi = (0.0, h) if s.roots is None else (min(0.0, s.roots[0]), max(h, s.roots[1]))
        if s.roots is not None and max(abs(t_lo), abs(t_hi)) > 50 * h:
            t_lo, t_hi = max(t_lo, -50 * h), min(t_hi, 50 * h)
        rel_start = np.asarray(a_body.center)
        a_end = np.add(a_body.center, np.subtract(a_body.velocity, shift) * h)
        self._show("centre_path", geometry.tube, [a_body.center, a_end], 0.025 * r_small)
        if any(rel_v):
            self._show("relative_path", geometry.dashed_tube, rel_start + rel_v * t_lo, rel_start + rel_v * t_hi, r_small)

        # both roots: markers on the relative path (B's frame), ghosts at those times
        if s.roots is not None:
            double = s.roots[0] == s.roots[1]  # exactly tangent: the spheres touch at one instant
            for k, root in enumerate(s.roots[:1] if double else s.roots):
                inside_h = 0.0 <= root <= h
                marker = rel_start + rel_v * root
                color = (ENTER_COLOR, EXIT_COLOR)[k] if inside_h else FADED_COLOR
                self._set_color(f"marker{k}", color)
                self._show(f"marker{k}", geometry.sphere, marker, 0.12 * r_small, (16, 8))
                suffix = "" if inside_h else ("  (before t = 0)" if root < 0 else "  (after h)")
                ghost_a = at(a_body.position(root), root)
                ghost_b = at(other.position(root), root)
                # label just outside A's ghost, on the side away from the other body, clear of the contact
                away = np.subtract(ghost_a, ghost_b) * (-1.0 if inside else 1.0)
                length = float(np.linalg.norm(away))
                anchor = marker if length == 0.0 else ghost_a + away / length * (radius(a_index) + 0.5 * r_small)
                name = f"{root_label(0, SUBSCRIPTS)} = {root_label(1, SUBSCRIPTS)}" if double else root_label(k, SUBSCRIPTS)
                self._show_label(f"root{k}", anchor, f"{name} = {fmt(root)}{suffix}" + ("  (double root: a graze)" if double else ""), color)
                if inside_h:
                    self._show(f"ghost_a{k}", geometry.sphere, ghost_a, radius(a_index))
                    if np.any(np.subtract(other.velocity, shift)):
                        self._show(f"ghost_b{k}", geometry.sphere, ghost_b, radius(b_index))
                else:
                    self._show(f"ghost_a{k}_faded", geometry.sphere, ghost_a, radius(a_index), (18, 9))

        # contact point and normal
        contact = s.contact
        if contact is not None:
            point = at(contact.point, contact.time)
            self._show("contact_point", geometry.sphere, point, 0.2 * r_small, (20, 10))
            # B's surface normal at the contact (pointing back towards A): the plane A reflects in
            tip = np.subtract(point, np.multiply(contact.normal, 0.9 * a_body.radius))
            shaft = 0.04 * r_small
            self._show("contact_normal", geometry.arrow, point, tip, shaft, 2.5 * shaft, 4 * shaft)

        # overlap at t = 0
        if s.status is Status.OVERLAPPING:
            pair = (a_index, b_index)
            self._show("overlap", geometry.spheres, [bodies[j].center for j in pair], [radius(j) * 1.04 for j in pair], (24, 12))

        # reflected path after the first contact (world frame only: B's rest frame ends at the impact)
        path = solution.path
        if path.bounces and frame < 0.5:
            first = path.bounces[0].time
            times = [first] + [seg.t_end for seg in path.segments if seg.t_start >= first]
            centres = [at(path.positions(tau)[0], tau) for tau in times]
            if len(centres) > 1:
                self._show("reflection", geometry.tube, centres, 0.035 * r_small)
                self._show("reflection_end", geometry.sphere, centres[-1], radius(a_index), (24, 12))
            j = path.bounces[0].other
            start_j, after = at(path.positions(first)[j], first), at(path.positions(h)[j], h)
            if not inside and not bodies[j].fixed and np.any(np.subtract(after, start_j)):
                self._show("reflection_b", geometry.tube, [start_j, after], 0.035 * r_small)
                self._set_color("reflection_b_end", BODY_COLORS[j])
                self._show("reflection_b_end", geometry.sphere, after, radius(j), (24, 12))

        # closest approach for a miss (or a later contact)
        if s.status in (Status.MISS, Status.LATER, Status.SEPARATING, Status.NO_RELATIVE_MOTION):
            closest = s.closest
            pa, pb = (at(p, closest.time) for p in s.positions(closest.time))
            self._show("closest", geometry.tube, [pa, pb], 0.03 * r_small)
            text = f"closest {fmt(closest.distance)} at t = {fmt(closest.time)}"
            self._show_label("closest", (pa + pb) / 2, text, CLOSEST_COLOR, (0, -40))

        self._show_grid(*grid_box)
        self._show_legend(scene)
        line = status_text(scene, solution, SUBSCRIPTS)
        if t != 0.0:
            line += f"   ·   t = {fmt(t)}"
        if frame >= 0.5:
            line += f"   ·   {other.name}'s rest frame"
        self.status_actor.SetInput(line)

    def _show_legend(self, scene: Scene) -> None:
        """The colour key in the lower right corner (with the labels layer)."""
        inside = scene.mode == "inside"
        height = max(int(self.plotter.window_size[1]), 1)
        size = int(min(13, max(7, height / 62)))  # the key keeps to ~1/4 of the view's height
        for actor, (color, text) in zip(self.legend, LEGEND_ROWS):
            if inside:
                text = LEGEND_INSIDE.get(text, text)
            actor.SetInput(text + " ■")
            actor.GetTextProperty().SetColor(*_rgb(color))
            actor.GetTextProperty().SetFontSize(size)
            actor.SetVisibility(self.layers.get("labels", True))

    def _show_grid(self, lo: np.ndarray, hi: np.ndarray) -> None:
        """A floor grid under the box ``lo``-``hi`` (3,), with decimal spacing, and the axes triad."""
        if not self.layers.get("axes", True):
            return
        if not self._axes_added and hasattr(self.plotter, "add_axes"):
            try:
                self.plotter.add_axes(interactive=False, line_width=2)
            except Exception:  # pragma: no cover - an orientation widget needs an interactor on some VTK builds
                pass
            self._axes_added = True
        span = max(hi - lo)
        step = 10.0 ** math.floor(math.log10(max(span / 4.0, 1e-12)))
        x0, x1 = math.floor(lo[0] / step) * step, math.ceil(hi[0] / step) * step
        y0, y1 = math.floor(lo[1] / step) * step, math.ceil(hi[1] / step) * step
        nx, ny = int(round((x1 - x0) / step)), int(round((y1 - y0) / step))
        if nx > 60 or ny > 60:
            return
        z = lo[2] - 0.05 * span
        points = []
        for k in range(nx + 1):
            x = x0 + k * step
            points += [(x, y0, z), (x, y1, z)]
        for k in range(ny + 1):
            y = y0 + k * step
            points += [(x0, y, z), (x1, y, z)]
        self._show("grid", geometry.segments, np.array(points, dtype=float))


def _beyond(solution: Solution, t: float):
    """Positions after the horizon: the last segment continued."""
    last = solution.path.segments[-1]
    return last.positions(t)


def scene_bounds(scene: Scene, solution: Solution | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Axis-aligned box around every body over [0, horizon] (capsules included).

    With a solution, the ghosts at roots within 5 horizons are included too.

    Returns
    -------
    lo, hi : (3,) float
    """
    lows, highs = [], []
    times = [0.0, scene.horizon]
    if solution is not None and solution.sweep.roots is not None:
        times += [r for r in solution.sweep.roots if abs(r) <= 5 * scene.horizon]
    for body in scene.bodies:
        for t in times:
            c = np.asarray(body.position(t))
            lows.append(c - body.radius)
            highs.append(c + body.radius)
    return np.min(lows, axis=0), np.max(highs, axis=0)


def view_bounds(scene: Scene, solution: Solution, frame: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """What the default camera frames: everything, or around the event for long shots.

    In B's rest frame (``frame >= 0.5``): the expanded sphere and A's centre
    along its ray over [0, h] and the nearby roots.  When the motion spans more
    than :data:`FOCUS_RATIO` times the smaller radius, a full view would show
    the spheres as dots; the camera then frames a box of a few radius sums
    around the contact point, the closest approach or the other body.
    """
    lo, hi = scene_bounds(scene, solution)
    if frame >= 0.5:
        s = solution.sweep
        a, b = scene.bodies[0], scene.bodies[solution.other]
        rel = np.subtract(a.velocity, b.velocity)
        times = [0.0, scene.horizon] + [r for r in (s.roots or ()) if abs(r) <= 5 * scene.horizon]
        points = [np.add(a.center, rel * t) for t in times]
        centre = np.asarray(b.center, dtype=float)
        lo = np.minimum(np.min(points, axis=0), centre - s.radius)
        hi = np.maximum(np.max(points, axis=0), centre + s.radius)
    s = solution.sweep
    small = min(b.radius for b in scene.bodies[:2])
    if float(np.max(hi - lo)) <= FOCUS_RATIO * small:
        return lo, hi
    if s.contact is not None:
        focus = np.asarray(s.contact.point)
    else:
        pa, pb = s.positions(s.closest.time)
        focus = (np.asarray(pa) + np.asarray(pb)) / 2
    half = 4.0 * s.radius
    return focus - half, focus + half


def default_camera(plotter: pv.Plotter, scene: Scene, solution: Solution, frame: float = 0.0) -> None:
    """Frame the motion (see :func:`view_bounds`), looking down at it from a tilt."""
    lo, hi = view_bounds(scene, solution, frame)
    centre = (lo + hi) / 2
    radius = float(np.linalg.norm(hi - lo)) / 2 or 1.0
    direction = np.array([0.1, -0.75, 1.0])
    direction /= np.linalg.norm(direction)
    plotter.camera.focal_point = tuple(centre)
    plotter.camera.position = tuple(centre + direction * radius * 3.0)
    plotter.camera.up = (0.0, 0.0, 1.0) if abs(direction[2]) < 0.99 else (0.0, 1.0, 0.0)
    plotter.camera.view_angle = 30.0
    plotter.renderer.ResetCamera(*np.ravel(np.column_stack([lo, hi])))
    plotter.camera.zoom(1.35)
    plotter.reset_camera_clipping_range()


def apply_camera(plotter: pv.Plotter, scene: Scene, solution: Solution, frame: float = 0.0) -> None:
    """The scene's saved camera, or :func:`default_camera`."""
    camera = scene.view.get("camera") if isinstance(scene.view, dict) else None
    try:
        plotter.camera.position = tuple(float(x) for x in camera["position"])
        plotter.camera.focal_point = tuple(float(x) for x in camera["focal_point"])
        plotter.camera.up = tuple(float(x) for x in camera.get("up", (0, 0, 1)))
        plotter.reset_camera_clipping_range()
    except (TypeError, KeyError, ValueError):
        default_camera(plotter, scene, solution, frame)


def camera_state(plotter: pv.Plotter) -> dict:
    """The camera as JSON-ready lists, for saving in a scene's ``view``."""
    cam = plotter.camera
    return {"position": list(cam.position), "focal_point": list(cam.focal_point), "up": list(cam.up)}


def project(plotter: pv.Plotter, point) -> tuple[float, float]:
    """Pixel ``(column, row)`` of a world point in the plotter's image (row 0 at the top)."""
    renderer = plotter.renderer
    renderer.SetWorldPoint(*(float(x) for x in point), 1.0)
    renderer.WorldToDisplay()
    x, y, _ = renderer.GetDisplayPoint()
    return x, plotter.window_size[1] - y
