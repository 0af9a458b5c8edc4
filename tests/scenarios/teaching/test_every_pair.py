"""Every body against every other ("all" mode), the events on screen, and what a frame-stepped engine would miss."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from PySide6.QtCore import Qt
from window_helpers import settle, show_panel

from explorer.model.actions.session import Session
from explorer.model.derived.analysis import solve
from explorer.model.derived.stepping import stepped_test
from explorer.model.formats import scene_io
from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.state.scene import SceneError


def _load(stem: str):
    return scene_io.load(SCENES_DIR / f"{stem}.json")


def test_newtons_cradle_passes_the_momentum_down_the_row():
    scene = _load("newtons_cradle")
    solution = solve(scene)
    end = solution.path.segments[-1]
    a_speed = scene.bodies[0].velocity
    assert end.velocities[-1] == pytest.approx(a_speed)  # the last ball leaves with A's velocity
    for v in end.velocities[:-1]:
        assert v == pytest.approx((0.0, 0.0, 0.0), abs=1e-12)  # the others stay put
    pairs = [e.pair for e in solution.events]
    assert pairs == [(0, 1), (1, 2), (2, 3), (3, 4)]  # one pair at a time, in order, at one instant
    assert len({e.time for e in solution.events}) == 1


def test_a_gas_stays_in_its_container_and_keeps_its_energy():
    scene = _load("gas_in_container")
    solution = solve(scene)
    wall = next(i for i, b in enumerate(scene.bodies) if b.container)
    assert any(e.pair[1] == wall for e in solution.events)  # the wall is hit, named by its scene index
    rc = scene.bodies[wall].radius
    for t in np.linspace(0.0, solution.path.end, 200):
        centres = np.asarray(solution.path.positions(float(t)))
        for i, body in enumerate(scene.bodies):
            if i != wall:
                assert np.linalg.norm(centres[i] - centres[wall]) <= rc - body.radius + 1e-9 * rc
    speeds = lambda seg: sum(np.dot(v, v) for i, v in enumerate(seg.velocities) if i != wall)  # noqa: E731
    assert speeds(solution.path.segments[-1]) == pytest.approx(speeds(solution.path.segments[0]), rel=1e-12)


def test_a_break_conserves_momentum_and_never_gains_energy():
    scene = _load("snooker_break")
    solution = solve(scene)
    assert len(solution.events) > 10 and solution.path.stopped is None
    masses = np.array([b.mass for b in scene.bodies])
    first, last = (np.asarray(seg.velocities) for seg in (solution.path.segments[0], solution.path.segments[-1]))
    assert masses @ last == pytest.approx(masses @ first, abs=1e-9)
    energy = lambda v: float(masses @ np.einsum("ij,ij->i", v, v))  # noqa: E731
    assert energy(last) <= energy(first) * (1 + 1e-12)
    assert solution.path.bounces[0].other == solution.events[0].pair[1]  # A's first contact, in scene indices


def test_the_caged_ball_never_leaves_its_cage():
    scene = _load("caged_ball")
    solution = solve(scene)
    a = scene.bodies[0]
    for t in np.linspace(0.0, solution.path.end, 400):
        centre = np.asarray(solution.path.positions(float(t))[0])
        assert np.linalg.norm(centre) < 2.5 and centre[2] == 0.0  # inside the ring, in its plane
        for b in scene.bodies[1:]:
            assert np.linalg.norm(centre - np.asarray(b.center)) >= a.radius + b.radius - 1e-9


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.update(mode="pair"), 'only "all" mode marks a container'),
        (lambda d: d["bodies"][0].update(container=True), "at most one container"),
        (lambda d: d["bodies"][-1].update(radius=0.1), "container must be larger"),
        (lambda d: d["bodies"][-1].update(container="yes"), "true or false"),
    ],
)
def test_a_container_is_refused_where_it_makes_no_sense(change, message):
    data = json.loads((SCENES_DIR / "gas_in_container.json").read_text())
    change(data)
    with pytest.raises(SceneError, match=message):
        scene_io.from_dict(data)


def test_all_mode_round_trips_through_a_file(tmp_path):
    scene = _load("gas_in_container")
    out = tmp_path / "gas.json"
    scene_io.save(scene, out)
    again = scene_io.load(out)
    assert again == scene and again.mode == "all" and [b.container for b in again.bodies].count(True) == 1


def test_the_stepped_engine_misses_the_bullet_and_more_steps_catch_it():
    session = Session(_load("bullet_tunnels"))
    assert session.view.layers["steps"] and session.view.steps == 4  # as the scene file asks
    s = session.solution.sweep
    test = stepped_test(session.solution, 4)
    assert s.hit and test.tunnels and not any(test.caught)
    assert "MISSED" in test.summary(str)
    session.set_steps(5)
    caught = stepped_test(session.solution, session.view.steps)
    assert caught.first is not None and caught.times[caught.first] >= s.toi  # seen late, not missed
    with pytest.raises(SceneError, match="steps"):
        session.set_steps(0)


def test_events_are_marked_on_the_time_slider_and_listed_in_the_values(qtbot, make_window):
    window = make_window("snooker_break")
    solution = window.session.solution
    lo, hi = window.session.time_range()
    times = {e.time for e in solution.events if lo <= e.time <= hi}
    assert len(window.time_bar.slider.marks) == len(times) > 5
    show_panel(qtbot, window, "Values")
    text = window.values.text()
    assert "Events" in text and text.count("t = ") >= min(len(solution.events), 40)
    names = window.session.scene.bodies
    first = solution.events[0]
    assert f"{names[first.pair[0]].name}–{names[first.pair[1]].name}" in text
    window.session.open_scene(_load("newtons_cradle"), None)  # impulses along x: y and z are (negative) zeros
    settle(qtbot)
    text = window.values.text()
    assert "(-6, 0, 0)" in text and not re.search(r"-0(?![.\d])", text)  # no "-0" on screen


def test_the_steps_layer_draws_the_engine_s_positions_and_its_verdict(qtbot, make_window):
    window = make_window("bullet_tunnels")
    drawing = window.viewport.drawing
    assert drawing.items.items["steps_a"].actor.GetVisibility()
    assert "MISSED" in drawing.text.note.GetInput() and drawing.text.note.GetVisibility()
    show_panel(qtbot, window, "Values")
    assert "MISSED — the contact at t = 0.575 falls between steps 2 and 3" in window.values.text()
    show_panel(qtbot, window, "Layers")
    window.layers_panel.steps.setValue(5)
    settle(qtbot)
    assert window.session.view.steps == 5
    assert "overlap seen at step" in drawing.text.note.GetInput()
    window.layers_panel.boxes["steps"].click()
    settle(qtbot)
    assert not drawing.items.items["steps_a"].actor.GetVisibility() and not drawing.text.note.GetVisibility()


def test_a_body_can_be_made_the_container_from_the_scene_panel(qtbot, make_window):
    window = make_window("snooker_break")
    show_panel(qtbot, window, "Scene")
    panel = window.scene_panel
    window.session.select(1)
    settle(qtbot)
    panel.container.click()  # a rack ball as container: too small for the others, refused
    settle(qtbot)
    assert "Refused" in window.statusBar().currentMessage() and not any(
        b.container for b in window.session.scene.bodies
    )
    assert not panel.container.isChecked()
    qtbot.mouseClick(panel.remove_button, Qt.LeftButton)
    assert len(window.session.scene.bodies) == 15


def _struck_before_its_contact():
    """A flies at B; C knocks B away first, so A never reaches the contact its pair's roots describe."""
    return scene_io.from_dict(
        {
            "format": "sphere-explorer/1",
            "mode": "all",
            "horizon": 2.5,
            "restitution": 1.0,
            "bodies": [
                {"name": "A", "center": [0, 0, 0], "velocity": [1, 0, 0], "radius": 0.5},
                {"name": "B", "center": [3, 0, 0], "velocity": [0, 0, 0], "radius": 0.5},
                {"name": "C", "center": [3, -3, 0], "velocity": [0, 4, 0], "radius": 0.5},
            ],
        }
    )


