"""The window describes its scene in words for a screen reader: the 3-D view's accessible description and the
*Description* panel, after a real drag, while asking (nothing of the answer) and after Reveal."""

from __future__ import annotations

import numpy as np
from window_helpers import drag, show_panel

from explorer.model.actions.asking import question_text


def test_the_view_says_the_scene_after_a_drag_and_hides_the_answer_while_asking(qtbot, make_window):
    window = make_window("default")
    view = window.viewport
    first = view.accessibleDescription()
    # default.json: A moves at (9, 1, 0), |v| = 9.06; B is fixed; the head-on-ish shot touches at t = 0.457
    assert first.startswith("A moves at 9.06 per frame towards +x and B is fixed. A touches B at t = 0.457")
    a = window.session.scene.bodies[0]
    drag(qtbot, window, a.center, np.add(a.center, (0.0, 4.0, 0.0)))  # A moved up out of B's way
    qtbot.waitUntil(lambda: view.accessibleDescription() != first)
    assert "A misses B" in view.accessibleDescription()
    window.session.undo()
    window.action_ask.trigger()
    qtbot.waitUntil(lambda: window.session.view.stage == "asking")
    asked = view.accessibleDescription()
    assert asked == "A moves at 9.06 per frame towards +x and B is fixed. " + question_text(window.session.scene)
    show_panel(qtbot, window, "Description")
    shown = window.description.short.text() + "\n" + window.description.full.text()
    assert asked in shown and "touches" not in shown and "Event" not in shown
    window.action_reveal.trigger()
    qtbot.waitUntil(lambda: window.session.view.stage == "shown", timeout=10000)
    assert view.accessibleDescription().startswith(first[: first.index("; it leaves")])
    qtbot.waitUntil(lambda: "Event 1: A and B" in window.description.full.text())
