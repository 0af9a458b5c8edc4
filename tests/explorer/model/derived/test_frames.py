"""The reference frames (explorer/model/derived/frames.py): the centre-of-mass frame at a time moves with the free
bodies' centre of mass as it moves then, B's rest frame with B; each is pinned where what it follows was at t = 0,
changes only where something acts from outside, and sees a world point at any time by one rule."""

from __future__ import annotations

import math

import numpy as np
import pytest
from frame_helpers import FREE_SCENES, times_around_an_event

from explorer.model.derived.analysis import solve
from explorer.model.derived.frames import COM, RELATIVE, WORLD, frame_at
from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.formats.scene_io import load


def _solved(stem: str):
    scene = load(SCENES_DIR / f"{stem}.json")
    return scene, solve(scene)


def _state(solution, t: float):
    """Every centre and velocity at ``t`` from the motion's segments (after any event at ``t``), as arrays."""
    segments = solution.path.segments
    seg = [s for s in segments if s.t_start <= t][-1]
    return np.asarray(seg.centers) + (t - seg.t_start) * np.asarray(seg.velocities), np.asarray(seg.velocities)


def test_the_gallerys_scenes_with_two_free_bodies_are_the_ones_the_issue_names():
    assert set(FREE_SCENES) == {"billiards", "gas_in_container", "head_on_equal_masses", "heavy_light_glancing",
                                "newtons_cradle", "seed002_both_moving", "seed003_separating", "snooker_break"}  # fmt: skip


@pytest.mark.parametrize("stem", FREE_SCENES)
def test_in_the_centre_of_mass_frame_the_free_momenta_add_to_zero_and_the_centre_of_mass_stays_put(stem):
    scene, solution = _solved(stem)
    free = np.array([math.isfinite(b.mass) for b in scene.bodies])
    m = np.array([b.mass for b in scene.bodies])[free]
    start = (m[:, None] * np.asarray(_state(solution, 0.0)[0])[free]).sum(axis=0) / m.sum()
    for t in times_around_an_event(scene, solution):
        frame = frame_at(scene, solution, t, COM)
        centres, velocities = _state(solution, t)
        seen = np.array([frame.velocity_of(v) for v in velocities])[free]
        total = (m[:, None] * seen).sum(axis=0)
        assert np.all(np.abs(total) <= 1e-12 * max(1.0, np.abs(m[:, None] * velocities[free]).sum())), (t, total)
        drawn = np.array([frame.seen(c, t) for c in centres])[free]
        assert np.allclose(
            (m[:, None] * drawn).sum(axis=0) / m.sum(), start, rtol=0, atol=1e-12 * (1 + abs(start).max())
        )


@pytest.mark.parametrize("stem", FREE_SCENES)
def test_in_bs_rest_frame_b_is_still_where_it_started(stem):
    scene, solution = _solved(stem)
    b = solution.other
    for t in times_around_an_event(scene, solution):
        frame = frame_at(scene, solution, t, RELATIVE)
        centres, velocities = _state(solution, t)
        assert frame.velocity_of(velocities[b]) == (0.0, 0.0, 0.0)
        assert np.allclose(frame.seen(centres[b], t), scene.bodies[b].center, rtol=0, atol=1e-12)


def test_the_centre_of_mass_frame_changes_only_where_a_fixed_body_or_a_wall_acts():
    scene, solution = _solved("gas_in_container")  # W is a fixed container: each wall hit turns the centre of mass
    h = scene.horizon
    walls = sorted({e.time for e in solution.events if scene.container in e.pair})
    frame = frame_at(scene, solution, h, COM)
    assert [c.time for c in frame.changes] == walls and len(walls) > 3
    assert all(scene.container in e.pair for c in frame.changes for e in c.events)
    between = (walls[0] + walls[1]) / 2
    assert [c.time for c in frame_at(scene, solution, between, COM).changes] == walls[:1]
    # two free bodies meeting keep their centre of mass going: no change, the frame is one inertial frame
    scene, solution = _solved("snooker_break")
    assert frame_at(scene, solution, scene.horizon, COM).changes == ()
    assert [c.time for c in frame_at(scene, solution, scene.horizon, RELATIVE).changes] == sorted(
        {e.time for e in solution.events if solution.other in e.pair}
    )  # B's rest frame changes at each of B's events


def test_a_point_is_seen_by_galileo_until_the_frame_changes_and_without_a_jump_of_what_it_follows_after():
    scene, solution = _solved("seed004_ricochet")  # one free body: its centre-of-mass frame is A's rest frame
    (event,) = solution.events
    a0 = scene.bodies[0].center
    before = frame_at(scene, solution, event.time / 2, COM)
    velocity = scene.bodies[0].velocity
    assert before.velocity == velocity and before.changes == ()
    point, tau = (1.0, 2.0, 3.0), 0.3
    assert before.seen(point, tau) == pytest.approx(np.subtract(point, np.multiply(velocity, tau)), abs=1e-12)
    for t in (event.time / 2, event.time, (event.time + 1) / 2, 1.0):  # A stays where it started, through the bounce
        frame = frame_at(scene, solution, t, COM)
        assert frame.seen(_state(solution, t)[0][0], t) == pytest.approx(a0, abs=1e-12)
    after = frame_at(scene, solution, 0.9, COM)
    assert [c.time for c in after.changes] == [event.time] and after.velocity == solution.path.segments[1].velocities[0]
    assert after.seen(point, tau, blend=0.0) == point  # not yet turned: the world


def test_the_world_frame_sees_everything_where_it_is_and_no_free_body_leaves_the_world():
    scene, solution = _solved("caged_ball")  # one free ball among fixed ones
    world = frame_at(scene, solution, 0.5)
    assert (world.kind, world.velocity, world.seen((1.0, 2.0, 3.0), 7.0)) == (WORLD, (0.0, 0.0, 0.0), (1.0, 2.0, 3.0))
    scene, solution = _solved("default")
    fixed = scene.with_body(0, mass=math.inf)  # A fixed too: no free body, no centre of mass
    frame = frame_at(fixed, solve(fixed), 0.5, COM)
    assert (frame.kind, frame.asked, frame.moving) == (WORLD, COM, False)
    with pytest.raises(ValueError, match="frame"):
        frame_at(scene, solution, 0.5, "lab")
