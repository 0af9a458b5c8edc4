"""Where each body is drawn at a time t: in the world, in the other body's rest frame, or in the free bodies'
centre-of-mass frame.

The frame drawn at time t is the frame every number shown with it is in
(:func:`explorer.model.derived.frames.frame_at`): the frame at t, pinned on what it follows.
The picture (:mod:`explorer.view.scene_view`) and the mouse picking
(:mod:`explorer.view.picking`) both need it, so it is computed here once.
numpy-, Qt- and VTK-free (the web page's Python places the bodies too).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from solver import vec

from ..model.derived.analysis import Solution
from ..model.derived.frames import COM, RELATIVE, WORLD, Frame, centres_at, frame_at
from ..model.state.scene import Scene
from .bounds import VIEW_DIRECTION, Box, ask_bounds, diagonal, view_bounds

#: A's size in B's rest frame, where it is a point, as a fraction of the marker size.
POINT_RADIUS = 0.1
#: Marker sizes are capped at this fraction of the framed region's diagonal.
MARK_SPAN = 0.08
#: A velocity arrow always reaches this far out of its sphere's outline as the default camera sees it, times the
#: larger of the sphere's radius (as drawn) and the marker size: a slow body's arrow, shorter than its radius, would
#: be hidden inside it (:func:`arrow_end`).
ARROW_LEAST_OUT = 1.0
#: ... but never stretched more than this, unless it takes more to leave the sphere at all.
MAX_STRETCH = 12.0


@dataclass(frozen=True)
class Placement:
    """The bodies as drawn.

    Attributes
    ----------
    time : float
    reference : float
        0 world frame, 1 the rest frame of the primary other body B, in between
        while turning.  A point seen at time τ is drawn at :meth:`at`.
    shift : (3,) float
        The frame's velocity as drawn: ``reference`` (or ``com``) times B's velocity (or the centre of mass's)
        at ``time``; a world velocity ``v`` is drawn as ``v − shift``.
    centers : (n, 3) float, n 3-tuples
        Centres at ``time`` (along the bounce paths), in the frame.
    tips : (n, 3) float, n 3-tuples
        Velocity-arrow tips: the centre at the horizon without bounces, in the frame.
    radii : (n,) float, a tuple
        As drawn: in B's frame A shrinks to a point and B grows to rA + rB (in a
        container, shrinks to rC − rA).
    marker : float
        Size of markers, arrows and tubes: the smaller radius of A and B, capped
        at :data:`MARK_SPAN` of the framed region.
    bounds : ((3,) float, (3,) float)
        The world-frame box the default camera frames (the floor grid lies under it).
    com : float
        0 the world frame, 1 the frame moving with the free bodies' centre of mass as it moves at ``time`` (no
        body changes size), in between while turning; 0 whenever ``reference`` is not.
    frame : Frame
        The frame drawn (towards which ``reference`` or ``com`` blends): its words and numbers
        (:mod:`explorer.model.words.frames`).
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
    frame: Frame = Frame(WORLD, WORLD, 0.0)

    @property
    def com_frame(self) -> bool:
        """Whether the view is (mostly) in the centre-of-mass frame."""
        return self.com >= 0.5

    @property
    def blend(self) -> float:
        """How far the view has turned towards :attr:`frame`, in [0, 1]."""
        return self.com if self.frame.asked == COM else self.reference

    def at(self, point, tau: float) -> tuple[float, float, float]:
        """A world point seen at time ``tau``, in the frame drawn (:meth:`.Frame.seen`), ``(3,) float``."""
        return self.frame.seen(point, tau, self.blend)


def place(scene: Scene, solution: Solution, t: float, reference: float, com: float = 0.0,
          ask: bool = False) -> Placement:  # fmt: skip
    """Where ``scene``'s bodies are drawn at time ``t`` in reference blend ``reference``, or in blend ``com``
    towards the frame of the free bodies' centre of mass (one of the two is 0); ``ask``: framed without
    looking at the answer (:func:`.bounds.ask_bounds`), in the frame at t = 0 (a later frame would tell of
    the events before it)."""
    bodies = scene.bodies
    h = scene.horizon
    b_index = solution.other
    world_box = ask_bounds(scene) if ask else view_bounds(scene, solution)
    lo, hi = world_box if reference < 0.5 or ask else view_bounds(scene, solution, reference)
    marker = min(min(b.radius for b in bodies[:2]), MARK_SPAN * diagonal((lo, hi)))
    kind = COM if com > 0.0 else RELATIVE if reference > 0.0 else WORLD
    frame = frame_at(scene, solution, 0.0 if ask else t, kind)
    blend = com if kind == COM else reference
    if kind == COM:
        reference = 0.0
    shift = vec.scale(frame.velocity, blend)
    world = centres_at(solution, t)
    centers = tuple(frame.seen(p, t, blend) for p in world)
    tips = tuple(frame.seen(vec.axpy(h, b.velocity, b.center), h, blend) for b in bodies)
    radii = [b.radius for b in bodies]
    a_radius = radii[0]
    radii[0] = a_radius + reference * (POINT_RADIUS * marker - a_radius)
    radii[b_index] += reference * (-a_radius if scene.mode == "inside" else a_radius)
    return Placement(float(t), float(reference), shift, centers, tips, tuple(radii), marker, world_box, float(com),
                     frame)  # fmt: skip


def arrow_end(start, tip, radius: float, marker: float) -> tuple[tuple[float, float, float], float]:
    """Where a velocity arrow from a sphere's centre ``start`` (3,) to its true ``tip`` (3,) is drawn, and how many
    times longer than true.

    Seen by the default camera (from :data:`.bounds.VIEW_DIRECTION`), every arrow reaches at least
    :data:`ARROW_LEAST_OUT` out of the outline of its sphere of ``radius``: a slow body's arrow, or one pointing
    nearly along the line of sight, is stretched (at most :data:`MAX_STRETCH` times, or as much as it takes to
    leave the sphere in space); its direction is always true.

    Returns
    -------
    end : (3,) float, a tuple
    stretch : float
        1.0 for an arrow drawn as it is, more for a stretched one.
    """
    start, tip = tuple(map(float, start)), tuple(map(float, tip))
    shaft = vec.sub(tip, start)
    length = math.sqrt(vec.dot(shaft, shaft))
    least = radius + ARROW_LEAST_OUT * max(radius, marker)
    sight = vec.scale(VIEW_DIRECTION, 1.0 / math.sqrt(vec.dot(VIEW_DIRECTION, VIEW_DIRECTION)))
    across = vec.axpy(-vec.dot(shaft, sight), sight, shaft)  # the part of the arrow the camera sees
    seen = math.sqrt(vec.dot(across, across))
    if length == 0.0 or seen >= least:
        return tip, 1.0
    stretch = max(least / length, MAX_STRETCH if seen == 0.0 else min(least / seen, MAX_STRETCH))
    return vec.axpy(stretch, shaft, start), stretch
