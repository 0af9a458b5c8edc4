"""Ray against sphere, the building block of seed 000."""

import math

import pytest

from solver import ray_sphere


def test_both_distances_along_the_unit_direction():
    hit = ray_sphere((0.0, 0.0, 0.0), (2.0, 0.0, 0.0), (5.0, 0.0, 0.0), 1.0)
    assert (hit.entry, hit.exit) == (4.0, 6.0)
    assert hit.hit and not hit.starts_inside and hit.first == 4.0


def test_origin_inside_gives_a_negative_entry():
    hit = ray_sphere((0.5, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 0.0), 1.0)
    assert hit.entry == pytest.approx(-math.sqrt(0.75)) and hit.exit == pytest.approx(math.sqrt(0.75))
    assert hit.starts_inside and hit.first == 0.0


def test_sphere_behind_the_ray_is_not_hit_and_a_miss_is_none():
    behind = ray_sphere((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (-5.0, 0.0, 0.0), 1.0)
    assert not behind.hit and behind.first is None
    assert ray_sphere((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (5.0, 2.0, 0.0), 1.0) is None


def test_exact_tangent_line_touches_once():
    hit = ray_sphere((0.0, 1.0, 0.0), (1.0, 0.0, 0.0), (5.0, 0.0, 0.0), 1.0)
    assert hit.entry == hit.exit == 5.0


@pytest.mark.parametrize(
    "args, field",
    [
        (((0, 0, 0), (0, 0, 0), (1, 0, 0), 1.0), "direction"),
        (((0, 0, math.nan), (1, 0, 0), (1, 0, 0), 1.0), "origin"),
        (((0, 0, 0), (1, 0, 0), (1, 0), 1.0), "center"),
        (((0, 0, 0), (1, 0, 0), (1, 0, 0), -1.0), "radius"),
    ],
)
def test_bad_input_names_the_field(args, field):
    with pytest.raises(ValueError, match=field):
        ray_sphere(*args)
