"""From a scene to everything the views show: sweeps, first contact, response, bounce path.

Qt-free; used by the window, the headless renderer and ``sphere-explorer solve``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from solver import BouncePath, Impact, Segment, Status, Sweep, bounce_path, impact, sweep, sweep_inside

from .scene import Scene


@dataclass(frozen=True)
class Solution:
    """The solver's answer for a scene.

    Attributes
    ----------
    scene : Scene
    sweeps : tuple of Sweep
        ``pair``: A against each other body, in body order (``sweeps[k]`` is A
        against body ``k + 1``).  ``inside``: one sweep, A inside the container.
    primary : int
        Index into ``sweeps`` of the pair the values panel describes: the
        earliest contact, or without any, the closest approach.
    impact : Impact or None
        Response at the first contact (restitution and masses of the scene).
    path : BouncePath
        A's motion over the horizon, bounce after bounce.
    """

    scene: Scene
    sweeps: tuple[Sweep, ...]
    primary: int
    impact: Impact | None
    path: BouncePath

    @property
    def sweep(self) -> Sweep:
        """The primary sweep."""
        return self.sweeps[self.primary]

    @property
    def other(self) -> int:
        """Body index of the primary pair's other body."""
        return self.primary + 1


def solve(scene: Scene) -> Solution:
    """Run every query the views need for ``scene``."""
    a = scene.bodies[0].to_body()
    others = [b.to_body() for b in scene.bodies[1:]]
    if scene.mode == "inside":
        sweeps: tuple[Sweep, ...] = (sweep_inside(a, others[0], scene.horizon),)
    else:
        sweeps = tuple(sweep(a, b, scene.horizon) for b in others)
    hits = [k for k, s in enumerate(sweeps) if s.hit]
    if hits:
        primary = min(hits, key=lambda k: sweeps[k].toi)
    else:
        primary = min(range(len(sweeps)), key=lambda k: sweeps[k].closest.gap)
    try:
        response = impact(sweeps[primary], scene.restitution)
    except ValueError:  # both bodies fixed: a contact, but no response
        response = None
    if scene.mode == "inside" and sweeps[0].status is Status.OUTSIDE:
        path = _free_path(scene)  # no wall to reach from inside: the bodies just move on
    else:
        path = bounce_path(a, others, scene.horizon, scene.restitution, inside=scene.mode == "inside")
    return Solution(scene, sweeps, primary, response, path)


def _free_path(scene: Scene) -> BouncePath:
    """Every body moving straight over the horizon, without contacts."""
    centers = tuple(b.center for b in scene.bodies)
    velocities = tuple(b.velocity for b in scene.bodies)
    return BouncePath((Segment(0.0, scene.horizon, centers, velocities),), (), None, None)


def _vec(v) -> list[float]:
    return [float(x) for x in v]


def _num(x: float | None) -> float | None:
    return None if x is None or not math.isfinite(x) else float(x)


def to_dict(solution: Solution) -> dict[str, Any]:
    """JSON-ready summary, the output of ``sphere-explorer solve``."""
    scene = solution.scene
    s = solution.sweep
    names = [b.name for b in scene.bodies]
    a_coef, b_coef, c_coef = s.coefficients
    closest = s.closest
    out: dict[str, Any] = {
        "title": scene.title,
        "mode": scene.mode,
        "horizon": scene.horizon,
        "pair": [names[0], names[solution.other]],
        "status": s.status.label,
        "hit": s.hit,
        "toi": _num(s.toi),
        "roots": None if s.roots is None else [_num(s.roots[0]), _num(s.roots[1])],
        "decided_exactly": s.exact,
        "quadratic": {
            "f(t)": "a t^2 + b t + c = |p + v t|^2 - R^2",
            "a": a_coef,
            "b": b_coef,
            "c": c_coef,
            "discriminant": _num(s.discriminant),
            "R": s.radius,
            "t_min": _num(s.t_min),
        },
        "closest_approach": {"time": closest.time, "distance": closest.distance, "gap": closest.gap},
        "contact": None,
        "reflected_velocity": None,
        "ricochet_angle_deg": None,
        "frames_to_hit": None,
        "distance_to_hit": None,
        "velocities_after": None,
        "trace": [str(step) for step in s.trace],
    }
    contact = s.contact
    if contact is not None:
        out["contact"] = {"time": contact.time, "point": _vec(contact.point), "normal": _vec(contact.normal)}
    imp = solution.impact
    if imp is not None:
        out["reflected_velocity"] = _vec(imp.reflected)
        out["ricochet_angle_deg"] = None if imp.ricochet_angle is None else math.degrees(imp.ricochet_angle)
        out["frames_to_hit"] = imp.time
        out["distance_to_hit"] = imp.distance
        out["velocities_after"] = {names[0]: _vec(imp.a_after), names[solution.other]: _vec(imp.b_after)}
    if len(solution.sweeps) > 1:
        out["pairs"] = [
            {
                "pair": [names[0], names[k + 1]],
                "status": sk.status.label,
                "hit": sk.hit,
                "toi": _num(sk.toi),
                "roots": None if sk.roots is None else [_num(sk.roots[0]), _num(sk.roots[1])],
            }
            for k, sk in enumerate(solution.sweeps)
        ]
    path = solution.path
    out["path"] = {
        "bounces": [
            {"time": b.time, "body": names[b.other], "point": _vec(b.point), "normal": _vec(b.normal)} for b in path.bounces
        ],
        "segments": len(path.segments),
        "ends_at": path.end,
        "stopped": path.stopped,
    }
    return out
