"""The scene model's view block, camera, added and removed bodies, and the shape of its messages.

Each refusal is compared whole (``"<where>: <reason>"``) with its path; each
limit is tried at the limit and one past it; positions of added bodies are
worked out by hand in the comments.
"""

from __future__ import annotations

import math

import pytest

from explorer.model.state.scene import (
    MAX_BODIES,
    MAX_NAME,
    MAX_STEPS,
    MAX_TEXT,
    MAX_VIEW_ITEMS,
    MAX_VIEW_TEXT,
    Scene,
    SceneBody,
    SceneError,
    check_camera,
    check_steps,
    short_repr,
    view_settings,
)

INF = math.inf
#: The layer names a scene file may use, in the order the View menu lists them.
LAYER_NAMES = (
    "capsules",
    "minkowski",
    "roots",
    "contact",
    "reflection",
    "labels",
    "axes",
    "steps",
    "conserved",
    "momentum",
)


def two(mode: str = "pair", **changes) -> Scene:
    return Scene(mode, 1.0, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0), SceneBody("B", (5, 0, 0), (0, 0, 0), 1.0)),
                 **changes)  # fmt: skip


def refusal(make) -> tuple[str, tuple]:
    with pytest.raises(SceneError) as info:
        make()
    return str(info.value), info.value.path


def with_view(view) -> tuple[str, tuple]:
    return refusal(lambda: two(view=view))


# -- bodies ------------------------------------------------------------------------------------------


def test_a_body_moves_along_its_velocity():
    body = SceneBody("A", (1.0, 2.0, 3.0), (4.0, -6.0, 8.0), 1.0)
    assert body.position(0.5) == (3.0, -1.0, 7.0)
    assert body.position(2.0) == (9.0, -10.0, 19.0)


def test_numbers_are_stored_as_floats():
    scene = two()
    assert [type(x) for b in scene.bodies for x in (*b.center, *b.velocity, b.radius, b.mass)] == [float] * 16


def test_numbers_given_as_integers_or_lists_in_a_body_are_stored_as_floats_in_tuples():
    scene = Scene("pair", 1.0, 0.0, (SceneBody("A", [0, 0, 0], (1, 0, 0), 1, 1), SceneBody("B", (3.0, 0.0, 0.0))))
    a = scene.bodies[0]
    assert (a.center, a.velocity, a.radius, a.mass) == ((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0, 1.0)
    assert [type(x) for x in (a.center, a.velocity)] == [tuple, tuple]
    assert [type(x) for x in (*a.center, *a.velocity, a.radius, a.mass)] == [float] * 8


def test_an_edit_keeps_the_other_bodies_and_what_they_computed():
    """A drag edits one body a move: the others, and their solver bodies, are not made and checked again."""
    scene = two()
    solver_body = scene.bodies[1].to_body()
    moved = scene.with_body(0, center=(0.5, 0.0, 0.0))
    assert moved.bodies[1] is scene.bodies[1] and moved.bodies[1].to_body() is solver_body
    assert moved.bodies[0].to_body().center == (0.5, 0.0, 0.0)


def test_an_added_body_is_placed_clear_of_every_other():
    """Bodies A (r 1) at the origin and B (r 2) at (5, -3, 4): the farthest reach is |5| + 2 = 7.

    The new one copies the last body's radius and goes above it: y = −3 + 7 + 2 × 2 = 8.
    """
    scene = Scene("all", 1.0, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0),
                                    SceneBody("B", (5, -3, 4), (0, 1, 0), 2.0, 3.0)))  # fmt: skip
    added = scene.with_added_body()
    assert added.bodies[:2] == scene.bodies
    assert added.bodies[2] == SceneBody("C", (5.0, 8.0, 4.0), (0.0, 0.0, 0.0), 2.0, 1.0)
    again = added.with_added_body()  # the farthest reach is now C's: 8 + 2 = 10; y = 8 + 10 + 4 = 22
    assert again.bodies[3] == SceneBody("D", (5.0, 22.0, 4.0), (0.0, 0.0, 0.0), 2.0, 1.0)


