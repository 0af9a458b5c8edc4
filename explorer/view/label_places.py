"""Where each label goes on screen: beside its sphere or near its anchor, never over another sphere or label.

The rule of the window's labels (:mod:`.labels`, which measures them with VTK)
and of the web page's (the page's script measures them and Python places them),
in plain Python: the labels are placed one by one in order of importance, each
at the first spot where its box covers no sphere but its own and no box placed
before it (nor the fixed texts over the view); a body's name goes beside its
sphere (right, left, above, below, then the diagonals, then a little further
out), off its own velocity arrow where a spot allows, another label where it
was anchored, else nudged around that spot, the nearest first.  A label stays
with its item: every spot is within :data:`NEAR` pixels of its sphere's outline
or its anchor (slid back into the view where it would cross an edge), and a
label whose anchor is out of the view is left out, as is one with no free spot
there: turn or zoom and it comes back.  Screen coordinates are pixels with y up
(VTK's display coordinates).  numpy-, VTK- and Qt-free.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .placement import arrow_end

#: Pixels kept free between a label and what it must not cover.
GAP = 3.0
#: Directions tried around a sphere or an anchor, in order: right, left, up, down, then the diagonals.
DIRECTIONS = ((1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0), (1.0, 1.0), (-1.0, 1.0), (1.0, -1.0), (-1.0, -1.0))
#: How far out the spots are tried: around an anchor, multiples of the label's own size; beside a sphere, pixels
#: more between the label and its outline.
RINGS = (1.0, 1.9, 2.8)
NAME_RINGS = (0.0, 8.0, 16.0)
#: A label is never further than this many pixels from its item: its sphere's outline, or its anchor.
NEAR = 24.0

Box = tuple[float, float, float, float]  # x0, y0, x1, y1
Disc = tuple[float, float, float]  # centre x, y and radius
Segment = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass
class Plan:
    """What the layout needs from a picture.

    Attributes
    ----------
    order : list of str
        The labels to place, most important first.
    owners : dict
        Label name -> the body it names (its own sphere it may touch, and it goes beside it).
    opaque : (n,) bool
        Spheres a label must not cover (not the see-through container, nor B grown into the expanded sphere).
    centers : (n, 3) float
        Sphere centres as drawn.
    radii : (n,) float
    arrows : (n,) of ((3,), (3,)) or None
        Each body's velocity arrow as drawn (:func:`.placement.arrow_end`), from its centre at t = 0 to its tip,
        where one is drawn: its name keeps off it.
    keep_off : dict
        Label name -> the body whose arrow it keeps off where a spot allows (besides each name its own body's): the
        words of a stretched arrow.
    """

    order: list[str]
    owners: dict[str, int]
    opaque: tuple[bool, ...]
    centers: tuple
    radii: tuple
    arrows: tuple = ()
    keep_off: dict = field(default_factory=dict)


def label_plan(scene, solution, at, focus=None) -> Plan:
    """The plan of a scene's picture: the described pair's names first, then the roots, the closest
    approach and the other names; the see-through bodies (a container, B grown in its rest frame) may be covered.

    ``at``: the :class:`~explorer.view.placement.Placement` the picture was drawn with; ``focus``: the pair the
    inspector describes (default: the primary pair).
    """
    pair = (0, solution.other) if focus is None else focus.pair
    n = len(scene.bodies)
    opaque = tuple(i != scene.container and not (i == solution.other and at.reference > 0.0) for i in range(n))
    names = [f"name{i}" for i in pair] + ["root0", "root1", "closest"] + [f"name{i}" for i in range(n) if i not in pair]
    names += [f"speed{i}" for i in pair] + [f"speed{i}" for i in range(n) if i not in pair]
    starts = (at.at(body.center, 0.0) for body in scene.bodies)  # each velocity arrow, from t = 0, as drawn
    arrows = tuple(None if tip == start else (start, arrow_end(start, tip, radius, at.marker)[0])
                   for start, tip, radius in zip(starts, at.tips, at.radii))  # fmt: skip
    return Plan(names, {f"name{i}": i for i in range(n)}, opaque, tuple(at.centers), tuple(at.radii), arrows,
                {f"speed{i}": i for i in range(n)})  # fmt: skip


def candidate_offsets(size: tuple[float, float], disc: Disc | None, base: tuple[float, float]) -> list:
    """Offsets from a label's anchor to try, best first.

    Beside its body's ``disc`` (the anchor at its centre) for a name; else ``base`` (the offset it was
    drawn with) and spots around it, the nearest first.  Spots further than :data:`NEAR` from the item are
    left to :func:`place` to drop.
    """
    hx, hy = size[0] / 2.0, size[1] / 2.0
    if disc is not None:  # beside the sphere: the box's near edge (or corner) just off its outline
        out = []
        for extra in NAME_RINGS:
            for dx, dy in DIRECTIONS:
                n = math.hypot(dx, dy)
                reach = disc[2] + extra
                out.append((dx * (reach * abs(dx) / n + GAP + hx), dy * (reach * abs(dy) / n + GAP + hy)))
        return out
    sx, sy = 2.0 * hx + GAP, 2.0 * hy + GAP  # a step of its own size: a few lines up or down before a width aside
    moves = [(0.0, 0.0)] + [(dx * sx * k, dy * sy * k) for k in RINGS for dx, dy in DIRECTIONS]
    moves += [(dx * hx, dy * sy * k) for k in (0.0, *RINGS) for dx in (1.0, -1.0) for dy in (1.0, -1.0)]  # half aside
    moves.sort(key=lambda m: math.hypot(*m))  # stable: ties keep the order of the directions
    return [(base[0] + mx, base[1] + my) for mx, my in moves]


def distance_to(box: Box, disc: Disc) -> float:
    """How far ``box`` is from ``disc``'s outline (0 where they touch or overlap), in pixels."""
    x = min(max(disc[0], box[0]), box[2])
    y = min(max(disc[1], box[1]), box[3])
    return max(0.0, math.hypot(x - disc[0], y - disc[1]) - disc[2])


