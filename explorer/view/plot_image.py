"""The parabola f(t) drawn with matplotlib, for pictures made without a window.

Draws the same :class:`explorer.model.parabola.Parabola` the window's live plot shows:
the curve, the zero line, the contact region, both roots, the vertex, the
horizon and the current time.  Qt-free (matplotlib's Agg canvas).
"""

from __future__ import annotations

import numpy as np

from .palette import CONTACT_FILL, CURVE_COLOR, ENTER_COLOR, EXIT_COLOR, FADED_COLOR, MINKOWSKI_COLOR
from ..model.parabola import Parabola
from ..model.text import fmt, polynomial


def draw_parabola(ax, plot: Parabola, inside: bool = False) -> None:
    """Draw ``plot`` on the matplotlib axes ``ax``."""
    lo, hi = plot.t_range
    for span in plot.contact_spans():
        ax.axvspan(*span, color=CONTACT_FILL, alpha=0.6, lw=0, label="in contact" if span == plot.contact_spans()[0] else None)
    ax.axhline(0.0, color="#444444", lw=1)
    ax.axvspan(0.0, plot.horizon, color="#e8eef8", alpha=0.7, lw=0, zorder=0)
    ax.axvline(0.0, color="#888888", lw=1, ls=":")
    ax.axvline(plot.horizon, color="#888888", lw=1, ls="--", label=f"horizon h = {fmt(plot.horizon)}")
    ax.plot(plot.t, plot.f, color=CURVE_COLOR, lw=2.2, label="f(t) = |p + v t|² − R²")
    if plot.roots is not None:
        for k, root in enumerate(plot.roots):
            inside_h = 0.0 <= root <= plot.horizon
            color = (ENTER_COLOR, EXIT_COLOR)[k] if inside_h else FADED_COLOR
            if lo <= root <= hi:
                ax.plot([root], [0.0], "o", ms=9, color=color, zorder=5)
                ax.annotate(f"t{'₀₁'[k]} = {fmt(root)}", (root, 0.0), xytext=(0, 12 if k == 0 else -18),
                            textcoords="offset points", ha="center", color=color, fontsize=10, weight="bold")  # fmt: skip
    if plot.vertex is not None and lo <= plot.vertex[0] <= hi:
        tv, fv = plot.vertex
        ax.plot([tv], [fv], "D", ms=7, color=MINKOWSKI_COLOR, zorder=5)
        ax.annotate(f"vertex t_min = {fmt(tv)}", (tv, fv), xytext=(0, -16 if fv <= 0 else 10), textcoords="offset points",
                    ha="center", color="#555555", fontsize=9)  # fmt: skip
    if lo <= plot.now <= hi:
        ax.axvline(plot.now, color="#d62728", lw=1.5, label=f"now t = {fmt(plot.now)}")
    ax.set_xlim(lo, hi)
    finite = plot.f[np.isfinite(plot.f)]
    if finite.size:
        top, bottom = float(finite.max()), float(finite.min())
        pad = 0.08 * max(top - bottom, 1e-300)
        ax.set_ylim(min(bottom, 0.0) - pad, max(top, 0.0) + pad)
    ax.set_xlabel("t (frames)")
    sign = "≥ 0: at the wall" if inside else "≤ 0: touching"
    ax.set_ylabel(f"f(t)   ({sign})")
    ax.set_title(f"f(t) = {polynomial(plot.a, plot.b, plot.c)}", fontsize=11)
    ax.legend(loc="best", fontsize=8, framealpha=0.85)
    ax.grid(True, color="#dddddd", lw=0.6)


def compose_png(view_rgb: np.ndarray, plot: Parabola, out, inside: bool = False, dpi: int = 100) -> None:
    """Write the 3-D view (left) beside the parabola (right) as one PNG.

    Parameters
    ----------
    view_rgb : (H, W, 3 or 4) uint8
        The rendered 3-D view.
    plot : Parabola
    out : path
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    h, w = view_rgb.shape[:2]
    plot_w = int(0.62 * w)
    fig = Figure(figsize=((w + plot_w) / dpi, h / dpi), dpi=dpi)
    FigureCanvasAgg(fig)
    left = fig.add_axes((0.0, 0.0, w / (w + plot_w), 1.0))
    left.imshow(view_rgb)
    left.set_axis_off()
    right = fig.add_axes((w / (w + plot_w) + 0.06 * plot_w / (w + plot_w), 0.1, 0.88 * plot_w / (w + plot_w), 0.82))
    draw_parabola(right, plot, inside)
    fig.savefig(out, dpi=dpi, facecolor="white")
