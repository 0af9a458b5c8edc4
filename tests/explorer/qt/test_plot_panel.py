"""The window's parabola panel (explorer/qt/plot_panel.py), started as ``sphere-explorer SCENE`` starts it and stepped
through every gallery scene with Ctrl+PgDown: the marks' words lie inside the plot (so over no tick label, which
pyqtgraph draws outside it) and over no other word, at the size the window opens with and at a small one."""

from __future__ import annotations

import pytest
from window_helpers import settle

from explorer.model.formats.gallery import gallery
from explorer.model.words.parabola import parabola

pytestmark = pytest.mark.long  # started first (tests/conftest.py)


def _words_clear(window) -> int:
    """Checks the panel's words now; returns how many are shown."""
    panel = window.plot
    panel.plot.viewport().repaint()  # as the user sees it: painted (a word fits its size to the view's scale then)
    frame = panel.plot.getPlotItem().getViewBox().sceneBoundingRect()
    boxes = {name: item.sceneBoundingRect() for name, item in panel.words.items() if item.isVisible()}
    for name, box in boxes.items():
        assert frame.contains(box), (window.session.path.stem, name, box, frame)
        for other, box2 in boxes.items():
            assert other == name or not box.intersects(box2), (window.session.path.stem, name, other)
    return len(boxes)


def test_on_every_gallery_scene_the_parabolas_words_stay_inside_the_plot_and_apart(qtbot, make_window):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    window = make_window(gallery()[0].stem)
    shown = 0
    for size in ("as opened", "small"):
        if size == "small":
            window.plot_dock.setFloating(True)
            window.plot_dock.resize(360, 200)
        for _ in gallery():
            qtbot.waitUntil(lambda: window.plot.data.t == parabola(window.session.solution).t, timeout=5000)
            settle(qtbot, 60)
            if window.session.view.stage == "shown":  # an asking scene covers the plot
                shown += _words_clear(window)
            QTest.keyClick(window, Qt.Key_PageDown, Qt.ControlModifier)  # the next scene of the folder
    assert shown >= 2 * len(gallery())  # not clear by leaving the words out
