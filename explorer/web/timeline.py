"""Time in the page: the drawing code's own picture at a few dozen instants, as moves of the exported actors.

The page cannot run the solver, so the motion is recorded here: the scene's
:class:`~explorer.view.scene_view.SceneView` is updated at each instant, exactly
as the window's time slider updates it, and what changed is kept: each actor's
position, size and visibility (the spheres move along their certified paths),
each text label's anchor, and the note under the verdict.  Instants are evenly
spaced over the window's slider range, plus every event and the first contact,
so the page shows the spheres touching.  Qt-free.
"""

from __future__ import annotations

import numpy as np

from ..model.actions.session import Session
from ..system import interrupt
from ..view.scene_view import SceneView
from .vtkjs import StableIds, actor_id

#: Evenly spaced instants over the slider's range.
EVEN_INSTANTS = 61
#: At most this many instants in all (events beyond it are left to the even ones).
MAX_INSTANTS = 240
#: Significant digits kept of recorded coordinates (far beyond what a screen shows).
DIGITS = 10


def instants(session: Session, at_events: bool = True) -> np.ndarray:
    """The times the page's slider stops at, ``(k,) float``, increasing, from 0.

    Evenly spaced over :meth:`~explorer.model.actions.session.Session.time_range` (the
    window's slider), with every event time (unless ``at_events`` is false: a
    page kept within its budget) and the first contact added (up to
    :data:`MAX_INSTANTS` in all).
    """
    lo, hi = session.time_range()
    solution = session.solution
    even = np.linspace(lo, hi, EVEN_INSTANTS)
    marks = [e.time for e in solution.events] if at_events else []
    if solution.sweep.toi is not None:
        marks.append(solution.sweep.toi)
    marks = sorted({t for t in marks if lo <= t <= hi} - set(even.tolist()))[: MAX_INSTANTS - EVEN_INSTANTS]
    return np.array(sorted([*even.tolist(), *marks]), dtype=float)


def _round(values) -> list[float]:
    return [float(f"{float(x):.{DIGITS}g}") + 0.0 for x in values]


def _hex(color) -> str:
    return "#" + "".join(f"{int(round(255 * min(max(c, 0.0), 1.0))):02x}" for c in color)


def shown_actors(view: SceneView, ids: StableIds) -> dict[str, str]:
    """``{item name: actor id}`` of the view's items on screen now (what a serialized scene holds), each named
    as ``ids`` names it (the page's name for the actor, see :class:`~explorer.web.vtkjs.StableIds`)."""
    return {name: ids[actor_id(item.actor)] for name, item in view.items.items.items() if item.actor.GetVisibility()}


def record(session: Session, view: SceneView, reference: float, times: np.ndarray, actors: dict[str, str]) -> dict:
    """The view's picture at each of ``times``, as changes of the exported actors and labels (JSON-ready).

    Parameters
    ----------
    session : Session
        The scene, its solution, layers and steps.
    view : SceneView
        Updated at each instant (left at the last).
    reference : float
        0 world frame, 1 B's rest frame.
    times : (k,) float
    actors : dict
        ``{item name: actor id}`` exported (see :func:`shown_actors`); only these move.

    Returns
    -------
    dict
        ``ids``: every exported actor of this view; ``tracks``: for each actor that
        changes, ``{"id", "at": (k, 5)}`` rows of x, y, z, scale, visible;
        ``labels``: ``{"text", "color", "dx", "dy", "at": (k, 4)}`` rows of x, y,
        z, visible, or ``"follow"``: the id of the actor whose position it keeps
        (a body's name).  An actor whose mesh the drawing code rebuilds at an
        instant (not just moves) is hidden there: the page has only the first
        mesh.  ``notes``: the line under the verdict at each instant
        (null for none).
    """
    scene, solution, state = session.scene, session.solution, session.view
    items, labels = view.items.items, view.items.labels
    rows: dict[str, list] = {name: [] for name in actors}
    label_rows: dict[str, list] = {name: [] for name in labels}
    label_look: dict[str, tuple] = {}
    notes: list[str | None] = []
    meshes = {name: items[name].key for name in actors}  # what each exported actor's mesh was built from
    for t in times:
        interrupt.check()  # a long motion's instants take seconds: a signal is acted on between them
        view.update(scene, solution, float(t), reference, state.layers, state.steps)
        for name in actors:
            item = items[name]
            shown = item.actor.GetVisibility() and item.key == meshes[name]  # a rebuilt mesh is not the exported one
            rows[name].append((*_round(item.actor.GetPosition()), *_round(item.actor.GetScale()[:1]), int(shown)))
        for name, (actor, _) in labels.items():
            shown = bool(actor.GetVisibility())
            anchor = actor.GetPositionCoordinate().GetReferenceCoordinate().GetValue()
            label_rows[name].append((*_round(anchor), int(shown)))
            if shown and name not in label_look:
                offset = actor.GetPositionCoordinate().GetValue()
                label_look[name] = (actor.GetInput(), _hex(actor.GetTextProperty().GetColor()), offset[0], offset[1])
        notes.append(view.text.note.GetInput() if view.text.note.GetVisibility() else None)
    tracks = [{"id": actors[name], "at": row} for name, row in rows.items() if len(set(row)) > 1]
    positions = {actors[name]: [r[:3] for r in row] for name, row in rows.items()}
    labels_out = [_label(look, label_rows[name], positions) for name, look in label_look.items()]
    return {"ids": sorted(set(actors.values())), "tracks": tracks, "labels": labels_out, "notes": _runs(notes)}


def _label(look: tuple, row: list, positions: dict) -> dict:
    """One label for the page: its look, and its anchor at each instant, or the actor it stays on."""
    text, color, dx, dy = look
    label = {"text": text, "color": color, "dx": dx, "dy": dy}
    if len(set(row)) == 1:
        label["at"] = [row[0]]
        return label
    anchors = [r[:3] for r in row]
    always = all(r[3] for r in row)
    follow = next((i for i, at in positions.items() if always and anchors == at), None)
    if follow is not None:
        label["follow"] = follow
    else:
        label["at"] = row
    return label


def _runs(values: list) -> list:
    """``values`` as ``[[first index, value], ...]`` at each change (a short list for a mostly constant one)."""
    out: list = []
    for k, value in enumerate(values):
        if not out or out[-1][1] != value:
            out.append([k, value])
    return out
