"""The momenta in the window, started as ``sphere-explorer SCENE`` starts it: the arrows to scale, the momenta
diagram and its total, the data table and its CSV against ``sphere-explorer solve --time T``, a total that is
rounding read as 0 with its exact value in the tooltip, and the centre-of-mass frame switched on from the
keyboard."""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import solved
from frame_helpers import FREE_SCENES, numbers, times_around_an_event, zero_to_rounding
from window_helpers import settle, show_panel

from explorer.model.derived import conserved
from explorer.model.words.momenta import bodies_at
from explorer.model.words.values import vector

SCENES = Path(__file__).resolve().parents[3] / "scenes"


def drawn_arrow(window, name: str) -> tuple[np.ndarray, np.ndarray]:
    """The start and the tip of a drawn arrow, read from its mesh on screen: the start is the drawn centre of its
    body, the tip the mesh's point farthest from it (the apex of the head)."""
    drawing = window.viewport.drawing
    actor = drawing.items.items[name].actor
    assert actor.GetVisibility(), name
    points = np.asarray(actor.GetMapper().GetInput().GetPoints().GetData(), dtype=float)
    start = np.asarray(drawing.placement.centers[int(name.removeprefix("momentum"))])
    tip = points[np.argmax(np.linalg.norm(points - start, axis=1))]
    return start, tip


