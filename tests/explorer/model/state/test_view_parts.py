"""The view's evented parts: each field's rule, and exactly which change each listener hears.

Every test records what the listeners are told (:class:`Heard`) and compares the
whole list: a change that is not announced, announced twice, or announced with
the wrong flag fails, and so does one announced when nothing changed.
"""

from __future__ import annotations

import math

import pytest

from explorer.model.state.scene import DEFAULT_STEPS, LAYERS, Scene, SceneBody, SceneError
from explorer.model.state.view_parts import (
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

CAMERA = {"position": [0.0, -9.0, 0.0], "focal_point": [0.0, 0.0, 0.0], "up": [0.0, 0.0, 1.0]}


class Heard(list):
    """A listener that keeps every change it is told."""

    def __call__(self, change: Change) -> None:
        self.append(change)


def listened(part):
    heard = Heard()
    part.subscribe(heard)
    return part, heard


def test_listeners_are_told_in_order_and_unsubscribing_stops_only_that_one():
    part = Evented()
    first, second = Heard(), Heard()
    part.subscribe(first)
    part.subscribe(second)
    order = []
    part.subscribe(lambda change: order.append("third"))
    part._tell(Change.TIME)
    part.unsubscribe(first)
    part.unsubscribe(Heard())  # not subscribed: nothing happens
    part._tell(Change.LAYERS)
    assert first == [Change.TIME]
    assert second == [Change.TIME, Change.LAYERS]
    assert order == ["third", "third"]


# -- selection ----------------------------------------------------------------------------------------


def test_selection_tells_only_real_changes_and_refuses_missing_bodies():
    selection, heard = listened(Selection())
    assert selection.selected == 0
    selection.select(0, 3)  # already selected: nothing to tell
    selection.select(2, 3)
    assert (selection.selected, heard) == (2, [Change.SELECTION])
    for bad in (3, -1, True, 1.0):
        with pytest.raises(SceneError) as info:
            selection.select(bad, 3)
        assert str(info.value) == f"bodies[{bad}]: no such body"
    selection.keep_within(3)  # still there
    selection.keep_within(2)  # body 2 removed: the last one left is selected
    assert (selection.selected, heard) == (1, [Change.SELECTION, Change.SELECTION])


# -- playback -------------------------------------------------------------------------------------------


def test_playback_starts_paused_at_zero_at_speed_one():
    playback = Playback()
    assert (playback.time, playback.playing, playback.speed) == (0.0, False, 1.0)


def test_time_is_kept_within_the_span():
    playback, heard = listened(Playback())
    span = (-0.5, 2.0)
    playback.set_time(1.25, span)
    assert playback.time == 1.25
    playback.set_time(9.0, span)
    assert playback.time == 2.0
    playback.set_time(-9.0, span)
    assert playback.time == -0.5
    playback.set_time(math.nan, (0.25, 2.0))
    assert playback.time == 0.25
    playback.set_time(math.inf, (0.5, 2.0))  # not finite: the start, not the end
    assert playback.time == 0.5
    playback.keep_within((1.0, 3.0))
    assert playback.time == 1.0
    assert heard == [Change.TIME] * 6


def test_play_pause_jump_and_restart_announce_time_and_playing_together():
    playback, heard = listened(Playback())
    span = (0.0, 2.0)
    playback.set_time(2.0, span)
    playback.set_playing(True, span)  # at the end: plays from the start
    assert (playback.time, playback.playing) == (0.0, True)
    playback.set_playing(False, span)
    playback.set_time(1.5, span)
    playback.set_playing(True, span)  # not at the end: plays on from here
    assert (playback.time, playback.playing) == (1.5, True)
    playback.jump(0.75, span)
    assert (playback.time, playback.playing) == (0.75, False)
    playback.jump(5.0, span)
    assert playback.time == 2.0
    playback.set_playing(True, span)
    playback.restart()
    assert (playback.time, playback.playing) == (0.0, False)
    both = Change.PLAYING | Change.TIME
    assert heard == [Change.TIME, both, both, Change.TIME, both, both, both, both, both]
    playback.restart()  # already at 0, paused: nothing to tell
    assert len(heard) == 9


def test_advance_moves_at_the_speed_and_stops_at_the_end():
    playback, heard = listened(Playback())
    span = (0.0, 4.0)
    playback.advance(1.0, 2.0, span)  # paused: nothing moves
    assert (playback.time, heard) == (0.0, [])
    playback.set_speed(1.5)
    playback.set_playing(True, span)
    playback.advance(0.5, 2.0, span)  # 1.5 × horizon 2 × 0.5 s / 3 s = 0.5
    assert playback.time == pytest.approx(1.5 * 2.0 * 0.5 / HORIZON_PLAY_SECONDS) == 0.5
    playback.advance(3.5, 2.0, span)  # 0.5 + 3.5 = 4.0: exactly the end, which stops
    assert (playback.time, playback.playing) == (4.0, False)
    assert heard == [Change.PLAYING, Change.PLAYING | Change.TIME, Change.TIME, Change.TIME | Change.PLAYING]


def test_speed_must_be_positive_and_finite():
    playback, heard = listened(Playback())
    for bad in (0, -1.0, math.inf, math.nan, True, "2"):
        with pytest.raises(SceneError) as info:
            playback.set_speed(bad)
        assert str(info.value) == f"speed: must be positive, got {bad!r}"
    playback.set_speed(2)
    assert (playback.speed, type(playback.speed)) == (2.0, float)
    playback.set_speed(2.0)
    assert heard == [Change.PLAYING]


# -- the reference frame ------------------------------------------------------------------------------------


def test_turning_to_the_rest_frame_and_back_takes_turn_seconds():
    frame, heard = listened(ReferenceFrame())
    assert (frame.reference, frame.rest_frame, frame.turning) == (0.0, False, False)
    frame.set_rest_frame(True)
    assert (frame.rest_frame, frame.turning) == (True, True)
    frame.turn(TURN_SECONDS / 4)
    assert frame.reference == pytest.approx(0.25)
    frame.turn(TURN_SECONDS)  # more than what is left: stops at the target
    assert (frame.reference, frame.turning) == (1.0, False)
    frame.turn(1.0)  # there already: nothing to tell
    frame.set_rest_frame(False)
    frame.turn(TURN_SECONDS / 2)
    assert frame.reference == pytest.approx(0.5)
    frame.turn(TURN_SECONDS)
    assert frame.reference == 0.0
    assert heard == [Change.REFERENCE] * 6


# -- layers and the stepped engine's N ------------------------------------------------------------------


def test_layers_and_steps():
    layers, heard = listened(Layers())
    assert (layers.visible, layers.steps) == (dict(LAYERS), DEFAULT_STEPS)
    layers.set_layer("roots", not LAYERS["roots"])
    assert layers.visible == {**LAYERS, "roots": not LAYERS["roots"]}
    copy = layers.visible
    copy["roots"] = LAYERS["roots"]
    assert layers.visible["roots"] is not LAYERS["roots"]  # a copy was handed out
    with pytest.raises(SceneError, match="unknown layer 'shadows'"):
        layers.set_layer("shadows", True)
    layers.set_steps(12)
    with pytest.raises(SceneError) as info:
        layers.set_steps(0)
    assert str(info.value) == "steps: expected a whole number from 1 to 1000, got 0"
    layers.set_steps(12)
    layers.load(dict(LAYERS), 8)
    assert (layers.visible, layers.steps) == (dict(LAYERS), 8)
    assert heard == [Change.LAYERS, Change.STEPS, Change.LAYERS | Change.STEPS]


# -- the camera ---------------------------------------------------------------------------------------------


def test_the_camera_is_checked_announced_when_set_and_silent_when_remembered():
    camera, heard = listened(CameraPart())
    assert camera.camera is None
    camera.set_camera({"position": [0, -9, 0], "focal_point": [0, 0, 0]})
    assert camera.camera == CAMERA
    camera.set_camera(None)
    assert camera.camera is None
    camera.remember({"position": [0, -9, 0], "focal_point": [0, 0, 0]})
    assert camera.camera == CAMERA
    with pytest.raises(SceneError) as info:
        camera.remember({"position": [1, 1, 1], "focal_point": [1, 1, 1]})
    assert str(info.value) == "camera.position: must differ from focal_point"
    assert camera.camera == CAMERA  # the refused one is not kept
    assert heard == [Change.CAMERA, Change.CAMERA]


# -- what a scene file keeps of the view ----------------------------------------------------------------


def scene(view: dict) -> Scene:
    return Scene("pair", 1.0, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0), SceneBody("B", (5, 0, 0))),
                 view=view)  # fmt: skip


