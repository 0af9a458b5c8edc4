"""The quadratic of contact as a curve: f(t) = |d(t)|² − R² with its roots, vertex and horizon.

Qt-free data for the live plot in the window (pyqtgraph) and for pictures made
by the command line (matplotlib), so both draw the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .analysis import Solution

#: Samples along the curve.
SAMPLES = 256
#: The time range shown extends this fraction of the horizon beyond [0, h] and the roots.
MARGIN = 0.15
#: Roots further than this many horizons away are left off the range (a long way off the plot).
MAX_SPAN = 6.0


@dataclass(frozen=True)
class Parabola:
    """What the parabola plot shows.

    Attributes
    ----------
    t, f : (SAMPLES,) float
        The curve, ``f`` evaluated as ``|p + v t|² − R²`` (accurate near the roots).
    a, b, c : float
        ``f(t) = a t² + b t + c``, the solver's coefficients.
    roots : (float, float) or None
    vertex : (float, float) or None
        ``(t_min, f(t_min))``: the closest approach, where f is smallest.
    horizon : float
    contact_below : bool
        True for a pair (touching where f <= 0), False inside a container
        (touching the wall where f >= 0).
    t_range : (float, float)
    now : float
        The current time marked on the plot.
    """

    t: np.ndarray
    f: np.ndarray
    a: float
    b: float
    c: float
    roots: tuple[float, float] | None
    vertex: tuple[float, float] | None
    horizon: float
    contact_below: bool
    t_range: tuple[float, float]
    now: float

    def contact_spans(self) -> list[tuple[float, float]]:
        """Time intervals of the visible range where the spheres are in contact."""
        lo, hi = self.t_range
        if self.roots is None:
            inside = (self.f[0] <= 0) if self.contact_below else (self.f[0] >= 0)
            return [(lo, hi)] if inside else []
        r0, r1 = self.roots
        if self.contact_below:
            return [(max(lo, r0), min(hi, r1))] if r0 <= hi and r1 >= lo else []
        return [span for span in ((lo, min(hi, r0)), (max(lo, r1), hi)) if span[0] < span[1]]


def time_range(solution: Solution) -> tuple[float, float]:
    """Times worth showing: [0, h], both roots and the vertex when near, with a margin."""
    s = solution.sweep
    h = solution.scene.horizon
    times = [0.0, h]
    for t in (*(s.roots or ()), s.t_min):
        if t is not None and -MAX_SPAN * h <= t <= MAX_SPAN * h:
            times.append(t)
    lo, hi = min(times), max(times)
    pad = MARGIN * max(hi - lo, h)
    return lo - pad, hi + pad


def parabola(solution: Solution, now: float = 0.0) -> Parabola:
    """The curve and its marks for the primary pair of ``solution`` at time ``now``."""
    s = solution.sweep
    lo, hi = time_range(solution)
    t = np.linspace(lo, hi, SAMPLES)
    p = np.asarray(s.relative_position, dtype=float)
    v = np.asarray(s.relative_velocity, dtype=float)
    d = p[None, :] + t[:, None] * v[None, :]
    f = np.einsum("ij,ij->i", d, d) - s.radius**2
    a, b, c = s.coefficients
    vertex = None if s.t_min is None else (s.t_min, s.f(s.t_min))
    return Parabola(t, f, a, b, c, s.roots, vertex, solution.scene.horizon, not s.inside, (lo, hi), now)
