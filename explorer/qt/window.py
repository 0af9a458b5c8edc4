"""The main window: the 3-D view in the middle, the panels around it, menus and the status bar.

Layout and wiring only.  The state lives in the session (:mod:`explorer.model.actions.session`);
the view and every panel subscribe to it and call its methods.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QApplication, QDockWidget, QLabel, QMainWindow, QToolBar, QWidget

from ..model.actions.session import Change, Session
from ..model.state.scene import SceneError
from ..model.words.text import REFUSED, panel_failed, refusal, state_note
from .answer_cover import AnswerCover
from .description_panel import DescriptionPanel, describe_view
from .documents import Documents
from .lab_panel import LabPanel
from .layers_panel import LayersPanel
from .layout import WindowLayout
from .menus import build_menus
from .momenta_panel import MomentaPanel
from .motion_timer import MotionTimer
from .refresh import DragPacer
from .scene_panel import ScenePanel
from .time_bar import TimeBar
from .values_panel import ValuesPanel
from .viewport import Viewport

APP_NAME = "Sphere Sweep Explorer"
#: How long a status-bar message stays.
MESSAGE_MS = 10000
#: The status bar's standing hint: the gestures of the 3-D view, short enough for one line of a 1280-pixel screen.
GESTURES = (
    "Drag a sphere: move it · an arrow tip: its velocity · Shift+drag a sphere: give it a velocity · "
    "Ctrl+click another sphere: describe the pair · [ ]: next or previous event · drag empty space: turn · "
    "F11: present"
)


class MainWindow(QMainWindow):
    """The explorer's window on ``session``.

    The 3-D view is created by :meth:`build_view` (it imports pyvista, the
    slowest part of start-up), so the window can be shown first; its place in
    the layout is the same before and after.
    """

    #: Emitted once :meth:`build_view` has built the 3-D view and the parabola panel: every import of start-up done.
    started = Signal()

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.setObjectName("explorer")
        self.session = session
        self.viewport = Viewport(session)
        self.setCentralWidget(self.viewport)
        self.values = ValuesPanel(session)
        self.scene_panel = ScenePanel(session)
        self.layers_panel = LayersPanel(session)
        self.lab = LabPanel(session)
        self.momenta = MomentaPanel(session)
        self.description = DescriptionPanel(session)
        self.plot = None  # the parabola panel, built with the 3-D view (pyqtgraph)
        self.motion_loader = None  # the thread loading the compiled motion loop, once started (qt.app.launch)
        self.plot_dock = self._dock("Parabola f(t)", QLabel("Loading the plot…"))
        tabs = [self._dock(title, widget) for title, widget in (
            ("Values", AnswerCover(session, self.values)), ("Scene", self.scene_panel), ("Layers", self.layers_panel),
            ("Precision lab", AnswerCover(session, self.lab)), ("Momenta", self.momenta),
            ("Description", self.description))]  # fmt: skip
        self.values_dock, self.lab_dock = tabs[0], tabs[3]
        self.time_bar = TimeBar(session)
        toolbar = QToolBar("Time")
        toolbar.setObjectName("Time")
        toolbar.addWidget(self.time_bar)
        self.addToolBar(Qt.BottomToolBarArea, toolbar)
        self.arrangement = WindowLayout(self, self.plot_dock, tabs, self.viewport)
        self.pacer = DragPacer(session, self.viewport)  # the 3-D view first while dragging; panels follow
        for panel in (
            self.values,
            self.scene_panel,
            self.lab,
            self.momenta,
            self.description,
            self.time_bar,
        ):  # the layers panel is bound: no refresh
            self.pacer.add(panel.refresher)
        self.documents = Documents(self, session, self.viewport)
        self.momenta.documents = self.documents
        self.motion_timer = MotionTimer(session, self)
        build_menus(self)
        toolbar.addAction(self.action_relative)
        toolbar.addAction(self.action_com)
        toolbar.addAction(self.action_ask)
        toolbar.addAction(self.action_reveal)
        self._leave = QShortcut(QKeySequence(Qt.Key_Escape), self, self.toggle_presentation)
        self._leave.setEnabled(False)
        for source in (self.scene_panel, self.lab, self.viewport):
            source.refused.connect(self.report)
        self.documents.message.connect(self.report)
        self.viewport.keys.said.connect(self.report)
        self.gestures = QLabel(GESTURES)  # shown whenever no message is (Qt's "normal" status-bar widget)
        self.statusBar().addWidget(self.gestures)
        session.subscribe(self._changed)
        self._changed(Change.SCENE | Change.HISTORY | Change.VIEW)
        self.arrangement.open()

    def _dock(self, title: str, widget: QWidget) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(title)
        dock.setWidget(widget)
        dock.setFeatures(
            QDockWidget.DockWidgetMovable | QDockWidget.DockWidgetFloatable | QDockWidget.DockWidgetClosable
        )
        refresher = getattr(widget, "refresher", None)
        if refresher is not None:  # a tab brought to the front catches up with what changed behind it
            dock.visibilityChanged.connect(lambda visible: visible and refresher.kick())
        return dock

    def build_view(self) -> None:
        """Create the 3-D view and the parabola plot (pyvista, pyqtgraph), draw them, then say :attr:`started`."""
        self.viewport.build()
        if self.plot is None:
            self._build_plot()
        self.started.emit()

    def _build_plot(self) -> None:
        """The parabola panel in its dock; where it cannot be built, the dock says why in one line."""
        try:
            from .plot_panel import ParabolaPanel

            plot = ParabolaPanel(self.session)
        except Exception as exc:  # noqa: BLE001 - a broken pyqtgraph costs the plot, not the window
            self.plot_dock.setWidget(QLabel(panel_failed("the plot", exc)))
            return
        self.plot = plot
        self.plot_dock.setWidget(AnswerCover(self.session, plot, "roots"))
        self.pacer.add(plot.refresher)
        self.plot_dock.visibilityChanged.connect(lambda visible: visible and plot.refresher.kick())

    def report(self, message: str) -> None:
        """Tell the user what happened or why something was refused (status bar; the app keeps running)."""
        self.statusBar().showMessage(message, MESSAGE_MS)

    def show_precision_lab(self) -> None:
        """Bring the precision lab's tab to the front (View menu)."""
        self.lab_dock.show()
        self.lab_dock.raise_()
        QApplication.processEvents()
        self.lab.refresher.now()

    def _changed(self, change: Change) -> None:
        session = self.session
        if change & Change.HISTORY:
            history = session.history
            self.action_undo.setEnabled(history.can_undo)
            self.action_redo.setEnabled(history.can_redo)
            self.action_undo.setText("&Undo " + (history.undo_label or ""))
            self.action_redo.setText("&Redo " + (history.redo_label or ""))
            self.setWindowTitle(f"{APP_NAME} — {session.path.name if session.path else 'untitled'}")
        if change & (Change.SCENE | Change.ASK | Change.HISTORY):  # HISTORY: a drag ends
            describe_view(self.viewport, session)  # what a screen reader says of the 3-D view
        if change & Change.SCENE:
            note = state_note(session.scene, session.solution)
            if note:
                self.report(note)
            elif self.statusBar().currentMessage().startswith(REFUSED):  # the change was accepted
                self.statusBar().clearMessage()

    def step_event(self, direction: int) -> None:
        """Inspect the next (+1) or previous (−1) event of the motion (the keys ] and [, Alt+→ and Alt+←)."""
        try:
            self.session.step_event(direction)
        except SceneError as exc:
            self.report(refusal(str(exc)))

    def toggle_presentation(self) -> None:
        """Enter or leave presentation mode (F11; Esc also leaves)."""
        self.arrangement.toggle_presentation()
        self._leave.setEnabled(self.arrangement.presenting)

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt name
        self.arrangement.remember()
        self.viewport.close_view()
        super().closeEvent(event)
