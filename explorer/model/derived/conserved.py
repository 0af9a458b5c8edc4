"""What the motion conserves: the free bodies' total momentum and kinetic energy, now and across each event.

The sums run over the bodies of finite mass (a fixed body's momentum is no
number; a container of finite mass counts, since the solver moves it), each
component summed exactly rounded (:func:`math.fsum`), so a change shown at an
event is the motion's, not the summation's.  An impact between two free bodies
keeps the momentum to rounding; the kinetic energy is kept at restitution 1 and
lost below it.  An impact with a fixed body or a container's wall changes the
free bodies' momentum by the impulse the fixed body takes.  Qt-free.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass

from solver import BouncePath

from ..state.scene import Scene


@dataclass(frozen=True)
class Totals:
    """The free bodies' total momentum and kinetic energy while one segment of the motion lasts.

    Attributes
    ----------
    momentum : (3,) float
        Sum of ``m v``.
    kinetic_energy : float
        Sum of ``m |v|² / 2``.
    scale : float
        The largest component of a body's ``m v`` in the sum: a total (or a change) no larger than its rounding
        reads 0 (:func:`explorer.model.words.text.fmt`).
    """

    momentum: tuple[float, float, float]
    kinetic_energy: float
    scale: float = 0.0

    @property
    def magnitude(self) -> float:
        """``|momentum|``."""
        return math.hypot(*self.momentum)

    def minus(self, other: Totals) -> Totals:
        """The change from ``other`` to this (component by component)."""
        change = tuple(a - b for a, b in zip(self.momentum, other.momentum))
        return Totals(change, self.kinetic_energy - other.kinetic_energy, max(self.scale, other.scale))


def totals(scene: Scene, velocities, frame_velocity=None) -> Totals:
    """The totals of ``scene``'s free bodies moving with ``velocities`` ((n, 3), world, scene order); in a frame
    moving at ``frame_velocity`` (3,) when given (:mod:`.frames`), with each velocity less that."""
    free = [(b.mass, tuple(map(float, v))) for b, v in zip(scene.bodies, velocities) if math.isfinite(b.mass)]
    if frame_velocity is not None:
        free = [(m, tuple(x - float(u) for x, u in zip(v, frame_velocity))) for m, v in free]
    momentum = tuple(math.fsum(m * v[k] for m, v in free) for k in range(3))
    energy = math.fsum(0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) for m, v in free)
    return Totals(momentum, energy, max((abs(m * x) for m, v in free for x in v), default=0.0))


def segment_index(path: BouncePath, t: float) -> int:
    """The segment of ``path`` in force at ``t`` (after every event at ``t``; the first before 0, the last after)."""
    starts = [seg.t_start for seg in path.segments]
    return min(max(bisect.bisect_right(starts, t) - 1, 0), len(starts) - 1)


def at_time(scene: Scene, path: BouncePath, t: float, frame_velocity=None) -> Totals:
    """The totals at time ``t`` (after any event at ``t``), in a frame moving at ``frame_velocity`` when given."""
    return totals(scene, path.segments[segment_index(path, t)].velocities, frame_velocity)


def across_events(scene: Scene, path: BouncePath, count: int) -> list[tuple[Totals, Totals]]:
    """``(before, after)`` the first ``count`` events of ``path``: the totals of the segments each ends and starts."""
    segments = path.segments
    last = len(segments) - 1
    return [(totals(scene, segments[min(k, last)].velocities), totals(scene, segments[min(k + 1, last)].velocities))
            for k in range(count)]  # fmt: skip
