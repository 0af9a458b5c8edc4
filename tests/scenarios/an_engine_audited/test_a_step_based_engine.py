"""Issue 23's "done when": a step-based engine written here, logged with QueryLog, audited, counts checked.

The engine is a small numpy copy of how pybullet orders a step: it finds the
contacts on the positions at the *start* of the step, answers them (equal
masses, elastic: the normal velocity components swapped; the cloud's walls
likewise), then moves every body
by ``v dt``.  So the contacts it reports after step ``k`` describe where the
bodies were before step ``k`` moved them: the step-lag pitfall.  One bullet
flies through a still target within a single step: a true tunnel, which no
discrete engine sees.

The expected counts are derived here, independently of the solver: for every
logged row, whether the pair touches during the step comes from the closed
form of the closest approach of two straight paths (every row is checked to be
far from grazing, so float64 decides it without doubt), and whether the engine
said so from the positions it reported on.
"""

from __future__ import annotations

import numpy as np
import pyarrow.parquet as pq
import pytest
from audit_logs import comparable, read_summary

from explorer.audit import QueryLog
from explorer.audit.run import audit

DT = 1.0 / 60.0
STEPS = 180
#: The cloud: bodies in a box 2 m wide (walls at +-BOX) at 1 to 3 m/s, radius 0.2 m; far from them, a still
#: target and a bullet.
CLOUD, RADIUS, BOX = 10, 0.2, 1.0
TARGET = np.array([30.0, 0.0, 0.0])
TARGET_RADIUS, BULLET_RADIUS = 0.3, 0.05
#: 300 m/s along x, 0.1 m off the target's centre: 5 m per step against a contact zone 0.67 m long.
BULLET_START, BULLET_VELOCITY = np.array([30.0 - 3.45, 0.1, 0.0]), np.array([300.0, 0.0, 0.0])
#: The engine's body ids (not their indices: the log must carry the engine's own names).
IDS = np.arange(CLOUD + 2) * 10 + 7
#: Rows closer to grazing than this (relative to the contact distance) would make float64 doubtful here.
MARGIN = 1e-9


def _contacts(pos: np.ndarray, radius: np.ndarray) -> set[tuple[int, int]]:
    """The engine's collision detection: index pairs ``i < j`` overlapping at ``pos``."""
    gap = pos[None, :, :] - pos[:, None, :]
    touching = np.einsum("ijk,ijk->ij", gap, gap) <= (radius[:, None] + radius[None, :]) ** 2
    i, j = np.nonzero(np.triu(touching, k=1))
    return set(zip(i.tolist(), j.tolist()))


def _engine_step(pos, vel, radius):
    """One step in pybullet's order: detect on the start positions, respond, move. Returns (pos, vel, contacts)."""
    contacts = _contacts(pos, radius)
    vel = vel.copy()
    for i, j in sorted(contacts):
        n = pos[j] - pos[i]
        n /= np.linalg.norm(n)
        closing = np.dot(vel[i] - vel[j], n)
        if closing > 0:  # approaching: swap the normal components
            vel[i] -= closing * n
            vel[j] += closing * n
    outward = (np.abs(pos[:CLOUD]) > BOX - RADIUS) & (vel[:CLOUD] * pos[:CLOUD] > 0)
    vel[:CLOUD] = np.where(outward, -vel[:CLOUD], vel[:CLOUD])  # the cloud's walls: elastic too
    return pos + vel * DT, vel, contacts


def _simulate():
    """Positions before every step (``STEPS + 1`` of them) and the contacts reported after every step."""
    rng = np.random.default_rng(23)
    pos = np.vstack([rng.uniform(-0.8, 0.8, (CLOUD, 3)), TARGET, BULLET_START])
    directions = rng.normal(size=(CLOUD, 3))
    speeds = rng.uniform(1.0, 3.0, CLOUD)[:, None]
    vel = np.vstack([directions / np.linalg.norm(directions, axis=1)[:, None] * speeds, np.zeros(3), BULLET_VELOCITY])
    radius = np.array([RADIUS] * CLOUD + [TARGET_RADIUS, BULLET_RADIUS])
    positions, reported = [pos], []
    for _ in range(STEPS + 1):  # one step more: its report is where the bodies were at the end of the last one
        pos, vel, contacts = _engine_step(pos, vel, radius)
        positions.append(pos)
        reported.append(contacts)
    return positions, reported, radius


def _touches(before_a, before_b, velocity_a, velocity_b, contact) -> tuple[np.ndarray, np.ndarray]:
    """Closed form: do the straight paths come within ``contact`` over [0, DT]; and how far from grazing."""
    p = before_b - before_a
    v = velocity_b - velocity_a
    vv = np.einsum("ij,ij->i", v, v)
    t = np.clip(-np.einsum("ij,ij->i", p, v) / np.where(vv > 0, vv, 1.0), 0.0, DT)
    closest = np.linalg.norm(p + v * t[:, None], axis=1)
    return closest <= contact, np.abs(closest - contact) / contact


