"""Layer toggles: a check box per view layer (the View menu has the same as actions)."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QVBoxLayout, QWidget

from ..model.scene import LAYERS
from ..model.session import Change, Session
from .refresh import Refresher

LAYER_TITLES = {
    "capsules": "Swept capsules",
    "minkowski": "Expanded / shrunken sphere",
    "roots": "Roots t₀, t₁ (ghosts, markers)",
    "contact": "Contact point and normal",
    "reflection": "Reflected path",
    "labels": "Labels",
    "axes": "Axes and grid",
}


class LayersPanel(QWidget):
    """A check box per view layer, bound to the session's layer visibility."""

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
        layout.addStretch(1)
        self.refresher = Refresher(self, session, Change.LAYERS, self.refresh)

    def refresh(self) -> None:
        """Reflect the session's layers without echoing them back."""
        for name, box in self.boxes.items():
            box.blockSignals(True)
            box.setChecked(self.session.view.layers.get(name, True))
            box.blockSignals(False)