def test_a_contact_that_another_body_prevents_is_not_shown_as_happening():
    from explorer.model.words.text import status_text

    solution = solve(_struck_before_its_contact())
    assert solution.sweep.hit and solution.other == 1 and solution.sweep.toi == 2.0  # on its own A reaches B at t = 2
    first = solution.events[0]
    assert set(first.pair) == {1, 2} and first.time == 0.5 < solution.sweep.toi
    assert not solution.contact_happens and not any(0 in e.pair for e in solution.events)
    assert status_text(solution.scene, solution).startswith("B and C meet first, at t = 0.5")
    cradle = solve(_load("newtons_cradle"))  # here A's first event is its contact with B
    assert cradle.contact_happens and "HIT" in status_text(cradle.scene, cradle)
    gas = solve(_load("gas_in_container"))  # A against the wall: the wall's hits by others turn nothing
    assert gas.scene.bodies[gas.other].container and any(gas.other in e.pair and 0 not in e.pair for e in gas.events)
    assert 0 in gas.first_turn.pair


def test_the_values_panel_gives_no_response_for_a_contact_that_never_happens(qtbot, make_window):
    window = make_window()
    window.session.open_scene(_struck_before_its_contact(), None)
    show_panel(qtbot, window, "Values")
    settle(qtbot)
    text = window.values.text()
    assert "never happens: B and C meet first, at t = 0.5" in text
    assert "contact point" not in text and "reflected velocity" not in text and "A after" not in text
    window.session.open_scene(_load("newtons_cradle"), None)  # A's contact with B is its first event
    settle(qtbot)
    text = window.values.text()
    assert "contact point" in text and "A after" in text and "never happens" not in text