def slid_into(box: Box, viewport: tuple[float, float]) -> Box | None:
    """``box`` moved the least that puts it inside ``viewport`` (width, height), or None when it is larger."""
    width, height = viewport
    if box[2] - box[0] > width or box[3] - box[1] > height:
        return None
    dx = max(0.0, -box[0]) - max(0.0, box[2] - width)
    dy = max(0.0, -box[1]) - max(0.0, box[3] - height)
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


def in_view(point, viewport: tuple[float, float]) -> bool:
    """Whether the screen ``point`` (x, y), or None for a point behind the camera, lies in ``viewport``."""
    return point is not None and 0.0 <= point[0] <= viewport[0] and 0.0 <= point[1] <= viewport[1]


def box_hits_disc(box: Box, disc: Disc) -> bool:
    """``box`` overlaps ``disc`` grown by :data:`GAP`."""
    x = min(max(disc[0], box[0]), box[2])
    y = min(max(disc[1], box[1]), box[3])
    return (x - disc[0]) ** 2 + (y - disc[1]) ** 2 < (disc[2] + GAP) ** 2


def box_hits_box(box: Box, other: Box) -> bool:
    """``box`` and ``other`` overlap, or come closer than :data:`GAP`."""
    return not (box[2] + GAP <= other[0] or other[2] + GAP <= box[0] or box[3] + GAP <= other[1]
                or other[3] + GAP <= box[1])  # fmt: skip


def box_hits_segment(box: Box, segment: Segment) -> bool:
    """``segment`` passes through ``box`` grown by :data:`GAP` (Liang and Barsky's clipping)."""
    x0, y0, x1, y1 = segment
    dx, dy = x1 - x0, y1 - y0
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, x0 - (box[0] - GAP)), (dx, box[2] + GAP - x0), (-dy, y0 - (box[1] - GAP)),
                 (dy, box[3] + GAP - y0)):  # fmt: skip
        if p == 0.0:
            if q < 0.0:
                return False  # parallel to this edge and outside it
        elif p < 0.0:
            lo = max(lo, q / p)
        else:
            hi = min(hi, q / p)
    return lo <= hi


