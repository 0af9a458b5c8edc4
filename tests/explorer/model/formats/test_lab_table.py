"""The lab sheet's table and CSV (explorer/model/formats/lab_table.py), and the momenta added tip to tail: the same numbers
as the motion's bodies and the values panel's totals, exactly."""

from __future__ import annotations

import csv
import io
import math

import pytest

from explorer.model.derived import conserved
from explorer.model.derived.analysis import solve
from explorer.model.formats import scene_io
from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.formats.lab_table import CSV_COLUMNS, FIXED, TOTAL, csv_text, table_rows, table_text
from explorer.model.words.momenta import around_event, bodies_at, momenta_chain
from explorer.model.words.values import conserved_rows, vector


def _scene(stem: str):
    scene = scene_io.load(SCENES_DIR / f"{stem}.json")
    return scene, solve(scene)


def _rows(text: str) -> list[dict]:
    reader = csv.DictReader(io.StringIO(text))
    assert tuple(reader.fieldnames) == CSV_COLUMNS
    return list(reader)


@pytest.mark.parametrize("stem", ["heavy_light_glancing", "default", "caged_ball"])
def test_the_csv_at_a_time_reads_back_to_every_bodys_exact_numbers(stem):
    scene, solution = _scene(stem)
    t = 0.6180339887498949
    rows = _rows(csv_text(scene, solution, t))
    bodies = bodies_at(scene, solution, t)
    assert [r["body"] for r in rows] == [b.name for b in bodies]
    for row, body in zip(rows, bodies):
        assert (float(row["time"]), row["when"], row["event"]) == (t, "at", "")
        assert tuple(float(row[k]) for k in ("x", "y", "z")) == body.center
        assert tuple(float(row[k]) for k in ("vx", "vy", "vz")) == body.velocity
        assert float(row["speed"]) == math.hypot(*body.velocity)
        if body.mass is None:  # a fixed body: no mass, momentum or energy to write
            assert row["mass"] == row["px"] == row["kinetic_energy"] == ""
        else:
            assert float(row["mass"]) == body.mass
            assert tuple(float(row[k]) for k in ("px", "py", "pz")) == body.momentum
            assert float(row["kinetic_energy"]) == body.kinetic_energy


def test_the_csv_at_every_event_gives_each_body_before_and_after_with_the_conserved_totals():
    scene, solution = _scene("snooker_break")
    rows = _rows(csv_text(scene, solution))
    n, events = len(scene.bodies), solution.events
    assert len(rows) == 2 * n * len(events)
    changes = conserved.across_events(scene, solution.path, len(events))
    for k, (event, (before, after)) in enumerate(zip(events, changes)):
        block = rows[2 * n * k : 2 * n * (k + 1)]
        assert {r["event"] for r in block} == {str(k + 1)} and {float(r["time"]) for r in block} == {event.time}
        for when, totals, part in (("before", before, block[:n]), ("after", after, block[n:])):
            assert {r["when"] for r in part} == {when}
            summed = tuple(math.fsum(float(r[c]) for r in part) for c in ("px", "py", "pz"))
            assert summed == totals.momentum
            assert math.fsum(float(r["kinetic_energy"]) for r in part) == totals.kinetic_energy


@pytest.mark.parametrize("stem", ["default", "heavy_light_glancing"])
def test_the_table_gives_a_fixed_body_no_momentum_and_the_values_panels_totals_under_the_bodies(stem):
    scene, solution = _scene(stem)  # default: A moves, B is fixed; the other: two free bodies after their impact
    t = 0.75
    rows = table_rows(bodies_at(scene, solution, t))
    assert [r[0] for r in rows] == ["A", "B", TOTAL]
    if stem == "default":
        assert rows[1][1] == FIXED and rows[1][5] == "none"
    momentum_row = dict(conserved_rows(scene, solution, t))["momentum Σ m v"]
    assert momentum_row.startswith(rows[2][5] + " ")  # the same Σ m v, in the same words
    text = table_text(rows).splitlines()
    assert text[0].split("\t")[0] == "body" and len(text) == 4


def test_the_momenta_added_tip_to_tail_end_at_the_total_before_and_after_each_event():
    scene, solution = _scene("snooker_break")
    changes = conserved.across_events(scene, solution.path, len(solution.events))
    for k in (0, 2, len(solution.events) - 1):
        before, after = around_event(scene, solution, k)
        for bodies, totals in zip((before, after), changes[k]):
            chain = momenta_chain(bodies)
            assert chain.total == totals.momentum
            assert chain.links[0][1] == (0.0, 0.0, 0.0) and chain.links[-1][2] == chain.total
            assert all(a[2] == b[1] for a, b in zip(chain.links, chain.links[1:]))  # tip to tail
            assert [name for name, _, _ in chain.links] == [b.name for b in bodies]
    fixed = momenta_chain(bodies_at(*_scene("default"), 0.0))
    assert [name for name, _, _ in fixed.links] == ["A"]  # the fixed B has no link
    assert vector(fixed.total) == vector(bodies_at(*_scene("default"), 0.0)[0].momentum)
