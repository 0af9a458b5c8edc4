"""Log a pybullet simulation with QueryLog and audit it: the recipe, and the step-lag mistake beside it.

Run from the project folder (pybullet is an optional extra, not needed by the tests)::

    .venv/bin/pip install -e '.[pybullet]'
    .venv/bin/python examples/pybullet_audit.py OUTDIR

30 spheres without gravity (22 slow ones, 0.2 to 0.8 m/s, radius 0.15 m, in a 1.2 m cube; 8 fast
ones, 13 to 52 m/s, radius 0.05 m, each aimed at one of the slow ones, arriving at different
times), dt = 1/60 s, 300 steps: every pair of every step is a row (130,500 rows).  Two logs are
written and audited:

``OUTDIR/recipe.parquet``
    The recipe of the README ("Logging from a step-based engine"): the pair's applied velocity
    ``(centre after - centre before) / dt``, ``horizon = dt``, and as the engine's answer whether
    pybullet had the pair in contact at the start or at the end of the step.  pybullet finds the
    contacts of step ``k`` on the positions at the start of step ``k``, so the contacts at the end of
    step ``k`` are those it reports after step ``k + 1``: the loop logs each step one step late.
``OUTDIR/lagged.parquet``
    The obvious way, which is wrong: step ``k``'s motion with the contacts reported after step ``k``.

Their audits go to ``OUTDIR/recipe/`` and ``OUTDIR/lagged/``; the script prints one line for each.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

try:
    import pybullet as p
except ImportError:
    sys.exit("examples/pybullet_audit.py needs pybullet: .venv/bin/pip install -e '.[pybullet]'")

from explorer.audit import QueryLog
from explorer.audit.report.summary import one_line
from explorer.audit.run import audit

DT = 1.0 / 60.0
STEPS = 300
SLOW, FAST = 22, 8
SLOW_RADIUS, FAST_RADIUS = 0.15, 0.05
#: The slow ones start in a cube of this half-width (m).
CLOUD = 0.6


def _starts(rng) -> tuple[np.ndarray, np.ndarray]:
    """(n, 3) centres and velocities: the slow cloud, then the fast ones, each aimed near where one of
    the cloud would be (were it not to collide) when it arrives, after 0.5 to 4.5 s."""
    centres = rng.uniform(-CLOUD, CLOUD, (SLOW, 3))
    velocities = rng.normal(size=(SLOW, 3))
    velocities *= (rng.uniform(0.2, 0.8, SLOW) / np.linalg.norm(velocities, axis=1))[:, None]
    fast_centres, fast_velocities = [], []
    for k in range(FAST):
        arrival = 0.5 + 4.0 * k / FAST
        target = rng.integers(SLOW)
        aim = centres[target] + velocities[target] * arrival + rng.uniform(-0.05, 0.05, 3)
        direction = rng.normal(size=3)
        direction /= np.linalg.norm(direction)
        speed = rng.uniform(13.0, 52.0)
        fast_centres.append(aim - direction * speed * arrival)
        fast_velocities.append(direction * speed)
    return np.vstack([centres, fast_centres]), np.vstack([velocities, fast_velocities])


def build(rng) -> tuple[list[int], np.ndarray]:
    """The bodies in pybullet (no gravity, no friction, elastic) and their radii."""
    p.connect(p.DIRECT)
    p.setGravity(0, 0, 0)
    p.setTimeStep(DT)
    ids, radii = [], []
    for k, (centre, velocity) in enumerate(zip(*_starts(rng))):
        radius = FAST_RADIUS if k >= SLOW else SLOW_RADIUS
        shape = p.createCollisionShape(p.GEOM_SPHERE, radius=radius)
        body = p.createMultiBody(baseMass=1.0, baseCollisionShapeIndex=shape, basePosition=centre.tolist())
        p.changeDynamics(body, -1, restitution=1.0, lateralFriction=0.0, linearDamping=0.0, angularDamping=0.0)
        p.resetBaseVelocity(body, linearVelocity=velocity.tolist())
        ids.append(body)
        radii.append(radius)
    return ids, np.array(radii)


def positions(ids: list[int]) -> np.ndarray:
    """``(n, 3)`` centres of the bodies now."""
    return np.array([p.getBasePositionAndOrientation(body)[0] for body in ids])


def contacts(index: dict[int, int]) -> set[tuple[int, int]]:
    """The pairs (body indices) pybullet reports touching after the last step (distance <= 0)."""
    found = set()
    for point in p.getContactPoints():
        a, b, distance = point[1], point[2], point[8]
        if distance <= 0.0 and a in index and b in index:
            found.add((min(index[a], index[b]), max(index[a], index[b])))
    return found


def main(outdir: str) -> None:
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    ids, radii = build(np.random.default_rng(7))
    index = {body: k for k, body in enumerate(ids)}
    i, j = np.triu_indices(len(ids), k=1)
    body = np.array(ids)
    centres, reported = [positions(ids)], []
    with QueryLog(out / "recipe.parquet", horizon=DT) as recipe, QueryLog(out / "lagged.parquet", horizon=DT) as lagged:
        for k in range(STEPS + 1):  # one step more: its contacts are where the last step ended
            p.stepSimulation()
            centres.append(positions(ids))
            reported.append(contacts(index))
            if k > 0:  # step k - 1 the right way: its end contacts were just reported
                recipe.add_step(centres[k - 1], centres[k], radii, DT, contacts_start=reported[k - 1],
                                contacts_end=reported[k], ids=ids, step=k - 1)  # fmt: skip
            if k < STEPS:  # the mistake: step k's motion with the contacts reported after step k
                before, velocity = centres[k], (centres[k + 1] - centres[k]) / DT
                said = np.array([(a, b) in reported[k] for a, b in zip(i.tolist(), j.tolist())])
                lagged.add(before[i], velocity[i], radii[i], before[j], velocity[j], radii[j], engine_hit=said,
                           step=k, a_id=body[i], b_id=body[j])  # fmt: skip
    p.disconnect()
    for name in ("recipe", "lagged"):
        summary = audit(out / f"{name}.parquet", out / name, worst=20)
        print(f"{name}: {one_line(summary)}")
        for warning in summary["warnings"]:
            print(f"  warning: {warning}")
        for case in summary["worst"][:10]:
            print(f"  {case['kind']} at step {case['step']}, bodies {case['a_id']} and {case['b_id']}, "
                  f"{_closing_speed(out / name / case['file']):.1f} m/s apart: {case['file']}")  # fmt: skip


def _closing_speed(case_file: Path) -> float:
    """|vB - vA| of a case's scene (m/s: the log's velocities)."""
    a, b = json.loads(case_file.read_text(encoding="utf-8"))["bodies"]
    return float(np.linalg.norm(np.subtract(b["velocity"], a["velocity"])))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: examples/pybullet_audit.py OUTDIR")
    main(sys.argv[1])
