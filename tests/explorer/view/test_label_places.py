"""The labels' rule, shared by the window and the web page: beside its sphere, never over another, or left out."""

from __future__ import annotations

import pytest

from explorer.view.label_places import GAP, NEAR, Plan, box_hits_segment, candidate_offsets, place

#: Two bodies side by side; A's name is 20 x 10 pixels.
VIEW = (400.0, 300.0)


def _plan(opaque=(True, True)) -> Plan:
    return Plan(["name0", "name1", "root0"], {"name0": 0, "name1": 1}, opaque, ((0, 0, 0), (1, 0, 0)), (1.0, 1.0))


def test_a_name_goes_right_of_its_sphere_just_off_its_outline():
    spots = place(
        _plan(),
        [(100.0, 150.0, 20.0), (300.0, 150.0, 20.0)],
        {"name0": ((100.0, 150.0), (20.0, 10.0), (0, 0))},
        [],
        VIEW,
    )
    assert spots == {"name0": (20.0 + GAP + 10.0, 0.0)}


def test_a_name_that_would_cover_another_sphere_goes_to_the_next_side_and_a_see_through_one_may_be_covered():
    discs = [(100.0, 150.0, 20.0), (140.0, 150.0, 15.0)]  # B just right of A
    label = {"name0": ((100.0, 150.0), (20.0, 10.0), (0, 0))}
    assert place(_plan(), discs, label, [], VIEW) == {"name0": (-(20.0 + GAP + 10.0), 0.0)}  # left
    assert place(_plan((True, False)), discs, label, [], VIEW)["name0"][0] > 0  # B see-through: right again


def test_labels_keep_clear_of_each_other_of_the_fixed_texts_and_the_edges_or_are_left_out():
    discs = [(100.0, 150.0, 20.0), (300.0, 150.0, 20.0)]
    labels = {"name0": ((100.0, 150.0), (20.0, 10.0), (0, 0)), "root0": ((133.0, 150.0), (30.0, 10.0), (0, 0))}
    spots = place(_plan(), discs, labels, [], VIEW)
    assert spots["name0"] == (33.0, 0.0) and spots["root0"] != (0, 0)  # the root label moved off the name
    cx, cy = 133.0 + spots["root0"][0], 150.0 + spots["root0"][1]
    assert abs(cx - 133.0) >= 25.0 + GAP or abs(cy - 150.0) >= 10.0 + GAP
    everywhere = [(0.0, 0.0, VIEW[0], VIEW[1])]  # a fixed text over the whole view: no room at all
    assert place(_plan(), discs, labels, everywhere, VIEW) == {"name0": None, "root0": None}
    corner = {"name0": ((5.0, 5.0), (20.0, 10.0), (0, 0))}  # in the corner: only inside the view
    assert place(_plan(), [(5.0, 5.0, 3.0), (300.0, 150.0, 20.0)], corner, [], VIEW)["name0"] == (3.0 + GAP + 10.0, 0.0)


def test_an_anchored_label_tries_where_it_was_drawn_first_then_the_nearest_spots():
    offsets = candidate_offsets((30.0, 10.0), None, (0.0, -40.0))
    assert offsets[0] == (0.0, -40.0)
    steps = [((x - 0.0) ** 2 + (y + 40.0) ** 2) ** 0.5 for x, y in offsets]
    assert all(a <= b + 1e-9 for a, b in zip(steps, steps[1:]))
    assert len(offsets) == 1 + 8 * 3 + 4 * 4  # a whole step each way at three distances; half a width aside at four


