"""``solve``'s JSON (``analysis.to_dict``) as a whole, against a dictionary written here by hand.

Two free balls of radius 0.5 and mass 1: A at 0 moving (2, 0, 0), B at (3, 0, 0) at rest; restitution 0.5,
horizon 2; and a fixed ball W (r 1) at (3, 4, 0) moving (0, -1, 0) that A never meets.

A-B: p = (3, 0, 0), v = (-2, 0, 0), R = 1: f = 4 t^2 - 12 t + 8, disc = 144 - 128 = 16, roots 1 and 2, vertex 1.5
(distance 0, gap -1).  At t = 1, A at (2, 0, 0) touches B at (2.5, 0, 0), normal +x.  The mirror image of A's
velocity is (-2, 0, 0) (90 degrees to the tangent plane); with e = 0.5 the closing speed 2 becomes 1 apart: A 0.5,
B 1.5, the impulse on A -1.5, energy 2 -> 1.25.  A-W: p = (3, 4, 0), v = (-2, -1, 0), R = 1.5: a = 5, b = -20,
c = 22.75, disc = 400 - 455 < 0: no real root, a miss.
"""

from __future__ import annotations

import math

from explorer.model.derived.analysis import solve, to_dict
from explorer.model.state.scene import Scene, SceneBody


def _scene(mode="all"):
    bodies = (
        SceneBody("A", (0, 0, 0), (2, 0, 0), 0.5, 1.0),
        SceneBody("B", (3, 0, 0), (0, 0, 0), 0.5, 1.0),
        SceneBody("W", (3, 4, 0), (0, -1, 0), 1.0, math.inf),
    )
    return Scene(mode, 2.0, 0.5, bodies, title="half bounce")


def test_solve_gives_every_field_of_the_half_elastic_bounce():
    out = to_dict(solve(_scene()))
    trace = out.pop("trace")
    assert out == {
        "title": "half bounce",
        "mode": "all",
        "horizon": 2.0,
        "pair": ["A", "B"],
        "status": "hit",
        "hit": True,
        "toi": 1.0,
        "roots": [1.0, 2.0],
        "decided_exactly": False,
        "quadratic": {
            "f(t)": "a t^2 + b t + c = |p + v t|^2 - R^2",
            "a": 4.0,
            "b": -12.0,
            "c": 8.0,
            "discriminant": 16.0,
            "R": 1.0,
            "t_min": 1.5,
        },
        "closest_approach": {"time": 1.5, "distance": 0.0, "gap": -1.0},
        "contact": {"time": 1.0, "point": [2.5, 0.0, 0.0], "normal": [1.0, 0.0, 0.0]},
        "reflected_velocity": [-2.0, 0.0, 0.0],
        "ricochet_angle_deg": 90.0,
        "frames_to_hit": 1.0,
        "distance_to_hit": 2.0,
        "velocities_after": {"A": [0.5, 0.0, 0.0], "B": [1.5, 0.0, 0.0]},
        "pairs": [
            {"pair": ["A", "B"], "status": "hit", "hit": True, "toi": 1.0, "roots": [1.0, 2.0]},
            {"pair": ["A", "W"], "status": "miss", "hit": False, "toi": None, "roots": None},
        ],
        "path": {
            "initial": {"momentum": [2.0, 0.0, 0.0], "kinetic_energy": 2.0},
            "bounces": [{"time": 1.0, "body": "B", "point": [2.5, 0.0, 0.0], "normal": [1.0, 0.0, 0.0]}],
            "segments": 2,
            "ends_at": 2.0,
            "stopped": None,
            "events": [
                {
                    "time": 1.0,
                    "bodies": ["A", "B"],
                    "impulse": [-1.5, 0.0, 0.0],
                    "kind": "impact",
                    "point": [2.5, 0.0, 0.0],
                    "normal": [1.0, 0.0, 0.0],
                    "momentum": [2.0, 0.0, 0.0],
                    "kinetic_energy": 1.25,
                    "momentum_change": [0.0, 0.0, 0.0],
                    "kinetic_energy_change": -0.75,
                }
            ],
        },
    }
    # the decision's quantities: |p|^2 - R^2 = 8, |v|^2 = 4, p.v = -6, |v|^2 R^2 - |p x v|^2 = 4, p.v + |v|^2 h = 2
    assert [line.split(" →")[0].rsplit(" = ", 1)[1] for line in trace] == ["8", "4", "-6", "4", "2"]


def test_one_other_body_has_no_pairs_list_and_a_container_is_named_in_the_bounces():
    """A (m 2, r 1) from the centre of C (r 4) at speed 4: the wall (R = 3) at t = 0.75, A comes back at -4:
    the impulse on A is 2 * (-8) = -16, the momentum 8 -> -8 (C takes 16), the energy 16 kept."""
    bodies = (SceneBody("A", (0, 0, 0), (4, 0, 0), 1.0, 2.0), SceneBody("C", (0, 0, 0), (0, 0, 0), 4.0, math.inf))
    out = to_dict(solve(Scene("inside", 1.0, 1.0, bodies)))
    assert "pairs" not in out
    assert (out["pair"], out["roots"], out["toi"]) == (["A", "C"], [-0.75, 0.75], 0.75)
    assert out["velocities_after"] == {"A": [-4.0, 0.0, 0.0], "C": [0.0, 0.0, 0.0]}
    assert out["path"]["bounces"] == [{"time": 0.75, "body": "C", "point": [4.0, 0.0, 0.0], "normal": [1.0, 0.0, 0.0]}]
    (event,) = out["path"]["events"]
    assert (event["impulse"], event["momentum"], event["momentum_change"]) == (
        [-16.0, 0.0, 0.0],
        [-8.0, 0.0, 0.0],
        [-16.0, 0.0, 0.0],
    )
    assert (event["kinetic_energy"], event["kinetic_energy_change"], out["path"]["initial"]["kinetic_energy"]) == (
        16.0,
        0.0,
        16.0,
    )


def test_the_described_pair_is_a_s_first_contact_whichever_body_it_is():
    """B (body 1) lies 6 ahead, C (body 2) 2 ahead: A (r 0.5, speed 2) meets C first, at (2 - 1) / 2 = 0.5, and
    stops (equal masses, e = 1) while C takes its speed."""
    bodies = (
        SceneBody("A", (0, 0, 0), (2, 0, 0), 0.5, 1.0),
        SceneBody("B", (6, 0, 0), (0, 0, 0), 0.5, 1.0),
        SceneBody("C", (2, 0, 0), (0, 0, 0), 0.5, 1.0),
    )
    out = to_dict(solve(Scene("all", 2.0, 1.0, bodies)))
    assert (out["pair"], out["toi"]) == (["A", "C"], 0.5)
    assert out["velocities_after"] == {"A": [0.0, 0.0, 0.0], "C": [2.0, 0.0, 0.0]}
    assert [p["pair"] for p in out["pairs"]] == [["A", "B"], ["A", "C"]]
