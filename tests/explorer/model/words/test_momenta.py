"""Each body's momentum and energy at a time, the centre of mass, and the momentum layer and frame drawn from them."""

from __future__ import annotations

import json
import math

import pytest
from cli_helpers import solved

from explorer.model.derived.analysis import solve
from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.formats.scene_io import from_dict, load
from explorer.model.words.momenta import bodies_at, centre_of_mass, total_momentum
from explorer.view.picture import describe

HEAD_ON = {
    "format": "sphere-explorer/1", "mode": "all", "horizon": 1.0, "restitution": 1.0,
    "bodies": [{"name": "A", "center": [-3, 0, 0], "velocity": [6, 0, 0], "radius": 1.0, "mass": 1.0},
               {"name": "B", "center": [3, 0, 0], "velocity": [-2, 0, 0], "radius": 1.0, "mass": 1.0}],
}  # fmt: skip


def test_a_free_body_has_m_v_and_half_m_v_squared_and_a_fixed_one_neither():
    scene = load(SCENES_DIR / "default.json")  # B is fixed
    solution = solve(scene)
    a, b = bodies_at(scene, solution, 0.0)
    m = scene.bodies[0].mass
    assert a.momentum == tuple(m * v for v in scene.bodies[0].velocity)
    assert a.kinetic_energy == 0.5 * m * sum(v * v for v in scene.bodies[0].velocity)
    assert (b.mass, b.momentum, b.kinetic_energy) == (None, None, None) and b.center == scene.bodies[1].center
    com = centre_of_mass([a, b])
    assert com.position == a.center and com.velocity == scene.bodies[0].velocity  # the one free body's
    assert centre_of_mass([b]) is None


@pytest.mark.parametrize("stem", ["snooker_break", "newtons_cradle"])
def test_the_centre_of_mass_of_a_free_motion_moves_in_one_straight_line_through_every_event(stem):
    scene = load(SCENES_DIR / f"{stem}.json")
    solution = solve(scene)
    assert all(math.isfinite(b.mass) for b in scene.bodies) and len(solution.events) > 2
    start = centre_of_mass(bodies_at(scene, solution, 0.0))
    for event in solution.events:
        com = centre_of_mass(bodies_at(scene, solution, event.time))
        expected = [start.position[k] + start.velocity[k] * event.time for k in range(3)]
        scale = max(1.0, *map(abs, expected))
        assert all(abs(com.position[k] - expected[k]) <= 1e-12 * scale for k in range(3)), (event, com, expected)
        assert all(abs(com.velocity[k] - start.velocity[k]) <= 1e-12 * scale for k in range(3))


def test_between_the_wall_events_of_a_container_the_centre_of_mass_moves_straight_at_its_momentum_over_its_mass():
    scene = load(SCENES_DIR / "gas_in_container.json")
    solution = solve(scene)
    segments = [s for s in solution.path.segments if s.t_end - s.t_start > 1e-3][:5]
    for seg in segments:
        a, b = seg.t_start, seg.t_end
        start, end = (centre_of_mass(bodies_at(scene, solution, t)) for t in (a + 1e-9 * (b - a), b - 1e-9 * (b - a)))
        free = [x for x in bodies_at(scene, solution, a) if x.mass is not None]
        velocity = [math.fsum(x.momentum[k] for x in free) / math.fsum(x.mass for x in free) for k in range(3)]
        for k in range(3):
            assert abs(end.position[k] - start.position[k] - velocity[k] * (end_t := (b - a) * (1 - 2e-9))) <= 1e-9, (
                end_t
            )