def step_to_event(qtbot, window, k: int) -> None:
    """Inspect event ``k`` (1 the first) with the ``]`` key, as a user steps through the events."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    for _ in range(k):
        QTest.keyClick(window, Qt.Key_BracketRight)
        settle(qtbot)
    qtbot.waitUntil(lambda: window.session.inspection.event == k - 1, timeout=5000)


def test_the_arrows_are_m_v_to_scale_and_the_diagram_adds_them_to_the_values_panels_total(qtbot, make_window):
    window = make_window("heavy_light_glancing")  # the scene opens with the momentum layer on
    session = window.session
    step_to_event(qtbot, window, 1)
    settle(qtbot, 50)
    t = session.view.time
    bodies = bodies_at(session.scene, session.solution, t)
    ratios = []
    for i, body in enumerate(bodies):
        start, tip = drawn_arrow(window, f"momentum{i}")
        drawn = tip - start
        momentum = np.asarray(body.momentum)
        ratios.append(np.linalg.norm(drawn) / np.linalg.norm(momentum))
        assert np.allclose(drawn / np.linalg.norm(drawn), momentum / np.linalg.norm(momentum), atol=1e-5)
    assert ratios[0] == pytest.approx(ratios[1], rel=1e-4)  # one scale for every body

    show_panel(qtbot, window, "Momenta")
    panel = window.momenta
    qtbot.waitUntil(lambda: len(panel.diagram.diagrams) == 2, timeout=5000)  # before and after the event
    before, after = (chain for _, chain in panel.diagram.diagrams)
    totals = conserved.across_events(session.scene, session.solution.path, 1)[0]
    assert before.total == totals[0].momentum and after.total == totals[1].momentum
    assert before.links[-1][2] == before.total and after.links[0][1] == (0.0, 0.0, 0.0)
    assert math.dist(before.total, after.total) < 1e-12 * math.hypot(*before.total)  # two free bodies: kept
    show_panel(qtbot, window, "Values")
    window.values.refresher.now()
    assert vector(after.total) in window.values.text()  # the diagram's total is the values panel's Σ m v


def test_the_table_and_its_csv_are_what_solve_time_gives(qtbot, make_window, tmp_path):
    window = make_window("heavy_light_glancing")
    session = window.session
    session.set_time(0.8125)
    show_panel(qtbot, window, "Momenta")
    panel = window.momenta
    qtbot.waitUntil(lambda: bool(panel.rows) and "0.8125" in panel.caption.text(), timeout=5000)
    solved_at = solved(SCENES / "heavy_light_glancing.json", "--time", repr(0.8125))
    heading, *copied = [line.split("\t") for line in panel.text().splitlines()]
    assert heading == ["Numbers in the world frame."]  # the frame the numbers are in, first
    assert copied[0][0] == "body" and [row[0] for row in copied[1:]] == ["A", "B", "free bodies"]
    for row, body in zip(copied[1:], solved_at["bodies_at"]):
        assert row[1] == repr(body["mass"]).removesuffix(".0") or float(row[1]) == body["mass"]
        assert float(row[4]) == pytest.approx(math.hypot(*body["velocity"]), rel=1e-5)
    assert "centre of mass" in copied[3][2]

    out = window.documents.export_table(tmp_path / "bodies.csv")
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert len(rows) == len(solved_at["bodies_at"])
    for row, body in zip(rows, solved_at["bodies_at"]):
        assert row["body"] == body["name"] and float(row["time"]) == 0.8125 and row["when"] == "at"
        assert [float(row[k]) for k in ("x", "y", "z")] == body["center"]
        assert [float(row[k]) for k in ("vx", "vy", "vz")] == body["velocity"]
        assert [float(row[k]) for k in ("px", "py", "pz")] == body["momentum"]
        assert float(row["kinetic_energy"]) == body["kinetic_energy"] and float(row["mass"]) == body["mass"]

    every = window.documents.export_table(tmp_path / "events.csv", every_event=True)
    rows = list(csv.DictReader(io.StringIO(every.read_text())))
    events = session.solution.events
    assert len(rows) == 2 * len(events) * len(session.scene.bodies)
    assert [r["when"] for r in rows[:4]] == ["before", "before", "after", "after"]
    assert float(rows[0]["time"]) == events[0].time


def test_the_centre_of_mass_frame_from_the_keyboard_shows_the_head_on_balls_reversed(qtbot, make_window):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    window = make_window("head_on_equal_masses")
    session = window.session
    QTest.keyClick(window, Qt.Key_M, Qt.ControlModifier)
    qtbot.waitUntil(lambda: session.view.com == 1.0, timeout=5000)  # turned, animated like B's rest frame
    assert window.action_com.isChecked() and not window.action_relative.isChecked()
    contact = session.solution.events[0].time
    directions = {}
    for when, t in (("before", contact / 2), ("after", (contact + session.scene.horizon) / 2)):
        session.set_time(t)
        settle(qtbot, 50)
        assert "centre-of-mass frame" in window.viewport.drawing.text.verdict.GetInput()
        directions[when] = [np.sign((drawn_arrow(window, f"momentum{i}")[1] - drawn_arrow(window, f"momentum{i}")[0])[0])
                            for i in range(2)]  # fmt: skip
    assert directions["before"] == [1.0, -1.0] and directions["after"] == [-1.0, 1.0]
    # each ball's drawn arrow has the same length before and after: reversed, not slowed
    session.set_time(contact / 2)
    settle(qtbot, 50)
    before = [np.linalg.norm(np.subtract(*drawn_arrow(window, f"momentum{i}"))) for i in range(2)]
    session.set_time((contact + session.scene.horizon) / 2)
    settle(qtbot, 50)
    after = [np.linalg.norm(np.subtract(*drawn_arrow(window, f"momentum{i}"))) for i in range(2)]
    assert after == pytest.approx(before, rel=1e-5)
    QTest.keyClick(window, Qt.Key_B, Qt.ControlModifier)  # B's rest frame: the centre of mass's switch goes off
    qtbot.waitUntil(lambda: session.view.reference == 1.0 and session.view.com == 0.0, timeout=5000)
    assert not window.action_com.isChecked()


def test_in_the_centre_of_mass_frame_the_panels_momenta_add_to_zero_on_every_scene_with_free_bodies(qtbot, make_window):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    window = make_window("default")
    session, panel = window.session, window.momenta
    QTest.keyClick(window, Qt.Key_M, Qt.ControlModifier)  # the frame stays the user's from file to file
    show_panel(qtbot, window, "Momenta")
    for stem in FREE_SCENES:
        assert window.documents.open_file(SCENES / f"{stem}.json")  # File > Open's own path
        qtbot.waitUntil(lambda: session.view.com == 1.0, timeout=5000)
        for t in times_around_an_event(session.scene, session.solution):
            session.set_time(t)
            panel.refresher.now()
            world = bodies_at(session.scene, session.solution, t)
            parts = [b.momentum for b in world if b.momentum is not None]
            ((title, chain),) = panel.diagram.diagrams
            assert title.endswith("centre-of-mass frame") and len(chain.links) == len(parts)
            assert zero_to_rounding(chain.total, parts), (stem, t, chain.total)
            total_row = panel.text().splitlines()[-1].split("\t")
            assert total_row[0] == "free bodies" and zero_to_rounding(numbers(total_row[5]), parts), (stem, total_row)
            assert zero_to_rounding(numbers(total_row[3]), parts)  # the centre of mass's velocity: at rest
            assert panel.frame_line.text().startswith("Numbers in the centre-of-mass frame: it moves at")
            assert panel.text().startswith(panel.frame_line.text() + "\n")  # and so does the copied table
            show_panel(qtbot, window, "Values")  # the values panel's Σ m v beside it: in the same frame, which it names
            window.values.refresher.now()
            row = [line for line in window.values.text().splitlines() if "momentum Σ m v" in line]
            assert row and "centre-of-mass frame" in row[0] and zero_to_rounding(numbers(row[0])[-4:-1], parts), row
            show_panel(qtbot, window, "Momenta")


def test_in_the_centre_of_mass_frame_the_ricochet_says_the_fixed_b_only_appears_to_move(qtbot, make_window):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    window = make_window("seed004_ricochet")
    session = window.session
    QTest.keyClick(window, Qt.Key_M, Qt.ControlModifier)
    qtbot.waitUntil(lambda: session.view.com == 1.0, timeout=5000)
    before, after = times_around_an_event(session.scene, session.solution)
    note = window.viewport.drawing.text.note
    fixed = "B is fixed in the world: it only appears to move in this frame."
    session.set_time(before)
    qtbot.waitUntil(lambda: note.GetVisibility() and note.GetInput() == fixed, timeout=5000)
    session.set_time(after)  # A has bounced off B: the centre of mass (A's) moves another way, and so the frame
    qtbot.waitUntil(lambda: "The frame changed at t = " in note.GetInput(), timeout=5000)
    assert note.GetInput().startswith(fixed + "\n") and "(A hit the fixed B)" in note.GetInput()
    QTest.keyClick(window, Qt.Key_M, Qt.ControlModifier)  # back to the world: no such words
    qtbot.waitUntil(lambda: session.view.com == 0.0, timeout=5000)
    settle(qtbot, 50)
    assert not note.GetVisibility() or "fixed in the world" not in note.GetInput()


def _exact(x: float) -> str:
    """Every digit of ``x``: Python's shortest text that reads back to it, without a trailing ``.0``."""
    return repr(x + 0.0).removesuffix(".0")


