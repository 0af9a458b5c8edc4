"""``bounce_path`` as the explorer reads it: segments in scene coordinates, bounces with their point and
normal, the default horizon, and the refusals with their words.

Every expected value is derived by hand from the scene (equal masses exchange
velocities head on; a ball in a fixed container reverses), not from the solver.
"""

from __future__ import annotations

import math

import pytest

from solver import Body, bounce_path

#: A head-on pair far from the coordinate origin: gap 0.5 closed at speed 1, so contact at t = 0.5.
FAR = 1000.0


def _pair():
    a = Body((FAR, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0)
    b = Body((FAR + 2.5, 0.0, 0.0), (0.0, 0.0, 0.0), 1.0)
    return a, b


def test_a_head_on_pair_far_from_the_origin():
    a, b = _pair()
    path = bounce_path(a, b)  # the default horizon, 1
    assert path.end == 1.0
    assert path.stopped is None
    (bounce,) = path.bounces
    assert (bounce.time, bounce.other) == (0.5, 1)
    assert bounce.point == pytest.approx((FAR + 1.5, 0.0, 0.0), abs=1e-12)
    assert bounce.normal == pytest.approx((1.0, 0.0, 0.0), abs=1e-15)
    first, second = path.segments
    assert (first.t_start, first.t_end, second.t_start, second.t_end) == (0.0, 0.5, 0.5, 1.0)
    assert first.centers[0] == pytest.approx(a.center, abs=1e-12)  # in the scene's coordinates
    assert first.centers[1] == pytest.approx(b.center, abs=1e-12)
    assert second.centers[0] == pytest.approx((FAR + 0.5, 0.0, 0.0), abs=1e-12)
    assert second.velocities[0] == pytest.approx((0.0, 0.0, 0.0), abs=1e-15)  # equal masses: exchanged
    assert second.velocities[1] == pytest.approx((1.0, 0.0, 0.0), abs=1e-15)


def test_positions_before_the_start_are_the_starting_centres():
    a, b = _pair()
    path = bounce_path(a, b)
    before = path.positions(-1.0)
    assert before[0] == pytest.approx(a.center, abs=1e-12)
    assert before[1] == pytest.approx(b.center, abs=1e-12)
    assert path.positions(0.75)[0] == pytest.approx((FAR + 0.5, 0.0, 0.0), abs=1e-12)  # at rest after the bounce
    assert path.positions(0.75)[1] == pytest.approx((FAR + 2.75, 0.0, 0.0), abs=1e-12)


def test_a_ball_in_a_fixed_container_reverses_at_the_wall():
    ball = Body((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0)
    container = Body((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 3.0, mass=math.inf)
    path = bounce_path(ball, container, horizon=3.0, inside=True)
    (bounce,) = path.bounces
    assert (bounce.time, bounce.other) == (2.0, 1)  # the container is body 1
    assert bounce.point == pytest.approx((3.0, 0.0, 0.0), abs=1e-12)
    assert bounce.normal == pytest.approx((1.0, 0.0, 0.0), abs=1e-15)  # towards the wall
    assert path.segments[-1].velocities[0] == pytest.approx((-1.0, 0.0, 0.0), abs=1e-15)
    assert path.positions(3.0)[0] == pytest.approx((1.0, 0.0, 0.0), abs=1e-12)


def test_a_ball_outside_its_container_has_a_still_path():
    ball = Body((10.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0)
    container = Body((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 3.0)
    path = bounce_path(ball, container, inside=True)
    (still,) = path.segments
    assert (still.t_start, still.t_end) == (0.0, 0.0)
    assert path.bounces == ()
    assert path.stopped.startswith("outside:")
    with pytest.raises(ValueError, match="^horizon"):  # its arguments are still checked
        bounce_path(ball, container, horizon=-1.0, inside=True)


@pytest.mark.parametrize("others, inside", [([], False), ([], True), ("two", True)])
def test_the_wrong_number_of_others_is_refused(others, inside):
    a, b = _pair()
    if others == "two":
        others = [Body((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 5.0), b]
    with pytest.raises(ValueError, match="^others: expected one container \\(inside\\) or at least one other body$"):
        bounce_path(a, others, inside=inside)


@pytest.mark.parametrize(
    "container, words",
    [
        (Body((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 0.5), "(0.5 <= 1.0)"),
        (Body((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 1.0), "(1.0 <= 1.0)"),  # as large as the ball: no room
        (["a container"], "(None <= 1.0)"),  # not a Body at all
    ],
)
def test_a_container_no_larger_than_the_ball_is_refused(container, words):
    ball = Body((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0)
    with pytest.raises(ValueError) as err:
        bounce_path(ball, container, inside=True)
    assert str(err.value) == f"container.radius: must be larger than the ball's radius {words}"


def test_at_each_bounce_the_position_is_the_contact_centre_exactly():
    """At a bounce's time the path gives the centres the motion reached there (the next segment's start),
    not the previous segment extrapolated to it, which rounds differently."""
    ball = Body((0.1, 0.2, -0.3), (0.7, 0.3, 0.11), 0.4)
    container = Body((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 1.3, mass=math.inf)
    path = bounce_path(ball, container, horizon=20.0, inside=True)
    assert len(path.segments) > 5
    for segment in path.segments[1:]:
        assert path.positions(segment.t_start) == segment.centers


def test_a_motion_s_frames_and_a_bounce_path_s_segments_are_one_type():
    """One type for uniform motion between two events (at 4decb2d solver.motion.Frame and solver.path.Segment were
    the same class written twice)."""
    import solver

    a, b = solver.Body((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), 0.5), solver.Body((3.0, 0.0, 0.0), radius=0.5)
    frames = solver.simulate([a, b], 3.0).frames
    segments = solver.bounce_path(a, [b], 3.0).segments
    assert solver.Frame is solver.Segment
    assert {type(x) for x in (*frames, *segments)} == {solver.Segment}