def test_solve_time_gives_every_body_and_the_centre_of_mass(tmp_path):
    path = tmp_path / "head_on.json"
    path.write_text(json.dumps(HEAD_ON))
    data = solved(path, "--time", "0.75")
    assert data["time"] == 0.75
    a, b = data["bodies_at"]
    # equal masses head on, elastic: they touch at t = 0.5 (6 - 8 t = 2), A at x = 0, and swap velocities
    assert a == {"name": "A", "mass": 1.0, "center": [0.0 + -2 * 0.25, 0.0, 0.0], "velocity": [-2.0, 0.0, 0.0],
                 "momentum": [-2.0, 0.0, 0.0], "kinetic_energy": 2.0}  # fmt: skip
    assert b["velocity"] == [6.0, 0.0, 0.0] and b["kinetic_energy"] == 18.0
    assert data["center_of_mass"] == {"position": [0.0 + 2.0 * 0.75, 0.0, 0.0], "velocity": [2.0, 0.0, 0.0]}
    b = solved(SCENES_DIR / "default.json", "--time", "0")["bodies_at"][1]
    assert (b["mass"], b["momentum"], b["kinetic_energy"]) == (None, None, None)


def _momentum_arrows(picture) -> dict[str, tuple]:
    return {s.name: s.args for s in picture.shapes if s.name.startswith("momentum")}


def test_the_momentum_arrows_are_m_v_to_one_scale_and_in_the_centre_of_mass_frame_two_equal_balls_reverse():
    scene = from_dict(HEAD_ON)
    solution = solve(scene)
    layers = {"momentum": True}
    before, after = (describe(scene, solution, t, layers=layers) for t in (0.25, 0.75))
    lengths = {name: args[1][0] - args[0][0] for name, args in _momentum_arrows(before).items()}
    assert lengths["momentum0"] / lengths["momentum1"] == pytest.approx(6 / -2, rel=1e-12)  # m v: 6 and -2, one scale
    assert "com" in {s.name for s in before.shapes} and "com_path" in {s.name for s in before.shapes}
    com_before, com_after = (describe(scene, solution, t, layers=layers, com=1.0) for t in (0.25, 0.75))
    for picture, sign in ((com_before, 1), (com_after, -1)):
        arrows = _momentum_arrows(picture)
        a = arrows["momentum0"][1][0] - arrows["momentum0"][0][0]
        b = arrows["momentum1"][1][0] - arrows["momentum1"][0][0]
        assert math.copysign(1, a) == sign and a == pytest.approx(-b)  # equal and opposite; reversed by the impact
    assert describe(scene, solution, 0.75, layers={"momentum": False}).shapes == [
        s for s in after.shapes if not s.name.startswith(("momentum", "com"))
    ]


def test_the_centre_of_mass_weighs_each_free_body_by_its_mass():
    data = json.loads(json.dumps(HEAD_ON))
    data["bodies"][1]["mass"] = 3.0  # B three times heavier: the centre of mass is three quarters of the way to B
    scene = from_dict(data)
    com = centre_of_mass(bodies_at(scene, solve(scene), 0.0))
    assert com.position == (1.5, 0.0, 0.0) and com.velocity == ((6.0 - 6.0) / 4.0, 0.0, 0.0)


def test_the_centre_of_mass_is_weighted_by_mass():
    """A (m 3) at x = 0 moving at 4, B (m 1) at x = 8 at rest, C fixed: the centre is at (3·0 + 1·8) / 4 = 2 and
    moves at (3·4 + 1·0) / 4 = 3; Σ m v = 12."""
    data = {"format": "sphere-explorer/1", "mode": "all", "horizon": 0.1, "restitution": 1.0, "bodies": [
        {"name": "A", "center": [0, 0, 0], "velocity": [4, 0, 0], "radius": 0.5, "mass": 3.0},
        {"name": "B", "center": [8, 0, 0], "velocity": [0, 0, 0], "radius": 0.5, "mass": 1.0},
        {"name": "C", "center": [0, 9, 0], "velocity": [0, 0, 0], "radius": 0.5, "fixed": True}]}  # fmt: skip
    scene = from_dict(data)
    bodies = bodies_at(scene, solve(scene), 0.0)
    com = centre_of_mass(bodies)
    assert com.position == (2.0, 0.0, 0.0) and com.velocity == (3.0, 0.0, 0.0)
    assert total_momentum(bodies) == (12.0, 0.0, 0.0)
