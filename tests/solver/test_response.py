"""Response at contact: reflection, ricochet angle, impulse, multi-bounce paths."""

import math

import pytest

from solver import Body, bounce_path, collide, impact, reflect, ricochet_angle, sweep, sweep_inside, vec


def test_reflect_mirrors_the_normal_component_only():
    assert reflect((3.0, -4.0, 1.0), (0.0, 2.0, 0.0)) == (3.0, 4.0, 1.0)


def test_ricochet_angle_is_measured_to_the_tangent_plane():
    assert ricochet_angle((1.0, 0.0, 0.0), (1.0, 0.0, 0.0)) == pytest.approx(math.pi / 2)
    assert ricochet_angle((1.0, 1.0, 0.0), (1.0, 0.0, 0.0)) == pytest.approx(math.pi / 4)
    assert ricochet_angle((0.0, 1.0, 0.0), (1.0, 0.0, 0.0)) == 0.0


def test_ricochet_angle_of_zero_velocity_is_refused():
    with pytest.raises(ValueError, match="velocity"):
        ricochet_angle((0.0, 0.0, 0.0), (1.0, 0.0, 0.0))


def test_elastic_equal_masses_swap_normal_velocities():
    a, b = collide((2.0, 1.0, 0.0), (-1.0, 0.0, 0.0), (1.0, 0.0, 0.0))
    assert a == pytest.approx((-1.0, 1.0, 0.0))
    assert b == pytest.approx((2.0, 0.0, 0.0))


def test_impulse_conserves_momentum_and_scales_with_restitution():
    va, vb, ma, mb = (3.0, 0.5, 0.0), (-1.0, 0.0, 2.0), 2.0, 5.0
    n = (0.6, 0.8, 0.0)
    for e in (0.0, 0.3, 1.0):
        a, b = collide(va, vb, n, ma, mb, e)
        before = vec.add(vec.scale(va, ma), vec.scale(vb, mb))
        after = vec.add(vec.scale(a, ma), vec.scale(b, mb))
        assert after == pytest.approx(before)
        approach = vec.dot(vec.sub(vb, va), n)
        separation = vec.dot(vec.sub(b, a), n)
        assert separation == pytest.approx(-e * approach)


