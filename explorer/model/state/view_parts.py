"""The view state as small evented parts, each owning its rule (as napari builds its viewer from dims,
camera and layers).

:class:`Selection`, :class:`Playback`, :class:`ReferenceFrame`, :class:`Layers`
and :class:`CameraPart` each hold a few fields, refuse a bad value with a
:class:`~explorer.model.state.scene.SceneError` naming it, and tell their listeners
which :class:`Change` they made; a widget binds to the one field it shows.
What a scene file keeps of them (layers, the stepped engine's N, the camera) is
read from its ``view`` block once, by :func:`read_view`, and written back once,
by :func:`write_view`, each with the scene model's one rule for that field.
Never undone, never stored in the history.  Qt-free.
"""

from __future__ import annotations

import enum
import math
from typing import Any, Callable

from .scene import DEFAULT_STEPS, LAYERS, Scene, SceneError, check_camera, check_layer, check_steps, view_settings


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
    PLAYING = enum.auto()  #: playing or paused, or the playback speed
    STEPS = enum.auto()  #: the frame-stepped engine's number of steps
    INSPECTION = enum.auto()  #: the inspected event, or the pair described (:mod:`.inspection`)
    ASK = enum.auto()  #: question mode on or off, or a step of the reveal (:mod:`.asking`)
    VIEW = SELECTION | TIME | REFERENCE | LAYERS | CAMERA | PLAYING | STEPS | INSPECTION | ASK


class Evented:
    """Something listeners subscribe to, to be told each :class:`Change` it makes."""

    def __init__(self) -> None:
        self._listeners: list[Callable[[Change], None]] = []

    def subscribe(self, listener: Callable[[Change], None]) -> None:
        """Call ``listener(change)`` after each change, in subscription order."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Callable[[Change], None]) -> None:
        """Stop telling ``listener`` (a no-op for one not subscribed)."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _tell(self, change: Change) -> None:
        for listener in list(self._listeners):
            listener(change)


class Part(Evented):
    """A few fields of view state with their rule.

    Subclasses set their fields through :meth:`_set`, which tells the listeners
    only when a value really changed.
    """

    def _set(self, change: Change, **values: Any) -> bool:
        """Store ``values``; tell the listeners ``change`` if any differed.  Returns whether one did."""
        if all(getattr(self, "_" + name) == value for name, value in values.items()):
            return False
        for name, value in values.items():
            setattr(self, "_" + name, value)
        self._tell(change)
        return True


