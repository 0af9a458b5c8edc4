"""The event inspector: which event and pair the session describes, the conserved quantities, the window and ``render``.

Every expected number comes from :func:`solver.simulate` (or :func:`solver.sweep`) called here on the
scene's bodies, never from the explorer's own analysis: an event's quadratic is built from the frame of
the motion that ends with it (the solver's centres and velocities there), the momentum and kinetic
energy are summed here from the velocities after each event.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from cli_helpers import refused
from PySide6.QtCore import QPoint, Qt
from window_helpers import settle, show_panel, widget_point

from explorer.cli import main
from explorer.model.actions.session import Change, Session
from explorer.model.formats import scene_io
from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.state.scene import SceneError
from explorer.model.words.text import fmt
from solver import simulate, sweep

#: The gallery's break: 16 balls, restitution 0.95, no container, no fixed body.
BREAK = "snooker_break"


def _open(stem: str) -> tuple[Session, list[Change]]:
    path = SCENES_DIR / f"{stem}.json"
    session = Session(scene_io.load(path), path)
    changes: list[Change] = []
    session.subscribe(changes.append)
    return session, changes


def _motion(scene):
    """The solver's own motion of an ``all``-mode scene: the balls in scene order, the container (if any) last."""
    balls = [b.to_body() for b in scene.bodies if not b.container]
    walls = [b.to_body() for b in scene.bodies if b.container]
    return simulate(balls, scene.horizon, scene.restitution, walls[0] if walls else None)


def _masses(scene) -> np.ndarray:
    """The masses in the motion's row order (balls, then the container)."""
    return np.array([b.mass for b in scene.bodies if not b.container] + [b.mass for b in scene.bodies if b.container])


def _quadratic(scene, motion, k: int) -> tuple[float, float, float, float]:
    """Event ``k``'s pair as the solver holds it at the start of the frame the event ends: (a, b, c, start).

    f(τ) = |p + v τ|² − R²: a = v·v, b = 2 p·v, c = p·p − R², with p, v the second body's centre and velocity
    relative to the first's (no container in the scenes used here).
    """
    frame = motion.frames[k]
    i, j = motion.events[k].pair
    p = np.subtract(frame.centers[j], frame.centers[i])
    v = np.subtract(frame.velocities[j], frame.velocities[i])
    big_r = scene.bodies[i].radius + scene.bodies[j].radius
    return float(v @ v), float(2 * p @ v), float(p @ p - big_r**2), float(frame.t_start)


def _lone_event(motion, after: int = 3) -> int:
    """An event (index ``after`` or later) alone at its time, whose pair was apart when its frame began."""
    times = [e.time for e in motion.events]
    return next(
        k for k in range(after, len(times)) if times.count(times[k]) == 1 and motion.frames[k].t_start < times[k]
    )


# -- the session owns the inspected event and the pair described -------------------------------------


def test_inspecting_an_event_jumps_there_paused_and_describes_its_pair_over_its_segment():
    session, changes = _open(BREAK)
    motion = _motion(session.scene)
    k = _lone_event(motion)
    session.set_playing(True)
    changes.clear()
    session.inspect(event=k)
    assert changes == [Change.INSPECTION | Change.TIME | Change.PLAYING]  # one action, one announcement
    event = motion.events[k]
    assert session.view.time == event.time and not session.view.playing
    assert session.inspection.event == k and session.inspection.pair == event.pair
    focus = session.inspection.focus(session.solution, session.view.time)
    a, b, c, start = _quadratic(session.scene, motion, k)
    assert focus.sweep.coefficients == pytest.approx((a, b, c), rel=1e-12, abs=1e-12 * abs(c))
    assert focus.start == start and start + focus.sweep.toi == pytest.approx(event.time, rel=1e-10)
    session.set_time(event.time + 1e-3)  # moved off the event: the pair stays described, over the time's segment
    focus = session.inspection.focus(session.solution, session.view.time)
    assert session.inspection.active(session.solution, session.view.time) is None
    assert focus.event is None and focus.pair == event.pair and focus.start == event.time


@pytest.mark.parametrize(
    "choice, needle",
    [
        (lambda n: {"event": n}, "no event"),
        (lambda n: {"event": -1}, "no event -1"),
        (lambda n: {"event": True}, "no event True"),
        (lambda n: {"pair": (3, 3)}, "two different bodies"),
        (lambda n: {"pair": (0, 16)}, "two different bodies"),
    ],
)
def test_a_refused_choice_names_it_and_changes_nothing(choice, needle):
    session, changes = _open(BREAK)
    session.set_time(0.3)
    changes.clear()
    with pytest.raises(SceneError, match=needle):
        session.inspect(**choice(len(session.solution.events)))
    assert changes == [] and session.view.time == 0.3
    assert session.inspection.event is None and session.inspection.pair is None


