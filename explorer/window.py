"""The Qt main window: the 3-D view, the panels, menus, drags and undo."""

from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QFileDialog,
    QFormLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSpinBox,
    QWidget,
)

from solver import Status

from . import scene_io
from .analysis import Solution, solve
from .gallery import gallery
from .history import History
from .panels import LayersPanel, ScenePanel, ValuesPanel, parse_number
from .scene import Scene, SceneError

APP_NAME = "Sphere Sweep Explorer"
#: How long a status-bar message stays.
MESSAGE_MS = 10000
#: Largest export scale (times the window size).
MAX_EXPORT_SCALE = 4


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
        self.size_note = size
        form.addRow(f"scale of the view ({size[0]}×{size[1]})", self.scale)
        form.addRow("", self.transparent)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)


class MainWindow(QMainWindow):
    """The explorer.

    Parameters
    ----------
    scene : Scene
        What to show first.
    path : Path, optional
        The file it came from (Save writes there).
    defer_view : bool
        Leave the 3-D view to a later :meth:`build_view` call, so the window
        and its panels can be shown first: the view needs pyvista, whose import
        (with matplotlib) takes longer than everything else at start-up.
    """

    def __init__(self, scene: Scene, path: Path | None = None, defer_view: bool = False) -> None:
        super().__init__()
        self.resize(1500, 900)
        self.plotter = None
        self.view = None
        self.drag = None
        placeholder = QLabel("Loading the 3-D view…")
        placeholder.setAlignment(Qt.AlignCenter)
        self.setCentralWidget(placeholder)
        self.history = History(scene)
        self.path = path
        self.selected = 0
        self.layers = scene.layers
        self._scene = scene
        self.solution: Solution = solve(scene)
        self._drag_origin: Scene | None = None
        self.frame_times: list[float] = []

        self.values = ValuesPanel()
        self.scene_panel = ScenePanel()
        self.layers_panel = LayersPanel()
        self._dock("Values", self.values, Qt.RightDockWidgetArea)
        self._dock("Scene", self.scene_panel, Qt.LeftDockWidgetArea)
        self._dock("Layers", self.layers_panel, Qt.LeftDockWidgetArea)
        self._connect_panels()
        self._build_menus()
        self.statusBar().showMessage("Drag a sphere to move it, an arrow tip to change its velocity; drag empty space to turn the view.")
        self._show(scene)
        if not defer_view:
            self.build_view()

    def build_view(self) -> None:
        """Create the 3-D view (pyvistaqt interactor, drawing, drag handling) and draw the scene."""
        if self.plotter is not None:
            return
        from pyvistaqt import QtInteractor

        from .dragging import DragController
        from .drawing import SceneView

        self.plotter = QtInteractor(self, multi_samples=0, auto_update=False)
        self.setCentralWidget(self.plotter.interactor)
        self.view = SceneView(self.plotter, handles=True)
        self.drag = DragController(self.plotter, self.grips, self._drag_move, self._drag_end, self._drag_start)
        self._show(self._scene, reset_camera=True)

    # -- layout ------------------------------------------------------------------------
    def _dock(self, title: str, widget: QWidget, area) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(title)
        dock.setWidget(widget)
        dock.setFeatures(QDockWidget.DockWidgetMovable | QDockWidget.DockWidgetFloatable)
        self.addDockWidget(area, dock)
        return dock

    def _connect_panels(self) -> None:
        panel = self.scene_panel
        panel.edit.connect(self.edit_field)
        panel.mode_changed.connect(self.set_mode)
        panel.fixed_changed.connect(self.set_fixed)
        panel.add_body.connect(self.add_body)
        panel.remove_body.connect(self.remove_body)
        panel.body_selected.connect(self.select_body)
        self.layers_panel.toggled.connect(self.set_layer)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        self.action_open = self._action(file_menu, "&Open scene…", self.ask_open, QKeySequence.Open)
        self.gallery_menu = file_menu.addMenu("&Gallery")
        for path in gallery():
            action = QAction(path.stem.replace("_", " "), self)
            action.triggered.connect(lambda _checked=False, p=path: self.open_file(p))
            self.gallery_menu.addAction(action)
        file_menu.addSeparator()
        self.action_save = self._action(file_menu, "&Save", self.ask_save, QKeySequence.Save)
        self.action_save_as = self._action(file_menu, "Save &As…", self.ask_save_as, QKeySequence.SaveAs)
        self.action_export = self._action(file_menu, "&Export screenshot…", self.ask_export, QKeySequence("Ctrl+E"))
        file_menu.addSeparator()
        self._action(file_menu, "&Quit", self.close, QKeySequence.Quit)
        edit_menu = bar.addMenu("&Edit")
        self.action_undo = self._action(edit_menu, "&Undo", self.undo, QKeySequence.Undo)
        self.action_redo = self._action(edit_menu, "&Redo", self.redo, QKeySequence.Redo)
        self.action_redo.setShortcuts([QKeySequence.Redo, QKeySequence("Ctrl+Y")])
        for action in (self.action_undo, self.action_redo):  # also while the 3-D view has the focus
            action.setShortcutContext(Qt.ApplicationShortcut)
        view_menu = bar.addMenu("&View")
        self._action(view_menu, "&Reset camera", self.reset_camera, QKeySequence("Ctrl+R"))

    def _action(self, menu, text: str, slot, shortcut=None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(shortcut)
        action.triggered.connect(lambda _checked=False: slot())
        menu.addAction(action)
        return action

    # -- state --------------------------------------------------------------------------
    @property
    def scene(self) -> Scene:
        """The scene on screen (during a drag, the live preview)."""
        return self._scene

    def _show(self, scene: Scene, reset_camera: bool = False) -> None:
        """Solve ``scene`` and redraw the view and the panels."""
        start = time.perf_counter()
        solution = solve(scene)
        self._scene = scene
        self.solution = solution
        self.selected = min(self.selected, len(scene.bodies) - 1)
        if self.view is not None:
            from .drawing import apply_camera

            self.view.update(scene.with_changes(view={**scene.view, "layers": self.layers}), solution)
            if reset_camera:
                apply_camera(self.plotter, scene, solution)
        self.values.show_solution(scene, solution)
        self.scene_panel.show_scene(scene, self.selected)
        self.layers_panel.show_layers(self.layers)
        self._update_actions()
        if self.plotter is not None:
            self.plotter.render()
        self.frame_times.append(time.perf_counter() - start)
        del self.frame_times[:-1000]
        note = state_note(scene, solution)
        if note:
            self.statusBar().showMessage(note, MESSAGE_MS)

    def apply(self, scene: Scene, label: str) -> None:
        """Make ``scene`` current as an undoable edit."""
        self.history.push(scene, label)
        self._show(scene)

    def report(self, message: str) -> None:
        """Tell the user why something was refused (status bar; the app keeps running)."""
        self.statusBar().showMessage(message, MESSAGE_MS)

    def _update_actions(self) -> None:
        self.action_undo.setEnabled(self.history.can_undo)
        self.action_redo.setEnabled(self.history.can_redo)
        self.action_undo.setText("&Undo " + (self.history.undo_label or ""))
        self.action_redo.setText("&Redo " + (self.history.redo_label or ""))
        name = self.path.name if self.path else "untitled"
        self.setWindowTitle(f"{APP_NAME} — {name}")

    # -- drags ------------------------------------------------------------------------------
    def grips(self) -> list:
        """Spheres (by their centre) and arrow tips or centre knobs that can be dragged."""
        scene = self._scene
        from .dragging import Grip

        small = min(b.radius for b in scene.bodies[:2])
        out = []
        for i, body in enumerate(scene.bodies):
            tip = tuple(np.add(body.center, np.multiply(body.velocity, scene.horizon)))
            out.append(Grip(i, "tip", tip, 0.3 * small))
            out.append(Grip(i, "center", body.center, body.radius))
        return out

    def _drag_start(self, grip) -> None:
        self._drag_origin = self._scene
        self.selected = grip.body

    def _drag_move(self, grip, point: np.ndarray) -> None:
        origin = self._drag_origin or self._scene
        body = origin.bodies[grip.body]
        try:
            if grip.kind == "center":
                scene = origin.with_body(grip.body, center=tuple(float(x) for x in point))
            else:
                velocity = (np.asarray(point) - np.asarray(body.center)) / origin.horizon
                scene = origin.with_body(grip.body, velocity=tuple(float(x) for x in velocity))
        except SceneError as exc:
            self.report(f"{exc} — the drag stops here")
            return
        self._show(scene)

    def _drag_end(self, grip) -> None:
        name = self._scene.bodies[grip.body].name
        what = "centre" if grip.kind == "center" else "velocity"
        self.history.push(self._scene, f"drag {name} {what}")
        self._drag_origin = None
        self._update_actions()

    # -- edits from the panels ----------------------------------------------------------------
    def edit_field(self, field: str, text: str) -> None:
        """Apply a typed value; refuse it (old value kept) with a message when invalid."""
        widget = self.scene_panel.fields()[field]
        scene = self._scene
        try:
            value = parse_number(text, field.replace("body.", f"{scene.bodies[self.selected].name}."))
            if field == "horizon":
                new = scene.with_changes(horizon=value)
            elif field == "restitution":
                new = scene.with_changes(restitution=value)
            elif field == "body.radius":
                new = scene.with_body(self.selected, radius=value)
            elif field == "body.mass":
                new = scene.with_body(self.selected, mass=value)
            else:
                _, key, k = field.split(".")
                vector = list(getattr(scene.bodies[self.selected], key))
                vector[int(k)] = value
                new = scene.with_body(self.selected, **{key: tuple(vector)})
        except (ValueError, SceneError) as exc:
            widget.revert()
            self.report(f"Refused: {exc}")
            return
        self.apply(new, f"edit {field.split('.')[-1] if field.startswith('body.') else field}")

    def set_mode(self, mode: str) -> None:
        """Switch between ``pair`` and ``inside``; refused when the bodies do not fit the mode."""
        if mode == self._scene.mode:
            return
        try:
            new = self._scene.with_changes(mode=mode)
        except SceneError as exc:
            self.scene_panel.show_scene(self._scene, self.selected)
            self.report(f"Refused: {exc}")
            return
        self.apply(new, f"mode {mode}")

    def set_fixed(self, fixed: bool) -> None:
        """Make the selected body immovable (infinite mass) or give it mass 1."""
        self.apply(self._scene.with_body(self.selected, mass=math.inf if fixed else 1.0), "fixed" if fixed else "movable")

    def add_body(self) -> None:
        try:
            new = self._scene.with_added_body()
        except SceneError as exc:
            self.report(f"Refused: {exc}")
            return
        self.selected = len(new.bodies) - 1
        self.apply(new, "add body")

    def remove_body(self) -> None:
        try:
            new = self._scene.without_body(self.selected)
        except SceneError as exc:
            self.report(f"Refused: {exc}")
            return
        self.selected = min(self.selected, len(new.bodies) - 1)
        self.apply(new, "remove body")

    def select_body(self, index: int) -> None:
        self.selected = index
        self.scene_panel.show_scene(self._scene, index)

    def set_layer(self, name: str, visible: bool) -> None:
        """Show or hide one layer (a view option, not an undoable edit)."""
        self.layers = {**self.layers, name: visible}
        self._show(self._scene)

    # -- undo ---------------------------------------------------------------------------------------
    def undo(self) -> None:
        if self.history.can_undo:
            self._show(self.history.undo())

    def redo(self) -> None:
        if self.history.can_redo:
            self._show(self.history.redo())

    def reset_camera(self) -> None:
        """Frame the scene again (View > Reset camera)."""
        if self.plotter is None:
            return
        from .drawing import default_camera

        default_camera(self.plotter, self._scene, self.solution)
        self.plotter.render()

    # -- files --------------------------------------------------------------------------------------
    def error_dialog(self, title: str, message: str) -> None:
        """Show a problem in a dialog (tests replace this to observe it)."""
        QMessageBox.warning(self, title, message)

    def open_file(self, path: str | Path) -> bool:
        """Load a scene file; on failure show why and keep the current scene."""
        path = Path(path)
        try:
            scene = scene_io.load(path)
        except SceneError as exc:
            self.error_dialog("Cannot open scene", str(exc))
            return False
        self.path = path
        self.history.reset(scene)
        self.layers = scene.layers
        self.selected = 0
        self._show(scene, reset_camera=True)
        self.report(f"Opened {path.name}")
        return True

    def saved_scene(self) -> Scene:
        """The current scene with the view state (camera, layers) to store in the file."""
        view = {**self._scene.view, "layers": self.layers}
        if self.plotter is not None:
            from .drawing import camera_state

            view["camera"] = camera_state(self.plotter)
        return self._scene.with_changes(view=view)

    def save_to(self, path: str | Path) -> bool:
        """Write the scene atomically; on failure show why (the old file stays whole)."""
        path = Path(path)
        try:
            scene_io.save(self.saved_scene(), path)
        except SceneError as exc:
            self.error_dialog("Cannot save scene", str(exc))
            return False
        self.path = path
        self._update_actions()
        self.report(f"Saved {path.name}")
        return True

    def export_png(self, path: str | Path, scale: int = 1, transparent: bool = False) -> Path | None:
        """Render the current view at full quality (anti-aliased) to a PNG ``scale`` times the view's size."""
        from .drawing import camera_state
        from .render import render_png

        if self.plotter is None:
            self.report("The 3-D view is still loading")
            return None
        if not 1 <= int(scale) <= MAX_EXPORT_SCALE:
            self.report(f"Refused: export scale must be 1 to {MAX_EXPORT_SCALE}")
            return None
        size = self.plotter.interactor.width(), self.plotter.interactor.height()
        scene = self._scene.with_changes(view={**self._scene.view, "layers": self.layers})
        try:
            out = render_png(scene, path, size, 0.0, int(scale), transparent, camera_state(self.plotter))
        except (OSError, ValueError) as exc:
            self.error_dialog("Cannot export", str(exc))
            return None
        self.report(f"Exported {Path(out).name} ({size[0] * scale}×{size[1] * scale})")
        return Path(out)

    def ask_open(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Open scene", str(self.path.parent if self.path else Path.cwd()), "Scenes (*.json)")
        if name:
            self.open_file(name)

    def ask_save(self) -> None:
        if self.path is None or self._is_gallery(self.path):
            self.ask_save_as()
        else:
            self.save_to(self.path)

    def ask_save_as(self) -> None:
        name, _ = QFileDialog.getSaveFileName(self, "Save scene as", str(Path.cwd() / "scene.json"), "Scenes (*.json)")
        if name:
            self.save_to(name if name.endswith(".json") else name + ".json")

    def ask_export(self) -> None:
        if self.plotter is None:
            return
        size = self.plotter.interactor.width(), self.plotter.interactor.height()
        dialog = ExportDialog(self, size)
        if dialog.exec() != QDialog.Accepted:
            return
        name, _ = QFileDialog.getSaveFileName(self, "Export screenshot", str(Path.cwd() / "sphere-sweep.png"), "PNG (*.png)")
        if name:
            self.export_png(name if name.lower().endswith(".png") else name + ".png", dialog.scale.value(), dialog.transparent.isChecked())

    @staticmethod
    def _is_gallery(path: Path) -> bool:
        return path.resolve() in {p.resolve() for p in gallery()}

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt name
        if self.plotter is not None:
            self.plotter.close()
        super().closeEvent(event)


def state_note(scene: Scene, solution: Solution) -> str | None:
    """A status-bar hint for states that need a word of explanation, else None."""
    s = solution.sweep
    contact = s.contact
    if contact is not None and contact.degenerate:
        return "The centres coincide: the contact normal is undefined (x axis shown)."
    if s.status is Status.OVERLAPPING and scene.mode == "inside":
        return f"{scene.bodies[0].name} touches or crosses the container wall at t = 0."
    if s.status is Status.OVERLAPPING:
        return "The spheres already overlap at t = 0: contact at toi = 0."
    if s.status is Status.NO_RELATIVE_MOTION:
        return "No relative motion: the gap never changes, so there is no contact."
    return None
