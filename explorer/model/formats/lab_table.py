"""The data table of a lab sheet: every body's mass, position, velocity, speed, momentum and kinetic energy.

Two forms of the same numbers (:mod:`.momenta`): rows of words (6 significant
digits, rounding read as 0, the totals of the free bodies under them, the same
as the values panel's), and CSV for a spreadsheet (one row per body, every
number as Python's shortest round-trip repr, so it reads back to the same
float64): at the time shown, or at every event before and after it.  The rows
are what *Copy table* gives, one line per body; the window and the page show
each row as a block of its own (:func:`table_blocks`), one quantity a line, so
that every number fits a panel beside the 3-D view or a phone.  Both in a frame
(:mod:`explorer.model.derived.frames`), which each says: the window's and the
page's table under a line of words over it
(:func:`explorer.model.words.frames.frame_line`), each CSV row in its ``frame``
columns (its name and its velocity in the world).  numpy-, VTK- and Qt-free.
"""

from __future__ import annotations

import csv
import io
import math

from ..derived.analysis import Solution
from ..derived.frames import FRAMES, WORLD, Frame, frame_at
from ..state.scene import Scene
from ..words.momenta import BodyAt, around_event, bodies_at, centre_of_mass, momentum_scale, total_momentum
from ..words.text import fmt
from ..words.values import vector

#: The table's column headings (the window's and the page's).
HEADINGS = ("body", "mass m", "position", "velocity v", "speed |v|", "momentum m v", "kinetic energy")

#: The CSV's columns: ``when`` is ``at`` (the time shown), ``before`` or ``after`` (an event).
#: ``frame`` names the frame every number of the row is in (``world``, ``com``, ``relative``: :data:`FRAMES`) and
#: ``frame_vx`` … its velocity in the world then (the frame at the row's time: just after an event, for both rows).
CSV_COLUMNS = ("time", "when", "event", "body", "mass", "x", "y", "z", "vx", "vy", "vz", "speed", "px", "py", "pz",
               "kinetic_energy", "frame", "frame_vx", "frame_vy", "frame_vz")  # fmt: skip

#: The mass, momentum and energy cells of a fixed body, which has none.
FIXED = "fixed (infinite)"

#: The first cell of the totals row.
TOTAL = "free bodies"


def speed(body: BodyAt) -> float:
    """``|v|`` of ``body``."""
    return math.hypot(*body.velocity)


def table_rows(bodies: list[BodyAt]) -> list[tuple[str, ...]]:
    """One row of words per body (:data:`HEADINGS`), then the free bodies' totals: their mass, the centre of
    mass's position and velocity, and Σ m v and Σ ½ m |v|² (no row without a free body)."""
    rows = []
    for b in bodies:
        free = b.mass is not None
        rows.append((b.name, fmt(b.mass) if free else FIXED, vector(b.center), vector(b.velocity), fmt(speed(b)),
                     vector(b.momentum) if free else "none", fmt(b.kinetic_energy) if free else "none"))  # fmt: skip
    com = centre_of_mass(bodies)
    if com is not None:  # sums, each read against what it sums (a total that is rounding reads 0)
        free = [b for b in bodies if b.mass is not None]
        mass = math.fsum(b.mass for b in free)
        where = max(abs(x) for b in free for x in b.center)
        momentum = momentum_scale(free)
        rows.append((TOTAL, fmt(mass), f"centre of mass {vector(com.position, where)}",
                     vector(com.velocity, momentum / mass), fmt(math.hypot(*com.velocity), momentum / mass),
                     vector(total_momentum(free), momentum), fmt(math.fsum(b.kinetic_energy for b in free))))  # fmt: skip
    return rows


def table_blocks(rows: list[tuple[str, ...]]) -> list[tuple[str, list[tuple[str, str]]]]:
    """The table's rows (:func:`table_rows`) as the window and the page show them: a block per body (and the
    free bodies' totals), its name over one ``(heading, value)`` line per quantity of :data:`HEADINGS`.  Two
    columns, whatever the number of bodies: every value in view in a panel beside the 3-D view or on a phone."""
    return [(row[0], list(zip(HEADINGS[1:], row[1:]))) for row in rows]


def table_text(rows: list[tuple[str, ...]], heading: str | None = None) -> str:
    """The table as tab-separated text with its headings (what *Copy* puts on the clipboard), under ``heading``
    (the line saying which frame its numbers are in) when given."""
    lines = ([heading] if heading else []) + ["\t".join(row) for row in [HEADINGS, *rows]]
    return "\n".join(lines) + "\n"


def _cells(t: float, when: str, event: int | None, b: BodyAt, frame: Frame) -> list:
    free = b.mass is not None
    number = lambda x: "" if x is None else repr(float(x))  # noqa: E731
    momentum = b.momentum if free else (None, None, None)
    return [repr(float(t)), when, "" if event is None else event, b.name, number(b.mass), *map(number, b.center),
            *map(number, b.velocity), number(speed(b)), *map(number, momentum), number(b.kinetic_energy),
            frame.kind, *map(number, frame.velocity)]  # fmt: skip


def csv_text(scene: Scene, solution: Solution, t: float | None = None, frame: str = WORLD) -> str:
    """The CSV of :data:`CSV_COLUMNS`: every body at time ``t``, or (``t`` None) at every event, before and after
    (``event`` counts from 1, as the event list does), in the ``frame`` (one of :data:`FRAMES`) at that time.  A
    fixed body's mass, momentum and energy are empty."""
    if frame not in FRAMES:
        raise ValueError(f"frame: expected one of {', '.join(FRAMES)}, got {frame!r}")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    if t is not None:
        now = frame_at(scene, solution, t, frame)
        for b in bodies_at(scene, solution, t, now):
            writer.writerow(_cells(t, "at", None, b, now))
    else:
        for k, event in enumerate(solution.events):
            then = frame_at(scene, solution, event.time, frame)
            for when, bodies in zip(("before", "after"), around_event(scene, solution, k, then)):
                for b in bodies:
                    writer.writerow(_cells(event.time, when, k + 1, b, then))
    return out.getvalue()
