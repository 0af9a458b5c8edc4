"""The audit finds every wrong engine answer planted in a log of hard cases, and nothing else.

The log (planted.py) mixes near grazes a few ulps either side of touching, long
shots, grazes far from the origin and contacts a few ulps either side of the
horizon with generic pairs; its truth is decided in rational arithmetic, not by
the solver.  Planted: false hits, false misses, TOI errors; also times moved by
a quarter of the tolerance, which must pass.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from explorer.audit.run import audit
from explorer.model import scene_io
from solver import sweep

from .conftest import CHUNK, FORMATS, read_summary


@pytest.fixture(scope="module", params=FORMATS)
def audited(request, planted_files, tmp_path_factory):
    out = tmp_path_factory.mktemp("out") / "audit"
    summary = audit(planted_files[request.param], out, worst=1000, chunk_rows=CHUNK)
    return request.param, out, summary


def test_the_counts_are_the_planted_ones(audited, planted):
    _, out, summary = audited
    assert summary == read_summary(out) | {"run": summary["run"]}
    n = len(planted["hit"])
    assert summary["rows"] == summary["pairs"] == n
    assert summary["skipped_rows"] == 0
    assert summary["hits"] == int(planted["hit"].sum())
    assert summary["engine_false_hits"] == len(planted["planted"]["false hit"])
    assert summary["engine_false_misses"] == len(planted["planted"]["false miss"])
    assert summary["engine_toi_errors"] == len(planted["planted"]["toi error"])
    assert summary["engine_toi_missing"] == 0
    assert summary["textbook"] is None
    assert sum(summary["status_counts"].values()) == n


def test_exactly_the_planted_rows_are_reported(audited, planted):
    _, _, summary = audited
    found = {
        kind: sorted(case["row"] for case in summary["worst"] if case["kind"] == kind) for kind in planted["planted"]
    }
    assert found == planted["planted"]
    assert not set(planted["near"]) & {case["row"] for case in summary["worst"]}


def test_the_hard_families_carry_plants_of_every_kind(planted):
    """The plants sit among the ulp-level cases, not only among easy ones (else the test would prove little)."""
    columns = planted["columns"]
    side = np.abs(columns["b_cy"] - columns["a_cy"])
    contact = columns["a_r"] + columns["b_r"]
    razor = np.abs(side - contact) <= 8 * np.spacing(contact)
    for kind in ("false hit", "false miss"):
        rows = planted["planted"][kind]
        assert razor[rows].sum() >= 5, kind
    assert razor.sum() > 500
    # and the truth there really is mixed: both hits and misses a few ulps apart
    assert 0 < planted["hit"][razor].mean() < 1


def test_worst_first_wrong_verdicts_then_times(audited):
    _, _, summary = audited
    kinds = [case["kind"] for case in summary["worst"]]
    first_toi = kinds.index("toi error")
    assert set(kinds[:first_toi]) <= {"false hit", "false miss"}
    assert set(kinds[first_toi:]) == {"toi error"}
    severities = [case["severity"] for case in summary["worst"][first_toi:]]
    assert severities == sorted(severities, reverse=True)


def test_every_case_opens_in_the_explorer_and_tells_the_truth(audited, planted):
    name, out, summary = audited
    assert len(summary["worst"]) == sum(len(rows) for rows in planted["planted"].values())
    for case in summary["worst"]:
        scene = scene_io.load(out / case["file"])
        row = case["row"]
        a, b = scene.bodies
        columns = planted["columns"]
        assert a.center == (columns["a_cx"][row], columns["a_cy"][row], columns["a_cz"][row])
        assert b.velocity == (columns["b_vx"][row], columns["b_vy"][row], columns["b_vz"][row])
        assert scene.horizon == columns["horizon"][row]
        truth = sweep(a.to_body(), b.to_body(), scene.horizon)
        assert truth.hit == planted["hit"][row] == case["hit"]
        said = "hit" if case["said"]["hit"] else "no hit"
        assert f"The engine said {said}" in scene.description
        assert f"the exact answer is {truth.status.name}" in scene.description
        assert f"row {row} of {name}" in scene.title
        if case["kind"] == "toi error":
            assert math.isclose(truth.toi, planted["toi"][row], rel_tol=1e-12, abs_tol=1e-300)


def test_the_plot_is_a_png(audited):
    _, out, summary = audited
    assert summary["plot"] == "audit.png"
    assert (out / "audit.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in out.iterdir()) == ["audit.png", "cases", "summary.json"]
