"""The picture of a scene: (scene, solution, time, reference frame, layers) -> actors in a PyVista plotter.

Used by both the Qt window (its 3-D view is a pyvista plotter in a native widget) and the
headless pictures (``sphere-explorer render``), so a PNG from the command line
and the window show the same thing.  One method draws each object: bodies and
their capsules, the expanded sphere, the roots, the contact, the overlap, the
closest approach, the floor grid; the paths by :mod:`.paths`, the inspector's
marks by :mod:`.inspection`; the items are created by :mod:`.catalogue`, the
verdict line and the colour key drawn by :mod:`.overlay`, and the labels kept
clear of the spheres and of one another by :mod:`.labels`.  Qt-free.
"""

from __future__ import annotations

import numpy as np
import pyvista as pv
from vtkmodules.vtkRenderingCore import vtkRenderer

from solver import Status

from ..model.analysis import Solution
from ..model.inspection import Focus
from ..model.scene import DEFAULT_STEPS, LAYERS, Scene
from ..model.stepping import stepped_test
from ..model.text import fmt, root_label
from . import geometry
from .catalogue import add_scene_items
from .inspection import draw_focus
from .items import SUBSCRIPTS, ItemSet
from .labels import LabelLayout, label_plan
from .overlay import LABEL_SIZE, NORMAL, TextOverlay, ViewStyle
from .palette import (
    BACKGROUND,
    BODY_COLORS,
    CLOSEST_COLOR,
    ENTER_COLOR,
    EXIT_COLOR,
    FADED_COLOR,
)
from .paths import draw_paths, draw_reflection
from .placement import Placement, place

#: Opacity of see-through items (more in :mod:`.catalogue`).
CONTAINER_OPACITY = 0.12
#: A velocity arrow that reaches past its body's first event (``all`` mode).
ARROW_PAST_EVENT_OPACITY = 0.3
#: B in its own rest frame, grown into the expanded sphere: see-through, so the ray shows inside.
RELATIVE_B_OPACITY = 0.3
#: Near clipping plane as a fraction of the far one (VTK's default is 1e-3).
NEAR_CLIP_TOLERANCE = 1e-7