def place(plan: Plan, discs: list[Disc], labels: dict, fixed: list[Box], viewport: tuple[float, float],
          arrows: list[Segment | None] | None = None) -> dict:  # fmt: skip
    """Every label's offset from its anchor, or None when it is left out (its anchor out of the view, or no spot
    free within :data:`NEAR` of its item).

    Parameters
    ----------
    plan : Plan
    discs : list of (x, y, r)
        Each body's sphere on screen, in body order.
    labels : dict
        Name -> ``(anchor, size, base)``: the anchor's screen point (x, y), or None where it is behind the camera,
        the label's size (w, h) and the offset it was drawn with; only the labels shown, in any order (the plan's
        order is kept).
    fixed : list of (x0, y0, x1, y1)
        Texts over the view that labels keep clear of.
    viewport : (width, height)
    arrows : list of (x0, y0, x1, y1) or None, optional
        Each body's velocity arrow on screen (:attr:`Plan.arrows`), None where it has none: a name goes off its
        own arrow at the first free spot that is, else at the first free spot.
    """
    taken = list(fixed)
    out = {}
    for name in plan.order:
        if name not in labels:
            continue
        anchor, size, base = labels[name]
        if not in_view(anchor, viewport):
            out[name] = None  # its item is out of view: so is its label
            continue
        owner = plan.owners.get(name)
        item = (anchor[0], anchor[1], 0.0) if owner is None else discs[owner]
        others = [d for k, d in enumerate(discs) if plan.opaque[k] and k != owner]
        keep_off = plan.keep_off.get(name, owner)
        shaft = arrows[keep_off] if arrows and keep_off is not None else None
        spot = None  # (offset, box): off the arrow if a free spot is, else the first free one
        for dx, dy in candidate_offsets(size, None if owner is None else discs[owner], base):
            cx, cy = anchor[0] + dx, anchor[1] + dy
            box = slid_into((cx - size[0] / 2.0, cy - size[1] / 2.0, cx + size[0] / 2.0, cy + size[1] / 2.0), viewport)
            if box is None or distance_to(box, item) > NEAR:
                continue
            if any(box_hits_disc(box, d) for d in others) or any(box_hits_box(box, t) for t in taken):
                continue
            offset = ((box[0] + box[2]) / 2.0 - anchor[0], (box[1] + box[3]) / 2.0 - anchor[1])
            if shaft is None or not box_hits_segment(box, shaft):
                spot = (offset, box)
                break
            spot = spot or (offset, box)
        out[name] = spot[0] if spot else None
        if spot:
            taken.append(spot[1])
    return out


#: The axes glyph: how far out along its axis each letter may go (times the axis' length), and the least distance
#: between two letters on screen (the same unit).
AXIS_LABEL_REACH = (1.0, 1.15, 1.3, 1.45, 1.6, 1.75, 1.9)
AXIS_LABEL_APART = 0.5


def axis_label_reach(screen_axes) -> tuple[float, ...]:
    """How far out along its axis each letter of the axes glyph goes (times the axis' length): the shortest axis on
    screen keeps its letter at its tip, each longer one moves its letter out until it is :data:`AXIS_LABEL_APART`
    from those placed (seen from above at a tilt, y and z point up the screen together and their letters met).

    Parameters
    ----------
    screen_axes : (3, 2) float
        Each unit axis (x, y, z) as the camera shows it: its components to the right and up.

    Returns
    -------
    (3,) float, a tuple
    """
    placed: list[tuple[float, float]] = []
    reach = [AXIS_LABEL_REACH[0]] * len(screen_axes)
    for k in sorted(range(len(screen_axes)), key=lambda i: math.hypot(*screen_axes[i])):
        sx, sy = screen_axes[k]
        for r in AXIS_LABEL_REACH:
            reach[k] = r
            if all(math.hypot(r * sx - px, r * sy - py) >= AXIS_LABEL_APART for px, py in placed):
                break
        placed.append((reach[k] * sx, reach[k] * sy))
    return tuple(reach)
