"""Scenes the model's tests build by hand: from body tuples, and the ones several of them reason about."""

from __future__ import annotations

import itertools
import math

from explorer.model.state.scene import Scene, SceneBody


def scene_of(mode: str, bodies, horizon: float = 1.0, restitution: float = 1.0) -> Scene:
    """A scene of ``bodies``: ``(name, centre, velocity, radius, mass[, container])`` each."""
    return Scene(mode, horizon, restitution, tuple(SceneBody(*b) for b in bodies))


def knocked_out_of_the_way() -> Scene:
    """A (r 0.5) at speed 2 would meet B 4 away at t = 1.5; C comes down on B from 3 above at speed 4 and meets it
    at (3 - 1) / 4 = 0.5, knocking it out of A's way (all bodies, h = 1.8)."""
    bodies = [
        ("A", (0, 0, 0), (2, 0, 0), 0.5, 1.0),
        ("B", (4, 0, 0), (0, 0, 0), 0.5, 1.0),
        ("C", (4, 3, 0), (0, -4, 0), 0.5, 1.0),
    ]
    return scene_of("all", bodies, horizon=1.8)


def gas(horizon: float) -> dict:
    """Fifteen balls in a container (the most bodies a scene has), as a scene file's JSON: over a horizon of 100
    the motion stops at its 1000th event (an attack's page: 7.8 MB); over 8 it has 161, over 4, 76."""
    corners = list(itertools.product((-1.6, 0.0, 1.6), repeat=3))[:15]
    bodies = [
        {"name": chr(65 + i), "center": list(c), "radius": 0.4,
         "velocity": [3 * math.sin(1.3 * i), 3 * math.cos(2.1 * i), 3 * math.sin(0.7 * i + 1)]}
        for i, c in enumerate(corners)
    ]  # fmt: skip
    bodies.append({"name": "W", "center": [0, 0, 0], "velocity": [0, 0, 0], "radius": 3.5, "fixed": True,
                   "container": True})  # fmt: skip
    return {"format": "sphere-explorer/1", "mode": "all", "horizon": horizon, "restitution": 1.0, "bodies": bodies}