def test_a_total_that_is_rounding_reads_0_and_its_tooltip_gives_it_exactly(qtbot, make_window):
    """The break just after its third event: the 16 balls' Σ m v is (24, -2.2e-16, 0) as float64; the Momenta
    table's total and the values panel read (24, 0, 0), and the tooltip of each gives the float itself."""
    from PySide6.QtWidgets import QLabel

    window = make_window("snooker_break")
    session = window.session
    step_to_event(qtbot, window, 3)
    bodies = bodies_at(session.scene, session.solution, session.view.time)
    total = [math.fsum(b.momentum[k] for b in bodies if b.momentum is not None) for k in range(3)]
    assert total[0] == 24.0 and 0 < abs(total[1]) < 1e-15  # the case: a y that is the momenta's rounding
    exact = "(" + ", ".join(map(_exact, total)) + ")"

    def shown(panel, grid) -> list[tuple[str, str]]:
        return [(label.text(), label.toolTip()) for label in grid.findChildren(QLabel) if label.isVisibleTo(panel)]

    show_panel(qtbot, window, "Momenta")
    qtbot.waitUntil(lambda: len(window.momenta.diagram.diagrams) == 2, timeout=5000)
    assert ("(24, 0, 0)", exact) in shown(window.momenta, window.momenta.table)
    show_panel(qtbot, window, "Values")
    window.values.refresher.now()
    magnitude = math.hypot(*total)
    assert ("(24, 0, 0)  |p| = 24", f"{exact}  |p| = {_exact(magnitude)}") in shown(window.values, window.values.table)
