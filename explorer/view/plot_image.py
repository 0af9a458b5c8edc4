"""The parabola f(t) drawn with matplotlib, for pictures made without a window.

Draws the same :class:`explorer.model.words.parabola.Parabola` the window's live plot shows:
the curve, the zero line, the contact region, both roots, the vertex, the
horizon and the current time.  The marks' words and where they go are
:mod:`.plot_words`' (as in the window and the live page): inside the axes, over
no other word, mark or the legend, so never over a tick label.
Qt-free (matplotlib's Agg or SVG canvas).
"""

from __future__ import annotations

import numpy as np

from ..model.words.parabola import Parabola
from ..model.words.text import fmt
from .palette import CONTACT_FILL, CURVE_COLOR, MINKOWSKI_COLOR
from .plot_words import Mark, marks, place_words

#: Behind each label: the curve and the lines stay visible around the text, not through it.
BACKING = {"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.8}
#: The words' sizes (points): a root's, the vertex's.
ROOT_FONT, VERTEX_FONT = 10, 9


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
    shown = marks(plot)
    for mark in shown:
        if mark.name == "vertex":
            ax.plot([mark.t], [mark.f], "D", ms=7, color=MINKOWSKI_COLOR, zorder=5)
        else:
            ax.plot([mark.t], [mark.f], "o", ms=9, color=mark.color, zorder=5)
    if lo <= plot.now <= hi:
        ax.axvline(plot.now, color="#d62728", lw=1.5, label=f"now t = {fmt(plot.now)}")
    ax.set_xlim(lo, hi)
    ax.set_ylim(*plot.f_range())
    ax.set_xlabel("t (frames)")
    sign = "≥ 0: at the wall" if inside else "≤ 0: touching"
    ax.set_ylabel(f"f   ({sign})")
    ax.set_title(plot.title("\n"), fontsize=11)
    ax.legend(loc="best", fontsize=8, framealpha=0.85)
    ax.grid(True, color="#dddddd", lw=0.6)
    write_words(ax, shown)


def write_words(ax, shown: list[Mark]) -> None:
    """Each mark's words where :func:`.plot_words.place_words` puts them (measured on ``ax``'s canvas, clear of
    its legend), or none where there is no room near the mark."""
    texts = {}
    for mark in shown:
        root = mark.name != "vertex"
        texts[mark.name] = ax.text(mark.t, mark.f, mark.text, ha="center", va="center", color=mark.color,
                                   fontsize=ROOT_FONT if root else VERTEX_FONT, weight="bold" if root else "normal",
                                   bbox=BACKING, zorder=6)  # fmt: skip
    frame = ax.get_window_extent()
    to_area = lambda e: (e.x0 - frame.x0, frame.y1 - e.y1, e.x1 - frame.x0, frame.y1 - e.y0)  # noqa: E731
    sizes = {}
    for name, text in texts.items():
        extent = text.get_window_extent()
        pad = 2.0 * 0.15 * text.get_fontsize() * ax.figure.dpi / 72.0  # the backing's pad, each side
        sizes[name] = (extent.width + pad, extent.height + pad)
    legend = ax.get_legend()
    fixed = [] if legend is None else [to_area(legend.get_window_extent())]
    spots = place_words(shown, sizes, (frame.width, frame.height), ax.get_xlim(), ax.get_ylim(), fixed)
    for name, text in texts.items():
        if spots[name] is None:
            text.set_visible(False)
        else:
            text.set_position(spots[name])


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
