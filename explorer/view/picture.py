"""What the picture of a scene shows, described once: shapes, labels and a note, as plain data.

``describe(scene, solution, t, reference, ...)`` decides every object of the
picture -- each body and its swept capsule, velocity arrow and time ring; the
expanded (or shrunken) sphere and the relative path; both roots with their
ghosts and markers; the contact point and normal; an overlap; the closest
approach; the reflected path; every path of an all-bodies motion; the steps of
a frame-stepped engine; the floor grid; the inspector's marks -- as
:class:`Shape` records: the catalogue item it shows (:mod:`.catalogue` gives
each one's layer and look), the kind of geometry and its parameters in scene
units, and a colour or opacity where the catalogue's changes.  The window and
``render`` draw them with VTK (:class:`explorer.view.scene_view.SceneView`),
the web page with vtk.js: neither decides what is drawn.

numpy-, VTK- and Qt-free, so a browser's Python runs it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from solver import Status, vec

from ..model.derived.analysis import Solution, path_polylines
from ..model.derived.inspection import Focus
from ..model.derived.stepping import stepped_test
from ..model.state.scene import DEFAULT_STEPS, LAYERS, Scene
from ..model.words.momenta import bodies_at, bodies_moving, centre_of_mass
from ..model.words.text import fmt, root_label, stretched_arrow
from .bounds import diagonal
from .catalogue import LOOKS, layer_shown
from .palette import CLOSEST_COLOR, ENTER_COLOR, EXIT_COLOR, FADED_COLOR, body_color
from .placement import Placement, arrow_end, place

#: Opacity of a container (more see-through items in :mod:`.catalogue`).
CONTAINER_OPACITY = 0.12
#: A velocity arrow that reaches past its body's first event (``all`` mode).
ARROW_PAST_EVENT_OPACITY = 0.3
#: B in its own rest frame, grown into the expanded sphere: see-through, so the ray shows inside.
RELATIVE_B_OPACITY = 0.3
#: The inspector: a halo's radius, times its body's; the longest velocity arrow at an event, times the
#: larger radius of the pair.
HALO_SCALE = 1.3
ARROW_SCALE = 3.0
#: The momentum layer: the largest momentum arrow is this fraction of the view's diagonal.
MOMENTUM_SPAN = 0.2
#: Where the words of a stretched velocity arrow are first tried: below its tip (pixels, y up).
SPEED_OFFSET = (0.0, -16.0)
#: Tessellation (meridians, parallels) of a body, and of a sphere drawn see-through or small.
BODY_RES = (32, 16)
SEE_THROUGH_RES = (48, 24)
HANDLE_RES = (16, 8)
MARKER_RES = (16, 8)
GHOST_FADED_RES = (18, 9)
CONTACT_RES = (20, 10)
END_RES = (24, 12)
HALO_RES = (32, 16)
#: Geometry kinds a :class:`Shape` may be (each one builder of :mod:`.geometry` and of the page's script).
KINDS = (
    "sphere", "spheres", "capsule", "arrow", "ring", "circles", "tube", "coloured_tubes", "dashed_tube",
    "flat_circles", "segments",
)  # fmt: skip
#: The floor grid: at most this many lines a side (else none).
GRID_MAX_LINES = 60


@dataclass(frozen=True)
class Shape:
    """One catalogue item shown as one kind of geometry.

    Attributes
    ----------
    name : str
        The catalogue item (:func:`explorer.view.catalogue.looks`).
    kind : str
        One of :data:`KINDS`.
    args : tuple
        The geometry's parameters in scene units (points are (3,) float tuples), as
        :mod:`.geometry`'s builder of that kind takes them.
    color : str or None
        Replaces the catalogue's colour (hex).
    opacity : float or None
        Replaces the catalogue's opacity.
    """

    name: str
    kind: str
    args: tuple
    color: str | None = None
    opacity: float | None = None


@dataclass(frozen=True)
class Label:
    """A text at a 3-D ``anchor`` (3,), shifted by ``offset`` pixels (x right, y up), in ``color`` (hex)."""

    name: str
    anchor: tuple[float, float, float]
    text: str
    color: str
    offset: tuple[float, float] = (0.0, 0.0)


@dataclass
class Picture:
    """Everything one picture shows (in the order drawn), where the bodies are, and the steps' note."""

    placement: Placement
    shapes: list[Shape] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    note: str | None = None

    def show(self, name: str, kind: str, *args, color: str | None = None, opacity: float | None = None) -> None:
        self.shapes.append(Shape(name, kind, args, color, opacity))

    def label(self, name: str, anchor, text: str, color: str, offset=(0.0, 0.0)) -> None:
        self.labels.append(Label(name, tuple(map(float, anchor)), text, color, offset))

    def velocity_arrows(self, bodies: int) -> list[tuple | None]:
        """Each of the ``bodies`` bodies' velocity arrow as drawn, ``(start, end)`` (each (3,)), or None where none
        is drawn: what a body's name label keeps off (the window's and the page's label placing)."""
        arrows: list[tuple | None] = [None] * bodies
        for shape in self.shapes:
            if shape.kind == "arrow" and shape.name.startswith("arrow") and shape.name[5:].isdigit():
                arrows[int(shape.name[5:])] = (shape.args[0], shape.args[1])
        return arrows


