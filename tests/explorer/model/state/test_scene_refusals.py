"""Every refusal of the scene model, word for word, with the field it names; and what it accepts at the edges."""

from __future__ import annotations

import math

import pytest

from explorer.model.state.scene import MAX_BODIES, MAX_NAME, MAX_TEXT, Scene, SceneBody, SceneError

INF = math.inf


def _b(name="A", center=(0, 0, 0), radius=1.0, container=False, mass=1.0, velocity=(0, 0, 0)):
    return SceneBody(name, center, velocity, radius, mass, container)


def _two():
    return (_b("A"), _b("B", (5, 0, 0)))


_REFUSED = [
    (dict(mode="solo"), "mode: expected one of pair, inside, all, got 'solo'"),
    (dict(mode=1), "mode: expected one of pair, inside, all, got 1"),
    (dict(title="x" * (MAX_TEXT + 1)), f"title: expected text of at most {MAX_TEXT} characters"),
    (dict(description=7), f"description: expected text of at most {MAX_TEXT} characters"),
    (dict(bodies=5), "bodies: expected a list of bodies"),
    (dict(bodies=(_b("A"),)), f"bodies: expected 2 to {MAX_BODIES} bodies, got 1"),
    (
        dict(bodies=tuple(_b(f"N{i}", (3 * i, 0, 0)) for i in range(MAX_BODIES + 1))),
        f"bodies: expected 2 to {MAX_BODIES} bodies, got {MAX_BODIES + 1}",
    ),
    (
        dict(mode="inside", bodies=(_b("A"), _b("C", radius=4.0), _b("D", (9, 0, 0)))),
        "bodies: inside mode needs exactly 2 bodies (ball, container), got 3",
    ),
    (dict(bodies=(_b("A"), "B")), "bodies[1]: expected a body"),
    (dict(bodies=(_b("A"), _b(""))), f"bodies[1].name: expected a name of 1 to {MAX_NAME} characters"),
    (
        dict(bodies=(_b("A"), _b("x" * (MAX_NAME + 1)))),
        f"bodies[1].name: expected a name of 1 to {MAX_NAME} characters",
    ),
    (dict(bodies=(_b("A"), _b("A", (5, 0, 0)))), "bodies[1].name: duplicate name 'A'"),
    (dict(bodies=(_b("A"), _b("B", (5, 0, 0), container=1))), "bodies[1].container: expected true or false"),
    (
        dict(bodies=(_b("A"), _b("B", (5, 0, 0), container=True))),
        'bodies[1].container: only "all" mode marks a container (inside mode: body 1 is it)',
    ),
    (
        dict(mode="all", bodies=(_b("A"), _b("B", radius=5.0, container=True), _b("C", radius=6.0, container=True))),
        "bodies[2].container: at most one container",
    ),
    (
        dict(mode="all", bodies=(_b("A", radius=5.0, container=True), _b("B"), _b("C", (2, 0, 0)))),
        "bodies[0].container: body A moves; it cannot be the container",
    ),
    (
        dict(mode="all", bodies=(_b("A"), _b("B", radius=5.0, container=True))),
        "bodies: a container needs at least two bodies inside it",
    ),
    (
        dict(mode="all", bodies=(_b("A"), _b("B", radius=2.0, container=True), _b("C", (3, 0, 0), radius=2.0))),
        "bodies[1].radius: the container must be larger than C (2 <= 2)",
    ),
    (
        dict(mode="inside", bodies=(_b("A", radius=1.5), _b("C", radius=1.5))),
        "bodies[1].radius: the container must be larger than the ball (1.5 <= 1.5)",
    ),
]


@pytest.mark.parametrize("changes, message", _REFUSED, ids=range(len(_REFUSED)))
def test_a_bad_scene_is_refused_naming_its_field(changes, message):
    fields = dict(mode="pair", horizon=1.0, restitution=1.0, bodies=_two())
    fields.update(changes)
    with pytest.raises(SceneError) as refused:
        Scene(**fields)
    assert str(refused.value) == message


def test_the_edges_are_accepted_and_numbers_come_back_as_floats():
    name = "x" * MAX_NAME
    bodies = tuple(_b(f"N{i}" if i else name, (3 * i, 0, 0)) for i in range(MAX_BODIES))
    scene = Scene("pair", 2, 1, bodies, title="t" * MAX_TEXT)
    assert len(scene.bodies) == MAX_BODIES and scene.bodies[0].name == name
    assert (type(scene.horizon), type(scene.restitution)) == (float, float)
    assert scene.bodies[1].center == (3.0, 0.0, 0.0) and type(scene.bodies[1].center) is tuple
    inside = Scene("inside", 1, 1, (_b("A", radius=1.5), _b("C", radius=1.6)))
    assert inside.bodies[1].radius == 1.6
    held = Scene("all", 1, 1, (_b("A"), _b("B", radius=2.0, container=True), _b("C", (0.5, 0, 0), radius=0.5)))
    assert held.container == 1
