"""The words of the frames (explorer/model/words/frames.py): the line that names the frame of a table's numbers and
how it moves, and the picture's notes where a student could misread a moving frame."""

from __future__ import annotations

import math

from explorer.model.derived.analysis import solve
from explorer.model.derived.frames import COM, RELATIVE, frame_at
from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.formats.scene_io import load
from explorer.model.words.frames import frame_line, frame_notes
from explorer.model.words.text import fmt, vector


def _solved(stem: str):
    scene = load(SCENES_DIR / f"{stem}.json")
    return scene, solve(scene)


def test_the_fixed_body_is_said_to_only_appear_to_move_and_the_bounce_to_change_the_frame():
    scene, solution = _solved("seed004_ricochet")  # A bounces off the fixed B at t0
    (event,) = solution.events
    before = frame_notes(scene, frame_at(scene, solution, event.time / 2, COM))
    assert before == ["B is fixed in the world: it only appears to move in this frame."]
    after = frame_notes(scene, frame_at(scene, solution, (event.time + 1) / 2, COM))
    assert after[0] == before[0]
    assert after[1].startswith(f"The frame changed at t = {fmt(event.time)} (A hit the fixed B)")
    assert frame_notes(scene, frame_at(scene, solution, 0.5)) == []  # the world needs no words
    assert frame_notes(scene, frame_at(scene, solution, 0.5, RELATIVE)) == []  # B's own frame: B fixed, at rest


def test_a_container_wall_and_many_changes_are_counted_with_the_last_named():
    scene, solution = _solved("gas_in_container")
    frame = frame_at(scene, solution, scene.horizon, COM)
    notes = frame_notes(scene, frame)
    walls = sorted({e.time for e in solution.events if scene.container in e.pair})
    last = [e for e in solution.events if e.time == walls[-1]][0]
    hit = scene.bodies[last.pair[0]].name
    assert notes[0] == "W is fixed in the world: it only appears to move in this frame."
    assert notes[1].startswith(f"The frame changed {len(walls)} times so far, last at t = {fmt(walls[-1])} "
                               f"({hit} hit the wall of W)")  # fmt: skip


def test_the_line_over_a_table_names_the_frame_and_its_velocity():
    scene, solution = _solved("heavy_light_glancing")
    t = 0.25
    com = frame_at(scene, solution, t, COM)
    m = [b.mass for b in scene.bodies]
    expected = [math.fsum(mi * b.velocity[k] for mi, b in zip(m, scene.bodies)) / sum(m) for k in range(3)]
    assert frame_line(scene, com) == (f"Numbers in the centre-of-mass frame: it moves at {vector(expected)} in the "
                                      "world, as the free bodies' centre of mass does at t = 0.25.")  # fmt: skip
    rest = frame_line(scene, frame_at(scene, solution, t, RELATIVE))
    assert rest.startswith(f"Numbers in B's rest frame: it moves at {vector(scene.bodies[1].velocity)}")
    assert frame_line(scene, frame_at(scene, solution, t)) == "Numbers in the world frame."
    fixed = scene.with_body(0, mass=math.inf).with_body(1, mass=math.inf)
    nothing = frame_at(fixed, solve(fixed), t, COM)
    assert frame_line(fixed, nothing) == "Numbers in the world frame: no free body, so no centre of mass."
    assert frame_notes(fixed, nothing) == ["No free body, so no centre of mass: the view stays in the world frame."]
