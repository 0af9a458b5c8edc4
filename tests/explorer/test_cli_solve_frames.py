"""``sphere-explorer solve SCENE --time T --frame com|relative`` run as a user runs it (a fresh process each): every
body and the centre of mass in the frame at T, which the output names; the world's numbers without ``--frame``."""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor

import pytest
from cli_helpers import refused, solved
from frame_helpers import FREE_SCENES, times_around_an_event, zero_to_rounding

from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.formats.scene_io import load

pytestmark = pytest.mark.long  # started first (tests/conftest.py)


@pytest.mark.parametrize("stem", FREE_SCENES)
def test_in_the_centre_of_mass_frame_the_momenta_add_to_zero_before_and_after_an_event(stem):
    path = SCENES_DIR / f"{stem}.json"
    scene = load(path)
    free_bodies = [b for b in scene.bodies if math.isfinite(b.mass)]
    mass = math.fsum(b.mass for b in free_bodies)
    start = [math.fsum(b.mass * b.center[k] for b in free_bodies) / mass for k in range(3)]
    times = times_around_an_event(scene)
    with ThreadPoolExecutor(2) as pool:  # the world's and the frame's numbers at each time, two processes at once
        runs = list(pool.map(lambda args: solved(path, *args), [("--time", repr(t), *frame) for t in times
                                                                for frame in ((), ("--frame", "com"))]))  # fmt: skip
    for t, world, com in zip(times, runs[::2], runs[1::2]):
        assert "frame" not in world and com["frame"]["name"] == "com"
        frame_v = com["frame"]["velocity"]
        assert frame_v == pytest.approx(world["center_of_mass"]["velocity"], rel=1e-14, abs=1e-14)
        assert com["center_of_mass"]["velocity"] == pytest.approx([0, 0, 0], abs=1e-12)
        free = [(w, c) for w, c in zip(world["bodies_at"], com["bodies_at"]) if w["mass"] is not None]
        for w, c in free:  # each body: its world velocity less the frame's
            assert c["velocity"] == [w["velocity"][k] - frame_v[k] for k in range(3)]
            assert c["momentum"] == [c["mass"] * v for v in c["velocity"]]
        total = [math.fsum(c["momentum"][k] for _, c in free) for k in range(3)]
        assert zero_to_rounding(total, [w["momentum"] for w, _ in free]), (t, total)
        # the frame went where the centre of mass went, which is still where it started there
        moved = [world["center_of_mass"]["position"][k] - start[k] for k in range(3)]
        assert com["frame"]["moved"] == pytest.approx(moved, abs=1e-12)
        assert com["center_of_mass"]["position"] == pytest.approx(start, abs=1e-12)


@pytest.mark.parametrize("stem", ["heavy_light_glancing", "seed004_ricochet", "newtons_cradle"])
def test_in_bs_rest_frame_b_does_not_move(stem):
    path = SCENES_DIR / f"{stem}.json"
    scene = load(path)
    for t in times_around_an_event(scene):
        out = solved(path, "--time", repr(t), "--frame", "relative")
        b = out["bodies_at"][1]
        assert out["frame"]["name"] == "relative" and b["velocity"] == [0.0, 0.0, 0.0]
        assert b["center"] == pytest.approx(list(scene.bodies[1].center), abs=1e-12)  # pinned where B started
        if b["mass"] is not None:
            assert b["momentum"] == [0.0, 0.0, 0.0] and b["kinetic_energy"] == 0.0


def test_a_frame_without_a_time_is_refused_in_one_line(capsys):
    refused(["solve", SCENES_DIR / "default.json", "--frame", "com"], capsys, "--frame")
    err = refused(["solve", SCENES_DIR / "default.json", "--frame", "lab", "--time", "0"], capsys, "--frame")
    assert "com" in err and "relative" in err
