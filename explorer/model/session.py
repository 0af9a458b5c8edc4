"""The session: one open document, its undo history, its solution, and the view-only state.

Every user action is a method here (edit a field, drag, add or remove a body,
translate, nudge, undo, open, save, set the time, play, turn to B's rest frame,
toggle a layer, select).  The scene and its :class:`Solution` (solved once per
change) are *model state*: edits go through the history.  Selection, time,
reference frame, layers, playback and camera are *view state*: they are never
undone and never re-validate the scene.  Listeners (the window, its panels, the
plot, the 3-D view) subscribe and are told what changed as a :class:`Change`.

Refused actions raise :class:`SceneError` (a ``ValueError``) with a one-line
message naming the field, and change nothing.  Qt-free, so the whole state
machine runs and is tested without a display.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Literal

import numpy as np

from . import scene_io
from .analysis import Solution, solve
from .history import History
from .precision import nudge_graze, translate
from .scene import DEFAULT_STEPS, LAYERS, MAX_STEPS, Scene, SceneError

#: Playback: one horizon takes this long at 1× speed.
HORIZON_PLAY_SECONDS = 3.0
#: Turning to or from B's rest frame takes this long.
TURN_SECONDS = 0.45
#: The time slider reaches a later first contact up to this many horizons, plus a margin.
LATER_RANGE = 3.0
TIME_MARGIN = 0.05
#: Fields a user can type into, by edit name: scene-level, or of the selected body.
FIELDS = ("horizon", "restitution", "body.radius", "body.mass") + tuple(
    f"body.{key}.{k}" for key in ("center", "velocity") for k in range(3)
)


class Change(enum.Flag):
    """What a session change touched; listeners redraw only what depends on it."""

    SCENE = enum.auto()  #: the scene and its solution
    DOCUMENT = enum.auto()  #: a new document: path, title, history reset (comes with SCENE and VIEW)
    HISTORY = enum.auto()  #: undo/redo availability or labels, or the save path
    SELECTION = enum.auto()
    TIME = enum.auto()
    REFERENCE = enum.auto()  #: the world / B's-rest-frame blend, or where it is heading
    LAYERS = enum.auto()
    CAMERA = enum.auto()  #: a camera to apply (None: frame the scene)
    PLAYING = enum.auto()
    STEPS = enum.auto()  #: the frame-stepped engine's number of steps
    VIEW = SELECTION | TIME | REFERENCE | LAYERS | CAMERA | PLAYING | STEPS


@dataclass(frozen=True)
class ViewState:
    """How the scene is looked at: never undone, never stored in the history.

    Attributes
    ----------
    selected : int
        Index of the body the scene panel edits.
    time : float
        Time at which the spheres are drawn.
    reference : float
        Drawn reference frame: 0 world, 1 the rest frame of the primary other
        body B, in between while turning.
    rest_frame : bool
        Where ``reference`` is heading (the toolbar switch).
    layers : dict
        Visibility by layer name (see :data:`explorer.model.scene.LAYERS`).
    camera : dict or None
        ``{"position", "focal_point", "up"}`` as last applied or remembered;
        None frames the scene.
    playing : bool
    speed : float
        Playback speed, times one horizon per :data:`HORIZON_PLAY_SECONDS`.
    steps : int
        Steps over the horizon of the frame-stepped engine (the ``steps`` layer).
    """

    selected: int = 0
    time: float = 0.0
    reference: float = 0.0
    rest_frame: bool = False
    layers: dict[str, bool] = field(default_factory=lambda: dict(LAYERS))
    camera: dict | None = None
    playing: bool = False
    speed: float = 1.0
    steps: int = DEFAULT_STEPS


@dataclass(frozen=True)
class _Drag:
    """A drag in progress: the scene it started from and the grip's drawn position then."""

    body: int
    kind: Literal["center", "velocity"]
    origin: Scene
    start: np.ndarray


def parse_number(text: str, field: str) -> float:
    """The typed text as a finite float, or :class:`SceneError` naming ``field``."""
    stripped = text.strip()
    try:
        value = float(stripped.replace(",", "."))
    except ValueError:
        raise SceneError(f"{field}: {stripped[:40]!r} is not a number") from None
    if not math.isfinite(value):
        raise SceneError(f"{field}: must be finite")
    return value