def test_a_body_added_to_a_scene_with_a_container_goes_inside_it_clear_of_the_wall_and_the_balls():
    """A container W (r 3) at the origin holding A (r 0.5) at its centre and B (r 1) at (1.5, 0, 0): the new ball
    takes the smallest radius, 0.5, at the first free point of a lattice of spacing 1 from the centre outwards: the
    centre is A's, and every point at distance 1 is within 1.01 × (0.5 + 0.5) of A; at distance √2 the first in
    the lattice's order (coordinates sorted) is (−1, −1, 0): √2 from A, √(2.5² + 1) from B, 3 − 0.5 from the wall."""
    scene = Scene("all", 1.0, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 0.5),
                                    SceneBody("B", (1.5, 0, 0), (0, 0, 0), 1.0),
                                    SceneBody("W", (0, 0, 0), (0, 0, 0), 3.0, INF, container=True)))  # fmt: skip
    added = scene.with_added_body()
    assert added.bodies[3] == SceneBody("C", (-1.0, -1.0, 0.0), (0.0, 0.0, 0.0), 0.5, 1.0)
    crowded = Scene("all", 1.0, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0),
                                      SceneBody("B", (0.5, 0, 0), (0, 0, 0), 1.0),
                                      SceneBody("W", (0, 0, 0), (0, 0, 0), 1.2, INF, container=True)))  # fmt: skip
    assert refusal(crowded.with_added_body) == ("bodies: no room for another ball of radius 1 inside the container W",
                                                ("bodies",))  # fmt: skip


def test_adding_a_body_is_refused_in_inside_mode_and_at_the_limit():
    inside = Scene("inside", 1.0, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0),
                                        SceneBody("B", (0, 0, 0), (0, 0, 0), 4.0, INF)))  # fmt: skip
    assert refusal(inside.with_added_body) == ("bodies: inside mode has exactly a ball and its container", ("bodies",))
    scene = two("all")
    while len(scene.bodies) < MAX_BODIES - 1:
        scene = scene.with_added_body()
    full = scene.with_added_body()  # the 16th is allowed
    assert len(full.bodies) == MAX_BODIES
    assert refusal(full.with_added_body) == (f"bodies: at most {MAX_BODIES} bodies", ("bodies",))


def test_removing_a_body():
    three = two("all").with_added_body()
    assert [b.name for b in three.without_body(1).bodies] == ["A", "C"]
    assert [b.name for b in three.without_body(2).bodies] == ["A", "B"]
    assert refusal(lambda: three.without_body(0)) == ("bodies[0]: body A cannot be removed", ("bodies", 0))
    assert refusal(lambda: two().without_body(1)) == ("bodies: a scene needs at least two bodies", ("bodies",))
    assert refusal(lambda: two("all").without_body(1)) == (
        "bodies: a scene needs at least two bodies besides its container",
        ("bodies",),
    )
    # with a container, three bodies are the least: A, one more, and the container
    held = Scene("all", 1.0, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0), SceneBody("B", (3, 0, 0), (0, 0, 0), 1.0),
                                   SceneBody("C", (0, 0, 0), (0, 0, 0), 9.0, INF, True)))  # fmt: skip
    assert refusal(lambda: held.without_body(1)) == (
        "bodies: a scene needs at least two bodies besides its container",
        ("bodies",),
    )
    four = held.with_changes(bodies=(*held.bodies, SceneBody("D", (-3, 0, 0), (0, 0, 0), 1.0)))
    assert [b.name for b in four.without_body(3).bodies] == ["A", "B", "C"]


def test_the_container_refusal_gives_both_radii():
    with pytest.raises(SceneError) as info:
        Scene("inside", 1.0, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.5),
                                   SceneBody("B", (0, 0, 0), (0, 0, 0), 1.25, INF)))  # fmt: skip
    assert str(info.value) == "bodies[1].radius: the container must be larger than the ball (1.25 <= 1.5)"


# -- text fields ---------------------------------------------------------------------------------------


def test_text_with_a_lone_surrogate_or_a_control_character_is_refused_at_its_place():
    assert refusal(lambda: two(title="ab\ud800c")) == (
        "title: not valid Unicode text: lone surrogate '\\ud800' at character 3",
        ("title",),
    )
    assert refusal(lambda: two(description="line\x07bell")) == (
        "description: control character '\\x07' at character 5",
        ("description",),
    )
    assert two(description="tabs\tand\nnewlines").description == "tabs\tand\nnewlines"


def test_a_reason_is_one_line_of_at_most_240_characters():
    err = SceneError.at(("title",), "first\nsecond")
    assert (str(err), err.reason) == ("title: first second", "first second")
    at_limit = SceneError.at(("title",), "x" * 240)
    assert at_limit.reason == "x" * 240
    longer = SceneError.at(("title",), "y" + "x" * 240)
    assert longer.reason == "y" + "x" * 238 + "…" and len(longer.reason) == 240