def test_stepping_walks_through_simultaneous_events_one_pair_at_a_time():
    session, _ = _open("newtons_cradle")  # four impacts at one instant, down the row
    seen = []
    for _ in range(4):
        session.step_event(+1)
        seen.append((session.inspection.event, session.inspection.pair))
    assert seen == [(0, (0, 1)), (1, (1, 2)), (2, (2, 3)), (3, (3, 4))]
    with pytest.raises(SceneError, match="no later event"):
        session.step_event(+1)
    assert session.inspection.event == 3  # refused: still there
    session.step_event(-1)
    assert session.inspection.event == 2


def test_stepping_from_a_time_between_events_finds_the_neighbours():
    session, _ = _open(BREAK)
    times = [e.time for e in _motion(session.scene).events]
    k = next(k for k in range(1, len(times)) if times[k] > times[k - 1])
    session.set_time((times[k - 1] + times[k]) / 2)
    session.step_event(+1)
    assert session.inspection.event == k and session.view.time == times[k]
    session.set_time((times[k - 1] + times[k]) / 2)
    session.step_event(-1)
    assert session.view.time == times[k - 1] and session.solution.events[session.inspection.event].time == times[k - 1]
    session.set_time(0.0)
    with pytest.raises(SceneError, match="no earlier event"):
        session.step_event(-1)


def test_an_edit_ends_the_inspection_but_keeps_the_pair_and_a_new_document_forgets_it():
    session, _ = _open(BREAK)
    session.inspect(event=4)
    pair = session.inspection.pair
    session.edit_field("restitution", "0.9")  # the events change with the scene
    assert session.inspection.event is None and session.inspection.pair == pair
    session.open_file(SCENES_DIR / "newtons_cradle.json")
    assert session.inspection.event is None and session.inspection.pair is None


def test_any_pair_in_pair_mode_is_that_pair_s_own_quadratic_from_t0():
    session, changes = _open("several_targets")
    scene = session.scene
    other = next(j for j in range(1, len(scene.bodies)) if j != session.solution.other)
    session.inspect(pair=(0, other))
    assert changes == [Change.INSPECTION] and session.view.time == 0.0  # no jump: only the description changes
    focus = session.inspection.focus(session.solution, 0.0)
    expected = sweep(scene.bodies[0].to_body(), scene.bodies[other].to_body(), scene.horizon)
    assert focus.pair == (0, other) and not focus.primary and focus.start == 0.0
    assert focus.sweep.coefficients == expected.coefficients and focus.sweep.status is expected.status
    session.inspect()  # neither: A and its partner again
    assert session.inspection.focus(session.solution, 0.0).primary


# -- the conserved quantities -------------------------------------------------------------------------


@pytest.mark.parametrize("stem", [BREAK, "gas_in_container"])
def test_solve_gives_momentum_and_energy_after_each_event(stem, capsys):
    assert main(["solve", str(SCENES_DIR / f"{stem}.json")]) == 0
    events = json.loads(capsys.readouterr().out)["path"]["events"]
    scene = scene_io.load(SCENES_DIR / f"{stem}.json")
    motion = _motion(scene)
    masses = _masses(scene)
    free = np.isfinite(masses)
    assert len(events) == len(motion.events) > 10
    energies = []
    for k, event in enumerate(events):
        v = np.asarray(motion.frames[k + 1].velocities)[free]  # the velocities after event k
        momentum = (masses[free][:, None] * v).sum(axis=0)
        energy = float(0.5 * masses[free] @ np.einsum("ij,ij->i", v, v))
        scale = float(np.abs(masses[free][:, None] * v).sum())
        assert event["momentum"] == pytest.approx(momentum.tolist(), abs=1e-12 * scale)
        assert event["kinetic_energy"] == pytest.approx(energy, rel=1e-12)
        energies.append(event["kinetic_energy"])
    v0 = np.asarray(motion.frames[0].velocities)[free]
    start = float(0.5 * masses[free] @ np.einsum("ij,ij->i", v0, v0))
    if scene.restitution == 1.0:  # elastic: every event keeps the energy, to rounding
        assert energies == pytest.approx([start] * len(energies), rel=1e-9)
    else:  # e < 1: never gained, lost at every impact
        assert all(later < earlier for earlier, later in zip([start] + energies, energies))


# -- the inspector in the real window -----------------------------------------------------------------