class Session:
    """One open document and its view state.

    Parameters
    ----------
    scene : Scene
        What to show first.
    path : Path, optional
        The file it came from (Save writes there).
    """

    def __init__(self, scene: Scene, path: Path | None = None) -> None:
        self._listeners: list[Callable[[Change], None]] = []
        self._history = History(scene)
        self._scene = scene
        self._solution = _solve(scene)
        self._path = path
        self._drag: _Drag | None = None
        self._view = ViewState(layers=scene.layers, camera=_camera_of(scene), steps=scene.steps)

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
        return self._view

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
        """The time slider's range: [0, horizon], and on to a later first contact (up to 3 horizons)."""
        h = self._scene.horizon
        s = self._solution.sweep
        end = h
        if s.roots is not None:
            contact = s.roots[1] if s.inside else s.roots[0]
            if h < contact <= LATER_RANGE * h:
                end = contact
        return 0.0, end * (1.0 + TIME_MARGIN)

    # -- listeners ---------------------------------------------------------------
    def subscribe(self, listener: Callable[[Change], None]) -> None:
        """Call ``listener(change)`` after every change, in subscription order."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Callable[[Change], None]) -> None:
        """Stop telling ``listener`` (a no-op for one not subscribed)."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _emit(self, change: Change) -> None:
        for listener in list(self._listeners):
            listener(change)

    def _set_view(self, change: Change, **changes) -> None:
        new = replace(self._view, **changes)
        if new != self._view:
            self._view = new
            self._emit(change)

    def _show(self, scene: Scene, change: Change = Change.SCENE, label: str | None = None, solution: Solution | None = None) -> None:
        """Make ``scene`` current (solved once), as an undoable edit named ``label`` if given.

        Keeps the view state within the new scene (time range, selection) and
        tells the listeners.  Nothing changes when the solver refuses the scene.
        """
        solution = _solve(scene) if solution is None else solution
        if label is not None:
            self._history.push(scene, label)
            change |= Change.HISTORY
        self._scene = scene
        self._solution = solution
        lo, hi = self.time_range()
        time = min(max(self._view.time, lo), hi)
        if time != self._view.time:
            change |= Change.TIME
        selected = min(self._view.selected, len(scene.bodies) - 1)
        if selected != self._view.selected:
            change |= Change.SELECTION
        self._view = replace(self._view, time=time, selected=selected)
        self._emit(change)

    def _apply(self, scene: Scene, label: str) -> None:
        """Make ``scene`` current as an undoable edit."""
        self._show(scene, Change.SCENE, label)

    # -- documents ----------------------------------------------------------------
    def open_scene(self, scene: Scene, path: Path | None) -> None:
        """Make ``scene`` the new document: fresh undo history, its layers and camera, time 0."""
        solution = _solve(scene)
        self._drag = None
        self._path = path
        self._history.reset(scene)
        self._view = ViewState(layers=scene.layers, camera=_camera_of(scene), steps=scene.steps,
                               rest_frame=self._view.rest_frame, reference=self._view.reference)  # fmt: skip
        self._show(scene, Change.SCENE | Change.DOCUMENT | Change.HISTORY | Change.VIEW, solution=solution)

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
        from .paste import parse_configuration

        self.open_scene(parse_configuration(text), None)

    def saved_scene(self, camera: dict | None = None) -> Scene:
        """The current scene with the view state a file keeps: layers, and ``camera`` (or the last known)."""
        view = {**self._scene.view, "layers": dict(self._view.layers)}
        view.pop("steps", None)
        if self._view.steps != DEFAULT_STEPS:
            view["steps"] = self._view.steps
        camera = camera if camera is not None else self._view.camera
        if camera is not None:
            view["camera"] = camera
        else:
            view.pop("camera", None)
        return self._scene.with_changes(view=view)

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

    # -- edits ----------------------------------------------------------------------
    def edit_field(self, field: str, text: str) -> None:
        """Apply a typed value to ``field`` (one of :data:`FIELDS`; ``body.*`` is the selected body).

        Raises
        ------
        SceneError
            Not a number, or a value the scene refuses; nothing changed.
        """
        if field not in FIELDS:
            raise SceneError(f"{field}: not a field that can be edited")
        scene = self._scene
        index = self._view.selected
        named = field.replace("body.", f"{scene.bodies[index].name}.")
        value = parse_number(text, named)
        if field in ("horizon", "restitution"):
            new = scene.with_changes(**{field: value})
        elif field in ("body.radius", "body.mass"):
            new = scene.with_body(index, **{field[5:]: value})
        else:
            _, key, k = field.split(".")
            vector = list(getattr(scene.bodies[index], key))
            vector[int(k)] = value
            new = scene.with_body(index, **{key: tuple(vector)})
        self._apply(new, f"edit {field.split('.')[1] if field.startswith('body.') else field}")

    def set_mode(self, mode: str) -> None:
        """Switch between ``pair`` and ``inside`` (refused when the bodies do not fit the mode)."""
        if mode != self._scene.mode:
            self._apply(self._scene.with_changes(mode=mode), f"mode {mode}")

    def set_fixed(self, fixed: bool) -> None:
        """Make the selected body immovable (infinite mass) or give it mass 1."""
        index = self._view.selected
        self._apply(self._scene.with_body(index, mass=math.inf if fixed else 1.0), "fixed" if fixed else "movable")

    def set_container(self, on: bool) -> None:
        """``all`` mode: make the selected body the container every other body moves inside (or not)."""
        index = self._view.selected
        bodies = [replace(b, container=(i == index and on)) for i, b in enumerate(self._scene.bodies)]
        self._apply(self._scene.with_changes(bodies=tuple(bodies)), "container" if on else "no container")

    def add_body(self) -> None:
        """Add a target sphere clear of the others and select it (pair mode, up to the limit)."""
        new = self._scene.with_added_body()
        self._apply(new, "add body")
        self._set_view(Change.SELECTION, selected=len(new.bodies) - 1)

    def remove_body(self) -> None:
        """Remove the selected body (never A, never below two bodies)."""
        self._apply(self._scene.without_body(self._view.selected), "remove body")

    def translate(self, power: int) -> None:
        """Move every centre by 2**power on each axis (exact: the geometry is unchanged) and frame it."""
        offset = float(2**power)
        self._apply(translate(self._scene, (offset, offset, offset)), f"translate by 2^{power}")
        self.reset_camera()

    def nudge_graze(self, ulps: int) -> None:
        """Move the other body by ``ulps`` ulps away from (+) or towards (−) A's path."""
        try:
            new = nudge_graze(self._scene, ulps, self._solution.other)
        except ValueError as exc:
            raise SceneError(str(exc)) from None
        self._apply(new, f"nudge {ulps:+d} ulp")

    # -- drags --------------------------------------------------------------------------
    def begin_drag(self, body: int, kind: Literal["center", "velocity"], start) -> None:
        """Start dragging body ``body``'s centre or velocity-arrow tip, drawn now at ``start`` (3,).

        Selects the body and pauses playback.
        """
        self._drag = _Drag(body, kind, self._scene, np.asarray(start, dtype=float))
        self._set_view(Change.SELECTION | Change.PLAYING, selected=body, playing=False)

    def drag_to(self, point) -> None:
        """Move the dragged grip to ``point`` (3,), as drawn (any time, any frame): a live preview.

        The grip moved by ``delta`` where it is drawn; the body's centre at
        t = 0 (or its velocity times the horizon, for a tip) moves by the same.

        Raises
        ------
        SceneError
            The new position is refused (e.g. beyond the coordinate limit); the
            preview stays where it was.
        """
        drag = self._drag
        if drag is None:
            return
        origin = drag.origin
        body = origin.bodies[drag.body]
        delta = np.asarray(point, dtype=float) - drag.start
        if drag.kind == "center":
            new = origin.with_body(drag.body, center=tuple(float(x) for x in np.add(body.center, delta)))
        else:
            velocity = np.add(body.velocity, delta / origin.horizon)
            new = origin.with_body(drag.body, velocity=tuple(float(x) for x in velocity))
        self._show(new)

    def end_drag(self) -> None:
        """Finish the drag: the preview becomes one undoable edit."""
        drag, self._drag = self._drag, None
        if drag is None:
            return
        name = self._scene.bodies[drag.body].name
        what = "centre" if drag.kind == "center" else "velocity"
        self._history.push(self._scene, f"drag {name} {what}")
        self._emit(Change.HISTORY)

    # -- undo --------------------------------------------------------------------------------
    def undo(self) -> None:
        if self._history.can_undo:
            self._show(self._history.undo(), Change.SCENE | Change.HISTORY)

    def redo(self) -> None:
        if self._history.can_redo:
            self._show(self._history.redo(), Change.SCENE | Change.HISTORY)

    # -- view state ------------------------------------------------------------------------
    def select(self, index: int) -> None:
        if not 0 <= index < len(self._scene.bodies):
            raise SceneError(f"bodies[{index}]: no such body")
        self._set_view(Change.SELECTION, selected=index)

    def set_time(self, t: float) -> None:
        """Draw the spheres at time ``t``, kept within :meth:`time_range`."""
        lo, hi = self.time_range()
        t = float(t)
        self._set_view(Change.TIME, time=min(max(t, lo), hi) if math.isfinite(t) else lo)

    def set_playing(self, on: bool) -> None:
        """Play the motion from the current time (from the start when at the end)."""
        lo, hi = self.time_range()
        time = lo if on and self._view.time >= hi else self._view.time
        self._set_view(Change.PLAYING | Change.TIME, playing=bool(on), time=time)

    def set_speed(self, speed: float) -> None:
        """Playback speed (1: one horizon per :data:`HORIZON_PLAY_SECONDS`)."""
        if not (math.isfinite(speed) and speed > 0):
            raise SceneError(f"speed: must be positive, got {speed!r}")
        self._set_view(Change.PLAYING, speed=float(speed))

    def advance(self, seconds: float) -> None:
        """Move playback on by ``seconds`` of wall time at the playback speed."""
        if not self._view.playing:
            return
        lo, hi = self.time_range()
        t = self._view.time + self._view.speed * self._scene.horizon * seconds / HORIZON_PLAY_SECONDS
        if t >= hi:
            self._set_view(Change.TIME | Change.PLAYING, time=hi, playing=False)
        else:
            self._set_view(Change.TIME, time=t)

    def set_rest_frame(self, on: bool) -> None:
        """Turn towards B's rest frame (or back to the world frame); :meth:`turn` animates it."""
        self._set_view(Change.REFERENCE, rest_frame=bool(on))

    def turn(self, seconds: float) -> None:
        """Move the drawn reference frame ``seconds`` of wall time towards its target (a full turn: :data:`TURN_SECONDS`)."""
        target = 1.0 if self._view.rest_frame else 0.0
        step = seconds / TURN_SECONDS
        reference = self._view.reference
        reference = min(reference + step, target) if reference < target else max(reference - step, target)
        self._set_view(Change.REFERENCE, reference=reference)

    @property
    def turning(self) -> bool:
        """The drawn reference frame has not reached the switch's position yet."""
        return self._view.reference != (1.0 if self._view.rest_frame else 0.0)

    def set_layer(self, name: str, visible: bool) -> None:
        if name not in LAYERS:
            raise SceneError(f"layers: unknown layer {name!r}")
        self._set_view(Change.LAYERS, layers={**self._view.layers, name: bool(visible)})

    def set_steps(self, steps: int) -> None:
        """Steps over the horizon of the frame-stepped engine (1 to :data:`MAX_STEPS`)."""
        if isinstance(steps, bool) or not isinstance(steps, int) or not 1 <= steps <= MAX_STEPS:
            raise SceneError(f"steps: expected a whole number from 1 to {MAX_STEPS}, got {steps!r}")
        self._set_view(Change.STEPS, steps=steps)

    def set_camera(self, camera: dict | None) -> None:
        """Look through ``camera`` (None: frame the scene); the 3-D view applies it."""
        self._view = replace(self._view, camera=camera)
        self._emit(Change.CAMERA)

    def reset_camera(self) -> None:
        """Frame the scene again (View > Reset camera)."""
        self.set_camera(None)

    def remember_camera(self, camera: dict) -> None:
        """Note where the user turned the camera (saved with the file; nothing is redrawn)."""
        self._view = replace(self._view, camera=camera)


def _solve(scene: Scene) -> Solution:
    """:func:`solve`, with the solver's refusal of a scene turned into a :class:`SceneError`."""
    try:
        return solve(scene)
    except SceneError:
        raise
    except ValueError as exc:  # a scene the solver cannot follow: refused like a bad value
        raise SceneError(str(exc)) from None


def _camera_of(scene: Scene) -> dict | None:
    camera = scene.view.get("camera")
    return camera if isinstance(camera, dict) else None
