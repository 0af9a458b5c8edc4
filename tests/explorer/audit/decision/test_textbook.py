"""The compiled textbook formula is the precision lab's, bit for bit, and the audit counts its mistakes right.

Reference: :func:`explorer.model.derived.precision.textbook` (pair mode, "relative"
variant), one scene at a time, on hard pairs (grazes a few ulps either side,
long shots, far from the origin, contacts at the horizon), the gallery's
precision traps, and generic pairs.
"""

from __future__ import annotations

import math

import numpy as np
import planted as planted_logs
import pytest

from explorer.audit.decision.textbook import textbook_many
from explorer.audit.log.columns import GEOMETRY
from explorer.audit.run import audit
from explorer.model.derived.precision import textbook
from explorer.model.formats import scene_io
from explorer.model.formats.gallery import SCENES_DIR

TRAPS = ("seed003_precision_trap", "seed003_long_shot", "seed004_far_from_origin", "precision_far_graze")


def _rows() -> list[list[float]]:
    rng = np.random.default_rng(5)
    rows = planted_logs.hard_rows(rng, 1200) + planted_logs.generic_rows(rng, 400)
    for stem in TRAPS:
        scene = scene_io.load(SCENES_DIR / f"{stem}.json")
        a, b = scene.bodies[:2]
        rows.append([*a.center, *a.velocity, a.radius, *b.center, *b.velocity, b.radius, scene.horizon])
    return rows


def _scene(row: list[float]):
    return scene_io.from_dict({
        "format": "sphere-explorer/1", "mode": "pair", "horizon": row[14], "restitution": 1.0,
        "bodies": [
            {"name": "A", "center": row[0:3], "velocity": row[3:6], "radius": row[6]},
            {"name": "B", "center": row[7:10], "velocity": row[10:13], "radius": row[13]},
        ],
    })  # fmt: skip


@pytest.fixture(scope="module")
def rows():
    return _rows()


def test_bit_for_bit_the_precision_labs_formula(rows):
    table = np.array(rows)
    answers = textbook_many(
        np.ascontiguousarray(table[:, 0:3]), np.ascontiguousarray(table[:, 3:6]), table[:, 6].copy(),
        np.ascontiguousarray(table[:, 7:10]), np.ascontiguousarray(table[:, 10:13]), table[:, 13].copy(),
        table[:, 14].copy(),
    )  # fmt: skip
    for name in ("float32", "float64"):  # the promised types: a float 1.0 would pass every == below
        assert (answers[name][0].dtype, answers[name][1].dtype) == (np.bool_, np.float64)
    wrong = {"float32": 0, "float64": 0}
    for i, row in enumerate(rows):
        scene = _scene(row)
        for name, dtype in (("float32", np.float32), ("float64", np.float64)):
            ref = textbook(scene, dtype, variant="relative")
            hit, toi = answers[name][0][i], answers[name][1][i]
            assert hit == ref.hit, (name, i, row)
            if ref.hit:
                assert toi == ref.toi, (name, i, row)  # the same float, not merely close
            else:
                assert math.isnan(toi)
            truth = planted_logs.exact(row)[0]
            wrong[name] += hit != truth
    # the sample is hard enough to fool both types, float32 far more often
    assert 0 < wrong["float64"] < wrong["float32"]


def test_the_summary_counts_the_textbooks_mistakes(rows, tmp_path):
    """A log without engine columns: false hits/misses and TOI errors of each type, recounted one by one."""
    table = np.array(rows)
    columns = {name: np.ascontiguousarray(table[:, k]) for k, name in enumerate(GEOMETRY)}
    columns["horizon"] = np.ascontiguousarray(table[:, 14])
    planted_logs.write_npz(tmp_path / "geometry.npz", columns)
    summary = audit(tmp_path / "geometry.npz", tmp_path / "out", worst=5, chunk_rows=1000)
    assert summary["engine_false_hits"] is None and summary["engine_toi_errors"] is None
    expected = {name: {"false_hits": 0, "false_misses": 0, "toi_errors": 0} for name in ("float64", "float32")}
    for row in rows:
        truth_hit, truth_toi = planted_logs.exact(row)
        scene = _scene(row)
        for name, dtype in (("float32", np.float32), ("float64", np.float64)):
            ref = textbook(scene, dtype, variant="relative")
            if ref.hit and not truth_hit:
                expected[name]["false_hits"] += 1
            elif truth_hit and not ref.hit:
                expected[name]["false_misses"] += 1
            elif truth_hit and abs(ref.toi - truth_toi) > 1e-6 * max(1.0, abs(truth_toi)):
                expected[name]["toi_errors"] += 1
    got = {name: {k: summary["textbook"][name][k] for k in ("false_hits", "false_misses", "toi_errors")}
           for name in expected}  # fmt: skip
    assert got == expected
    assert expected["float32"]["false_misses"] + expected["float32"]["false_hits"] > 0
    # the worst cases are the float64 formula's wrong verdicts first
    first = summary["worst"][0]
    assert first["source"] == "float64" and first["kind"] in ("false hit", "false miss")