def describe(
    scene: Scene,
    solution: Solution,
    t: float = 0.0,
    reference: float = 0.0,
    layers: dict[str, bool] | None = None,
    steps: int = DEFAULT_STEPS,
    focus: Focus | None = None,
    line_scale: float = 1.0,
    handles: bool = False,
    com: float = 0.0,
    ask: bool = False,
) -> Picture:
    """The picture of ``scene`` at time ``t``, in the world frame or B's rest frame.

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
        B, in between for the animated turn (see :class:`.placement.Placement`).
    layers : dict, optional
        Visibility by layer name (default: :data:`LAYERS`); a layer that is off
        is described anyway, but for the steps, which are computed only when shown.
    steps : int
        Steps of the frame-stepped engine (the ``steps`` layer).
    focus : Focus, optional
        The pair the inspector describes: other than the primary pair, its marks replace the primary pair's.
    line_scale : float
        Thickness of tubes, arrows and markers relative to the normal style (presentation mode: more).
    handles : bool
        Arrow-tip handles to drag (the window and the live page).
    com : float
        0 the world frame, 1 the frame moving with the free bodies' centre of mass as it moves at ``t``, in between
        for the animated turn (with ``reference`` 0).  Either frame is the one at ``t``
        (:mod:`explorer.model.derived.frames`): what is drawn at another time (a capsule from t = 0, a ghost at a
        root, a path) is drawn where that frame sees it, and the momentum arrows are in it.
    ask : bool
        Question mode (:mod:`explorer.model.actions.asking`): only the bodies, their velocities and capsules over the
        whole horizon (as if nothing turned them), their names and the floor; nothing the solver decided.
    """
    layers = {**LAYERS, **(layers or {})}
    at = place(scene, solution, t, reference, com, ask)
    picture = Picture(at)
    width = at.marker * line_scale
    swept_until = [scene.horizon] * len(scene.bodies) if ask else first_events(scene, solution)
    _bodies(picture, scene, solution, swept_until, width, handles)
    if ask:
        _floor(picture)
        return picture
    if focus is None or focus.primary:
        _expanded_sphere(picture, scene, solution, swept_until[0], width)
        _roots(picture, scene, solution, width)
        _contact(picture, solution, width)
        _overlap(picture, scene, solution)
        _closest(picture, solution, width)
    else:
        _focus(picture, scene, solution, focus, width)
    _reflection(picture, scene, solution, width)
    _paths(picture, scene, solution, width)
    if layers.get("momentum"):
        _momenta(picture, scene, solution, width)
    if layers.get("steps") and at.reference < 0.5:
        picture.note = _steps(picture, solution, steps)
    _floor(picture)
    return picture


def _floor(picture: Picture) -> None:
    """The floor grid under the framed region."""
    grid = floor_grid(*picture.placement.bounds)
    if grid is not None:
        picture.show("grid", "segments", grid)


