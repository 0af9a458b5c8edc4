"""The 3-D view in the window: a pyvista plotter in a native widget showing the session, with live drags.

It listens to the session and redraws at most once per turn of the event loop:
changes only mark it out of date and schedule one redraw, and mouse moves
during a drag only note the newest pointer position, so a fast drag never
queues frames behind the pointer.  The preview of that position (the solver's
answer and the meshes that change) is worked out in another thread while a frame
renders, and the next frame shows it.  The view starts as a placeholder inside its
own container, so the window's layout is the same before and after the
interactor (and pyvista) are loaded.
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np
from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from ..model.actions.session import Change, Session
from ..model.state.scene import SceneError
from ..model.words.text import refusal
from .keyboard import ViewKeys

#: Smallest size of the 3-D view: below this it stops being a picture.
MIN_VIEW = (320, 240)
#: A drag is drawn one frame behind the pointer where that pays (see :meth:`Viewport.redraw`): while moves come
#: about as fast as frames (within this factor of a frame's time) ...
MOVES_AS_FAST_AS_FRAMES = 1.5
#: ... and working out a preview takes at least this share of a frame (the break: about a fifth; two balls: a tenth).
PREVIEW_SHARE = 0.15
#: Then a preview is drawn by the frame that the next move asks for, or this long after it was asked for if no move
#: comes (the pointer rests; a moving mouse sends a move every 8–16 ms).
LAST_PREVIEW_MS = 20
#: While a drag is on, Python's threads take turns at least this often (its default, 5 ms, would keep VTK's render
#: waiting for a preview whenever the render calls back into Python, as the labels' observer does).
DRAG_SWITCH_SECONDS = 0.0005


class Viewport(QWidget):
    """The 3-D view of ``session`` (see the module docstring).

    Signals
    -------
    refused(str)
        A drag was refused (the message names why); the window shows it.
    first_frame()
        The first picture of a scene is on screen.
    frame_drawn()
        A frame of the view is on screen (panels may follow now).
    pointer_moved()
        A drag moved the pointer (a frame showing it is on its way).
    """

    refused = Signal(str)
    first_frame = Signal()
    frame_drawn = Signal()
    pointer_moved = Signal()

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.plotter = None
        self.drawing = None
        self.drags = None
        #: Per redraw, ``perf_counter`` times: (the oldest change it shows, the newest, the picture done).
        self.frame_times: list[tuple[float, float, float]] = []
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._placeholder = QLabel("Loading the 3-D view…")
        self._placeholder.setAlignment(Qt.AlignCenter)
        self._layout.addWidget(self._placeholder)
        self.setMinimumSize(*MIN_VIEW)
        self._changes = Change(0)
        self._pending_point: np.ndarray | None = None
        self._pending_times = (0.0, 0.0)  # when the first and the last of the moves it stands for came
        self._previews = ThreadPoolExecutor(1, thread_name_prefix="drag preview")
        self._preview: Future | None = None  # the preview of a pointer position on its way, and its moves' times
        self._preview_times = (0.0, 0.0)
        self._last_preview = QTimer(self)
        self._last_preview.setSingleShot(True)
        self._last_preview.setInterval(LAST_PREVIEW_MS)
        self._last_preview.timeout.connect(self.redraw)
        self._move_gap = float("inf")  # seconds between the last two moves
        self._frame_seconds = 0.0  # the last frame's time, from its redraw's start to the render's end
        self._preview_seconds = 0.0  # the last preview's time in its thread
        self._switch_interval = sys.getswitchinterval()  # Python's, restored when a drag ends
        self._input_at: float | None = None
        self._newest_input = 0.0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.redraw)
        self._style = None
        self.corner = None  # the momenta diagram in presentation mode (:mod:`.momenta_corner`), made when first shown
        self.keys = ViewKeys(session, self)  # Tab to a body, arrows move it (:mod:`.keyboard`)
        session.subscribe(self._changed)

    @property
    def ready(self) -> bool:
        """The interactor exists and has drawn the scene."""
        return self.drawing is not None and bool(self.frame_times)

    def build(self) -> None:
        """Create the interactor (imports pyvista), the drawing and the drag handling, and draw."""
        if self.plotter is not None:
            return
        from ..view.picking import DragController
        from ..view.scene_view import SceneView
        from .native_plotter import NativePlotter

        self.plotter = NativePlotter(self)
        self._layout.replaceWidget(self._placeholder, self.plotter.interactor)
        self._placeholder.deleteLater()
        self.plotter.interactor.show()
        self._layout.activate()  # the interactor takes the placeholder's place and size now, before its first frame
        self.drawing = SceneView(self.plotter, handles=True)
        if self._style is not None:
            self.drawing.set_style(self._style)
        self.drags = DragController(self.plotter, self.grips, self._drag_move, self._drag_end, self._drag_start, self._tip_of,
                                    self._picked)  # fmt: skip
        self.plotter.iren.interactor.AddObserver("EndInteractionEvent", self._camera_moved)
        self.plotter.interactor.installEventFilter(self)
        self.keys.install(self.plotter.interactor)
        self._changes = Change.SCENE | Change.VIEW
        self.redraw()

    def _show_corner(self, view) -> None:
        """Presentation mode with the momenta on (and the answer shown): the momenta diagram in a corner."""
        from ..view.overlay import PRESENTATION

        session = self.session
        wanted = self._style is PRESENTATION and view.layers.get("momentum") and not session.asking.hides_answers
        if not wanted:
            if self.corner is not None:
                self.corner.hide()
            return
        from ..model.words.momenta import diagrams_now
        from ..view.palette import colors_by_name
        from .momenta_corner import MomentaCorner

        if self.corner is None:
            self.corner = MomentaCorner(self.drawing.items.overlay)
        event = session.inspection.event
        diagrams = diagrams_now(session.scene, session.solution, view.time, event, frame=session.frame)
        self.corner.show(diagrams, colors_by_name(session.scene))

    def set_style(self, style) -> None:
        """Text and line sizes (:data:`explorer.view.overlay.NORMAL` or ``PRESENTATION``)."""
        self._style = style
        if self.drawing is not None:
            self.drawing.set_style(style)
            self._schedule(Change.SCENE)

    # -- redrawing ------------------------------------------------------------------------
    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt name
        """A new size: the text and key are laid out for it, and a default camera fits it again."""
        if event.type() == QEvent.Resize:
            self._schedule(Change.SCENE | (Change.CAMERA if self.session.camera.camera is None else Change(0)))
        return False

    def _changed(self, change: Change) -> None:
        self._schedule(change)

    def _schedule(self, change: Change) -> None:
        self._changes |= change
        self._newest_input = time.perf_counter()
        if self._input_at is None:
            self._input_at = self._newest_input
        if not self._timer.isActive():
            self._timer.start()

    def redraw(self) -> None:
        """Draw the session once (the one render of this turn), with the drag's newest preview.

        A preview of the newest pointer position is the scene, its solution, the picture and the
        meshes that change (:meth:`_work_out`).  Where a preview takes a good share of a frame
        (:data:`PREVIEW_SHARE`) and moves come about as fast as frames
        (:data:`MOVES_AS_FAST_AS_FRAMES`), it is worked out in another thread while this frame
        renders (VTK's render lets go of Python's lock), and the frame that the next move asks for
        shows it (or, if the pointer rests, a frame :data:`LAST_PREVIEW_MS` later): such a drag is
        drawn one frame behind the pointer, and this thread spends none of its time on the solver or
        on building meshes.  Otherwise it is worked out here and drawn now: one frame of latency
        would buy little.
        """
        started = time.perf_counter()
        prepared = self._take_preview()
        if self._pending_point is not None and not self._previews_pay():
            prepared = self._preview_now()
        self._timer.stop()  # whatever the drag changed is drawn now
        if self.drawing is None or not self._changes:
            self._send_pending()
            return
        from ..view.bounds import framed_box
        from ..view.camera import apply_camera

        changes, self._changes = self._changes, Change(0)
        session = self.session
        view = session.view
        focus = session.inspection.focus(session.solution, view.time)
        self.drawing.labels.paused = session.dragging  # placed again when the drag ends
        self.drawing.update(session.scene, session.solution, view.time, view.reference, view.layers, view.steps, focus,
                            view.com, view.stage, prepared=prepared)  # fmt: skip
        self._show_corner(view)
        if changes & Change.CAMERA:
            box = framed_box(session.scene, session.solution, view.rest_frame, view.stage == "asking")
            apply_camera(self.plotter, view.camera, session.scene, session.solution, 1.0 if view.rest_frame else 0.0,
                         box)  # fmt: skip
        self._send_pending()
        self.plotter.render_window.Render()
        done = time.perf_counter()
        self._frame_seconds = done - started
        first = not self.frame_times
        oldest = self._input_at if self._input_at is not None else done
        self.frame_times.append((oldest, max(oldest, self._newest_input), done))
        del self.frame_times[:-2000]
        self._input_at = None
        if first:
            self.first_frame.emit()
        self.frame_drawn.emit()

    def _previews_pay(self) -> bool:
        """Whether working out previews beside the renders, one frame behind the pointer, pays now."""
        frame = self._frame_seconds
        return self._move_gap < MOVES_AS_FAST_AS_FRAMES * frame and self._preview_seconds >= PREVIEW_SHARE * frame

    def _send_pending(self) -> None:
        """Start working out the preview of the newest pointer position in the preview thread, if none is on its
        way; the next move's frame, or one :data:`LAST_PREVIEW_MS` later, shows it."""
        if self._pending_point is None or self._preview is not None:
            return
        point, self._pending_point = self._pending_point, None
        self._preview = self._previews.submit(self._work_out, point, self.session.view)
        self._preview_times = self._pending_times
        self._last_preview.start()

    def _preview_now(self):
        """Work out the preview of the newest pointer position here, show it and return its ``Prepared``."""
        point, self._pending_point = self._pending_point, None
        try:
            preview, prepared, self._preview_seconds = self._work_out(point, self.session.view)
        except SceneError as exc:
            self.refused.emit(refusal(f"{exc} — the drag stops here"))
            return None
        return self._show(preview, prepared, self._pending_times)

    def _work_out(self, point: np.ndarray, view) -> tuple:
        """The drag's preview at ``point`` (3,), its picture's ``Prepared`` at ``view`` and the seconds they took
        (``(None, None, 0.0)`` when no drag is on), in the preview thread or this one.  Reads the session and the
        drawing, changes neither (but for the inspector's cache of foci, which keeps two)."""
        start = time.perf_counter()
        preview = self.session.drag_preview(point)
        if preview is None:
            return None, None, 0.0
        focus = self.session.inspection.focus(preview.solution, view.time)
        prepared = self.drawing.prepare(preview.scene, preview.solution, view.time, view.reference, view.layers,
                                        view.steps, focus, view.com, view.stage)  # fmt: skip
        return preview, prepared, time.perf_counter() - start

    def _take_preview(self):
        """Show the preview on its way, if any (waiting for it), and return its ``Prepared`` picture, or None."""
        self._last_preview.stop()
        if self._preview is None:
            return None
        future, self._preview = self._preview, None
        try:
            preview, prepared, self._preview_seconds = future.result()
        except SceneError as exc:
            self.refused.emit(refusal(f"{exc} — the drag stops here"))
            return None
        return self._show(preview, prepared, self._preview_times)

    def _show(self, preview, prepared, moves: tuple[float, float]):
        """Show ``preview`` (None: no drag on) as the session's, made when the moves of ``moves`` (the first's and
        the last's ``perf_counter`` times) came; return ``prepared``."""
        if preview is None:
            return None
        input_at, newest_input = self._input_at, self._newest_input
        self.session.show_preview(preview)  # scheduled as a change made now: the frame shows the preview's moves
        oldest, newest = moves
        self._input_at = oldest if input_at is None else min(input_at, oldest)
        self._newest_input = max(newest_input, newest)
        return prepared

    @property
    def move_pending(self) -> bool:
        """A drag move arrived that no frame shows yet."""
        return self._pending_point is not None or self._preview is not None

    def camera_state(self) -> dict | None:
        """The camera as JSON-ready lists, or None before the view exists."""
        if self.plotter is None:
            return None
        from ..view.camera import camera_state

        return camera_state(self.plotter)

    def frame_all(self) -> None:
        """View > Frame all: every body over the whole motion (a long shot's default camera frames only its
        contact); while the answer is hidden, the bodies' flights as if nothing turned them."""
        if self.plotter is None:
            return
        from ..view.bounds import whole_bounds
        from ..view.camera import default_camera

        session = self.session
        scene, view = session.scene, session.view
        box = whole_bounds(scene, session.solution, view.reference, session.asking.hides_answers)
        default_camera(self.plotter, scene, session.solution, view.reference, box)
        session.set_camera(self.camera_state())

    def _camera_moved(self, *_args) -> None:
        self.session.remember_camera(self.camera_state())

    # -- drags --------------------------------------------------------------------------------
    def grips(self) -> list:
        """What can be dragged, where it was last drawn."""
        from ..view.grips import grips

        placement = self.drawing.placement if self.drawing is not None else None
        if placement is None or len(placement.centers) != len(self.session.scene.bodies):
            return []
        return grips(self.session.scene, placement)

    def _tip_of(self, body: int):
        return self.drawing.placement.tips[body]

    def _drag_start(self, grip) -> None:
        self.session.begin_drag(grip.body, "center" if grip.kind == "center" else "velocity", grip.position)
        self._switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(DRAG_SWITCH_SECONDS)

    def _picked(self, body: int) -> None:
        """Ctrl+click: describe the selected body and ``body`` (the values panel, the parabola, the halos)."""
        try:
            self.session.inspect(pair=(self.session.selection.selected, body))
        except SceneError as exc:
            self.refused.emit(refusal(f"{exc} — click one sphere, then Ctrl+click another"))

    def _drag_move(self, grip, point) -> None:
        now = time.perf_counter()
        self._move_gap = now - self._pending_times[1]
        self._pending_times = (now if self._pending_point is None else self._pending_times[0], now)
        self._pending_point = np.asarray(point, dtype=float)
        self.pointer_moved.emit()
        if not self._timer.isActive():
            self._timer.start()

    def _drag_end(self, grip) -> None:
        while self.move_pending:
            self.redraw()  # the last position first
        sys.setswitchinterval(self._switch_interval)
        self.session.end_drag()

    def close_view(self) -> None:
        """Release the render window (before the widget goes); a redraw still scheduled then draws nothing."""
        self.session.unsubscribe(self._changed)
        self._timer.stop()
        self.drawing = None
        self._last_preview.stop()
        self._previews.shutdown(cancel_futures=True)
        if self.plotter is not None:
            self.plotter.close()
