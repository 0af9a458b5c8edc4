"""The window's layout: a size that fits the screen, the user's layout remembered, presentation mode.

The 3-D view is the central widget and the largest thing on screen; the panels
are docks in one column on the right (the parabola above, Values / Scene /
Layers / Precision lab as tabs below) that the user can hide, move and resize.
Qt remembers the arrangement between runs; View → Reset layout brings back this
default.  Presentation mode shows the 3-D view full screen with large text and
thick lines, with the parabola strip along the bottom if asked for.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QRect, QSettings, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDockWidget, QMainWindow, QToolBar

from ..view.overlay import NORMAL, PRESENTATION

#: Where Qt keeps the remembered layout (QSettings organisation and application).
SETTINGS = ("SphereSweepExplorer", "explorer")
#: Bump when the docks change, so an old saved layout is not restored onto new docks.
STATE_VERSION = 2
#: Screens at most this size get the whole available area; larger ones 90 % of it.
SMALL_SCREEN = (1600, 1000)
LARGE_FRACTION = 0.9
#: The right column: this fraction of the window's width, within these bounds (pixels).
COLUMN_FRACTION, COLUMN_MIN, COLUMN_MAX = 0.27, 280, 440
#: Height of the parabola above the tabs, as a fraction of the window's height.
PLOT_FRACTION = 0.3
#: Presentation mode: the parabola strip's share of the screen's height.
STRIP_FRACTION = 0.24


def initial_geometry(available: QRect) -> QRect:
    """The window's first geometry on a screen whose available area is ``available``."""
    if available.width() <= SMALL_SCREEN[0] or available.height() <= SMALL_SCREEN[1]:
        return QRect(available)
    width, height = int(available.width() * LARGE_FRACTION), int(available.height() * LARGE_FRACTION)
    return QRect(
        available.x() + (available.width() - width) // 2,
        available.y() + (available.height() - height) // 2,
        width,
        height,
    )


def available_area(window: QMainWindow) -> QRect:
    """The available area (without panels and docks of the desktop) of the screen the window is on."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry()


class WindowLayout:
    """Arranges ``window``'s docks, remembers the arrangement and switches presentation mode.

    Parameters
    ----------
    window : QMainWindow
        With its central widget, docks and toolbars already added.
    plot_dock : QDockWidget
        The parabola's dock (the strip kept in presentation mode).
    tab_docks : list of QDockWidget
        The docks stacked as tabs under the parabola, the first in front.
    viewport : Viewport
        Takes the presentation style.
    """

    def __init__(self, window: QMainWindow, plot_dock: QDockWidget, tab_docks: list[QDockWidget], viewport) -> None:
        self.window = window
        self.plot_dock = plot_dock
        self.tab_docks = tab_docks
        self.viewport = viewport
        self.presenting = False
        self.strip_in_presentation = False
        self._before_presentation: tuple[QByteArray, bool] | None = None
        window.addDockWidget(Qt.RightDockWidgetArea, plot_dock)
        window.addDockWidget(Qt.RightDockWidgetArea, tab_docks[0])
        for dock in tab_docks[1:]:
            window.tabifyDockWidget(tab_docks[0], dock)
        tab_docks[0].raise_()
        self._default = window.saveState(STATE_VERSION)

    def docks(self) -> list[QDockWidget]:
        return [self.plot_dock, *self.tab_docks]

    # -- opening ------------------------------------------------------------------------------
    def open(self) -> None:
        """Place the window on its screen and arrange the docks: the remembered layout if any."""
        settings = QSettings(*SETTINGS)
        geometry, state = settings.value("geometry"), settings.value("state")
        restored = isinstance(geometry, QByteArray) and self.window.restoreGeometry(geometry)
        if not restored or not available_area(self.window).contains(self.window.frameGeometry()):
            self.window.setGeometry(initial_geometry(available_area(self.window)))
        if not (isinstance(state, QByteArray) and self.window.restoreState(state, STATE_VERSION)):
            self.size_docks()

    def size_docks(self) -> None:
        """The default proportions: the right column's width and the parabola's height."""
        width, height = self.window.width(), self.window.height()
        column = min(max(int(COLUMN_FRACTION * width), COLUMN_MIN), COLUMN_MAX)
        self.window.resizeDocks(self.docks(), [column] * len(self.docks()), Qt.Horizontal)
        self.window.resizeDocks([self.plot_dock, self.tab_docks[0]], [int(PLOT_FRACTION * height), height], Qt.Vertical)

    def reset(self) -> None:
        """View → Reset layout: the default docks, sized for this window, on this screen."""
        if self.presenting:
            self.window.toggle_presentation()
        self.window.restoreState(self._default, STATE_VERSION)
        for dock in self.docks():
            dock.show()
        self.window.setGeometry(initial_geometry(available_area(self.window)))
        self.size_docks()

    def remember(self) -> None:
        """Keep the layout for the next run (at close; not the presentation layout)."""
        if self.presenting:
            self.window.toggle_presentation()
        settings = QSettings(*SETTINGS)
        settings.setValue("geometry", self.window.saveGeometry())
        settings.setValue("state", self.window.saveState(STATE_VERSION))

    # -- panels -------------------------------------------------------------------------------
    def show_only_view(self, on: bool) -> None:
        """Hide every panel (on) or show them all again (off)."""
        for dock in self.docks():
            dock.setVisible(not on)

    # -- presentation -----------------------------------------------------------------------------
    def toggle_presentation(self) -> None:
        """Enter or leave presentation mode (F11; Esc leaves)."""
        window = self.window
        if not self.presenting:
            self._before_presentation = (window.saveState(STATE_VERSION), window.isMaximized())
            self.presenting = True
            for dock in self.docks():
                dock.hide()
            for bar in window.findChildren(QToolBar):
                bar.hide()
            window.menuBar().hide()
            window.statusBar().hide()
            if self.strip_in_presentation:
                window.addDockWidget(Qt.BottomDockWidgetArea, self.plot_dock)
                self.plot_dock.show()
            self.viewport.set_style(PRESENTATION)
            window.showFullScreen()
            available = available_area(window)
            if self.strip_in_presentation:
                window.resizeDocks([self.plot_dock], [int(STRIP_FRACTION * available.height())], Qt.Vertical)
        else:
            state, maximized = self._before_presentation
            self.presenting = False
            window.menuBar().show()
            window.statusBar().show()
            self.viewport.set_style(NORMAL)
            window.showMaximized() if maximized else window.showNormal()
            window.restoreState(state, STATE_VERSION)
