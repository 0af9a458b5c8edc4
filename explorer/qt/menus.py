"""The menu bar: File, Edit and View, with their shortcuts."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from ..model.formats.gallery import gallery
from ..model.state.scene import LAYERS
from ..model.state.view_parts import Change
from ..view.bounds import FRAME_ALL_TIP
from .binding import bind
from .layers_panel import LAYER_TITLES


def action(window, menu: QMenu, text: str, slot, shortcut=None, checkable: bool = False) -> QAction:
    """Add an action to ``menu``; its shortcut works wherever the focus is in the window, the 3-D view included."""
    item = QAction(text, window)
    if shortcut is not None:
        item.setShortcuts(shortcut if isinstance(shortcut, list) else [QKeySequence(shortcut)])
        item.setShortcutContext(Qt.ApplicationShortcut)
    item.setCheckable(checkable)
    if checkable:
        item.toggled.connect(slot)
    else:
        item.triggered.connect(lambda _checked=False: slot())
    menu.addAction(item)
    window.addAction(item)  # keeps shortcuts alive while the menu bar is hidden (presentation mode)
    return item


def build_menus(window) -> None:
    """File, Edit and View menus of ``window`` (a :class:`explorer.qt.window.MainWindow`)."""
    bar = window.menuBar()
    _file_menu(window, bar.addMenu("&File"))
    _edit_menu(window, bar.addMenu("&Edit"))
    _view_menu(window, bar.addMenu("&View"))


def _file_menu(window, file_menu) -> None:
    """Open (a file, a folder, the gallery), save, the exports, quit."""
    files = window.documents
    action(window, file_menu, "&Open scene…", files.ask_open, QKeySequence.Open)
    action(window, file_menu, "Open a &folder of scenes…", files.ask_open_folder)
    action(window, file_menu, "&Next scene in the folder", lambda: files.step_scene(+1), "Ctrl+PgDown")
    action(window, file_menu, "P&revious scene in the folder", lambda: files.step_scene(-1), "Ctrl+PgUp")
    window.gallery_menu = file_menu.addMenu("&Gallery")
    for path in gallery():
        item = QAction(path.stem.replace("_", " "), window)
        item.triggered.connect(lambda _checked=False, p=path: files.open_file(p))
        window.gallery_menu.addAction(item)
    file_menu.addSeparator()
    action(window, file_menu, "&Save", files.ask_save, QKeySequence.Save)
    action(window, file_menu, "Save &As…", files.ask_save_as, QKeySequence.SaveAs)
    action(window, file_menu, "&Export screenshot…", files.ask_export, "Ctrl+E")
    action(window, file_menu, "Export &animation (GIF/MP4)…", files.ask_export_animation)
    action(window, file_menu, "Export &report for a bug…", files.ask_export_report)
    action(window, file_menu, "Export &web page…", files.ask_export_web_page)
    action(window, file_menu, "Export the data &table (CSV)…", files.ask_export_table)
    action(window, file_menu, "Export the data table at every e&vent (CSV)…", lambda: files.ask_export_table(True))
    file_menu.addSeparator()
    action(window, file_menu, "&Quit", window.close, QKeySequence.Quit)


def _edit_menu(window, edit_menu) -> None:
    """Undo, redo and paste."""
    session = window.session
    window.action_undo = action(window, edit_menu, "&Undo", session.undo, QKeySequence.Undo)
    window.action_redo = action(
        window, edit_menu, "&Redo", session.redo, [QKeySequence(QKeySequence.Redo), QKeySequence("Ctrl+Y")]
    )
    edit_menu.addSeparator()
    action(window, edit_menu, "&Paste a configuration…", window.documents.ask_paste, "Ctrl+Shift+V")


def _question_actions(window, view_menu, session) -> None:
    """Question mode: *Ask first* hides the answer (the scene's question instead), *Reveal* brings it."""
    window.action_ask = action(window, view_menu, "&Ask first", session.ask, "Ctrl+K", checkable=True)
    window.action_ask.setToolTip("Hide the answer and ask the scene's question first (again: ask again)")
    window.action_reveal = action(window, view_menu, "Re&veal", session.reveal, "F5")
    window.action_reveal.setToolTip("Show the answer: time runs to the contact, then the marks and the roots appear")

    def show() -> None:
        window.action_ask.setChecked(session.asking.asking)
        window.action_reveal.setEnabled(session.asking.asking)
        window.action_relative.setEnabled(not session.asking.hides_answers)  # B: the body A meets first

    bind(session.asking, Change.ASK, window.action_ask, show)


def _view_menu(window, view_menu) -> None:
    """Camera, rest frame, the inspector, presentation, panels, the lab, layers and the layout."""
    session, layout = window.session, window.arrangement
    action(window, view_menu, "&Reset camera", session.reset_camera, "Ctrl+R")
    action(window, view_menu, "&Frame all", window.viewport.frame_all, "Ctrl+Shift+R").setToolTip(FRAME_ALL_TIP)
    window.action_relative = action(
        window, view_menu, "B's &rest frame", session.set_rest_frame, "Ctrl+B", checkable=True
    )
    window.action_relative.setToolTip(
        "Switch to the rest frame of B: A's centre becomes a point on a ray, B the expanded sphere"
    )
    window.action_com = action(
        window, view_menu, "Centre-of-&mass frame", session.set_com_frame, "Ctrl+M", checkable=True
    )
    window.action_com.setToolTip(
        "Switch to the frame moving with the free bodies' centre of mass: their momenta add up to zero"
    )
    bind(session.reference, Change.REFERENCE, window.action_relative,
         lambda: window.action_relative.setChecked(session.reference.rest_frame))  # fmt: skip
    bind(session.reference, Change.REFERENCE, window.action_com,
         lambda: window.action_com.setChecked(session.reference.com_frame))  # fmt: skip
    _question_actions(window, view_menu, session)
    _inspector_actions(window, view_menu, session)
    window.action_presentation = action(window, view_menu, "&Presentation mode", window.toggle_presentation, "F11")
    strip = action(
        window,
        view_menu,
        "Parabola strip in presentation",
        lambda on: setattr(layout, "strip_in_presentation", on),
        checkable=True,
    )
    strip.setToolTip("Keep the parabola f(t) along the bottom in presentation mode")
    view_menu.addSeparator()
    _panel_actions(window, view_menu.addMenu("&Panels"), layout)
    action(window, view_menu, "Precision &lab", window.show_precision_lab, "Ctrl+L")
    _layer_actions(window, view_menu.addMenu("&Layers"), session)
    view_menu.addSeparator()
    action(window, view_menu, "Reset &layout", layout.reset)


def _panel_actions(window, panels, layout) -> None:
    """Ctrl+1, Ctrl+2, … toggle the docks (each in its order); Ctrl+0 the 3-D view alone."""
    for k, dock in enumerate(layout.docks(), 1):
        toggle = dock.toggleViewAction()
        toggle.setShortcut(QKeySequence(f"Ctrl+{k}"))
        toggle.setShortcutContext(Qt.ApplicationShortcut)
        panels.addAction(toggle)
        window.addAction(toggle)
    action(window, panels, "&Only the 3-D view", layout.show_only_view, "Ctrl+0", checkable=True)


def _layer_actions(window, layers_menu, session) -> None:
    """One checkable action per layer, bound to the session's layers."""
    window.layer_actions = {}
    for name in LAYERS:
        item = action(
            window, layers_menu, LAYER_TITLES[name], lambda on, n=name: session.set_layer(n, on), checkable=True
        )
        bind(session.layers, Change.LAYERS, item, lambda item=item, n=name: item.setChecked(session.layers.visible[n]))
        window.layer_actions[name] = item


def _inspector_actions(window, view_menu, session) -> None:
    """View menu: step through the motion's events (the inspector), and back to A and its partner."""
    view_menu.addSeparator()
    action(
        window, view_menu, "&Next event", lambda: window.step_event(+1), [QKeySequence("]"), QKeySequence("Alt+Right")]
    )
    action(
        window,
        view_menu,
        "Pre&vious event",
        lambda: window.step_event(-1),
        [QKeySequence("["), QKeySequence("Alt+Left")],
    )
    action(window, view_menu, "Describe A and its &partner again", session.inspect)
    view_menu.addSeparator()
