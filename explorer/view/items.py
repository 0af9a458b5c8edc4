"""Drawn items: named VTK actors whose meshes are updated in place, and text labels.

An :class:`ItemSet` owns every actor of one picture.  Each item is created once,
hidden, and later shown as a :class:`explorer.view.geometry.Mesh`: new points and
cells go into the same ``vtkPolyData``, so a drag never re-creates actors, and a
mesh is rebuilt only when its builder's arguments changed.  Lighting is baked
into vertex colours (:func:`shade`).  Qt-free.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import pyvista as pv
from vtkmodules.util.numpy_support import numpy_to_vtk, numpy_to_vtkIdTypeArray, vtk_to_numpy
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkPolyData
from vtkmodules.vtkRenderingCore import vtkActor, vtkCoordinate, vtkPolyDataMapper, vtkRenderer, vtkTextActor

from . import geometry
from .catalogue import layer_shown
from .palette import TEXT_COLOR

#: Direction towards the light (world space) and the shading terms of :func:`shade`.
LIGHT = np.array([-0.35, -0.45, 1.0]) / np.linalg.norm([-0.35, -0.45, 1.0])
AMBIENT, DIFFUSE, SPECULAR = 0.35, 0.7, 0.35

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
class Item:
    """One drawn object: its mesh, actor, the layer that toggles it, and what it was built from."""

    mesh: vtkPolyData
    actor: vtkActor
    layer: str | None
    color: np.ndarray
    shaded: bool
    key: object = None
    cells: object = None
    mesh_empty: bool = True
    coloured: bool = False


def _assign(owner, values: np.ndarray, current, setter) -> None:
    """Write ``values`` into the VTK array ``current`` in place when the shape fits, else a new array via ``setter``."""
    if (
        current is not None
        and current.GetNumberOfTuples() == len(values)
        and current.GetNumberOfComponents() == values.shape[1]
    ):
        view = vtk_to_numpy(current)
        if view.dtype == values.dtype:
            view[...] = values
            current.Modified()
            owner.Modified()
            return
    setter(numpy_to_vtk(np.ascontiguousarray(values), deep=True))


def shade(color: np.ndarray, normals: np.ndarray) -> np.ndarray:
    """Per-vertex colours lit by the fixed :data:`LIGHT`, ``(n, 3) uint8``.

    ``color``: one ``(3,)`` colour, or ``(n, 3)``: one per vertex.

    Lighting baked into vertex colours and drawn unlit costs half the
    per-pixel time of VTK's lit shader on a software renderer (measured in
    ``benchmarks/bench_explorer.py``); the light stays put in the world like a
    lamp above the table, which reads naturally while the camera turns.
    """
    if not normals.flags.writeable and np.ndim(color) == 1:  # a cached template (spheres): shade it once per colour
        return _shade_template(tuple(color), normals)
    return _shade(color, normals)


def _shade(color, normals: np.ndarray) -> np.ndarray:
    cos = np.clip(normals @ LIGHT, 0.0, 1.0)
    return _bytes(np.asarray(color).reshape(-1, 3) * (AMBIENT + DIFFUSE * cos[:, None]) + SPECULAR * (cos**24)[:, None])


def _bytes(rgb: np.ndarray) -> np.ndarray:
    """Colours in [0, 1] (clipped there), ``(n, 3) float``, as the ``(n, 3) uint8`` a VTK mapper draws directly."""
    return (np.clip(rgb, 0.0, 1.0) * 255.0 + 0.5).astype(np.uint8)


_TEMPLATE_SHADES: dict = {}


def _shade_template(color: tuple, normals: np.ndarray) -> np.ndarray:
    key = (color, id(normals))
    if key not in _TEMPLATE_SHADES:
        _TEMPLATE_SHADES[key] = (_shade(color, normals), normals)  # keep normals alive: id stays unique
    return _TEMPLATE_SHADES[key][0]


@lru_cache(maxsize=64)
def rgb(color) -> tuple[float, float, float]:
    """A colour name, hex string or RGB tuple as floats in [0, 1]."""
    return tuple(pv.Color(color).float_rgb)


def _freeze(value):
    """A hashable copy of builder arguments (arrays and lists become tuples; a tuple that hashes as it is, such as
    nested tuples of numbers, is its own copy)."""
    if isinstance(value, np.ndarray):
        return tuple(value.ravel().tolist()) + (value.shape,)
    if type(value) is tuple:
        try:
            hash(value)
            return value
        except TypeError:  # it holds a list or an array
            pass
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def text_style(prop, size: int, color=TEXT_COLOR, bold: bool = False) -> None:
    """DejaVu Sans (where installed) at ``size`` points in ``color``."""
    if FONT:
        prop.SetFontFamily(4)  # VTK_FONT_FILE
        prop.SetFontFile(FONT)
    prop.SetFontSize(size)
    prop.SetColor(*color)
    prop.SetBold(bold)


class ItemSet:
    """The named items and labels of one picture, in a scene renderer and an overlay renderer.

    Parameters
    ----------
    renderer : vtkRenderer
        Where the scene's actors go.
    overlay : vtkRenderer
        A second layer drawn on top with the same camera, for markers that must
        never hide inside spheres.
    """

    def __init__(self, renderer: vtkRenderer, overlay: vtkRenderer) -> None:
        self.renderer = renderer
        self.overlay = overlay
        self.items: dict[str, Item] = {}
        self.labels: dict[str, tuple[vtkTextActor, str]] = {}
        self.layers: dict[str, bool] = {}
        self._shown_items: set[str] = set()  # shown since start_picture()
        self._shown_labels: set[str] = set()

    def visible(self, layer: str | None) -> bool:
        """Whether ``layer`` (None: always shown) is switched on."""
        return layer_shown(layer, self.layers)

    # -- creation ------------------------------------------------------------
    def add(
        self,
        name: str,
        layer: str | None,
        color: str,
        opacity: float = 1.0,
        style: str = "surface",
        lit: bool = True,
        line_width: float = 1.0,
        on_top: bool = False,
        coloured: bool = False,
    ) -> Item:
        """Create item ``name``: an empty mesh, its mapper and actor, hidden until shown.

        Every actor is drawn unlit; ``lit`` surfaces get their shading baked into
        vertex colours by :func:`shade` at upload; ``coloured`` lines and dots
        take their meshes' own colours, one per point.  ``on_top`` items go to
        the overlay layer.
        """
        mesh = vtkPolyData()
        mapper = vtkPolyDataMapper()
        mapper.SetInputData(mesh)
        shaded = lit and style == "surface" and not coloured
        if shaded or coloured:
            mapper.SetColorModeToDirectScalars()
            mapper.SetScalarModeToUsePointData()
            mapper.ScalarVisibilityOn()
        else:
            mapper.ScalarVisibilityOff()
        actor = vtkActor()
        actor.SetMapper(mapper)
        prop = actor.GetProperty()
        color_rgb = np.array(rgb(color))
        prop.SetColor(*color_rgb)
        prop.SetOpacity(opacity)
        prop.SetLineWidth(line_width)
        prop.LightingOff()
        if style == "wireframe":
            prop.SetRepresentationToWireframe()
        if style != "wireframe":
            # back faces are never seen from outside a closed surface: culling them halves the fill,
            # keeps one translucent layer per surface, and leaves nothing to fight the front faces
            # for the depth buffer when a long scene stretches the depth range (dark speckles)
            prop.BackfaceCullingOn()
        actor.SetVisibility(False)
        (self.overlay if on_top else self.renderer).AddActor(actor)
        item = Item(mesh, actor, layer, color_rgb, shaded, coloured=coloured)
        self.items[name] = item
        return item

    def add_label(self, name: str, layer: str, size: int) -> vtkTextActor:
        """A text overlay anchored at a 3-D point: drawn on top, so geometry never hides it.

        Shown only while both the ``labels`` layer and ``layer`` are on.
        """
        actor = vtkTextActor()
        prop = actor.GetTextProperty()
        text_style(prop, size, bold=True)
        prop.SetBackgroundColor(1.0, 1.0, 1.0)
        prop.SetBackgroundOpacity(0.75)
        prop.SetFrame(False)
        prop.SetJustificationToCentered()
        prop.SetVerticalJustificationToCentered()
        anchor = vtkCoordinate()
        anchor.SetCoordinateSystemToWorld()
        position = actor.GetPositionCoordinate()
        position.SetCoordinateSystemToDisplay()  # a pixel offset from the anchor
        position.SetReferenceCoordinate(anchor)
        actor.SetVisibility(False)
        self.renderer.AddViewProp(actor)
        self.labels[name] = (actor, layer)
        return actor

    # -- showing -------------------------------------------------------------
    def built(self, name: str, builder, *args) -> tuple:
        """``(key, mesh)``: what :meth:`show` needs to show item ``name`` as ``builder(*args)``.

        ``mesh`` is the new :class:`geometry.Mesh`, or None when the item already shows these
        arguments (or, for a sphere, this tessellation): then ``key`` is the item's own.  Reads the
        item's key and touches no VTK object, so it may run in another thread while this one
        renders; a key that changed since only costs a mesh built again by :meth:`show`.
        """
        key_now = self.items[name].key
        if builder is geometry.sphere:
            _center, _radius, *res = args
            key = (builder, tuple(res))
            return (key_now, None) if key == key_now else (key, geometry.sphere((0.0, 0.0, 0.0), 1.0, *res))
        key = (builder, _freeze(args))
        return (key_now, None) if key == key_now else (key, builder(*args))

    def show(self, name: str, builder, *args, built: tuple | None = None) -> None:
        """Show item ``name`` as ``builder(*args)`` (a :class:`geometry.Mesh`).

        The mesh is rebuilt and uploaded only when the arguments changed since
        the last call for this item: during a drag most items stay as they are.
        Spheres (:func:`geometry.sphere`) are one unit sphere per tessellation,
        placed by the actor's position and scale, so moving or resizing one
        uploads nothing.  ``built``: what :meth:`built` gave for these arguments, made beforehand.
        """
        item = self.items[name]
        self._shown_items.add(name)
        if built is None or (built[1] is None and built[0] is not item.key):  # none, or made before the item changed
            built = self.built(name, builder, *args)
        key, mesh = built
        if builder is geometry.sphere:
            center, radius, *_res = args
            item.actor.SetPosition(*(float(x) for x in center))
            item.actor.SetScale(float(radius))
        elif mesh is not None and (
            item.actor.GetPosition() != (0.0, 0.0, 0.0) or item.actor.GetScale() != (1.0, 1.0, 1.0)
        ):
            item.actor.SetPosition(0.0, 0.0, 0.0)
            item.actor.SetScale(1.0)
        if mesh is not None:
            self._upload(item, mesh)
            item.key = key
        item.actor.SetVisibility(not item.mesh_empty and self.visible(item.layer))

    @staticmethod
    def _upload(item: Item, mesh: geometry.Mesh) -> None:
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
        cells = mesh.cells
        if cells is not item.cells:
            array = vtkCellArray()
            array.ImportLegacyFormat(numpy_to_vtkIdTypeArray(np.ascontiguousarray(cells, dtype=np.int64), deep=True))
            for kind, setter in ((mesh.faces, data.SetPolys), (mesh.lines, data.SetLines), (mesh.verts, data.SetVerts)):
                setter(array if kind is cells else vtkCellArray())
            item.cells = cells
        attributes = data.GetPointData()
        if item.shaded and mesh.normals is not None:
            base = item.color if mesh.colors is None else mesh.colors
            _assign(attributes, shade(base, mesh.normals), attributes.GetScalars(), attributes.SetScalars)
        elif item.coloured and mesh.colors is not None:  # flat colours, one per point
            _assign(attributes, _bytes(mesh.colors), attributes.GetScalars(), attributes.SetScalars)
        data.Modified()

    def set_color(self, name: str, color: str) -> None:
        """Change an item's colour (re-shading it at the next upload)."""
        item = self.items[name]
        color_rgb = np.array(rgb(color))
        if not np.array_equal(color_rgb, item.color):
            item.color = color_rgb
            item.actor.GetProperty().SetColor(*color_rgb)
            item.key = None

    def show_label(self, name: str, position, text: str, color=TEXT_COLOR, offset=(0, 0)) -> None:
        """Show label ``name`` at a 3-D ``position``, shifted by ``offset`` pixels."""
        actor, layer = self.labels[name]
        self._shown_labels.add(name)
        if actor.GetInput() != text:  # new text is rasterised again: skip when unchanged
            actor.SetInput(text)
        actor.GetPositionCoordinate().GetReferenceCoordinate().SetValue(*(float(x) for x in position))
        actor.GetPositionCoordinate().SetValue(float(offset[0]), float(offset[1]))
        actor.GetTextProperty().SetColor(*rgb(color))
        actor.SetVisibility(self.visible("labels") and self.visible(layer))

    def start_picture(self) -> None:
        """Start a new picture: every item and label not shown again before :meth:`end_picture` is hidden then.

        What stays shown is not touched: hiding everything first and showing it
        again marks every actor changed, and VTK then rasterises every text
        again and checks every mapper (2 to 3 ms a frame of the 16-ball break on
        a software renderer).
        """
        self._shown_items.clear()
        self._shown_labels.clear()

    def end_picture(self) -> None:
        """Hide every item and label not shown since :meth:`start_picture`."""
        for name, item in self.items.items():
            if name not in self._shown_items:
                item.actor.SetVisibility(False)
        for name, (actor, _) in self.labels.items():
            if name not in self._shown_labels:
                actor.SetVisibility(False)
