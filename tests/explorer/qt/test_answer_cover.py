"""Question mode in the window, started as ``sphere-explorer SCENE`` starts it and driven from the keyboard: while
it asks, no answer is anywhere on screen (the panels, the verdict line, the labels and the colour key, the
3-D items); Reveal (F5) then shows exactly what the normal mode shows."""

from __future__ import annotations

import re

from window_helpers import drag, settle

from explorer.model.actions.asking import ANSWER_LAYERS
from explorer.model.words.text import fmt
from explorer.view.catalogue import LOOKS


def screen_texts(window) -> list[str]:
    """Every text a user can see: the visible labels, buttons and slider marks of the window's widgets, and the
    3-D view's verdict, note, colour key and labels."""
    from PySide6.QtWidgets import QAbstractButton, QLabel

    texts = [w.text() for w in window.findChildren(QLabel) + window.findChildren(QAbstractButton) if w.isVisible()]
    drawing = window.viewport.drawing
    texts += [actor.GetInput() or "" for actor in drawing.text.actors() if actor.GetVisibility()]
    texts += [actor.GetInput() or "" for actor, _ in drawing.items.labels.values() if actor.GetVisibility()]
    return texts


def answer_words(session) -> list[str]:
    """What would give the answer away: the verdict's words and the numbers the solver found (roots, contact)."""
    sweep = session.solution.sweep
    numbers = [fmt(r) for r in sweep.roots or ()] + [fmt(x) for x in sweep.contact.point]
    return ["HIT", "MISS", "touch at", "t₀ =", "t₁ =", "contact point", "discriminant",
            *(n for n in numbers if len(n) >= 4)]  # fmt: skip


def shown_items(window) -> set[str]:
    items = window.viewport.drawing.items.items
    return {name for name, item in items.items() if item.actor.GetVisibility()}


def key(qtbot, window, k, modifier=None) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    QTest.keyClick(window, k, Qt.NoModifier if modifier is None else modifier)
    settle(qtbot, 50)


def test_asking_hides_every_answer_and_reveal_shows_what_the_normal_mode_shows(qtbot, make_window):
    from PySide6.QtCore import Qt

    window = make_window("default")
    session = window.session
    key(qtbot, window, Qt.Key_K, Qt.ControlModifier)  # View -> Ask first
    qtbot.waitUntil(lambda: session.view.stage == "asking", timeout=5000)
    settle(qtbot, 100)
    texts = screen_texts(window)
    assert "Will A touch B before t = 1?" in texts  # the verdict line asks
    leaks = [(w, t) for t in texts for w in answer_words(session) if w in t]
    assert not leaks, leaks
    hidden = {name for name, look in LOOKS.items() if look.layer in ANSWER_LAYERS}
    assert not shown_items(window) & hidden, shown_items(window) & hidden
    assert {"body0", "body1", "arrow0"} <= shown_items(window)
    assert not window.time_bar.slider.isEnabled() and window.time_bar.slider.marks == []

    # a drag still works, and gives nothing away
    a, b = session.scene.bodies[:2]
    drag(qtbot, window, a.center, (a.center[0], a.center[1] + 0.4, a.center[2]))
    assert session.scene.bodies[0].center != a.center and session.view.stage == "asking"
    assert not [(w, t) for t in screen_texts(window) for w in answer_words(session) if w in t]

    key(qtbot, window, Qt.Key_F5)  # Reveal
    qtbot.waitUntil(lambda: session.view.stage == "shown", timeout=10000)
    settle(qtbot, 100)
    t = session.view.time
    assert t == session.solution.sweep.toi  # the time ran to the contact
    revealed = (shown_items(window), window.viewport.drawing.text.verdict.GetInput(), window.values.text())

    key(qtbot, window, Qt.Key_K, Qt.ControlModifier)  # ask again, then show the answer at once: the normal mode
    assert session.view.stage == "asking"
    key(qtbot, window, Qt.Key_K, Qt.ControlModifier)
    session.set_time(t)
    settle(qtbot, 100)
    window.values.refresher.now()
    assert (shown_items(window), window.viewport.drawing.text.verdict.GetInput(), window.values.text()) == revealed
    assert re.search(r"HIT at t₀ = ", revealed[1])
