"""Where bodies and their velocity arrows are drawn (explorer/view/placement.py): an arrow always leaves its sphere as
the default camera sees it, drawn longer where it must be, its direction true."""

from __future__ import annotations

import math

import numpy as np
import pytest

from explorer.model.derived.analysis import solve
from explorer.model.formats import scene_io
from explorer.model.formats.gallery import SCENES_DIR
from explorer.view.bounds import VIEW_DIRECTION
from explorer.view.picture import describe
from explorer.view.placement import ARROW_LEAST_OUT, arrow_end

SIGHT = np.asarray(VIEW_DIRECTION) / np.linalg.norm(VIEW_DIRECTION)
ACROSS = np.array([0.0, 0.8, 0.6])  # at right angles to the line of sight: seen at its full length


def _seen(vector) -> float:
    """The length of ``vector`` across the line of sight (what the default camera shows of it)."""
    v = np.asarray(vector, dtype=float)
    return float(np.linalg.norm(v - (v @ SIGHT) * SIGHT))


def test_an_arrow_that_leaves_its_sphere_is_drawn_as_it_is():
    assert float(ACROSS @ SIGHT) == pytest.approx(0.0)
    start = (1.0, 2.0, 3.0)
    tip = tuple(np.add(start, 5.0 * ACROSS))
    assert arrow_end(start, tip, 1.0, 0.5) == (tip, 1.0)


@pytest.mark.parametrize("direction", [ACROSS, np.array([0.0, 1.0, 0.0]), SIGHT, -SIGHT])
def test_a_short_arrow_is_drawn_longer_in_its_own_direction_until_the_camera_sees_it_leave_its_sphere(direction):
    start, radius = np.array([1.0, 2.0, 3.0]), 0.8
    tip = start + 0.3 * direction  # shorter than the radius
    end, stretch = arrow_end(tuple(start), tuple(tip), radius, 0.5)
    drawn = np.subtract(end, start)
    assert stretch > 1.0 and drawn == pytest.approx(stretch * 0.3 * direction)  # the same direction, longer
    assert np.linalg.norm(drawn) >= radius * (1.0 + ARROW_LEAST_OUT) - 1e-12  # out of the sphere in space
    if _seen(direction) > 0.1:  # not along the line of sight: out of the sphere's outline on screen
        assert _seen(drawn) >= radius * (1.0 + ARROW_LEAST_OUT) - 1e-12


def test_a_still_body_has_no_arrow_to_stretch():
    assert arrow_end((1.0, 2.0, 3.0), (1.0, 2.0, 3.0), 1.0, 1.0) == ((1.0, 2.0, 3.0), 1.0)


@pytest.mark.parametrize("ask", [False, True])
def test_the_light_balls_slow_arrow_is_drawn_longer_and_its_true_speed_said_in_words(ask):
    scene = scene_io.load(SCENES_DIR / "heavy_light_glancing.json")  # B: v = (0, 0.5, -0.3), r = 0.8, h = 1
    picture = describe(scene, solve(scene), ask=ask)
    b = scene.bodies[1]
    arrow = next(s for s in picture.shapes if s.name == "arrow1")
    drawn = np.subtract(arrow.args[1], arrow.args[0])
    assert arrow.args[0] == b.center and _seen(drawn) >= b.radius * (1.0 + ARROW_LEAST_OUT) - 1e-12
    words = {x.name: x.text for x in picture.labels}
    speed = math.sqrt(0.5**2 + 0.3**2)
    assert f"speed {speed:.6g}" in words["speed1"]
    assert f"×{np.linalg.norm(drawn) / speed:.2g}" in words["speed1"]
    assert "speed0" not in words  # A's arrow is long enough as it is