def first_events(scene: Scene, solution: Solution) -> list[float]:
    """How long each body's capsule sweeps: the horizon, or in ``all`` mode its first event (after it, it turns)."""
    until = [scene.horizon] * len(scene.bodies)
    if scene.mode == "all":
        for event in reversed(solution.events):
            for i in event.pair:
                until[i] = min(until[i], event.time)
    return until


def _bodies(picture: Picture, scene: Scene, solution: Solution, swept_until: list[float], width: float,
            handles: bool) -> None:  # fmt: skip
    """Spheres at the current time, their velocity arrows and swept capsules, the time rings, the names."""
    at = picture.placement
    inside = scene.mode == "inside"
    b_index, h, t = solution.other, scene.horizon, at.time
    for i, body in enumerate(scene.bodies):
        container = i == scene.container
        translucent = container or (i == b_index and not inside and at.reference > 0.0)
        if container:
            opacity = CONTAINER_OPACITY
        elif i == b_index and at.reference > 0.0:
            opacity = 1.0 - at.reference * (1.0 - RELATIVE_B_OPACITY)
        else:
            opacity = 1.0
        res = SEE_THROUGH_RES if translucent else BODY_RES
        radius = at.radii[i]
        picture.show(f"body{i}", "sphere", at.centers[i], radius, res, opacity=opacity)
        if container:
            picture.show("container_rim", "circles", at.centers[i], radius)
        velocity = vec.sub(body.velocity, at.shift)
        if any(velocity):
            start = at.at(body.center, 0.0)  # the flight from t = 0 as if nothing turned it, seen in the frame
            end = at.tips[i]
            swept_end = vec.axpy(swept_until[i], velocity, start)
            picture.show(f"capsule{i}", "capsule", start, swept_end, radius)
            shaft = 0.06 * width
            # past its first event the body turns: its arrow is then only a handle, so faint
            faint = swept_until[i] < h
            # a slow body's arrow would end inside its sphere: drawn longer, with its true speed in words
            drawn, stretch = arrow_end(start, end, radius, at.marker)
            picture.show(f"arrow{i}", "arrow", start, drawn, shaft, 2.6 * shaft, 5.0 * shaft,
                         opacity=ARROW_PAST_EVENT_OPACITY if faint else 1.0)  # fmt: skip
            if stretch > 1.0:
                speed = math.sqrt(vec.dot(velocity, velocity))
                picture.label(f"speed{i}", drawn, stretched_arrow(speed, stretch), body_color(i), SPEED_OFFSET)
            if 0.0 < t <= swept_until[i]:  # on the capsule (all mode: it ends where the body turns)
                ring_at = vec.axpy(t, velocity, start)
                picture.show(f"time_ring{i}", "ring", ring_at, velocity, radius * 1.02, 0.02 * width)
            if handles and at.reference == 0.0:
                picture.show(f"handle{i}", "sphere", end, 0.22 * at.marker, HANDLE_RES)
        picture.label(f"name{i}", at.centers[i], body.name, body_color(i))


def body_of(label: str) -> int | None:
    """The body a label of the picture speaks of (its name, its stretched arrow's speed), or None."""
    for stem in ("name", "speed"):
        if label.startswith(stem) and label[len(stem) :].isdigit():
            return int(label[len(stem) :])
    return None