def test_clicking_an_event_in_the_values_list_inspects_it(qtbot, make_window):
    window = make_window(BREAK)
    session = window.session
    motion = _motion(session.scene)
    k = _lone_event(motion)
    event = motion.events[k]
    show_panel(qtbot, window, "Values")
    tree = window.values.events
    item = tree.topLevelItem(k)
    window.values.ensureWidgetVisible(tree)
    rect = tree.visualItemRect(item)
    window.values.ensureVisible(*tree.viewport().mapTo(window.values.widget(), rect.center()).toTuple(), 20, 40)
    qtbot.mouseClick(tree.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())
    settle(qtbot, 200)

    assert session.view.time == event.time and not session.view.playing
    assert window.time_bar.label.text() == f"t = {event.time:.4g}"
    items = window.viewport.drawing.items.items  # the 3-D view rings the pair where they touch
    where = motion.positions(event.time)
    for n, i in enumerate(event.pair):
        halo = items[f"focus_halo{n}"].actor
        assert halo.GetVisibility() and halo.GetPosition() == pytest.approx(tuple(where[i]), abs=1e-9)
    assert items["focus_contact"].actor.GetPosition() == pytest.approx(tuple(event.point), abs=1e-9)
    a, b, c, start = _quadratic(session.scene, motion, k)  # the parabola is that pair's, over its segment
    data = window.plot.data
    assert (data.a, data.b, data.c) == pytest.approx((a, b, c), rel=1e-12, abs=1e-12 * abs(c))
    assert data.start == start and data.roots[0] == pytest.approx(event.time, rel=1e-10)
    assert window.plot.title.text().startswith("f(τ) = ")
    text = window.values.text()
    names = [body.name for body in session.scene.bodies]
    assert f"event {k + 1} of {len(motion.events)}" in text and f"{names[event.pair[0]]}–{names[event.pair[1]]}" in text
    v = motion.frames[k + 1].velocities
    energy = float(0.5 * _masses(session.scene) @ np.einsum("ij,ij->i", v, v))
    assert f"kinetic energy Σ ½ m v²  {fmt(energy)}" in text
    assert tree.currentItem() is item


