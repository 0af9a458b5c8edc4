"""The change of kinetic energy at an event, as the values panel and the event list show it.

An elastic impact keeps the energy exactly: the floats' difference there is
rounding and reads 0, not a change a student would puzzle over (the difference
itself is one switch away: exact numbers).  A restitution below 1 loses energy; a moving fixed body (a
paddle) does work: both are shown as the change they are, computed by hand here.
"""

from __future__ import annotations

import math

from explorer.model.derived import conserved
from explorer.model.derived.analysis import solve
from explorer.model.formats import scene_io
from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.state.scene import Scene, SceneBody
from explorer.model.words.text import exact_numbers
from explorer.model.words.values import conserved_rows, event_rows


def _pair(restitution: float, paddle_mass: float) -> Scene:
    """A paddle moving at +1 into a ball of mass 1 at rest, gap 1: contact at t = 1."""
    bodies = (
        SceneBody("paddle", (0.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0, paddle_mass),
        SceneBody("ball", (3.0, 0.0, 0.0), (0.0, 0.0, 0.0), 1.0, 1.0),
    )
    return Scene("all", 2.0, restitution, bodies)


def _energy_texts(scene: Scene) -> tuple[list[str], str]:
    solution = solve(scene)
    return [row[-1] for row in event_rows(scene, solution, energy=True)], conserved_rows(scene, solution, 1.5, 0)[-1][1]


def test_a_moving_fixed_paddle_does_work():
    """e = 1: the ball leaves at 2 (twice the paddle's speed), so its energy goes from 0 to 2."""
    listed, here = _energy_texts(_pair(1.0, math.inf))
    assert listed == ["ΔE = 2"]
    assert here == "2  (e = 1: changed)"


def test_restitution_below_one_loses_energy():
    """Equal masses, e = 0.5: velocities 0.25 and 0.75, energy 0.5 -> 0.3125: a loss of 0.1875."""
    listed, here = _energy_texts(_pair(0.5, 1.0))
    assert listed == ["ΔE = -0.1875"]
    assert here == "-0.1875  (e = 0.5: lost)"


def test_an_elastic_impact_s_rounding_is_not_shown_as_a_change():
    """Equal masses, e = 1, exchanging velocities exactly: 0; and in the gas, where the floats leave a
    difference of a few ulps at some events, it reads 0 too, and the difference is there with exact numbers."""
    listed, here = _energy_texts(_pair(1.0, 1.0))
    assert listed == ["ΔE = 0"] and here == "0  (e = 1: kept)"
    gas = scene_io.load(SCENES_DIR / "gas_in_container.json")
    assert gas.restitution == 1.0
    solution = solve(gas)
    changes = [after.kinetic_energy - before.kinetic_energy
               for before, after in conserved.across_events(gas, solution.path, len(solution.events))]  # fmt: skip
    assert any(changes), "the gas has no event with a rounding difference any more: pick another scene"
    assert max(map(abs, changes)) < 1e-9
    assert {row[-1] for row in event_rows(gas, solution, limit=None, energy=True)} == {"ΔE = 0"}
    with exact_numbers():
        exact = [row[-1] for row in event_rows(gas, solution, limit=None, energy=True)]
    assert [float(text.removeprefix("ΔE = ")) for text in exact] == changes
