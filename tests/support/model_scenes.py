"""Scenes the model's tests build by hand: from body tuples, and the ones several of them reason about."""

from __future__ import annotations

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
