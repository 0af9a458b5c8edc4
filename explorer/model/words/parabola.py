"""The quadratic of contact as a curve: f(t) = |d(t)|² − R² with its roots, vertex and horizon.

Qt-free data for the live plot in the window (pyqtgraph), for pictures made
by the command line (matplotlib) and for the live page, so all draw the same thing
(the marks' words and where they go: :mod:`explorer.view.plot_words`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from solver import vec

from ..derived.analysis import Solution
from ..derived.inspection import Focus, primary_focus
from .text import coefficient_scales, fmt, polynomial

#: Samples along the curve.
SAMPLES = 256
#: The time range shown extends this fraction of the horizon beyond [0, h] and the roots.
MARGIN = 0.15
#: The values shown extend this fraction of their span beyond the curve's lowest and highest (and 0).
F_PAD = 0.08
#: Roots further than this many horizons away are left off the range (a long way off the plot).
MAX_SPAN = 6.0


@dataclass(frozen=True)
class Parabola:
    """What the parabola plot shows.

    Attributes
    ----------
    t, f : (SAMPLES,) float, tuples
        The curve, ``f`` evaluated as ``|p + v τ|² − R²`` (accurate near the roots).
    a, b, c : float
        ``f = a τ² + b τ + c``, the solver's coefficients, in the pair's own time ``τ = t − start``.
    roots : (float, float) or None
        On the motion's clock ``t`` (as every time here).
    vertex : (float, float) or None
        ``(t_min, f(t_min))``: the closest approach, where f is smallest.
    horizon : float
    contact_below : bool
        True for a pair (touching where f <= 0), False inside a container
        (touching the wall where f >= 0).
    t_range : (float, float)
    now : float
        The current time marked on the plot.
    start : float
        When the pair's segment of the motion starts (0: the scene's start); the window is [start, horizon].
    scales : (3,) float or None
        What ``a``, ``b`` and ``c`` were worked out from (:func:`.text.coefficient_scales`): the title shows a
        coefficient that is their rounding as 0.
    """

    t: tuple[float, ...]
    f: tuple[float, ...]
    a: float
    b: float
    c: float
    roots: tuple[float, float] | None
    vertex: tuple[float, float] | None
    horizon: float
    contact_below: bool
    t_range: tuple[float, float]
    now: float
    start: float = 0.0
    scales: tuple[float, float, float] | None = None

    def in_window(self, t: float) -> bool:
        """``t`` lies in the pair's window [start, horizon] (a root there is drawn in its colour, else faded)."""
        return self.start <= t <= self.horizon

    @property
    def variable(self) -> str:
        """The curve's own time: ``t``, or ``τ`` = t − :attr:`start` for a segment starting after 0."""
        return "t" if self.start == 0.0 else "τ"

    def title(self, separator: str = ",  ") -> str:
        """``f(t) = a t² + b t + c``, or in the segment's own time ``f(τ) = …``, ``separator``, ``τ = t − start``."""
        if self.start == 0.0:
            return f"f(t) = {polynomial(self.a, self.b, self.c, scales=self.scales)}"
        return f"f(τ) = {polynomial(self.a, self.b, self.c, 'τ', self.scales)}{separator}τ = t − {fmt(self.start)}"

    def f_range(self) -> tuple[float, float]:
        """The values shown, bottom to top: the curve's finite values and 0, with :data:`F_PAD` of their span
        beyond each end (the same in every drawer)."""
        finite = [f for f in self.f if math.isfinite(f)]
        top, bottom = max([*finite, 0.0]), min([*finite, 0.0])
        pad = F_PAD * max(top - bottom, 1e-300)
        return bottom - pad, top + pad

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


def time_range(solution: Solution, focus: Focus | None = None) -> tuple[float, float]:
    """Times worth showing: [0, h], both roots and the vertex when near, with a margin (of ``focus``'s pair)."""
    f = primary_focus(solution) if focus is None else focus
    s = f.sweep
    h = solution.scene.horizon
    times = [0.0, h]
    for tau in (*(s.roots or ()), s.t_min):
        if tau is not None and -MAX_SPAN * h <= f.start + tau <= MAX_SPAN * h:
            times.append(f.start + tau)
    lo, hi = min(times), max(times)
    pad = MARGIN * max(hi - lo, h)
    return lo - pad, hi + pad


def parabola(solution: Solution, now: float = 0.0, focus: Focus | None = None) -> Parabola:
    """The curve and its marks at time ``now``, for ``focus``'s pair (default: the primary pair of ``solution``)."""
    f = primary_focus(solution) if focus is None else focus
    s, start = f.sweep, f.start
    lo, hi = time_range(solution, f)
    step = (hi - lo) / (SAMPLES - 1)
    t = tuple(lo + k * step for k in range(SAMPLES - 1)) + (hi,)
    p, v, r2 = s.relative_position, s.relative_velocity, s.radius**2
    values = tuple(vec.dot(d, d) - r2 for d in (vec.axpy(tk - start, v, p) for tk in t))
    a, b, c = s.coefficients
    roots = None if s.roots is None else (start + s.roots[0], start + s.roots[1])
    vertex = None if s.t_min is None else (start + s.t_min, s.f(s.t_min))
    horizon = solution.scene.horizon
    return Parabola(
        t, values, a, b, c, roots, vertex, horizon, not s.inside, (lo, hi), now, start, coefficient_scales(s)
    )