def test_reading_a_view_block_sets_layers_steps_and_camera():
    layers, heard_layers = listened(Layers())
    camera, heard_camera = listened(CameraPart())
    read_view(scene({"layers": {"roots": False}, "steps": 20, "camera": CAMERA}), layers, camera)
    assert (layers.visible["roots"], layers.steps, camera.camera) == (False, 20, CAMERA)
    assert heard_layers == [Change.LAYERS | Change.STEPS] and heard_camera == [Change.CAMERA]


def test_writing_the_view_block_keeps_other_keys_and_leaves_out_defaults():
    layers = Layers()
    written = write_view(scene({"note": "kept", "steps": 30, "camera": CAMERA}), layers, None)
    assert written.view == {"note": "kept", "layers": dict(LAYERS)}  # N back to the default: left out
    layers.set_steps(30)
    written = write_view(scene({}), layers, CAMERA)
    assert written.view == {"layers": dict(LAYERS), "steps": 30, "camera": CAMERA}


def test_speeds_below_one_are_allowed_and_a_layer_can_be_shown_again():
    playback = Playback()
    playback.set_speed(0.5)
    assert playback.speed == 0.5
    layers = Layers()
    layers.set_layer("roots", False)
    layers.set_layer("roots", True)
    assert layers.visible["roots"] is True
    with pytest.raises(SceneError) as info:
        layers.set_layer("shadows", True)
    assert str(info.value).startswith("layers: unknown layer 'shadows' (expected one of ")