def test_short_repr_keeps_sixty_characters():
    assert short_repr("x" * 58) == "'" + "x" * 58 + "'"
    assert short_repr("x" * 59) == "'" + "x" * 56 + "..."


# -- the view block ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "view, message, path",
    [
        ([], "view: expected an object", ("view",)),
        ({"zoom": 10**400}, "view.zoom: number too large", ("view", "zoom")),
        ({"zoom": math.nan}, "view.zoom: must be finite, got nan", ("view", "zoom")),
        ({"note": "x" * (MAX_TEXT + 1)}, f"view.note: expected text of at most {MAX_TEXT} characters", ("view", "note")),
        ({"notes": {"": 1}}, f"view.notes: expected names of 1 to {MAX_NAME} characters as keys, got ''",
         ("view", "notes")),
        ({"notes": {"k" * (MAX_NAME + 1): 1}},
         f"view.notes: expected names of 1 to {MAX_NAME} characters as keys, got '{'k' * (MAX_NAME + 1)}'",
         ("view", "notes")),
        ({"notes": {3: 1}}, f"view.notes: expected names of 1 to {MAX_NAME} characters as keys, got 3",
         ("view", "notes")),
        ({"notes": {"a\tb": 1}}, "view.notes: control character '\\t' at character 2", ("view", "notes")),
        ({"notes": [1, {2, 3}]},
         "view.notes[1]: expected JSON data (numbers, text, true/false, lists, objects), got set", ("view", "notes", 1)),
        ({"layers": ["ghosts"]}, "view.layers: expected an object of layer names and true/false", ("view", "layers")),
        ({"layers": {"roots": 1}}, "view.layers.roots: expected true or false, got 1", ("view", "layers", "roots")),
        ({"steps": 0}, f"view.steps: expected a whole number from 1 to {MAX_STEPS}, got 0", ("view", "steps")),
        ({"steps": MAX_STEPS + 1}, f"view.steps: expected a whole number from 1 to {MAX_STEPS}, got {MAX_STEPS + 1}",
         ("view", "steps")),
        ({"steps": True}, f"view.steps: expected a whole number from 1 to {MAX_STEPS}, got True", ("view", "steps")),
    ],
)  # fmt: skip
def test_view_refused_word_for_word(view, message, path):
    assert with_view(view) == (message, path)


def test_view_data_at_its_limits():
    # every value counts, the view object itself too: MAX_VIEW_ITEMS in all is the most
    at_limit = {"notes": [None] * (MAX_VIEW_ITEMS - 2)}
    assert two(view=at_limit).view == at_limit
    over = {"notes": [None] * (MAX_VIEW_ITEMS - 1)}
    assert with_view(over) == (f"view: too large (more than {MAX_VIEW_ITEMS} values)", ("view",))
    assert two(view={"notes": {"k" * MAX_NAME: 1, "j": True, "n": None}}).view["notes"]["j"] is True
    assert two(view={"note": "x" * MAX_TEXT}).view["note"] == "x" * MAX_TEXT
    assert [check_steps(n, ("steps",)) for n in (1, MAX_STEPS)] == [1, MAX_STEPS]


def test_the_view_as_json_text_has_a_limit_of_its_own():
    # four notes of MAX_TEXT characters: each is allowed, together they pass MAX_VIEW_TEXT
    notes = {f"n{i}": "x" * MAX_TEXT for i in range(4)}
    assert with_view(notes) == (f"view: too large (more than {MAX_VIEW_TEXT} characters)", ("view",))
    three = {f"n{i}": "x" * MAX_TEXT for i in range(3)}
    assert two(view=three).view == three


def test_layers_and_steps_are_read_with_their_defaults():
    settings = view_settings({"layers": {"roots": False}, "steps": 12})
    assert settings["steps"] == 12 and settings["camera"] is None
    assert settings["layers"]["roots"] is False
    assert view_settings({})["steps"] == 8