class Selection(Part):
    """The body the scene panel edits (an index into the scene's bodies)."""

    def __init__(self) -> None:
        super().__init__()
        self._selected = 0

    @property
    def selected(self) -> int:
        return self._selected

    def select(self, index: int, bodies: int) -> None:
        """Select body ``index`` of ``bodies``; SceneError for one that is not there."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < bodies:
            raise SceneError(f"bodies[{index}]: no such body")
        self._set(Change.SELECTION, selected=index)

    def keep_within(self, bodies: int) -> None:
        """After bodies were removed: select the last one if the selected one is gone."""
        self._set(Change.SELECTION, selected=min(self._selected, bodies - 1))


#: Playback: one horizon takes this long at 1× speed.
HORIZON_PLAY_SECONDS = 3.0


class Playback(Part):
    """The time the spheres are drawn at, whether it plays, and how fast.

    The time always lies in the range it was last given (the time slider's
    range, :meth:`explorer.model.actions.session.Session.time_range`).
    """

    def __init__(self) -> None:
        super().__init__()
        self._time = 0.0
        self._playing = False
        self._speed = 1.0

    @property
    def time(self) -> float:
        return self._time

    @property
    def playing(self) -> bool:
        return self._playing

    @property
    def speed(self) -> float:
        """Times one horizon per :data:`HORIZON_PLAY_SECONDS`."""
        return self._speed

    def set_time(self, t: float, span: tuple[float, float]) -> None:
        """Draw at ``t``, kept within ``span`` (a non-finite time: its start)."""
        self._set(Change.TIME, time=_within(t, span))

    def keep_within(self, span: tuple[float, float]) -> None:
        """The range changed (a new scene): pull the time into it."""
        self.set_time(self._time, span)

    def set_playing(self, on: bool, span: tuple[float, float]) -> None:
        """Play from the current time (from the start when at the end), or pause."""
        lo, hi = span
        time = lo if on and self._time >= hi else self._time
        self._set(Change.PLAYING | Change.TIME, playing=bool(on), time=time)

    def jump(self, t: float, span: tuple[float, float]) -> None:
        """Pause, and draw at ``t`` (kept within ``span``): e.g. at an event the user inspects."""
        self._set(Change.PLAYING | Change.TIME, playing=False, time=_within(t, span))

    def set_speed(self, speed: float) -> None:
        """A positive, finite speed (1: one horizon per :data:`HORIZON_PLAY_SECONDS`)."""
        if isinstance(speed, bool) or not isinstance(speed, (int, float)) or not (math.isfinite(speed) and speed > 0):
            raise SceneError(f"speed: must be positive, got {speed!r}")
        self._set(Change.PLAYING, speed=float(speed))

    def advance(self, seconds: float, horizon: float, span: tuple[float, float]) -> None:
        """Move on by ``seconds`` of wall time at the playback speed; stop at the end of ``span``."""
        if not self._playing:
            return
        t = self._time + self._speed * horizon * seconds / HORIZON_PLAY_SECONDS
        if t >= span[1]:
            self._set(Change.TIME | Change.PLAYING, time=span[1], playing=False)
        else:
            self._set(Change.TIME, time=t)

    def restart(self) -> None:
        """A new document: time 0, paused (the speed is the user's, kept)."""
        self._set(Change.TIME | Change.PLAYING, time=0.0, playing=False)


def _within(t: float, span: tuple[float, float]) -> float:
    """``t`` kept within ``span`` (a non-finite time: its start)."""
    lo, hi = span
    t = float(t)
    return min(max(t, lo), hi) if math.isfinite(t) else lo


#: Turning to or from B's rest frame (or the centre of mass's) takes this long.
TURN_SECONDS = 0.45


def _towards(value: float, target: float, step: float) -> float:
    return min(value + step, target) if value < target else max(value - step, target)


class ReferenceFrame(Part):
    """The drawn reference frame and where it heads: the world, the rest frame of the primary other body B, or the
    frame of the free bodies' centre of mass.

    Two blends say what is drawn: :attr:`reference` (0 the world, 1 B's rest frame) and :attr:`com` (0 the world,
    1 the centre of mass's frame); at most one is above 0.  A turn from one frame to the other passes through
    the world frame.
    """

    def __init__(self) -> None:
        super().__init__()
        self._reference = 0.0
        self._com = 0.0
        self._rest_frame = False
        self._com_frame = False

    @property
    def reference(self) -> float:
        """The drawn blend towards B's rest frame, in [0, 1] (in between while turning)."""
        return self._reference

    @property
    def com(self) -> float:
        """The drawn blend towards the centre of mass's frame, in [0, 1]."""
        return self._com

    @property
    def rest_frame(self) -> bool:
        """Whether the view heads to B's rest frame (the toolbar switch)."""
        return self._rest_frame

    @property
    def com_frame(self) -> bool:
        """Whether the view heads to the centre of mass's frame (the toolbar switch beside B's)."""
        return self._com_frame

    @property
    def kind(self) -> str:
        """The frame the switches name, which the numbers are in: ``"com"``, ``"relative"`` (B's rest frame) or
        ``"world"`` (the names of :mod:`explorer.model.derived.frames`)."""
        return "com" if self._com_frame else "relative" if self._rest_frame else "world"

    def _targets(self) -> tuple[float, float]:
        return (1.0 if self._rest_frame else 0.0), (1.0 if self._com_frame else 0.0)

    @property
    def turning(self) -> bool:
        return (self._reference, self._com) != self._targets()

    def set_rest_frame(self, on: bool) -> None:
        """Head to B's rest frame (leaving the centre of mass's), or back to the world."""
        self._set(Change.REFERENCE, rest_frame=bool(on), com_frame=self._com_frame and not on)

    def set_com_frame(self, on: bool) -> None:
        """Head to the frame of the free bodies' centre of mass (leaving B's), or back to the world."""
        self._set(Change.REFERENCE, com_frame=bool(on), rest_frame=self._rest_frame and not on)

    def turn(self, seconds: float) -> None:
        """Move ``seconds`` of wall time towards the target (a full turn takes :data:`TURN_SECONDS`); a blend
        leaving its frame goes first, so the two are never both above 0."""
        step = seconds / TURN_SECONDS
        to_reference, to_com = self._targets()
        if self._reference > to_reference or self._com > to_com:
            self._set(Change.REFERENCE, reference=_towards(self._reference, min(to_reference, self._reference), step),
                      com=_towards(self._com, min(to_com, self._com), step))  # fmt: skip
        else:
            self._set(Change.REFERENCE, reference=_towards(self._reference, to_reference, step),
                      com=_towards(self._com, to_com, step))  # fmt: skip


class Layers(Part):
    """Which layers are drawn, and N of the frame-stepped engine (the ``steps`` layer)."""

    def __init__(self) -> None:
        super().__init__()
        self._visible = dict(LAYERS)
        self._steps = DEFAULT_STEPS

    @property
    def visible(self) -> dict[str, bool]:
        """Visibility by layer name (a copy)."""
        return dict(self._visible)

    @property
    def steps(self) -> int:
        return self._steps

    def set_layer(self, name: str, visible: bool) -> None:
        check_layer(name, ("layers",))
        self._set(Change.LAYERS, visible={**self._visible, name: bool(visible)})

    def set_steps(self, steps: int) -> None:
        self._set(Change.STEPS, steps=check_steps(steps, ("steps",)))

    def load(self, visible: dict[str, bool], steps: int) -> None:
        """A new document's layers and N (read by :func:`read_view`)."""
        self._set(Change.LAYERS | Change.STEPS, visible=dict(visible), steps=steps)


class CameraPart(Part):
    """Where the 3-D view looks from: ``{"position", "focal_point", "up"}``, or None to frame the scene."""

    def __init__(self) -> None:
        super().__init__()
        self._camera: dict | None = None

    @property
    def camera(self) -> dict | None:
        return None if self._camera is None else dict(self._camera)

    def set_camera(self, camera: dict | None) -> None:
        """Look through ``camera`` (None: frame the scene); the 3-D view applies it.  Always announced."""
        self._camera = None if camera is None else check_camera(camera, ("camera",))
        self._tell(Change.CAMERA)

    def remember(self, camera: dict) -> None:
        """Note where the user turned the camera (saved with the file; nothing is redrawn, nobody told)."""
        self._camera = check_camera(camera, ("camera",))


def read_view(scene: Scene, layers: Layers, camera: CameraPart) -> None:
    """Give the parts what ``scene``'s file keeps of the view (its layers, N and camera): the one reading."""
    settings = view_settings(scene.view)
    layers.load(settings["layers"], settings["steps"])
    camera.set_camera(settings["camera"])


def write_view(scene: Scene, layers: Layers, camera: dict | None) -> Scene:
    """``scene`` with its view block written from the parts: the one writing (other keys kept as read)."""
    view = {key: value for key, value in scene.view.items() if key not in ("layers", "steps", "camera")}
    view["layers"] = layers.visible
    if layers.steps != DEFAULT_STEPS:
        view["steps"] = layers.steps
    if camera is not None:
        view["camera"] = camera
    return scene.with_changes(view=view)
