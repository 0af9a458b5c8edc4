"""Where each body is drawn at a time t, in the world or in the other body's rest frame.

The picture (:mod:`explorer.view.scene_view`) and the mouse picking
(:mod:`explorer.view.picking`) both need it, so it is computed here once.
numpy-, Qt- and VTK-free (the web page's Python places the bodies too).
"""

from __future__ import annotations

from dataclasses import dataclass

from solver import vec

from ..model.derived.analysis import Solution
from ..model.state.scene import Scene
from ..model.words.momenta import bodies_at, centre_of_mass
from .bounds import Box, ask_bounds, diagonal, view_bounds

#: A's size in B's rest frame, where it is a point, as a fraction of the marker size.
POINT_RADIUS = 0.1
#: Marker sizes are capped at this fraction of the framed region's diagonal.
MARK_SPAN = 0.08


@dataclass(frozen=True)
class Placement:
    """The bodies as drawn.

    Attributes
    ----------
    time : float
    reference : float
        0 world frame, 1 the rest frame of the primary other body B, in between
        while turning.  A point seen at time τ is shifted by ``-shift τ``.
    shift : (3,) float
        ``reference * vB``; in the centre-of-mass frame, the centre of mass's velocity at t = 0.
    centers : (n, 3) float, n 3-tuples
        Centres at ``time`` (along the bounce paths), shifted.
    tips : (n, 3) float, n 3-tuples
        Velocity-arrow tips: the centre at the horizon without bounces, shifted.
    radii : (n,) float, a tuple
        As drawn: in B's frame A shrinks to a point and B grows to rA + rB (in a
        container, shrinks to rC − rA).
    marker : float
        Size of markers, arrows and tubes: the smaller radius of A and B, capped
        at :data:`MARK_SPAN` of the framed region.
    bounds : ((3,) float, (3,) float)
        The world-frame box the default camera frames (the floor grid lies under it).
    com : float
        0 the world frame, 1 the frame moving with the free bodies' centre of mass at t = 0 (``shift`` is ``com``
        times its velocity then; no body changes size), in between while turning; 0 whenever ``reference`` is not.
    """

    time: float
    reference: float
    shift: tuple[float, float, float]
    centers: tuple[tuple[float, float, float], ...]
    tips: tuple[tuple[float, float, float], ...]
    radii: tuple[float, ...]
    marker: float
    bounds: Box
    com: float = 0.0

    @property
    def com_frame(self) -> bool:
        """Whether the view is (mostly) in the centre-of-mass frame."""
        return self.com >= 0.5

    def at(self, point, tau: float) -> tuple[float, float, float]:
        """A world point seen at time ``tau``, in this reference frame, ``(3,) float``."""
        return vec.sub(tuple(map(float, point)), vec.scale(self.shift, tau))


def place(scene: Scene, solution: Solution, t: float, reference: float, com: float = 0.0,
          ask: bool = False) -> Placement:  # fmt: skip
    """Where ``scene``'s bodies are drawn at time ``t`` in reference blend ``reference``, or in blend ``com``
    towards the frame of the free bodies' centre of mass (one of the two is 0); ``ask``: framed without
    looking at the answer (:func:`.bounds.ask_bounds`)."""
    bodies = scene.bodies
    h = scene.horizon
    b_index = solution.other
    world_box = ask_bounds(scene) if ask else view_bounds(scene, solution)
    lo, hi = world_box if reference < 0.5 or ask else view_bounds(scene, solution, reference)
    marker = min(min(b.radius for b in bodies[:2]), MARK_SPAN * diagonal((lo, hi)))
    shift = vec.scale(bodies[b_index].velocity, reference)
    if com > 0.0:
        centre = centre_of_mass(bodies_at(scene, solution, 0.0))
        shift, reference = (0.0, 0.0, 0.0) if centre is None else vec.scale(centre.velocity, com), 0.0
    inside = scene.mode == "inside"
    path = solution.path
    if t <= h or path.stopped:
        world = path.positions(max(t, 0.0))  # clamped to what is known: never past a stop
    else:
        world = path.segments[-1].positions(t)  # after h (to a later contact): the last segment goes on
    centers = tuple(vec.sub(p, vec.scale(shift, t)) for p in world)
    tips = tuple(vec.add(b.center, vec.scale(vec.sub(b.velocity, shift), h)) for b in bodies)
    radii = [b.radius for b in bodies]
    a_radius = radii[0]
    radii[0] = a_radius + reference * (POINT_RADIUS * marker - a_radius)
    radii[b_index] += reference * (-a_radius if inside else a_radius)
    return Placement(float(t), float(reference), shift, centers, tips, tuple(radii), marker, world_box, float(com))
