"""The picture of a scene drawn with VTK: (scene, solution, time, reference frame, layers) -> actors in a plotter.

Used by both the Qt window (its 3-D view is a pyvista plotter in a native widget) and the
headless pictures (``sphere-explorer render``), so a PNG from the command line
and the window show the same thing.  What is shown is decided by
:func:`explorer.view.picture.describe` (plain data, which the web page draws
too); this module turns each shape into its item's mesh (:mod:`.geometry`,
updated in place by :mod:`.items`), draws the verdict line and the colour key
(:mod:`.overlay`) and keeps the labels clear of the spheres and of one another
(:mod:`.labels`).  Qt-free.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass

import pyvista as pv
from vtkmodules.vtkRenderingCore import vtkRenderer

from ..model.actions.asking import hides_answers, question_text, shown_layers
from ..model.derived.analysis import Solution
from ..model.derived.inspection import Focus
from ..model.state.scene import DEFAULT_STEPS, LAYERS, Scene
from . import geometry
from .bounds import NEAR_CLIP_TOLERANCE
from .catalogue import LEAST_DOT, LEAST_LINE, add_scene_items
from .items import SUBSCRIPTS, ItemSet, rgb
from .label_places import axis_label_reach, label_plan
from .labels import LabelLayout
from .overlay import LABEL_SIZE, NORMAL, VERDICT_SIZE, TextOverlay, ViewStyle
from .overlay_text import wrapped
from .palette import BACKGROUND
from .picture import Picture, Shape, describe, least_marks
from .placement import Placement

#: Root labels without subscript digits where the font has none.
_PLAIN_DIGITS = str.maketrans("₀₁", "01")


def _coloured_tubes(paths, colors, radius: float):
    return geometry.coloured_tubes(paths, [rgb(c) for c in colors], radius)


#: The mesh builder of each kind of shape (:data:`explorer.view.picture.KINDS`).
BUILDERS = {
    "sphere": geometry.sphere,
    "spheres": geometry.spheres,
    "capsule": geometry.capsule,
    "arrow": geometry.arrow,
    "ring": geometry.ring,
    "circles": geometry.circles,
    "tube": geometry.tube,
    "coloured_tubes": _coloured_tubes,
    "dashed_tube": geometry.dashed_tube,
    "flat_circles": geometry.flat_circles,
    "segments": geometry.segments,
}


@dataclass(frozen=True)
class Prepared:
    """:meth:`SceneView.prepare`'s result: the ``arguments`` it was made from (by name) and the view ``style``, the
    ``layers`` shown, the ``picture`` (:class:`.picture.Picture`) and ``meshes``, each of its shapes' ``(key, mesh)``
    in order (:meth:`.items.ItemSet.built`)."""

    arguments: dict
    style: ViewStyle
    layers: dict[str, bool]
    picture: Picture
    meshes: tuple[tuple, ...]

    def made_from(self, arguments: dict, style: ViewStyle) -> bool:
        """Whether this was prepared from ``arguments`` and ``style``: the scene, solution and focus the same objects
        (a session hands each out once per change), the rest equal."""
        mine = self.arguments
        return (
            style is self.style
            and all(arguments[name] is mine[name] for name in _BY_IDENTITY)
            and all(arguments[name] == mine[name] for name in mine if name not in _BY_IDENTITY)
        )


#: :meth:`SceneView.prepare`'s arguments compared by identity in :meth:`Prepared.made_from`.
_BY_IDENTITY = ("scene", "solution", "focus")


class SceneView:
    """All the drawn objects of one scene in one plotter, updated in place.

    Parameters
    ----------
    plotter : pyvista.Plotter
        An off-screen plotter, or the window's (``explorer.qt.native_plotter.NativePlotter``).
    handles : bool
        Draw drag handles (arrow tips), for the window.
    """

    def __init__(self, plotter: pv.Plotter, handles: bool = False) -> None:
        self.plotter = plotter
        self.handles = handles
        self.style = NORMAL
        self.placement: Placement | None = None
        renderer = plotter.renderer
        plotter.set_background(BACKGROUND)
        # one head light: every extra light is paid per pixel by the software renderer
        plotter.remove_all_lights()
        plotter.add_light(pv.Light(light_type="headlight", intensity=1.0))
        # long shots: a close-up of a 0.05 sphere beside a path 1e6 long must not fall
        # in front of the near clipping plane that VTK derives from all the bounds
        renderer.SetNearClippingPlaneTolerance(NEAR_CLIP_TOLERANCE)
        # plain alpha blending: order-independent transparency and depth peeling cost
        # several full-screen passes on a software renderer (measured: 2x per frame)
        renderer.SetUseOIT(False)
        renderer.SetUseDepthPeeling(False)
        # overlay layer for markers that must stay visible, sharing the scene's camera
        overlay = vtkRenderer()
        overlay.SetLayer(1)
        overlay.InteractiveOff()
        overlay.SetActiveCamera(renderer.GetActiveCamera())
        window = plotter.render_window
        window.SetNumberOfLayers(max(2, window.GetNumberOfLayers()))
        window.AddRenderer(overlay)
        self.items = ItemSet(renderer, overlay)
        self.text = TextOverlay(overlay)  # the verdict, a note under it and the colour key
        self.labels = LabelLayout(renderer, self.items, lambda: (self.text.actors(), overlay))  # labels keep clear
        self._axes_added = False
        add_scene_items(self.items, LABEL_SIZE)
        self.items.add("least_dots", None, BACKGROUND, lit=False, coloured=True)
        self.items.add("least_lines", None, BACKGROUND, lit=False, coloured=True)
        self.items.items["least_dots"].actor.GetProperty().SetRenderPointsAsSpheres(True)
        self._least_sizes(NORMAL)

    def set_style(self, style: ViewStyle) -> None:
        """Draw text and thin things at ``style``'s sizes from the next :meth:`update` on."""
        self.style = style
        self._least_sizes(style)
        for actor, _ in self.items.labels.values():
            actor.GetTextProperty().SetFontSize(round(LABEL_SIZE * style.text_scale))
        self.text.set_style(style)

    # -- the update ------------------------------------------------------------
    def update(self, *args, prepared: Prepared | None = None, **kwargs) -> Placement:
        """Redraw everything for ``scene`` at time ``t``, in the world frame or B's rest frame.

        Parameters
        ----------
        *args, **kwargs
            As :meth:`prepare`'s.
        prepared : Prepared, optional
            :meth:`prepare`'s result for these same arguments, made beforehand (in another thread while the
            previous frame rendered); made now when not given or made from other arguments.

        Returns
        -------
        Placement
            Where the bodies were drawn (also kept as :attr:`placement`, for picking).
        """
        bound = _PREPARE.bind(self, *args, **kwargs)
        bound.apply_defaults()
        if prepared is None or not prepared.made_from(bound.arguments, self.style):
            prepared = self.prepare(*args, **kwargs)
        scene, solution, focus, stage = (prepared.arguments[name] for name in ("scene", "solution", "focus", "stage"))
        picture = prepared.picture
        self.items.layers = prepared.layers
        self.items.start_picture()
        ask = hides_answers(stage)
        at = picture.placement
        self.placement = at
        for shape, built in zip(picture.shapes, prepared.meshes):
            self._draw(shape, built)
        self._draw_least(picture.shapes)
        for label in picture.labels:
            text = label.text if SUBSCRIPTS else label.text.translate(_PLAIN_DIGITS)
            self.items.show_label(label.name, label.anchor, text, label.color, label.offset)
        self.items.end_picture()
        if self.items.visible("axes"):
            self._add_axes()
        visible = self.items.visible("labels")
        self.text.draw_legend(scene, int(self.plotter.window_size[1]), self.style, visible, focus, self.items.layers)
        question = None
        if ask:  # a question can be long: broken into lines that fit the view (large in presentation mode)
            width = 0.97 * self.plotter.window_size[0]
            question = wrapped(question_text(scene), width, VERDICT_SIZE * self.style.text_scale)
        self.text.draw_verdict(scene, solution, at, picture.note, focus, self.items.visible("conserved"), question)
        self.labels.arrange(label_plan(scene, solution, at, focus))
        return at

    def prepare(
        self,
        scene: Scene,
        solution: Solution,
        t: float = 0.0,
        reference: float = 0.0,
        layers: dict[str, bool] | None = None,
        steps: int = DEFAULT_STEPS,
        focus: Focus | None = None,
        com: float = 0.0,
        stage: str = "shown",
    ) -> Prepared:
        """What :meth:`update` works out before it touches VTK: the picture and the meshes that changed since the
        last update.

        Touches no VTK object, so the window runs it in another thread while the previous frame renders
        (:mod:`explorer.qt.viewport`).

        Parameters
        ----------
        scene : Scene
        solution : Solution
            ``explorer.model.derived.analysis.solve(scene)``.
        t : float
            Time at which the spheres are drawn along their bounce paths (the
            roots, capsules and arrows do not depend on it; a ring on each
            capsule marks it).
        reference : float
            0 for the world frame, 1 for the rest frame of the primary other body
            B, in between for the animated turn.  In B's frame a point seen at
            time τ is shifted by ``-vB τ`` (B's velocity at ``t``, the frame pinned
            on B: :mod:`explorer.model.derived.frames`); A shrinks to a point and B
            grows into the expanded sphere of radius rA + rB (in a container, shrinks
            to rC − rA): the Minkowski reduction.
        layers : dict, optional
            Visibility by layer name (default: :data:`LAYERS`).
        steps : int
            Steps of the frame-stepped engine (the ``steps`` layer).
        focus : Focus, optional
            The pair the inspector describes (:mod:`explorer.model.derived.inspection`): other than the
            primary pair, its marks replace the primary pair's.
        com : float
            0 the world frame, 1 the frame moving with the free bodies' centre of mass as it moves at ``t``
            (``reference`` then 0), in between for the animated turn.
        stage : str
            Question mode's stage (:data:`explorer.model.actions.asking.STAGES`).

        Returns
        -------
        Prepared
        """
        arguments = {name: value for name, value in locals().items() if name != "self"}  # by name, for made_from
        shown = shown_layers({**LAYERS, **(layers or {})}, stage)
        picture = describe(scene, solution, t, reference, shown, steps, focus, self.style.line_scale, self.handles,
                           com, hides_answers(stage))  # fmt: skip
        meshes = tuple(self.items.built(shape.name, BUILDERS[shape.kind], *shape.args) for shape in picture.shapes)
        return Prepared(arguments, self.style, shown, picture, meshes)

    def _draw(self, shape: Shape, built: tuple | None = None) -> None:
        """Show ``shape``'s item as its mesh (``built`` by :meth:`prepare`, or now), in the shape's colour and
        opacity where it gives them."""
        item = self.items.items[shape.name]
        if shape.color is not None:
            self.items.set_color(shape.name, shape.color)
        if shape.opacity is not None:
            item.actor.GetProperty().SetOpacity(shape.opacity)
        self.items.show(shape.name, BUILDERS[shape.kind], *shape.args, built=built)

    def _least_sizes(self, style: ViewStyle) -> None:
        self.items.items["least_dots"].actor.GetProperty().SetPointSize(LEAST_DOT * style.line_scale)
        self.items.items["least_lines"].actor.GetProperty().SetLineWidth(LEAST_LINE * style.line_scale)

    def _draw_least(self, shapes: list[Shape]) -> None:
        """A dot at the centre of each opaque body shown and a line along each path shown (:data:`LEAST_DOT`,
        :data:`LEAST_LINE`); none in a see-through sphere, whose dot would show through it (a container)."""
        dots, lines = least_marks(shapes, self.items.layers)
        self.items.show("least_dots", geometry.dots, [p for p, _ in dots], [rgb(c) for _, c in dots])
        self.items.show("least_lines", geometry.coloured_lines, [p for p, _ in lines], [rgb(c) for _, c in lines])

    def _add_axes(self) -> None:
        """The axes triad (an orientation widget, which needs an interactor: the window's), its letters kept apart
        as the camera turns (:func:`.label_places.axis_label_reach`)."""
        if not self._axes_added and getattr(self.plotter, "iren", None) is not None:
            glyph = self.plotter.add_axes(interactive=False, line_width=2)
            self.plotter.renderer.AddObserver("StartEvent", lambda *_: self._space_axis_letters(glyph))
            self._axes_added = True

    def _space_axis_letters(self, glyph) -> None:
        """Move the axes glyph's letters out along their axes where two would meet on screen."""
        camera = self.plotter.renderer.GetActiveCamera()
        view = camera.GetViewTransformMatrix()  # rows 0 and 1: the screen's right and up, in world axes
        screen = [(view.GetElement(0, k), view.GetElement(1, k)) for k in range(3)]
        reach = axis_label_reach(screen)
        if tuple(glyph.GetNormalizedLabelPosition()) != reach:
            glyph.SetNormalizedLabelPosition(*reach)


#: :meth:`SceneView.prepare`'s signature: :meth:`SceneView.update` takes the same arguments.
_PREPARE = inspect.signature(SceneView.prepare)
