"""Layer toggles: a check box per view layer (the View menu has the same as actions)."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QSpinBox, QVBoxLayout, QWidget

from ..model.actions.session import Change, Session
from ..model.state.scene import LAYERS, MAX_STEPS
from .binding import bind

LAYER_TITLES = {
    "capsules": "Swept capsules",
    "minkowski": "Expanded / shrunken sphere",
    "roots": "Roots t₀, t₁ (ghosts, markers)",
    "contact": "Contact point and normal",
    "reflection": "Reflected path",
    "labels": "Labels",
    "axes": "Axes and grid",
    "steps": "Frame-stepped engine (steps of h / N)",
    "conserved": "Momentum and energy (under the verdict)",
    "momentum": "Momentum arrows m v and the centre of mass",
}


class LayersPanel(QWidget):
    """A check box per view layer and N of the stepped engine, bound to the session's layers part."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        layout = QVBoxLayout(self)
        self.boxes: dict[str, QCheckBox] = {}
        for name in LAYERS:
            box = QCheckBox(LAYER_TITLES[name])
            box.toggled.connect(lambda on, name=name: session.set_layer(name, on))
            layout.addWidget(box)
            self.boxes[name] = box
        row = QHBoxLayout()
        row.addWidget(QLabel("steps N"))
        self.steps = QSpinBox()
        self.steps.setRange(1, MAX_STEPS)
        self.steps.setToolTip("How many steps a frame-stepped engine takes over the horizon h")
        self.steps.valueChanged.connect(session.set_steps)
        row.addWidget(self.steps)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addStretch(1)
        for name, box in self.boxes.items():
            bind(
                session.layers,
                Change.LAYERS,
                box,
                lambda box=box, name=name: box.setChecked(session.layers.visible[name]),
            )
        bind(session.layers, Change.STEPS, self.steps, lambda: self.steps.setValue(session.layers.steps))