def _expanded_sphere(picture: Picture, scene: Scene, solution: Solution, a_until: float, width: float) -> None:
    """The expanded (pair) or shrunken (inside) sphere around B, and the relative path of A's centre.

    A's centre path is drawn up to ``a_until``: the horizon, or in ``all`` mode A's first event.
    """
    at = picture.placement
    s = solution.sweep
    h = scene.horizon
    a_body, other = scene.bodies[0], scene.bodies[solution.other]
    centre = at.at(other.center, 0.0)  # where B was at t = 0, seen in the frame
    if at.reference < 1.0:
        picture.show("minkowski", "sphere", centre, s.radius, SEE_THROUGH_RES)
    picture.show("minkowski_rim", "circles", centre, s.radius)
    rel_v = vec.sub(a_body.velocity, other.velocity)
    t_lo, t_hi = (0.0, h) if s.roots is None else (min(0.0, s.roots[0]), max(h, s.roots[1]))
    if s.roots is not None and max(abs(t_lo), abs(t_hi)) > 50 * h:
        t_lo, t_hi = max(t_lo, -50 * h), min(t_hi, 50 * h)
    start = at.at(a_body.center, 0.0)
    a_end = vec.axpy(a_until, vec.sub(a_body.velocity, at.shift), start)
    picture.show("centre_path", "tube", (start, a_end), 0.025 * width)
    if any(rel_v) and solution.contact_happens:
        picture.show("relative_path", "dashed_tube", vec.axpy(t_lo, rel_v, start), vec.axpy(t_hi, rel_v, start), width)


def _roots(picture: Picture, scene: Scene, solution: Solution, width: float) -> None:
    """Both roots: markers on the relative path (B's frame), ghosts of A and B at those times, labels."""
    at = picture.placement
    s = solution.sweep
    if s.roots is None:
        return
    h = scene.horizon
    a_body, other = scene.bodies[0], scene.bodies[solution.other]
    inside = s.inside  # A inside the other: the larger root is the contact
    rel_v = vec.sub(a_body.velocity, other.velocity)
    double = s.roots[0] == s.roots[1]  # exactly tangent: the spheres touch at one instant
    roots = list(enumerate(s.roots[:1] if double else s.roots))
    if scene.mode == "all":  # the bodies turn at their contact: only its root happens, if any
        contact_root = 1 if inside and not double else 0
        roots = [(k, r) for k, r in roots if k == contact_root] if solution.contact_happens else []
    for k, root in roots:
        inside_h = 0.0 <= root <= h
        marker = vec.axpy(root, rel_v, at.at(a_body.center, 0.0))  # on the relative path, which starts at A
        color = (ENTER_COLOR, EXIT_COLOR)[k] if inside_h else FADED_COLOR
        picture.show(f"marker{k}", "sphere", marker, 0.12 * width, MARKER_RES, color=color)
        suffix = "" if inside_h else ("  (before t = 0)" if root < 0 else "  (after h)")
        ghost_a = at.at(a_body.position(root), root)
        ghost_b = at.at(other.position(root), root)
        # label just outside A's ghost, on the side away from the other body, clear of the contact
        away = vec.scale(vec.sub(ghost_a, ghost_b), -1.0 if inside else 1.0)
        length = math.sqrt(vec.dot(away, away))
        anchor = marker if length == 0.0 else vec.axpy((at.radii[0] + 0.5 * at.marker) / length, away, ghost_a)
        t0, t1 = root_label(0, True), root_label(1, True)
        name = f"{t0} = {t1}" if double else root_label(k, True)
        text = f"{name} = {fmt(root)}{suffix}" + ("  (double root: a graze)" if double else "")
        picture.label(f"root{k}", anchor, text, color)
        if inside_h:
            picture.show(f"ghost_a{k}", "sphere", ghost_a, at.radii[0], BODY_RES)
            if any(vec.sub(other.velocity, at.shift)):
                picture.show(f"ghost_b{k}", "sphere", ghost_b, at.radii[solution.other], BODY_RES)
        else:
            picture.show(f"ghost_a{k}_faded", "sphere", ghost_a, at.radii[0], GHOST_FADED_RES)


def _contact_marks(picture: Picture, names: tuple[str, str], point, normal, time: float, radius: float,
                   width: float) -> None:  # fmt: skip
    """A contact point and the normal there, pointing back towards the first body (length 0.9 of its radius)."""
    point = picture.placement.at(point, time)
    picture.show(names[0], "sphere", point, 0.2 * width, CONTACT_RES)
    tip = vec.axpy(-0.9 * radius, normal, point)
    shaft = 0.04 * width
    picture.show(names[1], "arrow", point, tip, shaft, 2.5 * shaft, 4 * shaft)