def test_the_view_draws_no_ghost_of_a_flight_that_never_happens():
    import pyvista as pv

    from explorer.view.scene_view import SceneView

    plotter = pv.Plotter(off_screen=True, window_size=(400, 300))
    view = SceneView(plotter)
    shown = lambda name: bool(view.items.items[name].actor.GetVisibility())  # noqa: E731
    view.update(_struck_before_its_contact(), solve(_struck_before_its_contact()))
    assert not shown("ghost_a0") and not shown("contact_point") and not shown("relative_path")
    assert "meet first" in view.text.verdict.GetInput()
    key = [actor.GetInput() for actor in view.text.legend]
    assert any("each body's path" in row for row in key) and not any("second root" in row for row in key)
    cradle = _load("newtons_cradle")
    solution = solve(cradle)
    view.update(cradle, solution)
    assert shown("ghost_a0") and shown("contact_point") and not shown("ghost_a1")  # A stops at t0: no t1
    stop = solution.events[0].time
    view.update(cradle, solution, t=stop / 2)
    assert shown("time_ring0")  # on A's capsule
    view.update(cradle, solution, t=(stop + cradle.horizon) / 2)
    assert not shown("time_ring0")  # A has stopped: no ring where it never goes
    plotter.close()


def test_solve_lists_the_events_of_the_motion():
    from explorer.model.derived.analysis import to_dict

    out = to_dict(solve(_load("newtons_cradle")))
    events = out["path"]["events"]
    assert [e["bodies"] for e in events] == [["A", "B"], ["B", "C"], ["C", "D"], ["D", "E"]]
    assert all(e["kind"] == "impact" and e["time"] == events[0]["time"] for e in events)
    json.dumps(out, allow_nan=False)  # plain JSON numbers only


def test_a_ball_reaching_its_container_wall_shows_the_wall_root():
    """All mode, A's first event is the wall: the contact is the larger root, t1; t0 (in the past) is not drawn."""
    import pyvista as pv

    from explorer.view.scene_view import SceneView

    scene = scene_io.from_dict(
        {
            "format": "sphere-explorer/1",
            "mode": "all",
            "horizon": 1.0,
            "restitution": 1.0,
            "bodies": [
                {"name": "A", "center": [0, 0, 0], "velocity": [4, 0, 0], "radius": 0.5},
                {"name": "B", "center": [-2, 0, 0], "velocity": [0, 0, 0], "radius": 0.5},
                {"name": "W", "center": [0, 0, 0], "velocity": [0, 0, 0], "radius": 3.0, "container": True},
            ],
        }
    )
    solution = solve(scene)
    assert solution.other == 2 and solution.contact_happens and solution.sweep.toi == 0.625
    plotter = pv.Plotter(off_screen=True, window_size=(400, 300))
    view = SceneView(plotter)
    view.update(scene, solution)
    shown = lambda name: bool(view.items.items[name].actor.GetVisibility())  # noqa: E731
    assert shown("ghost_a1") and shown("contact_point") and not shown("ghost_a0") and not shown("ghost_a0_faded")
    plotter.close()


def test_a_motion_that_stops_early_says_why_in_the_view_and_the_values(qtbot, make_window):
    """A ball squeezed between a fixed sphere moving in and a fixed wall sphere: the motion is jammed at t = 0.5."""
    scene = scene_io.from_dict(
        {
            "format": "sphere-explorer/1",
            "mode": "all",
            "horizon": 2.0,
            "restitution": 1.0,
            "bodies": [
                {"name": "A", "center": [0, 0, 0], "velocity": [0, 0, 0], "radius": 1.0},
                {"name": "B", "center": [2.5, 0, 0], "velocity": [-1, 0, 0], "radius": 1.0, "fixed": True},
                {"name": "C", "center": [-2, 0, 0], "velocity": [0, 0, 0], "radius": 1.0, "fixed": True},
            ],
        }
    )
    window = make_window()
    window.session.open_scene(scene, None)
    settle(qtbot)
    path = window.session.solution.path
    assert path.stopped.startswith("jammed") and path.end == 0.5
    drawing = window.viewport.drawing
    assert not drawing.text.note.GetVisibility()  # before the stop, nothing to say
    window.session.set_time(1.5)
    settle(qtbot)
    note = drawing.text.note.GetInput()
    assert drawing.text.note.GetVisibility() and note.startswith(
        "the motion is known to t = 0.5: jammed: fixed bodies B, C"
    )
    centres = np.asarray(drawing.placement.centers)
    assert np.linalg.norm(centres[0] - centres[1]) >= 2.0 - 1e-12  # drawn where the motion stopped, not beyond
    show_panel(qtbot, window, "Values")
    assert "the motion stops at t = 0.5: jammed" in window.values.text()
