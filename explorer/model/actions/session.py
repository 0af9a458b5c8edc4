"""The session: one open document, its undo history, its solution, and the view-only state.

Every user action is a method here (edit a field, drag, add or remove a body,
translate, nudge, undo, open, save, set the time, play, turn to B's rest frame
or the centre of mass's, toggle a layer, select, ask the scene's question and
reveal the answer).  The scene and its :class:`Solution` (solved once per
change) are *model state*: edits go through the history.  Selection, time,
reference frame, layers, playback and camera are *view state*: they are never
undone and never re-validate the scene.  Listeners (the window, its panels, the
plot, the 3-D view) subscribe and are told what changed as a :class:`Change`.

Refused actions raise :class:`SceneError` (a ``ValueError``) with a one-line
message naming the field, and change nothing.  Qt-free, so the whole state
machine runs and is tested without a display.
"""

from __future__ import annotations

from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Literal

from ..derived.analysis import Solution, solve
from ..derived.frames import Frame, frame_at
from ..derived.inspection import Inspection
from ..formats import scene_io
from ..state.history import History
from ..state.scene import Scene, SceneError, view_settings
from ..state.view_parts import (
    HORIZON_PLAY_SECONDS,
    TURN_SECONDS,
    CameraPart,
    Change,
    Evented,
    Layers,
    Playback,
    ReferenceFrame,
    Selection,
    read_view,
    write_view,
)
from . import edits
from .asking import Asking, reveal_target
from .edits import FIELDS, parse_number

__all__ = [
    "Change",
    "DragPreview",
    "FIELDS",
    "HORIZON_PLAY_SECONDS",
    "TURN_SECONDS",
    "Session",
    "ViewState",
    "parse_number",
]

#: The time slider reaches a later first contact up to this many horizons, plus a margin.
LATER_RANGE = 3.0
TIME_MARGIN = 0.05


@dataclass(frozen=True)
class ViewState:
    """A read-only snapshot of the view parts (:attr:`Session.view`), for code that reads several at once.

    The parts (:mod:`explorer.model.state.view_parts`) hold the values and their rules;
    this copies them.  Attributes: ``selected``, ``time``, ``reference``,
    ``rest_frame``, ``layers``, ``camera``, ``playing``, ``speed``, ``steps``, ``com`` and ``com_frame`` (the
    blend towards the centre of mass's frame and whether the view heads there), ``stage`` (question mode's:
    one of :data:`explorer.model.actions.asking.STAGES`).
    """

    selected: int
    time: float
    reference: float
    rest_frame: bool
    layers: dict[str, bool]
    camera: dict | None
    playing: bool
    speed: float
    steps: int
    com: float = 0.0
    com_frame: bool = False
    stage: str = "shown"


@dataclass(frozen=True)
class DragPreview:
    """A drag's next preview (:meth:`Session.drag_preview`): the ``drag`` it belongs to (an
    :class:`.edits.Drag`), the ``scene`` with its grip moved and that scene's ``solution``."""

    drag: edits.Drag
    scene: Scene
    solution: Solution