def _contact(picture: Picture, solution: Solution, width: float) -> None:
    """The contact point and B's surface normal there (pointing back towards A: the plane A reflects in)."""
    contact = solution.sweep.contact
    if contact is None or not solution.contact_happens:
        return
    radius = solution.scene.bodies[0].radius
    _contact_marks(picture, ("contact_point", "contact_normal"), contact.point, contact.normal, contact.time, radius,
                   width)  # fmt: skip


def _overlap(picture: Picture, scene: Scene, solution: Solution) -> None:
    """A red glow around both spheres when they already overlap at t = 0."""
    if solution.sweep.status is not Status.OVERLAPPING:
        return
    at = picture.placement
    pair = (0, solution.other)
    centers = tuple(at.at(scene.bodies[j].center, 0.0) for j in pair)
    picture.show("overlap", "spheres", centers, tuple(at.radii[j] * 1.04 for j in pair), END_RES)


def _closest(picture: Picture, solution: Solution, width: float) -> None:
    """The closest approach of a miss (or of a later contact), as a segment with its length."""
    s = solution.sweep
    if s.status not in (Status.MISS, Status.LATER, Status.SEPARATING, Status.NO_RELATIVE_MOTION):
        return
    at = picture.placement
    closest = s.closest
    pa, pb = (at.at(p, closest.time) for p in s.positions(closest.time))
    picture.show("closest", "tube", (pa, pb), 0.03 * width)
    text = f"closest {fmt(closest.distance)} at t = {fmt(closest.time)}"
    picture.label("closest", vec.scale(vec.add(pa, pb), 0.5), text, CLOSEST_COLOR, (0.0, -20.0))


def _focus(picture: Picture, scene: Scene, solution: Solution, focus: Focus, width: float) -> None:
    """The inspector's marks of ``focus``: halos on its pair, its contact, and at an event the velocities."""
    at = picture.placement
    for k, i in enumerate(focus.pair):
        if i != scene.container:
            picture.show(f"focus_halo{k}", "sphere", at.centers[i], HALO_SCALE * at.radii[i], HALO_RES)
    radius = scene.bodies[focus.pair[0]].radius
    names = ("focus_contact", "focus_normal")
    if focus.event is not None:
        event = solution.events[focus.event]
        _contact_marks(picture, names, event.point, event.normal, event.time, radius, width)
        picture.labels = [x for x in picture.labels if body_of(x.name) is None or body_of(x.name) in focus.pair]
        if at.reference < 0.5:
            _velocities(picture, scene, solution, focus, width)
        return
    contact = focus.sweep.contact
    if contact is not None and focus.contact_happens:
        point = focus.point(contact.point)
        _contact_marks(picture, names, point, contact.normal, focus.start + contact.time, radius, width)


def _velocities(picture: Picture, scene: Scene, solution: Solution, focus: Focus, width: float) -> None:
    """Each body of the pair's velocity before the event (faint) and after it, from its centre, to one scale."""
    at = picture.placement
    segments = solution.path.segments
    before = segments[focus.event].velocities
    after = segments[min(focus.event + 1, len(segments) - 1)].velocities
    pair = list(focus.pair)
    before, after = ([vec.sub(v, at.shift) for v in velocities] for velocities in (before, after))  # in the frame
    fastest = max(math.sqrt(vec.dot(v[i], v[i])) for v in (before, after) for i in pair)
    if fastest == 0.0:
        return
    scale = ARROW_SCALE * max(scene.bodies[i].radius for i in pair) / fastest
    shaft = 0.06 * width
    for k, i in enumerate(pair):
        for name, velocity in ((f"focus_before{k}", before[i]), (f"focus_after{k}", after[i])):
            if any(velocity):
                end = vec.axpy(scale, velocity, at.centers[i])
                color = body_color(i)
                picture.show(name, "arrow", at.centers[i], end, shaft, 2.6 * shaft, 5.0 * shaft, color=color)