# -- the camera ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "camera, message, path",
    [
        ([0, 0, 0], "view.camera: expected an object with position, focal_point and up", ("view", "camera")),
        ({"position": [0, 0, 9]}, "view.camera.focal_point: missing", ("view", "camera", "focal_point")),
        ({"position": [0, 0, 9], "focal_point": [0, 0, 2e12]},
         "view.camera.focal_point: components must be within ±1e+12, got (0.0, 0.0, 2000000000000.0)",
         ("view", "camera", "focal_point")),
        ({"position": [1, 2, 3], "focal_point": [1, 2, 3]}, "view.camera.position: must differ from focal_point",
         ("view", "camera", "position")),
        ({"position": [0, 0, 9], "focal_point": [0, 0, 0]}, "view.camera.up: must not lie along the line of sight",
         ("view", "camera", "up")),  # the default up, +z, is the line of sight here
    ],
)  # fmt: skip
def test_camera_refused_word_for_word(camera, message, path):
    assert with_view({"camera": camera}) == (message, path)


@pytest.mark.parametrize(
    "sight",
    [(3, 0, 0), (0, 3, 0), (0, 0, 3), (1, 2, 0), (0, 1, 2), (2, 0, 1)],
)
@pytest.mark.parametrize("up", [(1, 0, 0), (0, 1, 0), (0, 0, 1)])
def test_up_is_refused_exactly_when_it_lies_along_the_line_of_sight(sight, up):
    """Sight and up are parallel when one is a multiple of the other: for these, when they are equal
    after scaling, i.e. the sight has a single non-zero component, the one up points along."""
    camera = {"position": [1, 1, 1], "focal_point": [1 + s for s in sight], "up": list(up)}
    along = sum(1 for s in sight if s) == 1 and sight[up.index(1)] != 0
    if along:
        assert (
            refusal(lambda: check_camera(camera, ("camera",)))[0] == "camera.up: must not lie along the line of sight"
        )
    else:
        assert check_camera(camera, ("camera",)) == {k: [float(x) for x in v] for k, v in camera.items()}


def test_a_camera_without_up_gets_plus_z():
    camera = check_camera({"position": [0, -9, 0], "focal_point": [0, 0, 0]}, ("camera",))
    assert camera == {"position": [0.0, -9.0, 0.0], "focal_point": [0.0, 0.0, 0.0], "up": [0.0, 0.0, 1.0]}
    assert view_settings({"camera": {"position": [0, -9, 0], "focal_point": [0, 0, 0]}})["camera"] == camera


def test_layer_names_are_the_documented_ones():
    assert tuple(view_settings({})["layers"]) == LAYER_NAMES
    assert with_view({"layers": {"shadows": True}}) == (
        f"view.layers.shadows: unknown layer 'shadows' (expected one of {', '.join(LAYER_NAMES)})",
        ("view", "layers", "shadows"),
    )


def test_scene_error_at_keeps_its_line_and_reason():
    err = SceneError.at(("bodies", 1, "radius"), "too big", line=7)
    assert (str(err), err.path, err.line, err.reason) == ("bodies[1].radius: too big", ("bodies", 1, "radius"), 7,
                                                          "too big")  # fmt: skip
    whole = SceneError.at((), "file too large")
    assert (str(whole), whole.reason) == ("file too large", "file too large")
    plain = SceneError("line 3: oops", line=3)
    assert plain.reason == "line 3: oops"


@pytest.mark.parametrize(
    "sight, up",
    [((1, 1, 0), (1, -1, 0)), ((0, 1, 1), (0, 1, -1)), ((1, 0, 1), (1, 0, -1))],  # perpendicular, each cross
)  # component made of two equal products
def test_a_perpendicular_up_is_accepted(sight, up):
    camera = {"position": [0.0, 0.0, 0.0], "focal_point": [float(s) for s in sight], "up": [float(u) for u in up]}
    assert check_camera(camera, ("camera",)) == camera


def test_the_view_may_be_exactly_as_long_as_its_limit():
    base = {f"n{i}": "x" * MAX_TEXT for i in range(3)}
    import json

    room = MAX_VIEW_TEXT - len(json.dumps({**base, "n3": ""}))  # characters left for the last note
    exactly = {**base, "n3": "y" * room}
    assert len(json.dumps(exactly)) == MAX_VIEW_TEXT
    assert two(view=exactly).view == exactly
    over = {**base, "n3": "y" * (room + 1)}
    assert with_view(over) == (f"view: too large (more than {MAX_VIEW_TEXT} characters)", ("view",))


def test_a_reason_keeps_its_spaces_and_tabs():
    assert SceneError.at(("title",), "a  b\tc\nd").reason == "a  b\tc d"
