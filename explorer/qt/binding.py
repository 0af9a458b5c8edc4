"""Widgets bound to the view state they show: one helper, so a value shown can never differ from the value held.

:func:`bind` shows a part's field in a widget now and after every change of
that part (:mod:`explorer.model.state.view_parts`), with the widget's signals blocked
while it is set, so showing a value is never taken for the user setting it.
The widget's own signal goes to the session's action, whose rule decides; a
refused value is shown back as held.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, QSignalBlocker

from ..model.state.view_parts import Change, Part


def quietly(widget: QObject, show: Callable[[], None]) -> None:
    """Run ``show()`` (which sets ``widget``) with the widget's signals blocked: showing is not a user action."""
    blocker = QSignalBlocker(widget)
    try:
        show()
    finally:
        blocker.unblock()


def bind(part: Part, change: Change, widget: QObject, show: Callable[[], None]) -> None:
    """Call ``show()`` (which sets ``widget`` from ``part``) now and after each ``change`` of ``part``.

    Parameters
    ----------
    part : Part
        The view state the widget shows.
    change : Change
        The part's changes that alter what the widget shows.
    widget : QObject
        Its signals are blocked while ``show`` runs; when it is destroyed the binding ends.
    show : callable
        Sets the widget from the part.
    """

    def update(what: Change) -> None:
        if what & change:
            quietly(widget, show)

    part.subscribe(update)
    widget.destroyed.connect(lambda *_: part.unsubscribe(update))
    update(change)
