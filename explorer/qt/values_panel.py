"""The values panel: the verdict, every number of the solution in plain words, and how it was decided."""

from __future__ import annotations

import html
import math

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QScrollArea, QVBoxLayout, QWidget

from solver import Status

from ..model.analysis import Solution
from ..model.scene import Scene
from ..model.session import Change, Session
from ..model.stepping import stepped_test
from ..model.text import first_turn_text, fmt, polynomial, root_label, status_text
from .refresh import Refresher


def _vec(v) -> str:
    return "(" + ", ".join(fmt(x) for x in v) + ")"


class ValuesPanel(QScrollArea):
    """Status, trace and every number of the session's solution, in plain words (redrawn while on screen)."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setWidgetResizable(True)
        box = QWidget()
        layout = QVBoxLayout(box)
        self.status_label = QLabel()
        self.status_label.setObjectName("status")
        self.status_label.setWordWrap(True)
        self.status_label.setTextFormat(Qt.PlainText)  # body names are the user's text, never markup
        self.status_label.setStyleSheet("font-size: 15px; font-weight: bold;")
        self.body_label = QLabel()
        self.body_label.setObjectName("values")
        self.body_label.setWordWrap(True)
        self.body_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.body_label.setTextFormat(Qt.RichText)
        layout.addWidget(self.status_label)
        layout.addWidget(self.body_label)
        layout.addStretch(1)
        self.setWidget(box)
        self.setMinimumWidth(260)
        self.steps = None  # the frame-stepped engine's test, while its layer is on
        self.refresher = Refresher(self, session, Change.SCENE | Change.LAYERS | Change.STEPS, self.refresh)

    def refresh(self) -> None:
        """Show the session's solution (and the frame-stepped test while its layer is on)."""
        session = self.session
        on = session.view.layers.get("steps", False)
        self.steps = stepped_test(session.solution, session.view.steps) if on else None
        self.show_solution(session.scene, session.solution)

    def show_solution(self, scene: Scene, solution: Solution) -> None:
        """Fill the panel from ``solution``."""
        s = solution.sweep
        self.status_label.setText(status_text(scene, solution))
        color = {Status.HIT: "#11803f", Status.OVERLAPPING: "#c01818"}.get(s.status, "#333333")
        if color != self.status_label.property("verdict_color"):  # restyling is slow: only on a new colour
            self.status_label.setProperty("verdict_color", color)
            self.status_label.setStyleSheet(f"font-size: 15px; font-weight: bold; color: {color};")
        a, b, c = s.coefficients
        rows: list[tuple[str, str]] = []
        rows.append(("decided", "exactly (integer arithmetic)" if s.exact else "float64, error-bounded"))
        rows.append(("f(t)", polynomial(a, b, c)))
        rows.append(("R", fmt(s.radius) + (" = rC − rA" if s.inside else " = rA + rB")))
        rows.append(("discriminant", "—" if s.discriminant is None else fmt(s.discriminant)))
        if s.roots is None:
            rows.append(("roots", "none (no real root)"))
        else:
            for k, root in enumerate(s.roots):
                where = "in [0, h]" if 0 <= root <= scene.horizon else "outside [0, h]"
                rows.append((root_label(k), f"{fmt(root)}  ({where})"))
        rows.append(("toi", "none" if s.toi is None else fmt(s.toi)))
        if s.t_min is not None:
            rows.append(("vertex t_min", fmt(s.t_min)))
        closest = s.closest
        rows.append(("closest approach", f"{fmt(closest.distance)} at t = {fmt(closest.time)} (gap {fmt(closest.gap)})"))
        contact = s.contact
        if contact is not None and not solution.contact_happens:  # all mode: another body turns them first
            rows.append(("contact", f"never happens: {first_turn_text(scene, solution)}"))
        elif contact is not None:
            rows.append(("contact point", _vec(contact.point)))
            rows.append(("contact normal", _vec(contact.normal) + (" (centres coincide)" if contact.degenerate else "")))
        imp = solution.impact
        if imp is not None and solution.contact_happens:
            rows.append(("frames to hit", fmt(imp.time)))
            rows.append(("distance to hit", fmt(imp.distance)))
            rows.append(("reflected velocity", _vec(imp.reflected)))
            angle = "—" if imp.ricochet_angle is None else f"{fmt(math.degrees(imp.ricochet_angle))}°"
            rows.append(("ricochet angle", angle + " to the tangent plane"))
            names = scene.bodies[0].name, scene.bodies[solution.other].name
            rows.append((f"{names[0]} after", _vec(imp.a_after)))
            rows.append((f"{names[1]} after", _vec(imp.b_after)))
        path = solution.path
        bounce_text = f"{len(solution.events)} event(s) before the horizon"
        if path.stopped:
            bounce_text = f"{len(solution.events)} event(s); the motion stops at t = {fmt(path.end)}: {path.stopped}"
        rows.append(("motion", bounce_text))
        if self.steps is not None:
            rows.append(("stepped engine", self.steps.summary(fmt, " — ")))
        table = "".join(
            f"<tr><td style='color:#555;padding-right:8px'>{html.escape(k)}</td><td>{html.escape(v)}</td></tr>" for k, v in rows
        )
        trace = "".join(
            f"<li>{html.escape(step.question)} <i>{html.escape(step.quantity)}</i> = {html.escape(fmt(step.value))}"
            f"<br>→ {html.escape(step.answer)}</li>"
            for step in s.trace
        )
        others = ""
        if len(solution.sweeps) > 1:
            items = "".join(
                f"<li>{html.escape(scene.bodies[0].name)}–{html.escape(scene.bodies[k + 1].name)}: "
                f"{html.escape(sk.status.label)}{'' if sk.toi is None else ' at ' + fmt(sk.toi)}</li>"
                for k, sk in enumerate(solution.sweeps)
            )
            others = f"<p><b>Every pair</b></p><ul style='margin-left:-20px'>{items}</ul>"
        self.body_label.setText(
            f"<table>{table}</table><p><b>How it was decided</b></p><ol style='margin-left:-20px'>{trace}</ol>{others}"
            + _event_list(scene, solution)
        )


#: The values panel lists at most this many events.
LISTED_EVENTS = 40


def _event_list(scene: Scene, solution: Solution) -> str:
    """The motion's events as an HTML table: time, which pair, impulse on the first body."""
    events = solution.events
    if not events:
        return ""
    names = [html.escape(b.name) for b in scene.bodies]
    rows = "".join(
        f"<tr><td style='padding-right:8px'>t = {fmt(e.time)}</td><td style='padding-right:8px'>{names[e.pair[0]]}–{names[e.pair[1]]}"
        f"{' (jam)' if e.kind == 'jam' else ''}</td><td>{html.escape(_vec(e.impulse))}</td></tr>"
        for e in events[:LISTED_EVENTS]
    )
    more = f"<p>… and {len(events) - LISTED_EVENTS} more</p>" if len(events) > LISTED_EVENTS else ""
    return f"<p><b>Events</b> (impulse on the first body of the pair)</p><table>{rows}</table>{more}"
