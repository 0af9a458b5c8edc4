"""The Qt main window: the 3-D view, the panels, menus, drags and undo."""

from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
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
    QToolBar,
    QWidget,
)

from solver import Status

from ..model import scene_io
from ..model.analysis import Solution, solve
from ..model.gallery import gallery
from ..model.history import History
from .lab_panel import LabPanel
from .panels import LayersPanel, ScenePanel, TimeBar, ValuesPanel, parse_number
from ..model.precision import lab, nudge_graze, translate
from ..model.scene import Scene, SceneError

APP_NAME = "Sphere Sweep Explorer"
#: How long a status-bar message stays.
MESSAGE_MS = 10000
#: Initial height of the parabola plot.
PLOT_HEIGHT = 210
#: Largest animation frame (GIFs of the whole view would be huge).
ANIMATION_MAX_SIZE = (960, 600)
#: Largest export scale (times the window size).
MAX_EXPORT_SCALE = 4
#: Playback: one horizon takes this long at 1× speed; timer period.
HORIZON_PLAY_SECONDS = 3.0
PLAY_INTERVAL_MS = 30
#: Turning to or from B's rest frame: duration and step.
FRAME_TURN_MS = 450
FRAME_STEP_MS = 30
#: The time slider reaches a later first contact up to this many horizons, plus a margin.
LATER_RANGE = 3.0
TIME_MARGIN = 0.05


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
        self.time = 0.0  # the time the spheres are drawn at (a view option, not an edit)
        self.frame = 0.0  # 0 world frame, 1 B's rest frame, in between while turning
        self._frame_target = 0.0
        self.plot = None
        self._play_timer = QTimer(self)
        self._play_timer.setInterval(PLAY_INTERVAL_MS)
        self._play_timer.timeout.connect(self._play_tick)
        self._play_clock = 0.0
        self._frame_timer = QTimer(self)
        self._frame_timer.setInterval(FRAME_STEP_MS)
        self._frame_timer.timeout.connect(self._frame_tick)

        self.values = ValuesPanel()
        self.scene_panel = ScenePanel()
        self.layers_panel = LayersPanel()
        values_dock = self._dock("Values", self.values, Qt.RightDockWidgetArea)
        self.lab = LabPanel()
        self.lab_dock = self._dock("Precision lab", self.lab, Qt.RightDockWidgetArea)
        self.tabifyDockWidget(values_dock, self.lab_dock)
        values_dock.raise_()
        self.lab_dock.visibilityChanged.connect(lambda visible: visible and self._show_lab())
        self._dock("Scene", self.scene_panel, Qt.LeftDockWidgetArea)
        self._dock("Layers", self.layers_panel, Qt.LeftDockWidgetArea)
        self.time_bar = TimeBar()
        toolbar = QToolBar("Time")
        toolbar.setObjectName("Time")
        toolbar.addWidget(self.time_bar)
        self.action_relative = QAction("Relative frame (B at rest)", self)
        self.action_relative.setCheckable(True)
        self.action_relative.setToolTip("Switch to the rest frame of B: A's centre becomes a point on a ray, B the expanded sphere")
        self.action_relative.toggled.connect(self.set_relative_frame)
        toolbar.addAction(self.action_relative)
        self.addToolBar(Qt.BottomToolBarArea, toolbar)
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

        from ..view.picking import DragController
        from ..view.drawing import SceneView

        from .plot_panel import ParabolaPanel

        self.plotter = QtInteractor(self, multi_samples=0, auto_update=False)
        self.setCentralWidget(self.plotter.interactor)
        self.view = SceneView(self.plotter, handles=True)
        self.drag = DragController(self.plotter, self.grips, self._drag_move, self._drag_end, self._drag_start)
        self.plot = ParabolaPanel()
        self.plot.time_dragged.connect(self.set_time)
        plot_dock = self._dock("Parabola f(t)", self.plot, Qt.BottomDockWidgetArea)
        self.resizeDocks([plot_dock], [PLOT_HEIGHT], Qt.Vertical)
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
        self.lab.translate.connect(self.translate_far)
        self.lab.nudge.connect(self.nudge_graze)
        self.time_bar.time_changed.connect(self.set_time)
        self.time_bar.play_toggled.connect(self.set_playing)

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
        self._action(file_menu, "Export &animation (GIF/MP4)…", self.ask_export_animation)
        self._action(file_menu, "Export &report for a bug…", self.ask_export_report)
        file_menu.addSeparator()
        self._action(file_menu, "&Quit", self.close, QKeySequence.Quit)
        edit_menu = bar.addMenu("&Edit")
        self.action_undo = self._action(edit_menu, "&Undo", self.undo, QKeySequence.Undo)
        self.action_redo = self._action(edit_menu, "&Redo", self.redo, QKeySequence.Redo)
        self.action_redo.setShortcuts([QKeySequence.Redo, QKeySequence("Ctrl+Y")])
        for action in (self.action_undo, self.action_redo):  # also while the 3-D view has the focus
            action.setShortcutContext(Qt.ApplicationShortcut)
        edit_menu.addSeparator()
        self._action(edit_menu, "&Paste a configuration…", self.ask_paste, QKeySequence("Ctrl+Shift+V"))
        view_menu = bar.addMenu("&View")
        self._action(view_menu, "&Reset camera", self.reset_camera, QKeySequence("Ctrl+R"))
        self._action(view_menu, "&Precision lab", self.show_precision_lab, QKeySequence("Ctrl+L"))

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
        self.values.show_solution(scene, solution)
        self._show_lab()
        self.scene_panel.show_scene(scene, self.selected)
        self.layers_panel.show_layers(self.layers)
        self._update_actions()
        self._redraw(reset_camera)
        self.frame_times.append(time.perf_counter() - start)
        del self.frame_times[:-1000]
        note = state_note(scene, solution)
        if note:
            self.statusBar().showMessage(note, MESSAGE_MS)

    def _show_lab(self) -> None:
        """Refresh the precision lab when its tab is on screen (it costs a few ms per drag frame)."""
        if not self.lab.visibleRegion().isEmpty():
            self.lab.show_report(lab(self._scene, self.solution.other))

    def show_precision_lab(self) -> None:
        """Bring the precision lab's tab to the front (View menu)."""
        self.lab_dock.show()
        self.lab_dock.raise_()
        QApplication.processEvents()
        self.lab.show_report(lab(self._scene, self.solution.other))

    def time_range(self) -> tuple[float, float]:
        """The slider's range: [0, horizon], and beyond to a later first contact (up to 3 horizons)."""
        h = self._scene.horizon
        s = self.solution.sweep
        end = h
        if s.roots is not None:
            contact = s.roots[1] if s.inside else s.roots[0]
            if h < contact <= LATER_RANGE * h:
                end = contact
        return 0.0, end * (1.0 + TIME_MARGIN)

    def _redraw(self, reset_camera: bool = False) -> None:
        """Redraw the 3-D view and the plot at the current time and frame (no solving)."""
        lo, hi = self.time_range()
        self.time = min(max(self.time, lo), hi)
        self.time_bar.show_time(self.time, (lo, hi), self._scene.horizon)
        if self.view is None:
            return
        from ..view.drawing import apply_camera
        from ..model.parabola import parabola

        scene = self._scene
        self.view.update(scene.with_changes(view={**scene.view, "layers": self.layers}), self.solution, self.time, self.frame)
        if reset_camera:
            apply_camera(self.plotter, scene, self.solution)
        self.plot.show_parabola(parabola(self.solution, self.time), inside=scene.mode == "inside")
        self.plotter.render()

    # -- time and frame ----------------------------------------------------------------------
    def set_time(self, t: float) -> None:
        """Draw the spheres at time ``t`` (slider, steps, the plot's time line)."""
        self.time = float(t)
        self._redraw()

    def set_playing(self, on: bool) -> None:
        """Play the motion from the current time (restarting from 0 at the end)."""
        self.time_bar.set_playing(on)
        if on:
            lo, hi = self.time_range()
            if self.time >= hi:
                self.time = lo
            self._play_clock = time.perf_counter()
            self._play_timer.start()
        else:
            self._play_timer.stop()

    def _play_tick(self) -> None:
        now = time.perf_counter()
        elapsed, self._play_clock = now - self._play_clock, now
        speed = float(self.time_bar.speed.currentData())
        lo, hi = self.time_range()
        self.time += speed * self._scene.horizon * elapsed / HORIZON_PLAY_SECONDS
        if self.time >= hi:
            self.time = hi
            self.set_playing(False)
        self._redraw()

    def set_relative_frame(self, on: bool) -> None:
        """Turn smoothly to B's rest frame (or back to the world frame)."""
        self._frame_target = 1.0 if on else 0.0
        self.action_relative.blockSignals(True)
        self.action_relative.setChecked(on)
        self.action_relative.blockSignals(False)
        if self.view is None:
            self.frame = self._frame_target
            return
        self._frame_timer.start()

    def _frame_tick(self) -> None:
        step = FRAME_STEP_MS / FRAME_TURN_MS
        if self.frame < self._frame_target:
            self.frame = min(self.frame + step, self._frame_target)
        else:
            self.frame = max(self.frame - step, self._frame_target)
        if self.frame == self._frame_target:
            self._frame_timer.stop()
        self._redraw()

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
        from ..view.picking import Grip

        if self.view is None or len(self.view.drawn_centers) != len(scene.bodies):
            return []
        small = min(b.radius for b in scene.bodies[:2])
        out = []
        for i in range(len(scene.bodies)):  # where they are drawn: at the current time, in the current frame
            out.append(Grip(i, "tip", self.view.drawn_tips[i], 0.3 * small))
            out.append(Grip(i, "center", self.view.drawn_centers[i], max(self.view.drawn_radii[i], 0.3 * small)))
        return out

    def _drag_start(self, grip) -> None:
        self._drag_origin = self._scene
        self.selected = grip.body
        if self._play_timer.isActive():  # dragging while playing pauses, as in PhET
            self.set_playing(False)

    def _drag_move(self, grip, point: np.ndarray) -> None:
        origin = self._drag_origin or self._scene
        body = origin.bodies[grip.body]
        # the grip moved by delta where it is drawn; the body's centre at t = 0 (or its
        # velocity, for a tip) changes by the same amount, whatever the time and frame
        delta = np.asarray(point, dtype=float) - np.asarray(grip.position, dtype=float)
        try:
            if grip.kind == "center":
                scene = origin.with_body(grip.body, center=tuple(float(x) for x in np.add(body.center, delta)))
            else:
                velocity = np.add(body.velocity, delta / origin.horizon)
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

    def translate_far(self, power: int) -> None:
        """Move every centre by 2**power on each axis (exact: the geometry is unchanged)."""
        offset = float(2**power)
        try:
            new = translate(self._scene, (offset, offset, offset))
        except SceneError as exc:
            self.report(f"Refused: {exc}")
            return
        self.apply(new, f"translate by 2^{power}")
        self.reset_camera()

    def nudge_graze(self, ulps: int) -> None:
        """Move the other body by ``ulps`` ulps away from (+) or towards (−) A's path."""
        try:
            new = nudge_graze(self._scene, ulps, self.solution.other)
        except (SceneError, ValueError) as exc:
            self.report(f"Refused: {exc}")
            return
        self.apply(new, f"nudge {ulps:+d} ulp")

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
        from ..view.drawing import default_camera

        default_camera(self.plotter, self._scene, self.solution, self._frame_target)
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
        self._open_scene(scene, path, f"Opened {path.name}")
        return True

    def _open_scene(self, scene: Scene, path: Path | None, message: str) -> None:
        """Make ``scene`` the new document: fresh undo history, its layers, camera framed."""
        self.path = path
        self.history.reset(scene)
        self.layers = scene.layers
        self.selected = 0
        self._show(scene, reset_camera=True)
        self.report(message)

    def saved_scene(self) -> Scene:
        """The current scene with the view state (camera, layers) to store in the file."""
        view = {**self._scene.view, "layers": self.layers}
        if self.plotter is not None:
            from ..view.drawing import camera_state

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
        from ..view.drawing import camera_state
        from ..view.render import render_png

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

    def open_pasted(self, text: str) -> bool:
        """Open a configuration pasted from another engine as a new, untitled scene."""
        from ..model.paste import parse_configuration

        try:
            scene = parse_configuration(text)
        except SceneError as exc:
            self.error_dialog("Cannot read the configuration", str(exc))
            return False
        self._open_scene(scene, None, "Opened the pasted configuration")
        return True

    def ask_paste(self) -> None:
        from PySide6.QtWidgets import QPlainTextEdit, QVBoxLayout

        from ..model.paste import PASTE_HELP

        dialog = QDialog(self)
        dialog.setWindowTitle("Paste a configuration")
        layout = QVBoxLayout(dialog)
        layout.addWidget(QLabel("Positions, velocities and radii from another engine: JSON, or one quantity per line."))
        editor = QPlainTextEdit()
        editor.setPlaceholderText(PASTE_HELP)
        editor.setMinimumSize(560, 320)
        layout.addWidget(editor)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(dialog.accept)
        buttons.rejected.connect(dialog.reject)
        layout.addWidget(buttons)
        if dialog.exec() == QDialog.Accepted:
            self.open_pasted(editor.toPlainText())

    def export_animation(self, path: str | Path, frames: int = 40) -> Path | None:
        """The sweep over the horizon from the current camera and frame, as a GIF or MP4."""
        from ..view.animation import render_animation
        from ..view.drawing import camera_state

        if self.plotter is None:
            return None
        view = self.plotter.interactor
        size = (min(view.width(), ANIMATION_MAX_SIZE[0]), min(view.height(), ANIMATION_MAX_SIZE[1]))
        scene = self._scene.with_changes(view={**self._scene.view, "layers": self.layers})
        try:
            out = render_animation(scene, path, size, frames, camera=camera_state(self.plotter), frame=self._frame_target)
        except (OSError, ValueError) as exc:
            self.error_dialog("Cannot export the animation", str(exc))
            return None
        self.report(f"Exported {Path(out).name} ({frames} frames)")
        return Path(out)

    def export_report(self, folder: str | Path) -> Path | None:
        """A bug-report folder: scene.json, solution.json and picture.png (with the parabola)."""
        from ..view.animation import write_report
        from ..view.drawing import camera_state

        camera = camera_state(self.plotter) if self.plotter is not None else None
        try:
            out = write_report(self.saved_scene(), folder, camera=camera)
        except (OSError, ValueError) as exc:
            self.error_dialog("Cannot write the report", str(exc))
            return None
        self.report(f"Wrote the report to {out}")
        return out

    def ask_export_animation(self) -> None:
        from ..view.animation import mp4_available

        kinds = "GIF (*.gif);;MP4 (*.mp4)" if mp4_available() else "GIF (*.gif)"
        name, _ = QFileDialog.getSaveFileName(self, "Export animation", str(Path.cwd() / "sweep.gif"), kinds)
        if name:
            self.export_animation(name if name.lower().endswith((".gif", ".mp4")) else name + ".gif")

    def ask_export_report(self) -> None:
        name = QFileDialog.getExistingDirectory(self, "Folder for the report", str(Path.cwd()))
        if name:
            self.export_report(name)

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
