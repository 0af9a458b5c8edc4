"""The File menu's work: open, save, export pictures, animations and reports, paste a configuration.

Each action goes through the session (which refuses bad files without
changing anything) and says what happened: a line in the status bar, or a
dialog when something could not be done.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QMessageBox, QWidget

from ..model.actions.session import Session
from ..model.formats.folder import SceneFolder
from ..model.formats.gallery import gallery
from ..model.formats.lab_table import csv_text
from ..model.state.scene import SceneError
from ..model.words.text import refusal
from .dialogs import MAX_EXPORT_SCALE, ExportDialog, PasteDialog
from .viewport import Viewport

#: Largest animation frame (GIFs of the whole view would be huge).
ANIMATION_MAX_SIZE = (960, 600)


class Documents(QObject):
    """Files in and out for one window.

    Signals
    -------
    message(str)
        What was done (or why not), for the status bar.
    """

    message = Signal(str)

    def __init__(self, parent: QWidget, session: Session, viewport: Viewport) -> None:
        super().__init__(parent)
        self.parent_widget = parent
        self.session = session
        self.viewport = viewport

    def error_dialog(self, title: str, message: str) -> None:
        """Show a problem in a dialog (tests replace this to observe it)."""
        QMessageBox.warning(self.parent_widget, title, message)

    # -- opening -------------------------------------------------------------------------
    def open_file(self, path: str | Path) -> bool:
        """Open a scene file; a refused one is explained in a dialog and changes nothing."""
        path = Path(path)
        try:
            self.session.open_file(path)
        except SceneError as exc:
            self.error_dialog("Cannot open scene", str(exc))
            return False
        self.message.emit(f"Opened {path.name}")
        return True

    def open_folder(self, folder: str | Path) -> bool:
        """Open the first scene of a folder (e.g. an audit's worst cases); Next/Previous step through the rest."""
        try:
            first = SceneFolder(folder).current
        except SceneError as exc:
            self.error_dialog("Cannot open the folder", str(exc))
            return False
        return self.open_file(first)

    def step_scene(self, offset: int) -> bool:
        """Open the next (+1) or previous (−1) scene file in the current scene's folder, in name order."""
        path = self.session.path
        if path is None:
            self.message.emit("Untitled scene: open a scene or a folder of scenes first")
            return False
        try:
            folder = SceneFolder(path.parent, path)
        except SceneError as exc:
            self.error_dialog("Cannot step through the folder", str(exc))
            return False
        target = folder.step(offset)
        if not self.open_file(target):
            return False
        self.message.emit(f"{folder.position()} · {target.name}")
        return True

    def ask_open_folder(self) -> None:
        name = QFileDialog.getExistingDirectory(self.parent_widget, "Open a folder of scenes", str(Path.cwd()))
        if name:
            self.open_folder(name)

    def open_pasted(self, text: str) -> bool:
        """Open a configuration pasted from another engine as a new, untitled scene."""
        try:
            self.session.open_pasted(text)
        except SceneError as exc:
            self.error_dialog("Cannot read the configuration", str(exc))
            return False
        self.message.emit("Opened the pasted configuration")
        return True

    def ask_open(self) -> None:
        path = self.session.path
        name, _ = QFileDialog.getOpenFileName(
            self.parent_widget, "Open scene", str(path.parent if path else Path.cwd()), "Scenes (*.json)"
        )
        if name:
            self.open_file(name)

    def ask_paste(self) -> None:
        dialog = PasteDialog(self.parent_widget)
        if dialog.exec() == QDialog.Accepted:
            self.open_pasted(dialog.editor.toPlainText())

    # -- saving ----------------------------------------------------------------------------
    def save_to(self, path: str | Path) -> bool:
        """Write the scene (with layers and camera) atomically; a failure is shown and the old file stays whole."""
        path = Path(path)
        try:
            self.session.save(path, self.viewport.camera_state())
        except SceneError as exc:
            self.error_dialog("Cannot save scene", str(exc))
            return False
        self.message.emit(f"Saved {path.name}")
        return True

    def ask_save(self) -> None:
        path = self.session.path
        if path is None or path.resolve() in {p.resolve() for p in gallery()}:  # never overwrite the gallery
            self.ask_save_as()
        else:
            self.save_to(path)

    def ask_save_as(self) -> None:
        name, _ = QFileDialog.getSaveFileName(
            self.parent_widget, "Save scene as", str(Path.cwd() / "scene.json"), "Scenes (*.json)"
        )
        if name:
            self.save_to(name if name.endswith(".json") else name + ".json")

    # -- exporting ----------------------------------------------------------------------------
    def _view_size(self) -> tuple[int, int]:
        interactor = self.viewport.plotter.interactor
        return interactor.width(), interactor.height()

    def export_png(self, path: str | Path, scale: int = 1, transparent: bool = False) -> Path | None:
        """Render the view at full quality (anti-aliased) to a PNG ``scale`` times its size."""
        from ..view.render import render_png

        if self.viewport.plotter is None:
            self.message.emit("The 3-D view is still loading")
            return None
        if not 1 <= int(scale) <= MAX_EXPORT_SCALE:
            self.message.emit(refusal(f"export scale must be 1 to {MAX_EXPORT_SCALE}"))
            return None
        size = self._view_size()
        try:
            out = render_png(
                self.session.saved_scene(), path, size, 0.0, int(scale), transparent, self.viewport.camera_state()
            )
        except (OSError, ValueError) as exc:
            self.error_dialog("Cannot export", str(exc))
            return None
        self.message.emit(f"Exported {Path(out).name} ({size[0] * scale}×{size[1] * scale})")
        return Path(out)

    def export_animation(self, path: str | Path, frames: int = 40) -> Path | None:
        """The sweep over the horizon from the current camera and reference frame, as a GIF or MP4."""
        from ..view.animation import render_animation

        if self.viewport.plotter is None:
            return None
        width, height = self._view_size()
        size = (min(width, ANIMATION_MAX_SIZE[0]), min(height, ANIMATION_MAX_SIZE[1]))
        frame = self.session.reference
        reference = "com" if frame.com_frame else 1.0 if frame.rest_frame else 0.0
        try:
            out = render_animation(
                self.session.saved_scene(), path, size, frames, camera=self.viewport.camera_state(), frame=reference
            )
        except (OSError, ValueError) as exc:
            self.error_dialog("Cannot export the animation", str(exc))
            return None
        self.message.emit(f"Exported {Path(out).name} ({frames} frames)")
        return Path(out)

    def export_report(self, folder: str | Path) -> Path | None:
        """A bug-report folder: scene.json, solution.json and picture.png (with the parabola)."""
        from ..view.animation import write_report

        try:
            out = write_report(
                self.session.saved_scene(self.viewport.camera_state()), folder, camera=self.viewport.camera_state()
            )
        except (OSError, ValueError) as exc:
            self.error_dialog("Cannot write the report", str(exc))
            return None
        self.message.emit(f"Wrote the report to {out}")
        return out

    def export_table(self, path: str | Path, every_event: bool = False) -> Path | None:
        """The data table as CSV: every body at the time shown, or (``every_event``) before and after each event, in
        the frame the view's switches name (each row says which)."""
        from ..system.files import replacing

        session = self.session
        t = None if every_event else session.view.time
        text = csv_text(session.scene, session.solution, t, session.reference.kind)
        try:
            with replacing(path) as (handle, _):
                handle.write(text)
        except ValueError as exc:  # WriteError: one line naming the file
            self.error_dialog("Cannot save the table", str(exc))
            return None
        self.message.emit(f"Saved {Path(path).name}")
        return Path(path)

    def ask_export_table(self, every_event: bool = False) -> None:
        start = Path.cwd() / ("events.csv" if every_event else "bodies.csv")
        title = "Save the table at every event" if every_event else "Save the table"
        name, _ = QFileDialog.getSaveFileName(self.parent_widget, title, str(start), "CSV (*.csv)")
        if name:
            self.export_table(name if name.lower().endswith(".csv") else name + ".csv", every_event)

    def export_web_page(self, path: str | Path) -> Path | None:
        """The scene as one offline web page (3-D view, values, f(t), time slider), from the current camera."""
        from ..web.export import write_page
        from ..web.runtime import WebUnavailable

        scene = self.session.saved_scene(self.viewport.camera_state())
        name = self.session.path.stem if self.session.path is not None else "scene"
        QApplication.setOverrideCursor(Qt.WaitCursor)
        try:
            write_page(scene, path, name)
        except (OSError, ValueError, WebUnavailable) as exc:
            self.error_dialog("Cannot export the web page", str(exc))
            return None
        finally:
            QApplication.restoreOverrideCursor()
        self.message.emit(f"Exported {Path(path).name}: open it in any browser, no installation needed")
        return Path(path)

    def ask_export_web_page(self) -> None:
        start = Path.cwd() / f"{self.session.path.stem if self.session.path else 'scene'}.html"
        name, _ = QFileDialog.getSaveFileName(self.parent_widget, "Export web page", str(start), "Web page (*.html)")
        if name:
            self.export_web_page(name if name.lower().endswith((".html", ".htm")) else name + ".html")

    def ask_export(self) -> None:
        if self.viewport.plotter is None:
            return
        dialog = ExportDialog(self.parent_widget, self._view_size())
        if dialog.exec() != QDialog.Accepted:
            return
        name, _ = QFileDialog.getSaveFileName(
            self.parent_widget, "Export screenshot", str(Path.cwd() / "sphere-sweep.png"), "PNG (*.png)"
        )
        if name:
            self.export_png(
                name if name.lower().endswith(".png") else name + ".png",
                dialog.scale.value(),
                dialog.transparent.isChecked(),
            )

    def ask_export_animation(self) -> None:
        from ..view.animation import mp4_available

        kinds = "GIF (*.gif);;MP4 (*.mp4)" if mp4_available() else "GIF (*.gif)"
        name, _ = QFileDialog.getSaveFileName(
            self.parent_widget, "Export animation", str(Path.cwd() / "sweep.gif"), kinds
        )
        if name:
            self.export_animation(name if name.lower().endswith((".gif", ".mp4")) else name + ".gif")

    def ask_export_report(self) -> None:
        name = QFileDialog.getExistingDirectory(self.parent_widget, "Folder for the report", str(Path.cwd()))
        if name:
            self.export_report(name)