def test_a_slider_mark_and_the_bracket_keys_inspect_events(qtbot, make_window):
    window = make_window(BREAK)
    session, slider = window.session, window.time_bar.slider
    events = session.solution.events
    lo, hi = session.time_range()
    m = len(slider.marks) // 2
    x = slider.mark_x(slider.marks[m])
    qtbot.mouseClick(slider, Qt.LeftButton, Qt.NoModifier, QPoint(x, slider.height() // 2))
    settle(qtbot, 100)
    k = session.inspection.event
    assert k is not None and (events[k].time - lo) / (hi - lo) == slider.marks[m]
    assert k == min(j for j, e in enumerate(events) if e.time == events[k].time)  # the first event at that mark
    assert session.view.time == events[k].time and slider.chosen == m
    view = window.viewport.plotter.interactor
    qtbot.keyClick(view, Qt.Key_BracketRight)
    settle(qtbot)
    assert session.inspection.event == k + 1 and session.view.time == events[k + 1].time
    qtbot.keyClick(view, Qt.Key_BracketLeft)
    qtbot.keyClick(view, Qt.Key_BracketLeft)
    settle(qtbot)
    assert session.inspection.event == k - 1 and session.view.time == events[k - 1].time


def test_ctrl_click_describes_the_selected_body_and_another(qtbot, make_window):
    window = make_window("several_targets")
    session = window.session
    scene = session.scene
    other = next(j for j in range(1, len(scene.bodies)) if j != session.solution.other)
    widget = window.viewport.plotter.interactor
    x, y = widget_point(window, scene.bodies[other].center)
    qtbot.mouseClick(widget, Qt.LeftButton, Qt.ControlModifier, QPoint(x, y))
    settle(qtbot, 100)
    assert session.scene is scene and session.selection.selected == 0  # a pick, not a drag
    assert session.inspection.pair == (0, other)
    expected = sweep(scene.bodies[0].to_body(), scene.bodies[other].to_body(), scene.horizon)
    assert (window.plot.data.a, window.plot.data.b, window.plot.data.c) == expected.coefficients
    show_panel(qtbot, window, "Values")
    assert f"pair  A–{scene.bodies[other].name}" in window.values.text()
    x, y = widget_point(window, scene.bodies[0].center)
    qtbot.mouseClick(widget, Qt.LeftButton, Qt.ControlModifier, QPoint(x, y))  # the selected body itself: refused
    settle(qtbot)
    assert "Refused" in window.statusBar().currentMessage() and session.inspection.pair == (0, other)


# -- render --event / --pair ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "extra, needle",
    [
        (["--event", "0"], "--event: expected 1 to"),
        (["--event", "x"], "--event: expected a whole number"),
        (["--event", "27"], "--event: no event 27; the motion has 26 (1 to 26)"),
        (["--pair", "A,Z"], "--pair: no body named 'Z'"),
        (["--pair", "A,A"], "--pair: expected two different body names"),
        (["--pair", "A"], "--pair: expected two different body names"),
        (["--event", "2", "--time", "0.5"], "--time: --event draws the picture at the event's time"),
        (["--event", "2", "--pair", "A,B"], "--pair: --event describes the event's own pair"),
    ],
)
def test_render_refuses_a_bad_event_or_pair_in_one_line(tmp_path, capsys, no_drawing, extra, needle):
    out = tmp_path / "out.png"
    refused(["render", SCENES_DIR / f"{BREAK}.json", "-o", out, *extra], capsys, needle)
    assert not out.exists()


def test_render_an_event_with_its_parabola(tmp_path, capsys):
    import imageio.v3 as iio

    out, plain = tmp_path / "event.png", tmp_path / "plain.png"
    scene = str(SCENES_DIR / f"{BREAK}.json")
    assert main(["render", scene, "-o", str(plain), "--size", "480x320"]) == 0
    assert main(["render", scene, "-o", str(out), "--size", "480x320", "--event", "5", "--plot"]) == 0
    capsys.readouterr()
    picture, before = iio.imread(out), iio.imread(plain)
    assert picture.shape[0] == 320 and picture.shape[1] > 1.5 * 480  # the view and the parabola beside it
    assert np.abs(picture[:, :480, :3].astype(int) - before[:, :, :3].astype(int)).mean() > 2  # another picture
    assert main(["render", scene, "-o", str(out), "--pair", "B,C"]) == 0


# -- legible crowds ------------------------------------------------------------------------------------


def _display(renderer, point) -> np.ndarray:
    """VTK's own display pixel of a world point, ``(2,)``."""
    renderer.SetWorldPoint(*(float(x) for x in point), 1.0)
    renderer.WorldToDisplay()
    return np.array(renderer.GetDisplayPoint()[:2])


@pytest.mark.parametrize("size", [(1280, 800), (640, 400)])
def test_labels_on_the_break_cover_no_other_ball_and_no_other_label(size):
    from explorer.view.render import draw_offscreen

    scene = scene_io.load(SCENES_DIR / f"{BREAK}.json")
    plotter, _, view = draw_offscreen(scene, size, 0.0)
    try:
        plotter.render_window.Render()  # (pyvista's render() does nothing before a first show)
        renderer = plotter.renderer
        camera = renderer.GetActiveCamera()
        across = np.cross(np.subtract(camera.GetFocalPoint(), camera.GetPosition()), camera.GetViewUp())
        across /= np.linalg.norm(across)
        discs = []
        for body in scene.bodies:  # each ball's outline on screen: its centre and the pixel distance to its rim
            middle = _display(renderer, body.center)
            discs.append(
                (middle, np.linalg.norm(_display(renderer, np.add(body.center, across * body.radius)) - middle))
            )
        boxes = {}
        for name, (actor, _) in view.items.labels.items():
            if actor.GetVisibility() and actor.GetInput():
                box = [0.0] * 4
                actor.GetBoundingBox(renderer, box)  # x0, x1, y0, y1 around where the text is anchored
                x, y = actor.GetPositionCoordinate().GetComputedDoubleDisplayValue(renderer)  # VTK's projection
                boxes[name] = (x + box[0], x + box[1], y + box[2], y + box[3])
        named = [name for name in boxes if name.startswith("name")]
        assert len(named) >= 8  # not legible by leaving the names out
        for name, (x0, x1, y0, y1) in boxes.items():
            owner = int(name[4:]) if name in named else None
            for i, (middle, radius) in enumerate(discs):
                nearest = np.clip(middle, (x0, y0), (x1, y1))
                assert i == owner or np.linalg.norm(nearest - middle) >= radius - 1.0, f"{name} covers ball {i}"
            for other, (u0, u1, v0, v1) in boxes.items():
                assert other == name or x1 <= u0 or u1 <= x0 or y1 <= v0 or v1 <= y0, f"{name} covers {other}"
    finally:
        plotter.close()


@pytest.mark.parametrize("stem", ["bullet_tunnels", "seed003_bullet", "default"])
@pytest.mark.parametrize("inches", [(7.9, 8.0), (3.0, 3.2)])  # the plot beside a 1280x800 and a 480x320 picture
def test_the_parabola_s_texts_never_overlap(stem, inches):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from explorer.model.derived.analysis import solve
    from explorer.model.words.parabola import parabola
    from explorer.view.plot_image import draw_parabola

    plot = parabola(solve(scene_io.load(SCENES_DIR / f"{stem}.json")))
    figure = Figure(figsize=inches, dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_axes((0.1, 0.1, 0.86, 0.82))
    draw_parabola(axes, plot)
    figure.canvas.draw()
    texts = [t.get_window_extent() for t in axes.texts if t.get_visible()]
    assert len(texts) >= 3  # both roots and the vertex
    others = texts + [axes.get_legend().get_window_extent(), axes.title.get_window_extent()]
    for k, box in enumerate(texts):
        for j, other in enumerate(others):
            assert j == k or not box.overlaps(other), f"text {k} overlaps {j}"
