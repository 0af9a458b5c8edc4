"""The worst disagreements as scene files that open in the explorer.

Each case becomes ``cases/NN-row-R-KIND.json``: a ``pair`` scene with A and B
exactly as logged (every float kept to the last bit), the row's horizon, and a
title and description saying what the engine (or the textbook formula) said
and what is true, and naming the engine's row (its step and bodies) when the
log has ``step``, ``a_id`` and ``b_id`` columns.  The scenes are built and written by the explorer's own
scene code (:mod:`explorer.model.formats.scene_io`), so a file written here is one the
explorer accepts; the file itself is created as every file of the audit's
output is (:func:`explorer.audit.report.staging.create`).
"""

from __future__ import annotations

from pathlib import Path

from explorer.model.formats import scene_io

from ..decision.worst import Case, engine_row
from .staging import create

#: How each source is named in a description.
SOURCE_NAMES = {
    "engine": "The engine",
    "float64": "The textbook formula in float64",
    "float32": "The textbook formula in float32",
}


def _answer(hit: bool, toi: float | None) -> str:
    if not hit:
        return "no hit"
    return "hit" if toi is None else f"hit at t = {toi!r}"


def describe(case: Case, log_name: str, toi_tol: float) -> tuple[str, str]:
    """(title, description) of a case, in plain words with every number to full precision."""
    kind = case.kind
    row = f"row {case.row}{engine_row(case.labels)}"
    title = f"Audit: {kind} at {row} of {log_name}"
    said = case.said[case.source]
    truth = f"the exact answer is {case.status}"
    if case.hit:
        truth += f", first contact at t = {case.toi!r}"
    elif case.t_enter is not None:
        truth += f" (the spheres would touch at t = {case.t_enter!r}, outside [0, {case.values['horizon']!r}])"
    gap = case.closest - case.contact_distance
    closest = (
        f"Over [0, {case.values['horizon']!r}] the centres come within {case.closest!r} "
        f"of each other against a contact distance rA + rB = {case.contact_distance!r} "
        f"({'a gap' if gap > 0 else 'an overlap'} of {abs(gap):.3g})."
    )
    lines = [f"{SOURCE_NAMES.get(case.source, case.source)} said {_answer(said['hit'], said['toi'])}; {truth}."]
    if kind == "toi error" and case.toi is not None and said["toi"] is not None:
        error = abs(said["toi"] - case.toi)
        allowed = toi_tol * max(1.0, abs(case.toi))
        lines.append(f"The time is off by {error:.3g} (tolerance {toi_tol:g} x max(1, toi) = {allowed:.3g}).")
    lines.append(closest)
    others = [name for name in case.said if name != case.source]
    for name in others:
        other = case.said[name]
        lines.append(f"{SOURCE_NAMES.get(name, name)} said {_answer(other['hit'], other['toi'])}.")
    lines.append(f"{row[0].upper()}{row[1:]} of {log_name}; roots of |d(t)| = R: {case.t_enter!r}, {case.t_exit!r}.")
    return title, " ".join(lines)


def _body_name(letter: str, body_id) -> str:
    """``"A"``, or ``"A (body 17)"`` when the log names the engine's body."""
    return letter if body_id is None else f"{letter} (body {body_id})"


def scene_dict(case: Case, log_name: str, toi_tol: float) -> dict:
    """The scene file content of a case (format ``sphere-explorer/1``)."""
    v = case.values
    title, description = describe(case, log_name, toi_tol)
    return {
        "format": "sphere-explorer/1",
        "title": title,
        "description": description,
        "mode": "pair",
        "horizon": v["horizon"],
        "restitution": 1.0,
        "bodies": [
            {
                "name": _body_name("A", case.labels.get("a_id")),
                "center": [v["a_cx"], v["a_cy"], v["a_cz"]],
                "velocity": [v["a_vx"], v["a_vy"], v["a_vz"]],
                "radius": v["a_r"],
                "mass": 1.0,
            },
            {
                "name": _body_name("B", case.labels.get("b_id")),
                "center": [v["b_cx"], v["b_cy"], v["b_cz"]],
                "velocity": [v["b_vx"], v["b_vy"], v["b_vz"]],
                "radius": v["b_r"],
                "mass": 1.0,
            },
        ],
    }


def file_name(index: int, count: int, case: Case) -> str:
    """``NN-row-R-KIND.json``, numbered from 1 in order of badness."""
    width = max(2, len(str(count)))
    return f"{index:0{width}d}-row-{case.row}-{case.kind.replace(' ', '-')}.json"


def write_cases(cases: list[Case], folder: Path, log_name: str, toi_tol: float) -> list[str]:
    """Write each case as a scene file in ``folder`` (created); return the file names, worst first."""
    folder.mkdir()
    names = []
    for index, case in enumerate(cases, start=1):
        name = file_name(index, len(cases), case)
        text = scene_io.dumps(scene_io.from_dict(scene_dict(case, log_name, toi_tol)))
        with create(folder / name) as handle:  # in the private staging folder: new files, never through a link
            handle.write(text.encode("utf-8"))
        names.append(name)
    return names
