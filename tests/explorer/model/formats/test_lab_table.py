"""The lab sheet's table and CSV (explorer/model/formats/lab_table.py), and the momenta added tip to tail: the same numbers
as the motion's bodies and the values panel's totals, exactly."""

from __future__ import annotations

import csv
import io
import math

import pytest
from frame_helpers import FREE_SCENES, times_around_an_event, zero_to_rounding

from explorer.model.derived import conserved
from explorer.model.derived.analysis import solve
from explorer.model.formats import scene_io
from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.formats.lab_table import (
    CSV_COLUMNS,
    FIXED,
    HEADINGS,
    TOTAL,
    csv_text,
    table_blocks,
    table_rows,
    table_text,
)
from explorer.model.words.momenta import around_event, bodies_at, momenta_chain
from explorer.model.words.text import exact, exact_numbers
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


@pytest.mark.parametrize("stem", FREE_SCENES)
def test_the_csv_in_the_centre_of_mass_frame_says_so_and_its_momenta_add_to_zero_before_and_after_an_event(stem):
    scene, solution = _scene(stem)
    for t in times_around_an_event(scene, solution):
        world, com = (_rows(csv_text(scene, solution, t, frame)) for frame in ("world", "com"))
        free = [(w, c) for w, c in zip(world, com) if w["mass"]]
        mass = math.fsum(float(w["mass"]) for w, _ in free)
        velocity = [math.fsum(float(w["mass"]) * float(w[f"v{k}"]) for w, _ in free) / mass for k in "xyz"]
        assert {c["frame"] for c in com} == {"com"} and {w["frame"] for w in world} == {"world"}
        for w, c in zip(world, com):  # each row: its world velocity less the centre of mass's, which it names
            assert [float(c[f"frame_v{k}"]) for k in "xyz"] == pytest.approx(velocity, rel=1e-14, abs=1e-14)
            assert [float(c[f"v{k}"]) for k in "xyz"] == [float(w[f"v{k}"]) - float(c[f"frame_v{k}"]) for k in "xyz"]
        total = [math.fsum(float(c[f"p{k}"]) for _, c in free) for k in "xyz"]
        parts = [[float(w[f"p{k}"]) for k in "xyz"] for w, _ in free]
        assert zero_to_rounding(total, parts), (t, total)


@pytest.mark.parametrize("stem", ["seed004_ricochet", "gas_in_container"])
def test_the_csv_at_every_event_in_the_centre_of_mass_frame_shows_the_blow_of_a_fixed_body_or_wall(stem):
    scene, solution = _scene(stem)  # each event's rows in the frame at its time: the one moving as things go after it
    rows = _rows(csv_text(scene, solution, None, "com"))
    n = len(scene.bodies)
    for k, event in enumerate(solution.events):
        block = rows[2 * n * k : 2 * n * (k + 1)]
        before, after = (
            [[float(r[f"p{c}"]) for c in "xyz"] for r in part if r["mass"]] for part in (block[:n], block[n:])
        )
        assert zero_to_rounding([math.fsum(p[c] for p in after) for c in range(3)], after)
        outside = any(not math.isfinite(scene.bodies[i].mass) for i in event.pair)
        blow = [-x for x in event.impulse] if outside else [0.0, 0.0, 0.0]  # the impulse on the free body, undone
        assert [math.fsum(p[c] for p in before) for c in range(3)] == pytest.approx(blow, abs=1e-9)


def test_the_copied_table_starts_with_the_line_naming_its_frame():
    rows = table_rows(bodies_at(*_scene("default"), 0.0))
    text = table_text(rows, "Numbers in the world frame.").splitlines()
    assert text[0] == "Numbers in the world frame." and text[1].split("\t")[0] == "body" and len(text) == 5
    with pytest.raises(ValueError, match="frame"):
        csv_text(*_scene("default"), 0.0, "lab")


def test_the_table_shows_a_block_per_body_with_every_cell_of_its_row():
    """The window's and the page's layout: each row of the table (what Copy gives) as a block, its name over one
    line per quantity, every cell there under its heading."""
    scene, solution = _scene("heavy_light_glancing")
    rows = table_rows(bodies_at(scene, solution, 0.75))
    blocks = table_blocks(rows)
    assert [name for name, _ in blocks] == [row[0] for row in rows]
    for (_, lines), row in zip(blocks, rows):
        assert lines == list(zip(HEADINGS[1:], row[1:]))


def test_the_free_bodies_total_momentum_that_is_rounding_reads_0_and_exactly_with_exact_numbers():
    """The break just after its third event: Σ m v's y is a few ulps off 0 as float64 (the momenta of 16 balls
    summed); the totals row reads (24, 0, 0), and under exact_numbers every digit of the sum."""
    scene, solution = _scene("snooker_break")
    t = solution.events[2].time
    bodies = bodies_at(scene, solution, t)
    total = [math.fsum(b.momentum[k] for b in bodies if b.momentum is not None) for k in range(3)]
    assert total[0] == 24.0 and 0 < abs(total[1]) < 1e-15
    assert table_rows(bodies)[-1][5] == "(24, 0, 0)"
    with exact_numbers():
        assert table_rows(bodies)[-1][5] == "(" + ", ".join(exact(x) for x in total) + ")"
