"""The parabola f(t) as inline SVG: the picture ``render --plot`` draws, by the same matplotlib code.

:func:`explorer.view.plot_image.draw_parabola` draws the curve, roots, vertex,
horizon and contact band; the current time is left to the page (a line its
script moves with the slider), so this module also says where t maps to on the
SVG's x axis.  Text stays text (``svg.fonttype = none``): small and selectable.
Qt-free.
"""

from __future__ import annotations

import io
import math
import re
from dataclasses import replace

from ..model.derived.analysis import Solution
from ..model.words.parabola import parabola
from ..view.plot_image import draw_parabola

#: Size of the plot in CSS pixels.
PLOT_SIZE = (460, 300)


def parabola_svg(solution: Solution) -> tuple[str, dict]:
    """The plot of ``solution``'s primary pair as an ``<svg>`` element, and where its axes are.

    Returns
    -------
    svg : str
        One ``<svg ...>…</svg>`` element (no XML prolog), for inline HTML.
    axes : dict
        ``{"t0", "t1", "x0", "x1", "y0", "y1"}``: times ``t0``, ``t1`` at SVG x
        coordinates ``x0``, ``x1`` (in the SVG's own units); the axes span y0 to y1.
    """
    import matplotlib
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure

    width, height = PLOT_SIZE
    dpi = 72.0  # one SVG unit (a point) per CSS pixel at this size
    fig = Figure(figsize=(width / dpi, height / dpi), dpi=dpi)
    FigureCanvasSVG(fig)
    ax = fig.add_axes((0.15, 0.16, 0.81, 0.74))
    plot = replace(parabola(solution), now=math.nan)  # the page draws "now" itself
    draw_parabola(ax, plot, inside=solution.scene.mode == "inside")
    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "sphere-explorer"}):
        fig.savefig(buffer, format="svg", facecolor="white", metadata={"Date": None})  # the same bytes at any time
    text = buffer.getvalue()
    svg = text[text.index("<svg") :]
    svg = re.sub(r'\swidth="[^"]*pt"\s+height="[^"]*pt"', f' width="{width}" height="{height}"', svg, count=1)
    box = ax.get_position()
    lo, hi = ax.get_xlim()
    axes = {
        "t0": lo,
        "t1": hi,
        "x0": box.x0 * width,
        "x1": box.x1 * width,
        "y0": (1.0 - box.y1) * height,
        "y1": (1.0 - box.y0) * height,
    }
    return svg, axes