def test_a_name_goes_off_its_own_velocity_arrow_where_a_spot_allows():
    discs = [(100.0, 150.0, 20.0), (300.0, 150.0, 20.0)]
    label = {"name0": ((100.0, 150.0), (20.0, 10.0), (0, 0))}
    rightwards = [(100.0, 150.0, 250.0, 150.0), None]  # A's arrow, from its centre to the right
    assert place(_plan(), discs, label, [], VIEW, rightwards) == {"name0": (-(20.0 + GAP + 10.0), 0.0)}  # left
    upwards = [(100.0, 150.0, 100.0, 290.0), None]
    assert place(_plan(), discs, label, [], VIEW, upwards) == {"name0": (20.0 + GAP + 10.0, 0.0)}  # right: clear
    others = [None, rightwards[0]]  # B's arrow, not A's: A's name may cover it
    assert place(_plan(), discs, label, [], VIEW, others) == {"name0": (33.0, 0.0)}
    # fixed texts left of A, above and below it: every free spot is on the arrow, and the first of them is taken
    walls = [(0.0, 0.0, 111.0, VIEW[1]), (0.0, 0.0, VIEW[0], 141.0), (0.0, 159.0, VIEW[0], VIEW[1])]
    assert place(_plan(), discs, label, walls, VIEW, rightwards) == {"name0": (33.0, 0.0)}


def test_a_segment_hits_a_box_when_it_passes_through_it_or_within_the_gap():
    box = (10.0, 10.0, 20.0, 20.0)
    assert box_hits_segment(box, (0.0, 15.0, 30.0, 15.0))  # straight through
    assert box_hits_segment(box, (12.0, 12.0, 13.0, 13.0))  # inside
    assert box_hits_segment(box, (0.0, 0.0, 30.0, 30.0))  # the diagonal
    assert box_hits_segment(box, (0.0, 20.0 + GAP - 0.5, 30.0, 20.0 + GAP - 0.5))  # within the gap
    assert not box_hits_segment(box, (0.0, 20.0 + GAP + 0.5, 30.0, 20.0 + GAP + 0.5))
    assert not box_hits_segment(box, (0.0, 15.0, 10.0 - GAP - 0.5, 15.0))  # ends before it
    assert not box_hits_segment(box, (0.0, 40.0, 40.0, 0.0 + 45.0))  # passes by


def test_a_scenes_plan_holds_each_moving_bodys_arrow_from_its_centre_to_its_tip():
    from explorer.model.derived.analysis import solve
    from explorer.model.formats.gallery import SCENES_DIR
    from explorer.model.formats.scene_io import load
    from explorer.view.label_places import label_plan
    from explorer.view.placement import place as placement

    scene = load(SCENES_DIR / "default.json")  # A moves, B is fixed
    solution = solve(scene)
    plan = label_plan(scene, solution, placement(scene, solution, 0.0, 0.0))
    a = scene.bodies[0]
    tip = tuple(c + scene.horizon * v for c, v in zip(a.center, a.velocity))
    assert plan.arrows[0] == (a.center, pytest.approx(tip)) and plan.arrows[1] is None


def _gap(box, disc) -> float:
    """Pixels between a box (x0, y0, x1, y1) and a disc's outline (0 where they meet)."""
    x, y = min(max(disc[0], box[0]), box[2]), min(max(disc[1], box[1]), box[3])
    return max(0.0, ((x - disc[0]) ** 2 + (y - disc[1]) ** 2) ** 0.5 - disc[2])


def test_a_wide_label_at_the_views_edge_slides_into_the_view_beside_its_anchor_not_a_width_away():
    """The live page's t₁ after Reveal: its anchor near the right edge, a large sphere on its left; it was drawn
    two widths to the left, far from its ghost."""
    anchor, size = (392.0, 150.0), (178.0, 16.0)
    discs = [(60.0, 60.0, 5.0), (250.0, 100.0, 40.0)]
    spots = place(_plan(), discs, {"root0": (anchor, size, (0.0, 0.0))}, [], VIEW)
    dx, dy = spots["root0"]
    box = (anchor[0] + dx - 89.0, anchor[1] + dy - 8.0, anchor[0] + dx + 89.0, anchor[1] + dy + 8.0)
    assert box[2] <= VIEW[0] and box[0] >= 0.0
    assert _gap(box, (*anchor, 0.0)) <= NEAR


