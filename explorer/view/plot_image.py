"""The parabola f(t) drawn with matplotlib, for pictures made without a window.

Draws the same :class:`explorer.model.words.parabola.Parabola` the window's live plot shows:
the curve, the zero line, the contact region, both roots, the vertex, the
horizon and the current time.  Its texts never overlap: the roots' labels sit
above the zero line and the vertex's below its marker, each moved one more
line away while it covers a text placed before it (:func:`separate`).
Qt-free (matplotlib's Agg canvas).
"""

from __future__ import annotations

import math

import numpy as np

from ..model.words.parabola import Parabola
from ..model.words.text import fmt, root_label
from .palette import CONTACT_FILL, CURVE_COLOR, ENTER_COLOR, EXIT_COLOR, FADED_COLOR, MINKOWSKI_COLOR

#: A label that covers another moves this far (points) away from its mark, at most :data:`MAX_MOVES` times.
LABEL_STEP, MAX_MOVES = 14, 8
#: Behind each label: the curve and the lines stay visible around the text, not through it.
BACKING = {"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.8}


def draw_parabola(ax, plot: Parabola, inside: bool = False) -> None:
    """Draw ``plot`` on the matplotlib axes ``ax``."""
    lo, hi = plot.t_range
    for span in plot.contact_spans():
        ax.axvspan(
            *span, color=CONTACT_FILL, alpha=0.6, lw=0, label="in contact" if span == plot.contact_spans()[0] else None
        )
    ax.axhline(0.0, color="#444444", lw=1)
    ax.axvspan(plot.start, plot.horizon, color="#e8eef8", alpha=0.7, lw=0, zorder=0)
    ax.axvline(plot.start, color="#888888", lw=1, ls=":")
    ax.axvline(plot.horizon, color="#888888", lw=1, ls="--", label=f"horizon h = {fmt(plot.horizon)}")
    x = plot.variable
    ax.plot(plot.t, plot.f, color=CURVE_COLOR, lw=2.2, label=f"f({x}) = |p + v {x}|² − R²")
    labels = []
    if plot.roots is not None:
        for k, root in enumerate(plot.roots):
            color = (ENTER_COLOR, EXIT_COLOR)[k] if plot.in_window(root) else FADED_COLOR
            if lo <= root <= hi:
                ax.plot([root], [0.0], "o", ms=9, color=color, zorder=5)
                labels.append(ax.annotate(f"{root_label(k)} = {fmt(root)}", (root, 0.0), xytext=(0, 12), textcoords="offset points",
                                          ha="center", color=color, fontsize=10, weight="bold", bbox=BACKING))  # fmt: skip
    if plot.vertex is not None and lo <= plot.vertex[0] <= hi:
        tv, fv = plot.vertex
        ax.plot([tv], [fv], "D", ms=7, color=MINKOWSKI_COLOR, zorder=5)
        labels.append(ax.annotate(f"vertex t_min = {fmt(tv)}", (tv, fv), xytext=(0, -16), textcoords="offset points",
                                  ha="center", color="#555555", fontsize=9, bbox=BACKING))  # fmt: skip
    if lo <= plot.now <= hi:
        ax.axvline(plot.now, color="#d62728", lw=1.5, label=f"now t = {fmt(plot.now)}")
    ax.set_xlim(lo, hi)
    finite = np.array([f for f in plot.f if math.isfinite(f)])
    if finite.size:
        top, bottom = float(finite.max()), float(finite.min())
        pad = 0.08 * max(top - bottom, 1e-300)
        ax.set_ylim(min(bottom, 0.0) - pad, max(top, 0.0) + pad)
    ax.set_xlabel("t (frames)")
    sign = "≥ 0: at the wall" if inside else "≤ 0: touching"
    ax.set_ylabel(f"f   ({sign})")
    ax.set_title(plot.title("\n"), fontsize=11)
    ax.legend(loc="best", fontsize=8, framealpha=0.85)
    ax.grid(True, color="#dddddd", lw=0.6)
    separate(ax, labels)


def separate(ax, labels: list) -> None:
    """Move each of ``labels`` (annotations, in order) away from its mark until it covers none placed before it.

    A label above its mark (a positive offset) moves up, one below moves down, by :data:`LABEL_STEP` points.
    """
    placed = []
    for label in labels:
        for _ in range(MAX_MOVES):
            box = label.get_window_extent().expanded(1.0, 1.1)
            if not any(box.overlaps(other) for other in placed):
                break
            x, y = label.xyann
            label.xyann = (x, y + (LABEL_STEP if y > 0 else -LABEL_STEP))
        placed.append(label.get_window_extent())


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
    right = fig.add_axes((w / (w + plot_w) + 0.14 * plot_w / (w + plot_w), 0.1, 0.82 * plot_w / (w + plot_w), 0.8))
    draw_parabola(right, plot, inside)
    fig.savefig(out, dpi=dpi, facecolor="white")