def _reflection(picture: Picture, scene: Scene, solution: Solution, width: float) -> None:
    """A's path after its first bounce, and the other body's after the impact (``pair`` and ``inside`` mode)."""
    at = picture.placement
    path = solution.path
    if not path.bounces or at.reference >= 0.5 or scene.mode == "all":  # B's frame ends at the impact; all: every path
        return
    h = scene.horizon
    first = path.bounces[0].time
    times = [first] + [seg.t_end for seg in path.segments if seg.t_start >= first]
    centres = tuple(at.at(path.positions(tau)[0], tau) for tau in times)
    if len(centres) > 1:
        picture.show("reflection", "tube", centres, 0.035 * width)
        picture.show("reflection_end", "sphere", centres[-1], at.radii[0], END_RES)
    j = path.bounces[0].other
    start_j, after = at.at(path.positions(first)[j], first), at.at(path.positions(h)[j], h)
    if scene.mode != "inside" and not scene.bodies[j].fixed and any(vec.sub(after, start_j)):
        picture.show("reflection_b", "tube", (start_j, after), 0.035 * width)
        color = body_color(j)
        picture.show("reflection_b_end", "sphere", after, at.radii[j], END_RES, color=color)


def _paths(picture: Picture, scene: Scene, solution: Solution, width: float) -> None:
    """``all`` mode: every moving body's centre over the motion, through each of its events, in its colour."""
    at = picture.placement
    if scene.mode != "all" or at.reference >= 0.5:
        return
    # a corner where a body turns, not at every event of the motion; seen in the frame where it moves
    polylines = solution.polylines if at.blend == 0.0 else path_polylines(solution.path, solution.corners, at.at)
    moving = [i for i, body in enumerate(scene.bodies) if not (i == scene.container or body.fixed)]
    lines = tuple(polylines[i] for i in moving)
    colors = tuple(body_color(i) for i in moving)
    picture.show("paths", "coloured_tubes", lines, colors, 0.03 * width)


def _momenta(picture: Picture, scene: Scene, solution: Solution, width: float) -> None:
    """The ``momentum`` layer: each free body's momentum ``m v`` (in the frame drawn) from its centre, to one scale,
    the largest :data:`MOMENTUM_SPAN` of the view; the free bodies' centre of mass and its path over the motion."""
    at = picture.placement
    bodies = bodies_at(scene, solution, at.time)
    frame_v = at.shift
    momenta = [None if b.mass is None else vec.scale(vec.sub(b.velocity, frame_v), b.mass) for b in bodies]
    largest = max((math.sqrt(vec.dot(p, p)) for p in momenta if p is not None), default=0.0)
    if largest > 0.0:
        scale = MOMENTUM_SPAN * diagonal(at.bounds) / largest
        shaft = 0.08 * width
        for i, p in enumerate(momenta):
            if p is not None and any(p):
                end = vec.axpy(scale, p, at.centers[i])
                picture.show(f"momentum{i}", "arrow", at.centers[i], end, shaft, 2.6 * shaft, 5.0 * shaft)
    com = centre_of_mass(bodies)
    if com is None:
        return
    picture.show("com", "sphere", at.at(com.position, at.time), 0.25 * width, MARKER_RES)
    times, corners = _com_corners(scene, solution)
    picture.show("com_path", "tube", tuple(at.at(c, tau) for c, tau in zip(corners, times)), 0.02 * width)


#: The last motion's centre-of-mass path, ``(scene, solution, (times, corners))``: every picture of a motion draws
#: the same one (a playing or recorded page, a drag's frames), and a long motion's takes a while to work out.
_last_com_path: tuple = (None, None, ((), ()))


def _com_corners(scene: Scene, solution: Solution) -> tuple[list[float], list[tuple[float, float, float]]]:
    """The free bodies' centre of mass where each segment of the motion starts, and at its end: the times, and
    the positions (world frame), worked out once for a motion (:data:`_last_com_path`)."""
    global _last_com_path
    known = _last_com_path
    if known[0] is scene and known[1] is solution:
        return known[2]
    path = solution.path
    times = [seg.t_start for seg in path.segments] + [path.end]
    velocities = [seg.velocities for seg in path.segments] + [path.segments[-1].velocities]
    # the bodies at the motion's corners (each segment's start: as bodies_at there, without looking it up again)
    corners = [centre_of_mass(bodies_moving(scene, c, v)).position for c, v in zip(solution.corners, velocities)]
    _last_com_path = (scene, solution, (times, corners))
    return times, corners


