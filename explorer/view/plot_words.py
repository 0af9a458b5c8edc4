"""The parabola's marks, their words, and where the words go: decided once for the window's panel (pyqtgraph), the
pictures (matplotlib: ``render --plot`` and the recorded page's SVG) and the live page (an SVG its script draws).

:func:`marks` says what is marked (each root in its colour, faded outside the pair's window, and the vertex) and
with which words.  Each drawer measures those words and its plot's data rectangle in its own pixels and asks
:func:`place_words` where they go: near their mark, inside the data rectangle -- so never over a tick label, which
every drawer puts outside it -- and over no other word, no mark and no fixed box (a legend).  A word with no room
within :data:`LINES` lines of its mark is left out (the values say it too).  numpy-, VTK- and Qt-free.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.words.parabola import Parabola
from ..model.words.text import fmt, root_label
from .label_places import box_hits_box, box_hits_disc
from .palette import ENTER_COLOR, EXIT_COLOR, FADED_COLOR, VERTEX_TEXT

#: Pixels kept between a word and what it keeps clear of (other words, the data rectangle's edges).
GAP = 3.0
#: A mark's radius as drawn (pixels, about): no word covers one.
MARK = 6.0
#: How many lines (of the word's own height) above or below its mark a word may go.
LINES = 6

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in pixels from the data rectangle's top left, y down


@dataclass(frozen=True)
class Mark:
    """One mark of the plot and its words.

    Attributes
    ----------
    name : str
        ``"root0"``, ``"root1"`` or ``"vertex"``.
    t, f : float
        Where the mark is, in the plot's coordinates.
    text : str
    color : str
        Hex colour of the mark and its words.
    above : bool
        Its words are tried above the mark first (the roots, on the zero line), else below (the vertex).
    """

    name: str
    t: float
    f: float
    text: str
    color: str
    above: bool


def marks(plot: Parabola) -> list[Mark]:
    """The marks in ``plot``'s time range: both roots (in their colours in the pair's window, else faded), then the
    vertex; in the order their words are placed."""
    lo, hi = plot.t_range
    out = []
    for k, root in enumerate(plot.roots or ()):
        if lo <= root <= hi:
            color = (ENTER_COLOR, EXIT_COLOR)[k] if plot.in_window(root) else FADED_COLOR
            out.append(Mark(f"root{k}", root, 0.0, f"{root_label(k)} = {fmt(root)}", color, True))
    if plot.vertex is not None and lo <= plot.vertex[0] <= hi:
        tv, fv = plot.vertex
        out.append(Mark("vertex", tv, fv, f"vertex t_min = {fmt(tv)}", VERTEX_TEXT, False))
    return out


def place_words(
    shown: list[Mark],
    sizes: dict[str, tuple[float, float]],
    area: tuple[float, float],
    t_range: tuple[float, float],
    f_range: tuple[float, float],
    fixed: list[Box] | tuple = (),
) -> dict[str, tuple[float, float] | None]:
    """Where each mark's words go: the centre of their box in the plot's coordinates ``(t, f)``, or None.

    Parameters
    ----------
    shown : list of Mark
        :func:`marks`, placed in this order.
    sizes : dict
        Mark name -> its words' box ``(width, height)`` in pixels, as the drawer measured them.
    area : (width, height)
        The data rectangle in pixels.
    t_range, f_range : (float, float)
        The plot's ranges: ``t_range`` across the rectangle left to right, ``f_range`` bottom to top.
    fixed : list of (x0, y0, x1, y1)
        Boxes in the rectangle's pixels (from its top left, y down) that words keep clear of: a legend.

    Returns
    -------
    dict
        Mark name -> ``(t, f)`` or None (no room near its mark).
    """
    width, height = area
    (t0, t1), (f0, f1) = t_range, f_range
    if width <= 0 or height <= 0 or not t1 > t0 or not f1 > f0:
        return {mark.name: None for mark in shown}
    x_of = lambda t: (t - t0) / (t1 - t0) * width  # noqa: E731
    y_of = lambda f: (f1 - f) / (f1 - f0) * height  # noqa: E731
    dots = [(x_of(m.t), y_of(m.f), MARK) for m in shown]
    taken = list(fixed)
    out: dict[str, tuple[float, float] | None] = {}
    for mark in shown:
        w, h = sizes[mark.name]
        box = _free_spot(x_of(mark.t), y_of(mark.f), w, h, mark.above, area, taken, dots)
        if box is None:
            out[mark.name] = None
            continue
        taken.append(box)
        cx, cy = (box[0] + box[2]) / 2.0, (box[1] + box[3]) / 2.0
        out[mark.name] = (t0 + cx / width * (t1 - t0), f1 - cy / height * (f1 - f0))
    return out


def _free_spot(x: float, y: float, w: float, h: float, above: bool, area: tuple[float, float], taken: list,
               dots: list) -> Box | None:  # fmt: skip
    """The first free box ``w`` x ``h`` near the mark at ``(x, y)``: a line at a time away from it, its preferred
    side first, centred on it, then beside it to the right, then to the left; slid inside the data rectangle."""
    first = -1.0 if above else 1.0  # y grows downwards
    for k in range(LINES):
        for side in (first, -first):
            cy = y + side * (MARK + GAP + h / 2.0 + k * (h + GAP))
            for cx in (x, x + w / 2.0, x - w / 2.0):
                box = _inside((cx - w / 2.0, cy - h / 2.0, cx + w / 2.0, cy + h / 2.0), area)
                if box is None or any(box_hits_box(box, t) for t in taken) or any(box_hits_disc(box, d) for d in dots):
                    continue
                return box
    return None


def _inside(box: Box, area: tuple[float, float]) -> Box | None:
    """``box`` slid the least that keeps it :data:`GAP` inside the rectangle ``area``, or None when it is larger."""
    width, height = area
    if box[2] - box[0] > width - 2 * GAP or box[3] - box[1] > height - 2 * GAP:
        return None
    dx = max(0.0, GAP - box[0]) - max(0.0, box[2] - (width - GAP))
    dy = max(0.0, GAP - box[1]) - max(0.0, box[3] - (height - GAP))
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)