def test_every_label_placed_stays_near_its_item_and_one_with_no_room_there_is_left_out():
    discs = [(200.0, 150.0, 40.0), (300.0, 150.0, 30.0)]
    labels = {"name0": ((200.0, 150.0), (20.0, 10.0), (0, 0)), "name1": ((300.0, 150.0), (20.0, 10.0), (0, 0)),
              "root0": ((250.0, 200.0), (120.0, 14.0), (0.0, 0.0))}  # fmt: skip
    crowd = [(0.0, 0.0, 400.0, 100.0), (0.0, 215.0, 400.0, 300.0), (0.0, 0.0, 150.0, 300.0)]  # texts all around
    for fixed in ([], crowd):
        spots = place(_plan(), discs, labels, fixed, VIEW)
        for name, offset in spots.items():
            if offset is None:
                continue
            (ax, ay), (w, h), _ = labels[name]
            box = (ax + offset[0] - w / 2, ay + offset[1] - h / 2, ax + offset[0] + w / 2, ay + offset[1] + h / 2)
            item = discs[int(name[4:])] if name.startswith("name") else (ax, ay, 0.0)
            assert _gap(box, item) <= NEAR, (name, fixed)
    around = [(100.0, 100.0, 300.0, 200.0)]  # a text all around the anchor, room only far from it
    label = {"root0": ((200.0, 150.0), (60.0, 10.0), (0.0, 0.0))}
    assert place(_plan(), [(20.0, 20.0, 1.0), (30.0, 20.0, 1.0)], label, around, VIEW) == {"root0": None}


def test_a_label_whose_item_is_out_of_the_view_is_left_out():
    """A's name over the page's hint while A is out of view (after Play, in B's rest frame): left out."""
    discs = [(-30.0, 150.0, 40.0), (300.0, 310.0, 30.0)]  # A left of the view, its outline reaching in; B below
    labels = {
        "name0": ((-30.0, 150.0), (20.0, 10.0), (0, 0)),
        "name1": ((300.0, 310.0), (20.0, 10.0), (0, 0)),
        "root0": (None, (40.0, 10.0), (0.0, 0.0)),
    }  # fmt: skip  (None: behind the camera)
    assert place(_plan(), discs, labels, [], VIEW) == {"name0": None, "name1": None, "root0": None}


def _screen_axes(direction) -> list:
    """Each world axis as a camera looking from ``direction`` (towards the camera, z up) shows it: right and up."""
    import numpy as np

    sight = -np.asarray(direction, dtype=float) / np.linalg.norm(direction)
    right = np.cross(sight, (0.0, 0.0, 1.0))
    right /= np.linalg.norm(right)
    up = np.cross(right, sight)
    return [(float(e @ right), float(e @ up)) for e in np.eye(3)]


@pytest.mark.parametrize("direction", [(0.1, -0.75, 1.0), (1.0, -1.0, 0.4), (0.0, -1.0, 0.2), (0.3, 0.2, 1.0)])
def test_the_axes_glyphs_letters_stay_apart_on_screen(direction):
    """From the default camera (VIEW_DIRECTION) y and z both point up the screen and their letters met ("zY")."""
    from explorer.view.bounds import VIEW_DIRECTION
    from explorer.view.label_places import AXIS_LABEL_APART, axis_label_reach

    axes = _screen_axes(direction)
    reach = axis_label_reach(axes)
    letters = [(r * x, r * y) for r, (x, y) in zip(reach, axes)]
    for i in range(3):
        for j in range(i):
            assert ((letters[i][0] - letters[j][0]) ** 2 + (letters[i][1] - letters[j][1]) ** 2) ** 0.5 >= (
                AXIS_LABEL_APART - 1e-9
            ), (direction, reach)
    if direction == VIEW_DIRECTION:
        assert reach[0] == reach[2] == 1.0 < reach[1]  # only y's letter moves out, beyond z's