def _steps(picture: Picture, solution: Solution, steps: int) -> str:
    """The ``steps`` layer: where a fixed-step engine would test the primary pair, the steps that see an overlap;
    returns the line that says what that engine concludes."""
    test = stepped_test(solution, steps)
    scene = solution.scene
    at = picture.placement
    a, b = scene.bodies[0], scene.bodies[solution.other]
    a_centers, b_centers = (tuple(at.at(c, tau) for c, tau in zip(centres, test.times))
                            for centres in (test.a_centers, test.b_centers))  # fmt: skip
    picture.show("steps_a", "flat_circles", a_centers, a.radius)
    if any(vec.sub(b.velocity, at.shift)):
        picture.show("steps_b", "flat_circles", b_centers, b.radius)
    if any(test.caught):
        caught = tuple(c for c, seen in zip(a_centers, test.caught) if seen)
        picture.show("steps_caught", "flat_circles", caught, a.radius * 1.02)
    return test.summary(fmt)


def floor_grid(lo, hi, max_lines: int = GRID_MAX_LINES) -> tuple | None:
    """Line segments of a floor grid under the box ``lo``-``hi`` (3,), with decimal spacing.

    Returns
    -------
    (2 k, 3) float, a tuple of 3-tuples, or None
        Segment end points, pairwise; None when it would take more than ``max_lines`` lines a side.
    """
    span = max(y - x for x, y in zip(lo, hi))
    step = 10.0 ** math.floor(math.log10(max(span / 4.0, 1e-12)))
    x0, x1 = math.floor(lo[0] / step) * step, math.ceil(hi[0] / step) * step
    y0, y1 = math.floor(lo[1] / step) * step, math.ceil(hi[1] / step) * step
    nx, ny = int(round((x1 - x0) / step)), int(round((y1 - y0) / step))
    if nx > max_lines or ny > max_lines:
        return None
    z = lo[2] - 0.05 * span
    points = []
    for k in range(nx + 1):
        x = x0 + k * step
        points += [(x, y0, z), (x, y1, z)]
    for k in range(ny + 1):
        y = y0 + k * step
        points += [(x0, y, z), (x1, y, z)]
    return tuple(points)


def least_marks(shapes: list[Shape], shown: dict[str, bool]) -> tuple[list[tuple], list[tuple]]:
    """What is drawn at least a few pixels wide, whatever the zoom (:data:`.catalogue.LEAST_DOT`,
    :data:`.catalogue.LEAST_LINE`): a dot at the centre of each opaque body drawn, a line along each path drawn, each
    in its colour; none in a see-through sphere, whose dot would show through it (a container).  One rule for the
    window and the page.

    Parameters
    ----------
    shapes : list of Shape
        The picture's shapes.
    shown : dict
        The layers shown (the question mode's stage applied: :func:`.catalogue.layer_shown`).

    Returns
    -------
    dots : list of ((3,) float, str)
        Each dot's centre and colour (hex).
    lines : list of (list of (3,) float, str)
        Each line's points (two or more) and colour.
    """
    dots, lines = [], []
    for shape in shapes:
        look = LOOKS[shape.name]
        opacity = look.opacity if shape.opacity is None else shape.opacity
        if not layer_shown(look.layer, shown) or opacity < 1.0:
            continue
        color = shape.color or look.color
        if shape.kind == "sphere" and shape.name.startswith("body") and shape.name[4:].isdigit():
            dots.append((shape.args[0], color))
        elif shape.name == "centre_path" and len(shape.args[0]) >= 2:
            lines.append((shape.args[0], color))
        elif shape.kind == "coloured_tubes":
            lines.extend((path, c) for path, c in zip(shape.args[0], shape.args[1]) if len(path) >= 2)
    return dots, lines