def test_fixed_body_acts_as_infinite_mass():
    a, b = collide((4.0, 1.0, 0.0), (0.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0, math.inf, 1.0)
    assert a == (-4.0, 1.0, 0.0) and b == (0.0, 0.0, 0.0)


def test_two_fixed_bodies_and_bad_restitution_are_refused():
    with pytest.raises(ValueError, match="mass"):
        collide((1.0, 0, 0), (0, 0, 0), (1.0, 0, 0), math.inf, math.inf)
    with pytest.raises(ValueError, match="restitution"):
        collide((1.0, 0, 0), (0, 0, 0), (1.0, 0, 0), restitution=1.5)


def test_impact_reports_seed_004_quantities():
    a = Body((0.0, 0.0, 0.0), (10.0, 0.0, 0.0), 1.0)
    b = Body((5.0, 1.0, 0.0), radius=1.0, mass=math.inf)
    s = sweep(a, b)
    imp = impact(s)
    # contact: |(5, 1) - (x, 0)| = 2  ->  x = 5 - sqrt(3), t = x / 10
    assert imp.time == pytest.approx((5 - math.sqrt(3)) / 10, rel=1e-12)
    assert imp.distance == pytest.approx(5 - math.sqrt(3), rel=1e-12)
    assert imp.normal == pytest.approx((math.sqrt(3) / 2, 0.5, 0.0))
    assert imp.ricochet_angle == pytest.approx(math.radians(60))
    assert imp.reflected == pytest.approx(reflect((10.0, 0, 0), imp.normal))
    assert imp.a_after == pytest.approx(imp.reflected)  # fixed B, elastic


def test_pair_path_has_one_bounce_and_reaches_the_horizon():
    a = Body((0.0, 0.0, 0.0), (10.0, 0.0, 0.0), 1.0)
    b = Body((5.0, 0.0, 0.0), radius=1.0)
    path = bounce_path(a, b, 1.0)
    assert [round(x.time, 12) for x in path.bounces] == [0.3]
    assert path.end == 1.0 and path.stopped is None
    assert path.segments[1].velocities == ((0.0, 0.0, 0.0), (10.0, 0.0, 0.0))
    assert path.positions(1.0)[1] == pytest.approx((12.0, 0.0, 0.0))


def test_container_path_bounces_and_stays_inside():
    ball = Body((0.0, 0.0, 0.0), (23.0, 7.0, 3.0), 0.5)
    box = Body((0.0, 0.0, 0.0), radius=3.0, mass=math.inf)
    path = bounce_path(ball, box, 1.0, inside=True)
    assert len(path.bounces) >= 5
    assert path.end == 1.0
    for seg in path.segments:
        for t in (seg.t_start, 0.5 * (seg.t_start + seg.t_end), seg.t_end):
            assert vec.norm(seg.positions(t)[0]) <= 2.5 * (1 + 1e-9)
    first = sweep_inside(ball, box)
    assert path.bounces[0].time == first.toi
    for bounce in path.bounces:  # on the wall at each bounce, speed kept (elastic, fixed wall)
        assert vec.norm(path.positions(bounce.time)[0]) == pytest.approx(2.5, rel=1e-9)
    assert all(vec.norm(s.velocities[0]) == pytest.approx(vec.norm(ball.velocity)) for s in path.segments)


def test_container_path_is_cut_short_after_many_bounces():
    ball = Body((0.0, 0.0, 0.0), (1e4, 3.0, 0.0), 0.5)
    box = Body((0.0, 0.0, 0.0), radius=1.0, mass=math.inf)
    path = bounce_path(ball, box, 1.0, inside=True)
    assert path.stopped and "cut short" in path.stopped


def test_plastic_wall_hit_with_a_tangential_speed_stops_the_path_sliding():
    ball = Body((0.0, -0.3, 0.0), (10.0, 0.0, 0.0), 1.0)
    box = Body((0.0, 0.0, 0.0), radius=1.5, mass=math.inf)
    path = bounce_path(ball, box, 1.0, restitution=0.0, inside=True)
    assert path.stopped and "slides" in path.stopped
    assert len(path.bounces) == 1 and path.end == path.bounces[0].time


def test_plastic_head_on_wall_hit_leaves_the_ball_resting_on_the_wall():
    """Resting contact is a state: the ball stops at the wall and stays there to the horizon."""
    ball = Body((0.0, 0.0, 0.0), (10.0, 0.0, 0.0), 1.0)
    box = Body((0.0, 0.0, 0.0), radius=1.5, mass=math.inf)
    path = bounce_path(ball, box, 1.0, restitution=0.0, inside=True)
    assert path.stopped is None and path.end == 1.0
    assert [b.time for b in path.bounces] == [pytest.approx(0.05)]
    assert path.positions(1.0)[0] == pytest.approx((0.5, 0.0, 0.0)) and path.segments[-1].velocities[0] == (
        0.0,
        0.0,
        0.0,
    )


def test_path_visits_several_targets_in_time_order():
    a = Body((0.0, 0.0, 0.0), (10.0, 0.0, 0.0), 1.0)
    wall = Body((5.0, 0.0, 0.0), radius=1.0, mass=math.inf)
    behind = Body((-3.0, 0.0, 0.0), radius=0.5)
    path = bounce_path(a, [wall, behind], 1.0)
    assert [(round(b.time, 12), b.other) for b in path.bounces] == [(0.3, 1), (0.75, 2)]


def test_overlapping_pair_that_separates_gets_no_response():
    a = Body((0.0, 0.0, 0.0), (-1.0, 0.0, 0.0), 1.0)
    b = Body((1.0, 0.0, 0.0), radius=1.0)
    path = bounce_path(a, b, 1.0)
    assert path.bounces == () and len(path.segments) == 1
