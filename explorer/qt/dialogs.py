"""Small dialogs: the export options and the paste box."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QPlainTextEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..model.formats.paste import MAX_PASTE_CHARS, PASTE_HELP, too_large

#: Largest export scale (times the view's size).
MAX_EXPORT_SCALE = 4


def _buttons(dialog: QDialog) -> QDialogButtonBox:
    buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    return buttons


class ExportDialog(QDialog):
    """Scale (1–4× the view) and background of an exported picture."""

    def __init__(self, parent: QWidget, size: tuple[int, int]) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export screenshot")
        form = QFormLayout(self)
        self.scale = QSpinBox()
        self.scale.setRange(1, MAX_EXPORT_SCALE)
        self.scale.setSuffix("×")
        self.transparent = QCheckBox("transparent background")
        form.addRow(f"scale of the view ({size[0]}×{size[1]})", self.scale)
        form.addRow("", self.transparent)
        form.addRow(_buttons(self))


class PasteEditor(QPlainTextEdit):
    """A plain text box that refuses a paste or drop longer than :data:`MAX_PASTE_CHARS` before laying it out.

    Lines are not wrapped: wrapping one long line costs time quadratic in its length.

    Signals
    -------
    refused : str
        Why a paste was refused (one line).
    """

    refused = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.setLineWrapMode(QPlainTextEdit.NoWrap)

    def insertFromMimeData(self, source: QMimeData) -> None:  # noqa: N802 - Qt's name
        chars = len(source.text()) if source.hasText() else 0
        if len(self.toPlainText()) + chars > MAX_PASTE_CHARS:
            self.refused.emit(too_large(len(self.toPlainText()) + chars))
            return
        super().insertFromMimeData(source)


class PasteDialog(QDialog):
    """A text box for a configuration copied from another engine (see :data:`PASTE_HELP`)."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setWindowTitle("Paste a configuration")
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Positions, velocities and radii from another engine: JSON, or one quantity per line."))
        self.editor = PasteEditor()
        self.editor.setPlaceholderText(PASTE_HELP)
        self.editor.setMinimumSize(560, 320)
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.editor.refused.connect(self.problem.setText)
        layout.addWidget(self.editor)
        layout.addWidget(self.problem)
        layout.addWidget(_buttons(self))