class Session(Evented):
    """One open document and its view state.

    The document (scene, solution, history, save path, a drag in progress) is
    held here; the view state is held by its parts, :attr:`selection`,
    :attr:`playback`, :attr:`reference`, :attr:`layers`, :attr:`camera`
    (:mod:`explorer.model.state.view_parts`) and :attr:`inspection`
    (:mod:`explorer.model.derived.inspection`), each with its rule.  Listeners of the
    session hear every change, the parts' included, as one :class:`Change` per action.

    Parameters
    ----------
    scene : Scene
        What to show first.
    path : Path, optional
        The file it came from (Save writes there).
    """

    def __init__(self, scene: Scene, path: Path | None = None) -> None:
        super().__init__()
        self._pending: Change | None = None  # within an action: the changes to announce at its end
        self._history, self._scene, self._solution, self._path = History(scene), scene, _solve(scene), path
        self._drag: edits.Drag | None = None
        self.selection, self.playback, self.reference = Selection(), Playback(), ReferenceFrame()
        self.layers, self.camera, self.inspection = Layers(), CameraPart(), Inspection()
        self.asking = Asking()
        read_view(scene, self.layers, self.camera)
        self.asking.ask(view_settings(scene.view)["ask"])
        for part in (self.selection, self.playback, self.reference, self.layers, self.camera, self.inspection,
                     self.asking):  # fmt: skip
            part.subscribe(self._emit)

    # -- reading ---------------------------------------------------------------
    @property
    def scene(self) -> Scene:
        """The scene on screen (during a drag, the live preview)."""
        return self._scene

    @property
    def solution(self) -> Solution:
        """The solver's answer for :attr:`scene`, computed once per change."""
        return self._solution

    @property
    def view(self) -> ViewState:
        """A snapshot of the view parts."""
        return ViewState(self.selection.selected, self.playback.time, self.reference.reference,
                         self.reference.rest_frame, self.layers.visible, self.camera.camera, self.playback.playing,
                         self.playback.speed, self.layers.steps, self.reference.com,
                         self.reference.com_frame, self.asking.stage)  # fmt: skip

    @property
    def frame(self) -> Frame:
        """The frame the numbers shown are in: the one the switches name, at the time shown
        (:func:`explorer.model.derived.frames.frame_at`); at t = 0 while the answer is hidden."""
        t = 0.0 if self.asking.hides_answers else self.playback.time
        return frame_at(self._scene, self._solution, t, self.reference.kind)

    @property
    def path(self) -> Path | None:
        """Where Save writes, or None for an untitled scene."""
        return self._path

    @property
    def history(self) -> History:
        return self._history

    @property
    def dragging(self) -> bool:
        return self._drag is not None

    def time_range(self) -> tuple[float, float]:
        """The time slider's range (see :func:`time_range`)."""
        return time_range(self._scene, self._solution)

    # -- telling the listeners ----------------------------------------------------------
    def _emit(self, change: Change) -> None:
        if self._pending is not None:
            self._pending |= change
        else:
            self._tell(change)

    @contextmanager
    def _action(self) -> Iterator[None]:
        """Announce everything changed within the block as one :class:`Change`, at its end."""
        if self._pending is not None:  # within another action: it announces
            yield
            return
        self._pending = Change(0)
        try:
            yield
        finally:
            change, self._pending = self._pending, None
            if change:
                self._emit(change)

    def _show(self, scene: Scene, change: Change = Change.SCENE, label: str | None = None,
              solution: Solution | None = None) -> None:  # fmt: skip
        """Make ``scene`` current (solved once), as an undoable edit named ``label`` if given.

        Keeps the view state within the new scene (time range, selection, inspection) and
        tells the listeners.  Nothing changes when the solver refuses the scene.
        """
        solution = _solve(scene) if solution is None else solution
        with self._action():
            if label is not None:
                self._history.push(scene, label)
                change |= Change.HISTORY
            self._scene, self._solution = scene, solution
            self.playback.keep_within(self.time_range())
            self.selection.keep_within(len(scene.bodies))
            self.inspection.keep_within(len(scene.bodies))
            self._emit(change)

    def _apply(self, scene: Scene, label: str) -> None:
        """Make ``scene`` current as an undoable edit."""
        self._show(scene, Change.SCENE, label)

    def revert_to(self, scene: Scene, label: str = "reset") -> None:
        """Make ``scene`` (e.g. the document as it was opened) current again, as one undoable edit."""
        if scene != self._scene:
            self._apply(scene, label)

    # -- documents ----------------------------------------------------------------
    def open_scene(self, scene: Scene, path: Path | None) -> None:
        """Make ``scene`` the new document: fresh undo history, its layers and camera, time 0.

        The playback speed and the reference frame are the user's, kept from document to document.
        """
        solution = _solve(scene)
        with self._action():
            self._drag = None
            self._path = path
            self._history.reset(scene)
            self.playback.restart()
            self.selection.keep_within(1)
            self.inspection.keep_within(0)  # a new document: no pair chosen
            read_view(scene, self.layers, self.camera)
            self.asking.ask(view_settings(scene.view)["ask"])
            self._show(scene, Change.SCENE | Change.DOCUMENT | Change.HISTORY, solution=solution)

    def open_file(self, path: str | Path) -> None:
        """Load a scene file as the new document.

        Raises
        ------
        SceneError
            The file was refused; nothing changed (scene, history, save path).
        """
        path = Path(path)
        self.open_scene(scene_io.load(path), path)

    def open_pasted(self, text: str) -> None:
        """Open a configuration pasted from another engine as a new, untitled document (see :mod:`.paste`)."""
        from ..formats.paste import parse_configuration

        self.open_scene(parse_configuration(text), None)

    def saved_scene(self, camera: dict | None = None) -> Scene:
        """The current scene with the view state a file keeps: layers, N, and ``camera`` (or the last known)."""
        return write_view(self._scene, self.layers, camera if camera is not None else self.camera.camera)

    def save(self, path: str | Path, camera: dict | None = None) -> None:
        """Write the scene (with its layers and camera) to ``path`` and make that the save path.

        Raises
        ------
        SceneError
            It could not be written; the old file is whole and the save path unchanged.
        """
        path = Path(path)
        scene_io.save(self.saved_scene(camera), path)
        self._path = path
        self._emit(Change.HISTORY)

    # -- edits (computed by :mod:`.edits`) -----------------------------------------------------
    def edit_field(self, field: str, text: str) -> None:
        """Apply a typed value to ``field`` (one of :data:`FIELDS`; ``body.*`` is the selected body).

        Raises
        ------
        SceneError
            Not a number, or a value the scene or the solver refuses; nothing changed.
        """
        self._apply(*edits.typed(self._scene, self.selection.selected, field, text))

    def set_mode(self, mode: str) -> None:
        """Switch between ``pair``, ``inside`` and ``all`` (refused when the bodies do not fit the mode)."""
        if mode != self._scene.mode:
            self._apply(self._scene.with_changes(mode=mode), f"mode {mode}")

    def set_fixed(self, on: bool) -> None:
        """Make the selected body immovable (infinite mass) or give it mass 1."""
        self._apply(*edits.fixed(self._scene, self.selection.selected, on))

    def set_container(self, on: bool) -> None:
        """``all`` mode: make the selected body the container every other body moves inside (or not)."""
        self._apply(*edits.container(self._scene, self.selection.selected, on))

    def add_body(self) -> None:
        """Add a target sphere clear of the others and select it (pair mode, up to the limit)."""
        new = self._scene.with_added_body()
        with self._action():
            self._apply(new, "add body")
            self.selection.select(len(new.bodies) - 1, len(new.bodies))

    def remove_body(self) -> None:
        """Remove the selected body (never A, never below two bodies)."""
        self._apply(self._scene.without_body(self.selection.selected), "remove body")

    def translate(self, power: int) -> None:
        """Move every centre by 2**power on each axis (exact: the geometry is unchanged) and frame it."""
        with self._action():
            self._apply(*edits.translated(self._scene, power))
            self.reset_camera()

    def nudge_graze(self, ulps: int) -> None:
        """Move the other body by ``ulps`` ulps away from (+) or towards (−) A's path."""
        self._apply(*edits.nudged(self._scene, ulps, self._solution.other))

    # -- drags ---------------------------------------------------------------------------------
    def begin_drag(self, body: int, kind: Literal["center", "velocity"], start) -> None:
        """Start dragging body ``body``'s centre or arrow tip, drawn now at ``start`` (3,); selects it, pauses."""
        self._drag = edits.Drag(body, kind, self._scene, tuple(map(float, start)))
        with self._action():
            self.selection.select(body, len(self._scene.bodies))
            self.playback.set_playing(False, self.time_range())

    def drag_to(self, point) -> None:
        """Move the dragged grip to ``point`` (3,), as drawn: a live preview (see :meth:`.edits.Drag.moved_to`).

        Raises
        ------
        SceneError
            The new position is refused (e.g. beyond the coordinate limit); the preview stays where it was.
        """
        preview = self.drag_preview(point)
        if preview is not None:
            self.show_preview(preview)

    def drag_preview(self, point) -> DragPreview | None:
        """The scene and solution with the dragged grip at ``point`` (3,), or None when no drag is on.

        Changes nothing and reads only the drag in progress (which never changes), so it may run in
        another thread while this one draws (the window's 3-D view does: see :mod:`explorer.qt.viewport`).

        Raises
        ------
        SceneError
            The new position is refused (e.g. beyond the coordinate limit).
        """
        drag = self._drag
        if drag is None:
            return None
        scene = drag.moved_to(point)
        return DragPreview(drag, scene, _solve(scene))

    def show_preview(self, preview: DragPreview) -> None:
        """Show a :meth:`drag_preview` as the live preview, if its drag is still the one in progress."""
        if preview.drag is self._drag:
            self._show(preview.scene, solution=preview.solution)

    def nudge(self, body: int, kind: Literal["center", "velocity"], start, end) -> None:
        """Move body ``body``'s centre or arrow tip from where it is drawn, ``start``, to ``end`` (each (3,)), as a
        drag there would (an arrow key): one undoable edit.

        Raises
        ------
        SceneError
            The new position is refused; nothing changed.
        """
        self.begin_drag(body, kind, start)
        try:
            self.drag_to(end)
        except SceneError:
            self._drag = None
            raise
        self.end_drag()

    def end_drag(self) -> None:
        """Finish the drag: the preview becomes one undoable edit."""
        drag, self._drag = self._drag, None
        if drag is not None:
            self._history.push(self._scene, drag.label(self._scene))
            self._emit(Change.HISTORY)

    # -- undo --------------------------------------------------------------------------------
    def undo(self) -> None:
        if self._history.can_undo:
            self._show(self._history.undo(), Change.SCENE | Change.HISTORY)

    def redo(self) -> None:
        if self._history.can_redo:
            self._show(self._history.redo(), Change.SCENE | Change.HISTORY)

    # -- view state: each part's rule, with what the session knows (the bodies, the time range) ----
    def select(self, index: int) -> None:
        self.selection.select(index, len(self._scene.bodies))

    def inspect(self, event: int | None = None, pair: tuple[int, int] | None = None) -> None:
        """Inspect event ``event`` (paused, the time at it) or describe ``pair``; neither: A and its partner.
        Nothing while the answer is hidden (the events are the answer)."""
        if self.asking.hides_answers:
            return
        with self._action():
            self.inspection.choose(self._solution, event, pair)
            if event is not None:
                self.playback.jump(self._solution.events[event].time, self.time_range())

    def step_event(self, direction: int) -> None:
        """Inspect the next (+1) or previous (−1) event; SceneError (nothing changed) when there is none.
        Nothing, and no word, while the answer is hidden: whether there is an event is the answer."""
        if self.asking.hides_answers:
            return
        self.inspect(event=self.inspection.step(self._solution, self.playback.time, direction))

    def set_time(self, t: float) -> None:
        """Draw the spheres at time ``t``, kept within :meth:`time_range` (at 0 while asking: a later time would
        show where the bodies went; during the reveal, the reveal ends and the time is the user's)."""
        if self.asking.asking:
            return
        with self._action():
            if self.asking.revealing:
                self.asking.ask(False)
            self.playback.set_time(t, self.time_range())

    def set_playing(self, on: bool) -> None:
        """Play the motion from the current time (from the start when at the end); not while asking."""
        if self.asking.asking:
            return
        self.playback.set_playing(on, self.time_range())

    def ask(self, on: bool) -> None:
        """Question mode: hide the answer, the time back to 0 and paused, no event inspected (``on``); or show
        the answer at once."""
        with self._action():
            if on:
                self.playback.set_playing(False, self.time_range())
                self.playback.jump(0.0, self.time_range())
                self.inspection.choose(self._solution, None, None)
                self.reference.set_rest_frame(False)  # the partner's rest frame would name the body A meets first
            self.asking.ask(on)
            if on:  # framed again: a default camera frames the question, not where the answer is
                self.camera.set_camera(self.camera.camera)

    def reveal(self) -> None:
        """Start the reveal (:data:`explorer.model.actions.asking.REVEAL_STAGES`); :meth:`advance_reveal` runs it."""
        self.asking.reveal()

    def advance_reveal(self, seconds: float) -> None:
        """Move the reveal on by ``seconds`` of wall time: its clock runs the time to the first contact."""
        if not self.asking.revealing:
            return
        with self._action():
            self.asking.advance(seconds)
            target = reveal_target(self._scene, self._solution)
            self.playback.set_time(target * self.asking.running_fraction, self.time_range())

    def set_speed(self, speed: float) -> None:
        """Playback speed (1: one horizon per :data:`HORIZON_PLAY_SECONDS`)."""
        self.playback.set_speed(speed)

    def advance(self, seconds: float) -> None:
        """Move playback on by ``seconds`` of wall time at the playback speed."""
        self.playback.advance(seconds, self._scene.horizon, self.time_range())

    def set_rest_frame(self, on: bool) -> None:
        """Turn towards B's rest frame (or back to the world frame); :meth:`turn` animates it.  Not while the
        answer is hidden: B is the body A meets first, which a question may ask."""
        if on and self.asking.hides_answers:
            return
        self.reference.set_rest_frame(on)

    def set_com_frame(self, on: bool) -> None:
        """Turn towards the frame of the free bodies' centre of mass (or back to the world frame)."""
        self.reference.set_com_frame(on)

    def turn(self, seconds: float) -> None:
        """Move the drawn reference frame ``seconds`` of wall time towards its target."""
        self.reference.turn(seconds)

    def set_layer(self, name: str, visible: bool) -> None:
        self.layers.set_layer(name, visible)

    def set_steps(self, steps: int) -> None:
        """Steps over the horizon of the frame-stepped engine (1 to :data:`~explorer.model.state.scene.MAX_STEPS`)."""
        self.layers.set_steps(steps)

    def set_camera(self, camera: dict | None) -> None:
        """Look through ``camera`` (None: frame the scene); the 3-D view applies it."""
        self.camera.set_camera(camera)

    def reset_camera(self) -> None:
        """Frame the scene again (View > Reset camera)."""
        self.set_camera(None)

    def remember_camera(self, camera: dict) -> None:
        """Note the user's camera (saved with the file; nothing redrawn); not one the rule refuses."""
        with suppress(SceneError):
            self.camera.remember(camera)


def asked_time_range(scene: Scene) -> tuple[float, float]:
    """The time slider's range while the answer is hidden: [0, horizon] with the margin of :data:`TIME_MARGIN`
    (:func:`time_range` goes on to a later contact, which would tell that there is one)."""
    return 0.0, scene.horizon * (1.0 + TIME_MARGIN)


def time_range(scene: Scene, solution: Solution) -> tuple[float, float]:
    """The time slider's range: [0, horizon], and on to a later first contact (up to
    :data:`LATER_RANGE` horizons), with a margin of :data:`TIME_MARGIN`."""
    h = scene.horizon
    s = solution.sweep
    end = h
    if s.roots is not None:
        contact = s.roots[1] if s.inside else s.roots[0]
        if h < contact <= LATER_RANGE * h:
            end = contact
    return 0.0, end * (1.0 + TIME_MARGIN)


def _solve(scene: Scene) -> Solution:
    """:func:`solve`, with the solver's refusal of a scene turned into a :class:`SceneError`."""
    try:
        return solve(scene)
    except SceneError:
        raise
    except ValueError as exc:  # a scene the solver cannot follow: refused like a bad value
        raise SceneError(str(exc)) from None
