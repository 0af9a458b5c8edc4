"""The momenta diagram in a corner of the 3-D view in presentation mode (explorer/qt/momenta_corner.py), in the
window started as a user starts it: shown with the momenta on, the same totals as the panel, in the same words as
the values (every component, the plane of the drawing named), gone outside presentation mode and while the scene
asks its question."""

from __future__ import annotations

from frame_helpers import FREE_SCENES, times_around_an_event, zero_to_rounding
from window_helpers import settle

from explorer.model.derived import conserved
from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.words.momenta import bodies_at
from explorer.model.words.text import fmt
from explorer.model.words.values import conserved_rows
from explorer.qt.momenta_corner import CORNER_PIXELS


def _key(qtbot, window, key, modifier=None) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    QTest.keyClick(window, key, Qt.NoModifier if modifier is None else modifier)
    settle(qtbot, 60)


def test_presentation_mode_shows_the_momenta_diagram_in_a_corner_with_the_motions_totals(qtbot, make_window):
    from PySide6.QtCore import Qt

    window = make_window("heavy_light_glancing")  # opens with the momenta on
    viewport, session = window.viewport, window.session
    assert viewport.corner is None or not viewport.corner.visible  # not outside presentation mode
    _key(qtbot, window, Qt.Key_F11)
    _key(qtbot, window, Qt.Key_BracketRight)  # the first event: before and after side by side
    qtbot.waitUntil(lambda: viewport.corner is not None and viewport.corner.visible, timeout=5000)
    corner = viewport.corner
    diagrams = corner.diagram.diagrams
    before, after = conserved.across_events(session.scene, session.solution.path, 1)[0]
    assert [d[1].total for d in diagrams] == [before.momentum, after.momentum]
    # what the corner says: each total with the three components the values panel gives, and where it is drawn
    values = [dict(conserved_rows(session.scene, session.solution, t))["momentum Σ m v"] for t in
              (session.solution.events[0].time - 1e-9, session.solution.events[0].time)]  # fmt: skip
    totals = [text.removeprefix("Σ m v = ") for text in corner.diagram.painted if text.startswith("Σ m v = ")]
    assert len(totals) == 2 and all(value.startswith(total + "  |p| = ") for total, value in zip(totals, values))
    assert all(total.count(",") == 2 for total in totals), totals
    i, j = corner.diagram.plane  # the two axes it is drawn along: a projection, its plane named
    assert f"seen in the {'xyz'[i]}{'xyz'[j]} plane" in corner.diagram.painted, corner.diagram.painted
    image = corner.logo.GetImage()
    assert image.GetDimensions()[:2] == CORNER_PIXELS
    colours = image.GetPointData().GetScalars()
    assert len({colours.GetTuple4(k) for k in range(0, image.GetNumberOfPoints(), 97)}) > 3  # arrows, not blank
    _key(qtbot, window, Qt.Key_K, Qt.ControlModifier)  # asking: the diagram after an event would answer
    qtbot.waitUntil(lambda: not corner.visible, timeout=5000)
    _key(qtbot, window, Qt.Key_K, Qt.ControlModifier)
    qtbot.waitUntil(lambda: corner.visible, timeout=5000)
    _key(qtbot, window, Qt.Key_Escape)  # leaves presentation mode
    qtbot.waitUntil(lambda: not corner.visible, timeout=5000)


def test_in_the_centre_of_mass_frame_the_corners_momenta_add_to_zero_on_every_scene_with_free_bodies(
    qtbot, make_window
):
    from PySide6.QtCore import Qt

    window = make_window("default")
    viewport, session = window.viewport, window.session
    _key(qtbot, window, Qt.Key_F11)
    _key(qtbot, window, Qt.Key_M, Qt.ControlModifier)
    for stem in FREE_SCENES:
        assert window.documents.open_file(SCENES_DIR / f"{stem}.json")
        session.set_layer("momentum", True)  # the scene's own layers came with it
        for t in times_around_an_event(session.scene, session.solution):
            session.set_time(t)
            qtbot.waitUntil(lambda: viewport.corner is not None and viewport.corner.visible and session.view.com == 1.0,
                            timeout=5000)  # fmt: skip
            settle(qtbot, 30)
            parts = [b.momentum for b in bodies_at(session.scene, session.solution, t) if b.momentum is not None]
            ((title, chain),) = viewport.corner.diagram.diagrams
            assert len(chain.links) == len(parts) and zero_to_rounding(chain.total, parts), (stem, t, chain.total)
            assert title == f"at t = {fmt(t)}, centre-of-mass frame", title
    _key(qtbot, window, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not viewport.corner.visible, timeout=5000)
