"""The scene in sentences for a screen reader (explorer/model/words/description.py): what the bodies do and the
verdict, worked out by hand on scenes whose answers are simple; nothing of the answer while asking."""

from __future__ import annotations

import pytest

from explorer.model.derived.analysis import solve
from explorer.model.formats import scene_io
from explorer.model.words.description import direction, full_description, said, said_apart, short_description

QUESTION = "Will they touch before t = 1?"


def _scene(*bodies, mode="pair", horizon=1.0):
    return scene_io.from_dict({"format": "sphere-explorer/1", "mode": mode, "horizon": horizon, "restitution": 1.0,
                               "bodies": list(bodies)})  # fmt: skip


def _body(name, center, velocity=(0, 0, 0), radius=1.0, **more):
    return {"name": name, "center": list(center), "velocity": list(velocity), "radius": radius, **more}


def _short(scene, asking=False):
    return short_description(scene, solve(scene), asking, QUESTION)


def test_a_head_on_shot_at_a_fixed_ball_is_said_with_its_time_and_angle():
    # gap 5 - 2 = 3 closed at 10 a frame: t = 0.3; head on, so A leaves along the normal: 90° to the tangent plane
    scene = _scene(_body("A", (0, 0, 0), (10, 0, 0)), _body("B", (5, 0, 0), fixed=True))
    assert _short(scene) == ("A moves at 10 per frame towards +x and B is fixed. "
                             "A touches B at t = 0.3, within the horizon h = 1; it leaves at 90° to the tangent plane.")  # fmt: skip


def test_a_miss_says_the_closest_approach_against_r():
    # A passes 1.95 from B's centre; R = 1 + 0.9 = 1.9
    scene = _scene(_body("A", (-5, 1.95, 0), (10, 0, 0)), _body("B", (0, 0, 0), radius=0.9, fixed=True))
    assert _short(scene).endswith("A misses B: the closest approach, 1.95, is more than R = 1.9.")


def test_while_asking_a_touch_and_a_miss_with_the_same_givens_are_said_alike():
    hit = _scene(_body("A", (-5, 1.95, 0), (10, 0, 0)), _body("B", (0, 0, 0), radius=1.0, fixed=True))
    miss = _scene(_body("A", (-5, 1.95, 0), (10, 0, 0)), _body("B", (0, 0, 0), radius=0.9, fixed=True))
    assert _short(hit) != _short(miss)
    assert (
        _short(hit, asking=True)
        == _short(miss, asking=True)
        == ("A moves at 10 per frame towards +x and B is fixed. " + QUESTION)
    )
    asked = full_description(hit, solve(hit), True, QUESTION)
    assert asked[-1] == QUESTION and not any(word in line for line in asked for word in ("touches", "misses", "Event"))


def test_two_moving_bodies_are_both_said_and_a_later_contact_is_after_the_horizon():
    # closing at 3 + 1 = 4 a frame over a gap of 10 - 2 = 8: contact at t = 2, after h = 1
    scene = _scene(_body("A", (0, 0, 0), (3, 0, 0)), _body("B", (10, 0, 0), (-1, 0, 0)))
    assert _short(scene) == ("A moves at 3 per frame towards +x and B moves at 1 per frame towards −x. "
                             "A would touch B at t = 2, after the horizon h = 1: no contact before it.")  # fmt: skip


def test_many_bodies_are_counted_and_the_first_touch_and_the_events_said():
    # A hits B at t = (3 - 1) / 4 = 0.5 (radii 0.5); B then hits C at rest 3 further on, a second event
    bodies = [_body("A", (0, 0, 0), (4, 0, 0), 0.5), _body("B", (3, 0, 0), radius=0.5),
              _body("C", (6, 0, 0), radius=0.5), _body("D", (0, 9, 0), radius=0.5)]  # fmt: skip
    scene = _scene(*bodies, mode="all", horizon=2.0)
    assert _short(scene) == ("4 bodies: A moves at 4 per frame towards +x and the other 3 are still. "
                             "A and B touch first, at t = 0.5; 2 events in all before t = 2.")  # fmt: skip


@pytest.mark.parametrize(
    ("x", "words"),
    [(0.30000000000000004, "0.3"), (-2.5, "−2.5"), (-0.0, "0"), (5e5, "5 × 10^5"), (1.5e-7, "1.5 × 10^−7")],
)
def test_numbers_are_said_with_three_digits_and_powers_of_ten_in_words(x, words):
    assert said(x) == words


def test_two_numbers_that_round_alike_are_said_with_the_digits_that_tell_them_apart():
    assert said_apart(0.1000049, 0.1) == ("0.100005", "0.1")
    assert said_apart(2.5, 1.0) == ("2.5", "1")


def test_a_direction_names_its_axes_largest_first_and_leaves_out_the_small_ones():
    assert direction((3, -4, 0)) == "−y and +x"
    assert direction((10, 0.5, 0)) == "+x"  # 0.5 is under a fifth of the speed


def test_two_free_balls_meeting_are_said_without_an_angle_to_a_tangent_plane():
    # gap 5 - 2 = 3 closed at 6 + 2 = 8 a frame: t = 0.375; both move after it, so no single ricochet angle
    scene = _scene(_body("A", (0, 0, 0), (6, 0, 0)), _body("B", (5, 0, 0), (-2, 0, 0)))
    assert _short(scene) == ("A moves at 6 per frame towards +x and B moves at 2 per frame towards −x. "
                             "A touches B at t = 0.375, within the horizon h = 1.")  # fmt: skip