def _hit_matrix(contacts: set, n: int) -> np.ndarray:
    matrix = np.zeros((n, n), dtype=bool)
    for i, j in contacts:
        matrix[i, j] = matrix[j, i] = True
    return matrix


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    """The simulation logged twice: the recipe (Parquet, add_step) and the step-lag mistake (CSV, add)."""
    folder = tmp_path_factory.mktemp("step_engine")
    positions, reported, radius = _simulate()
    n = radius.size
    i, j = np.triu_indices(n, k=1)
    right, wrong = folder / "recipe.parquet", folder / "lagged.csv"
    truth = {"touch": [], "start": [], "end": [], "margin": []}
    with QueryLog(right, horizon=DT, chunk_rows=1000) as good, QueryLog(wrong, horizon=DT, chunk_rows=1000) as bad:
        for k in range(STEPS):
            before, after = positions[k], positions[k + 1]
            good.add_step(before, after, radius, DT, contacts_start=reported[k], contacts_end=reported[k + 1],
                          ids=IDS, step=k)  # fmt: skip
            velocity = (after - before) / DT
            bad.add(before[i], velocity[i], radius[i], before[j], velocity[j], radius[j],
                    engine_hit=_hit_matrix(reported[k], n)[i, j], step=k, a_id=IDS[i], b_id=IDS[j])  # fmt: skip
            touch, margin = _touches(before[i], before[j], velocity[i], velocity[j], radius[i] + radius[j])
            at_end = np.linalg.norm(after[j] - after[i], axis=1)
            at_start = np.linalg.norm(before[j] - before[i], axis=1)
            contact = radius[i] + radius[j]
            truth["touch"].append(touch)
            truth["start"].append(at_start <= contact)
            truth["end"].append(at_end <= contact)
            truth["margin"].append(np.minimum.reduce([margin, np.abs(at_end - contact) / contact,
                                                      np.abs(at_start - contact) / contact]))  # fmt: skip
    truth = {key: np.concatenate(values) for key, values in truth.items()}
    assert truth["margin"].min() > MARGIN  # no row near enough grazing to make the closed form doubtful
    return {"right": right, "wrong": wrong, "truth": truth, "pairs": i.size, "folder": folder}


def test_the_recipe_leaves_only_the_tunnels(logged, tmp_path):
    truth = logged["truth"]
    tunnels = truth["touch"] & ~truth["start"] & ~truth["end"]
    assert tunnels.sum() >= 1  # the bullet, at least
    summary = audit(logged["right"], tmp_path / "out", worst=50)
    assert summary["rows"] == STEPS * logged["pairs"]
    assert summary["hits"] == int(truth["touch"].sum())
    assert summary["engine_false_misses"] == int(tunnels.sum())
    assert summary["engine_false_hits"] == int(((truth["start"] | truth["end"]) & ~truth["touch"]).sum()) == 0
    assert summary["engine_toi_errors"] is None  # no times logged: none counted, not 0
    assert summary["time_unit"] == {
        "source": "column",
        "horizon": DT,
        "horizon_range": [DT, DT],
        "least_motion": summary["time_unit"]["least_motion"],
        "unit_warning": None,
    }
    assert summary["warnings"] == [] and summary["answers"]["engine"]["false_misses_in_contact_at_end"] == 0
    bullet_step = 0  # it starts 3.45 m before the target's centre and moves 5 m per step
    first = summary["worst"][0]  # the deepest miss: the bullet through the target
    assert (first["kind"], first["step"], first["a_id"], first["b_id"]) == ("false miss", bullet_step, IDS[-2], IDS[-1])
    case = (tmp_path / "out" / first["file"]).read_text(encoding="utf-8")
    assert f"step {bullet_step}, bodies {IDS[-2]} and {IDS[-1]}" in case and f"A (body {IDS[-2]})" in case


def test_the_step_lag_mistake_is_counted_as_what_it_is(logged, tmp_path):
    truth = logged["truth"]
    summary = audit(logged["wrong"], tmp_path / "out", worst=5)
    lag_misses = truth["touch"] & ~truth["start"]
    tunnels = lag_misses & ~truth["end"]
    assert summary["engine_false_misses"] == int(lag_misses.sum())
    assert lag_misses.sum() > 2 * tunnels.sum()  # most of the mistake's false misses are the lag, not the engine
    assert summary["engine_false_hits"] == int((truth["start"] & ~truth["touch"]).sum()) == 0
    lagged = int((lag_misses & truth["end"]).sum())  # seen at the end of the step: the lag, and the audit says so
    assert summary["answers"]["engine"]["false_misses_in_contact_at_end"] == lagged
    assert summary["warnings"][0].startswith(
        f"{lagged} of the engine's {int(lag_misses.sum())} false misses are still in contact at the end of the step"
    )
    assert read_summary(tmp_path / "out")["rows"] == STEPS * logged["pairs"]


def test_the_log_is_written_a_chunk_at_a_time(logged):
    rows = STEPS * logged["pairs"]
    meta = pq.ParquetFile(logged["right"]).metadata
    assert meta.num_rows == rows and meta.num_row_groups == -(-rows // 1000)
    assert max(meta.row_group(g).num_rows for g in range(meta.num_row_groups)) == 1000
    header = logged["wrong"].read_text(encoding="ascii").splitlines()[0].split(",")
    assert header[-3:] == ["step", "a_id", "b_id"] and header.count("a_cx") == 1


def test_labels_and_time_unit_survive_the_dask_runner(logged, tmp_path):
    """Cut in partitions of 700 rows on a local cluster: the same summary, worst cases' steps and bodies included."""
    alone = audit(logged["wrong"], tmp_path / "alone", worst=40, chunk_rows=700)
    spread = audit(logged["wrong"], tmp_path / "spread", worst=40, chunk_rows=700, workers=2)
    assert spread["run"]["runner"] == "dask" and spread["run"]["chunks"] > 10
    assert comparable(spread) == comparable(alone)
    assert all(case["step"] is not None and case["a_id"] in IDS for case in spread["worst"])


def test_a_label_is_an_int_when_whole_and_kept_as_it_is_otherwise():
    from explorer.audit.decision.worst import label_value

    assert [label_value(x) for x in (3.0, -0.0, 2.5, -7.25, 2.0**60)] == [3, 0, 2.5, -7.25, 2**60]
    assert type(label_value(3.0)) is int and type(label_value(2.5)) is float
    assert label_value(float("nan")) is None
