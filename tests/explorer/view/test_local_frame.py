"""The page's drawing frame: points far out or very small come out near the origin at about unit size, back through
``world``; every kind of shape has its arguments' roles; the frame moves in steps of its unit."""

from __future__ import annotations

import inspect
import math
from fractions import Fraction

import pytest

from explorer.view import geometry
from explorer.view.local_frame import ARG_ROLES, LocalFrame, frame_for
from explorer.view.picture import KINDS

FAR = 1e11


def test_two_spheres_five_apart_at_1e11_are_drawn_five_apart_in_numbers_a_float32_holds():
    frame = frame_for(((FAR - 6.0, -1.0, -1.0), (FAR + 1.0, 1.0, 1.0)))
    a, b = frame.point((FAR - 5.0, 0.0, 0.0)), frame.point((FAR, 0.0, 0.0))
    assert frame.unit == 8.0  # the power of two nearest the box's size, 7
    assert (b[0] - a[0]) * frame.unit == 5.0
    assert max(abs(c) for c in a + b) < 1.0
    assert frame.world(a) == (FAR - 5.0, 0.0, 0.0) and frame.world(b) == (FAR, 0.0, 0.0)


def test_spheres_of_radius_1e_8_are_drawn_about_unit_size():
    frame = frame_for(((-6e-8, -1e-8, -1e-8), (1e-8, 1e-8, 1e-8)))
    assert 0.5 <= frame.length(7e-8) <= 2.0
    assert math.log2(frame.unit) == round(math.log2(frame.unit))  # a power of two: dividing by it is exact
    assert Fraction(frame.length(1e-8)) == Fraction(1e-8) / Fraction(frame.unit)


def test_a_point_and_back_is_the_point_to_the_last_bits():
    frame = frame_for(((FAR - 6.0, 3.0, -1.0), (FAR + 1.0, 5.0, 1.0)))
    for p in [(FAR - 5.0, 4.0, 0.5), (FAR + 0.75, 3.25, -0.125)]:
        assert frame.world(frame.point(p)) == pytest.approx(p, rel=1e-15, abs=1e-12)


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_shape_names_the_roles_of_the_arguments_its_builder_takes(kind):
    builder = getattr(geometry, kind)
    taken = [p for p in inspect.signature(builder).parameters.values() if p.default is inspect.Parameter.empty]
    assert len(ARG_ROLES[kind]) == len(taken), (kind, [p.name for p in taken])


def test_a_shape_s_points_move_and_scale_its_lengths_scale_and_its_directions_stay():
    frame = LocalFrame((10.0, 20.0, 30.0), 2.0)
    ring = frame.args("ring", ((12.0, 20.0, 30.0), (0.0, 0.0, 1.0), 4.0, 0.5, 32))
    assert ring == [[1.0, 0.0, 0.0], (0.0, 0.0, 1.0), 2.0, 0.25, 32]
    tubes = frame.args("coloured_tubes", ([[(10.0, 20.0, 30.0), (14.0, 20.0, 30.0)]], ["#ff0000"], 1.0))
    assert tubes == [[[[0.0, 0.0, 0.0], [2.0, 0.0, 0.0]]], ["#ff0000"], 0.5]
    spheres = frame.args("spheres", ([(10.0, 22.0, 30.0)], [6.0]))
    assert spheres == [[[0.0, 1.0, 0.0]], [3.0]]


def test_a_camera_pose_moves_its_position_and_focal_point_and_keeps_its_up_and_angle():
    frame = LocalFrame((1.0, 1.0, 1.0), 4.0)
    pose = frame.pose({"position": (9.0, 1.0, 1.0), "focal_point": (1.0, 5.0, 1.0), "up": (0, 0, 1), "view_angle": 30})
    assert pose == {"position": [2.0, 0.0, 0.0], "focal_point": [0.0, 1.0, 0.0], "up": (0, 0, 1), "view_angle": 30}


def test_the_frame_moves_in_steps_of_its_unit_and_grows_in_powers_of_two():
    box = ((-1.0, -1.0, -1.0), (1.0, 1.0, 1.0))
    assert frame_for(box) == LocalFrame((0.0, 0.0, 0.0), 2.0)
    nudged = ((-0.6, -1.0, -1.0), (1.4, 1.0, 1.0))  # its centre 0.2 along: the same frame
    assert frame_for(nudged) == frame_for(box)
    assert frame_for(((2.0, -1.0, -1.0), (4.0, 1.0, 1.0))) == LocalFrame((4.0, 0.0, 0.0), 2.0)  # a step of 2
    assert frame_for(((-3.0, -1.0, -1.0), (3.0, 1.0, 1.0))).unit == 8.0  # 6 is nearer 8 than 4 in powers of two


def test_the_inverse_takes_the_page_s_numbers_back_to_the_world():
    frame = frame_for(((FAR - 6.0, 3.0, -1.0), (FAR + 1.0, 5.0, 1.0)))
    back = frame.inverse()
    local = frame.args("capsule", ((FAR - 5.0, 4.0, 0.0), (FAR, 4.0, 0.0), 1.0))
    assert back.args("capsule", local) == [[FAR - 5.0, 4.0, 0.0], [FAR, 4.0, 0.0], 1.0]