def _first_events(scene: Scene, solution: Solution) -> list[float]:
    """How long each body's capsule sweeps: the horizon, or in ``all`` mode its first event (after it, it turns)."""
    until = [scene.horizon] * len(scene.bodies)
    if scene.mode == "all":
        for event in reversed(solution.events):
            for i in event.pair:
                until[i] = min(until[i], event.time)
    return until


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
        add_scene_items(self.items)

    def set_style(self, style: ViewStyle) -> None:
        """Draw text and thin things at ``style``'s sizes from the next :meth:`update` on."""
        self.style = style
        for actor, _ in self.items.labels.values():
            actor.GetTextProperty().SetFontSize(round(LABEL_SIZE * style.text_scale))
        self.text.set_style(style)

    # -- the update ------------------------------------------------------------
    def update(
        self,
        scene: Scene,
        solution: Solution,
        t: float = 0.0,
        reference: float = 0.0,
        layers: dict[str, bool] | None = None,
        steps: int = DEFAULT_STEPS,
        focus: Focus | None = None,
    ) -> Placement:
        """Redraw everything for ``scene`` at time ``t``, in the world frame or B's rest frame.

        Parameters
        ----------
        scene : Scene
        solution : Solution
            ``explorer.model.analysis.solve(scene)``.
        t : float
            Time at which the spheres are drawn along their bounce paths (the
            roots, capsules and arrows do not depend on it; a ring on each
            capsule marks it).
        reference : float
            0 for the world frame, 1 for the rest frame of the primary other body
            B, in between for the animated turn.  In B's frame a point seen at
            time τ is shifted by ``-vB τ``; A shrinks to a point and B grows into
            the expanded sphere of radius rA + rB (in a container, shrinks to
            rC − rA): the Minkowski reduction.
        layers : dict, optional
            Visibility by layer name (default: :data:`LAYERS`).
        steps : int
            Steps of the frame-stepped engine (the ``steps`` layer).
        focus : Focus, optional
            The pair the inspector describes (:mod:`explorer.model.inspection`): other than the
            primary pair, its marks (:mod:`.inspection`) replace the primary pair's.

        Returns
        -------
        Placement
            Where the bodies were drawn (also kept as :attr:`placement`, for picking).
        """
        self.items.layers = {**LAYERS, **(layers or {})}
        self.items.hide_all()
        at = place(scene, solution, t, reference)
        self.placement = at
        swept_until = _first_events(scene, solution)
        self._draw_bodies(scene, solution, at, swept_until)
        width = at.marker * self.style.line_scale
        if focus is None or focus.primary:
            self._draw_primary_pair(scene, solution, at, swept_until[0])
        else:
            draw_focus(self.items, scene, solution, focus, at, width)
        draw_reflection(self.items, scene, solution, at, width)
        draw_paths(self.items, scene, solution, at, width)
        note = self._draw_steps(solution, at, steps)
        self._draw_grid(*at.bounds)
        visible = self.items.visible("labels")
        self.text.draw_legend(scene, int(self.plotter.window_size[1]), self.style, visible, focus)
        self.text.draw_verdict(scene, solution, at, note, focus, self.items.visible("conserved"))
        self.labels.arrange(label_plan(scene, solution, at, focus))
        return at

    def _draw_primary_pair(self, scene: Scene, solution: Solution, at: Placement, swept_until: float) -> None:
        """A and its first partner: the expanded sphere, both roots, the contact, an overlap, the closest approach."""
        self._draw_expanded_sphere(scene, solution, at, swept_until)
        self._draw_roots(scene, solution, at)
        self._draw_contact(solution, at)
        self._draw_overlap(scene, solution, at)
        self._draw_closest(solution, at)

    def _thin(self, at: Placement, fraction: float) -> float:
        """A tube or marker radius: ``fraction`` of the marker size, times the style's line scale."""
        return fraction * at.marker * self.style.line_scale

    def _draw_bodies(self, scene: Scene, solution: Solution, at: Placement, swept_until: list[float]) -> None:
        """Spheres at the current time, their velocity arrows and swept capsules, the time rings, the names.

        ``swept_until[i]``: how far body ``i``'s capsule sweeps (see :func:`_first_events`).
        """
        show = self.items.show
        inside = scene.mode == "inside"
        b_index, h, t = solution.other, scene.horizon, at.time
        for i, body in enumerate(scene.bodies):
            container = i == scene.container
            translucent = container or (i == b_index and not inside and at.reference > 0.0)
            prop = self.items.items[f"body{i}"].actor.GetProperty()
            if container:
                prop.SetOpacity(CONTAINER_OPACITY)
            elif i == b_index and at.reference > 0.0:
                prop.SetOpacity(1.0 - at.reference * (1.0 - RELATIVE_B_OPACITY))
            else:
                prop.SetOpacity(1.0)
            res = (48, 24) if translucent else geometry.SPHERE_RES
            radius = at.radii[i]
            show(f"body{i}", geometry.sphere, at.centers[i], radius, res)
            if container:
                show("container_rim", geometry.circles, at.centers[i], radius)
            velocity = np.subtract(body.velocity, at.shift)
            end = np.add(body.center, velocity * h)
            moving = bool(np.any(velocity))
            if moving:
                swept_end = np.add(body.center, velocity * swept_until[i])
                show(f"capsule{i}", geometry.capsule, body.center, swept_end, radius)
                shaft = self._thin(at, 0.06)
                show(f"arrow{i}", geometry.arrow, body.center, end, shaft, 2.6 * shaft, 5.0 * shaft)
                # past its first event the body turns: its arrow is then only a handle, so faint
                arrow_opacity = ARROW_PAST_EVENT_OPACITY if swept_until[i] < h else 1.0
                self.items.items[f"arrow{i}"].actor.GetProperty().SetOpacity(arrow_opacity)
                if 0.0 < t <= swept_until[i]:  # on the capsule (all mode: it ends where the body turns)
                    ring_at = np.add(body.center, velocity * t)
                    show(f"time_ring{i}", geometry.ring, ring_at, velocity, radius * 1.02, self._thin(at, 0.02))
                if self.handles and at.reference == 0.0:
                    show(f"handle{i}", geometry.sphere, end, 0.22 * at.marker, (16, 8))
            self.items.show_label(f"name{i}", at.centers[i], body.name, BODY_COLORS[i])

    def _draw_expanded_sphere(self, scene: Scene, solution: Solution, at: Placement, a_until: float) -> None:
        """The expanded (pair) or shrunken (inside) sphere around B, and the relative path of A's centre.

        A's centre path is drawn up to ``a_until``: the horizon, or in ``all`` mode A's first event.
        """
        s = solution.sweep
        h = scene.horizon
        a_body, other = scene.bodies[0], scene.bodies[solution.other]
        if at.reference < 1.0:
            self.items.show("minkowski", geometry.sphere, other.center, s.radius, (48, 24))
        self.items.show("minkowski_rim", geometry.circles, other.center, s.radius)
        rel_v = np.subtract(a_body.velocity, other.velocity)
        t_lo, t_hi = (0.0, h) if s.roots is None else (min(0.0, s.roots[0]), max(h, s.roots[1]))
        if s.roots is not None and max(abs(t_lo), abs(t_hi)) > 50 * h:
            t_lo, t_hi = max(t_lo, -50 * h), min(t_hi, 50 * h)
        start = np.asarray(a_body.center)
        a_end = np.add(a_body.center, np.subtract(a_body.velocity, at.shift) * a_until)
        self.items.show("centre_path", geometry.tube, [a_body.center, a_end], self._thin(at, 0.025))
        if any(rel_v) and solution.contact_happens:
            self.items.show(
                "relative_path",
                geometry.dashed_tube,
                start + rel_v * t_lo,
                start + rel_v * t_hi,
                at.marker * self.style.line_scale,
            )

    def _draw_roots(self, scene: Scene, solution: Solution, at: Placement) -> None:
        """Both roots: markers on the relative path (B's frame), ghosts of A and B at those times, labels."""
        s = solution.sweep
        if s.roots is None:
            return
        show = self.items.show
        h = scene.horizon
        a_body, other = scene.bodies[0], scene.bodies[solution.other]
        inside = s.inside  # A inside the other: the larger root is the contact
        rel_v = np.subtract(a_body.velocity, other.velocity)
        start = np.asarray(a_body.center)
        double = s.roots[0] == s.roots[1]  # exactly tangent: the spheres touch at one instant
        roots = list(enumerate(s.roots[:1] if double else s.roots))
        if scene.mode == "all":  # the bodies turn at their contact: only its root happens, if any
            contact_root = 1 if inside and not double else 0
            roots = [(k, r) for k, r in roots if k == contact_root] if solution.contact_happens else []
        for k, root in roots:
            inside_h = 0.0 <= root <= h
            marker = start + rel_v * root
            color = (ENTER_COLOR, EXIT_COLOR)[k] if inside_h else FADED_COLOR
            self.items.set_color(f"marker{k}", color)
            show(f"marker{k}", geometry.sphere, marker, self._thin(at, 0.12), (16, 8))
            suffix = "" if inside_h else ("  (before t = 0)" if root < 0 else "  (after h)")
            ghost_a = at.at(a_body.position(root), root)
            ghost_b = at.at(other.position(root), root)
            # label just outside A's ghost, on the side away from the other body, clear of the contact
            away = np.subtract(ghost_a, ghost_b) * (-1.0 if inside else 1.0)
            length = float(np.linalg.norm(away))
            anchor = marker if length == 0.0 else ghost_a + away / length * (at.radii[0] + 0.5 * at.marker)
            t0, t1 = root_label(0, SUBSCRIPTS), root_label(1, SUBSCRIPTS)
            name = f"{t0} = {t1}" if double else root_label(k, SUBSCRIPTS)
            text = f"{name} = {fmt(root)}{suffix}" + ("  (double root: a graze)" if double else "")
            self.items.show_label(f"root{k}", anchor, text, color)
            if inside_h:
                show(f"ghost_a{k}", geometry.sphere, ghost_a, at.radii[0])
                if np.any(np.subtract(other.velocity, at.shift)):
                    show(f"ghost_b{k}", geometry.sphere, ghost_b, at.radii[solution.other])
            else:
                show(f"ghost_a{k}_faded", geometry.sphere, ghost_a, at.radii[0], (18, 9))

    def _draw_contact(self, solution: Solution, at: Placement) -> None:
        """The contact point and B's surface normal there (pointing back towards A: the plane A reflects in)."""
        contact = solution.sweep.contact
        if contact is None or not solution.contact_happens:
            return
        point = at.at(contact.point, contact.time)
        self.items.show("contact_point", geometry.sphere, point, self._thin(at, 0.2), (20, 10))
        tip = np.subtract(point, np.multiply(contact.normal, 0.9 * solution.scene.bodies[0].radius))
        shaft = self._thin(at, 0.04)
        self.items.show("contact_normal", geometry.arrow, point, tip, shaft, 2.5 * shaft, 4 * shaft)

    def _draw_overlap(self, scene: Scene, solution: Solution, at: Placement) -> None:
        """A red glow around both spheres when they already overlap at t = 0."""
        if solution.sweep.status is not Status.OVERLAPPING:
            return
        pair = (0, solution.other)
        centers = [scene.bodies[j].center for j in pair]
        self.items.show("overlap", geometry.spheres, centers, [at.radii[j] * 1.04 for j in pair], (24, 12))

    def _draw_steps(self, solution: Solution, at: Placement, steps: int) -> str | None:
        """The ``steps`` layer: where a fixed-step engine would test the primary pair, the steps that see an overlap.

        Returns the line that says what that engine concludes (None with the layer off).
        """
        if not self.items.visible("steps") or at.reference >= 0.5:
            return None
        test = stepped_test(solution, steps)
        scene = solution.scene
        a, b = scene.bodies[0], scene.bodies[solution.other]
        self.items.show("steps_a", geometry.flat_circles, test.a_centers, a.radius)
        if any(b.velocity):
            self.items.show("steps_b", geometry.flat_circles, test.b_centers, b.radius)
        if any(test.caught):
            caught = [c for c, seen in zip(test.a_centers, test.caught) if seen]
            self.items.show("steps_caught", geometry.flat_circles, caught, a.radius * 1.02)
        return test.summary(fmt)

    def _draw_closest(self, solution: Solution, at: Placement) -> None:
        """The closest approach of a miss (or of a later contact), as a segment with its length."""
        s = solution.sweep
        if s.status not in (Status.MISS, Status.LATER, Status.SEPARATING, Status.NO_RELATIVE_MOTION):
            return
        closest = s.closest
        pa, pb = (at.at(p, closest.time) for p in s.positions(closest.time))
        self.items.show("closest", geometry.tube, [pa, pb], self._thin(at, 0.03))
        text = f"closest {fmt(closest.distance)} at t = {fmt(closest.time)}"
        self.items.show_label("closest", (pa + pb) / 2, text, CLOSEST_COLOR, (0, -40))

    def _draw_grid(self, lo: np.ndarray, hi: np.ndarray) -> None:
        """A floor grid under the box ``lo``-``hi`` (3,), with decimal spacing, and the axes triad."""
        if not self.items.visible("axes"):
            return
        if not self._axes_added and getattr(self.plotter, "iren", None) is not None:
            self.plotter.add_axes(interactive=False, line_width=2)  # an orientation widget needs an interactor
            self._axes_added = True
        points = geometry.floor_grid(lo, hi)
        if points is not None:
            self.items.show("grid", geometry.segments, points)
