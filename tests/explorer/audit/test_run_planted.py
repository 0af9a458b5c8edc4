"""The audit finds every wrong engine answer planted in a log of hard cases, and nothing else.

The log (planted.py) mixes near grazes a few ulps either side of touching, long
shots, grazes far from the origin and contacts a few ulps either side of the
horizon with generic pairs; its truth is decided in rational arithmetic, not by
the solver.  Planted: false hits, false misses, TOI errors; also times moved by
a quarter of the tolerance, which must pass.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from audit_logs import CHUNK, FORMATS, read_summary
from planted import write_rows

from explorer.audit.log.columns import GEOMETRY
from explorer.audit.run import audit
from explorer.model.formats import scene_io
from solver import sweep


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


# -- a case's words, whole, for hand-made cases -------------------------------------------------------


def _case(**fields):
    from explorer.audit.decision.worst import Case

    base = dict(rank=0, severity=1.0, values={"horizon": 1.0}, status="HIT", hit=True)
    return Case(**(base | fields))


HAND_MADE = {
    "false hit, touching after the horizon, textbook answers beside": (
        _case(row=12, source="engine", kind="false hit", status="MISS", hit=False, t_enter=1.5, t_exit=2.5,
              closest=2.5, contact_distance=2.0, labels={"step": 7, "a_id": 3},
              said={"engine": {"hit": True, "toi": 0.75}, "float64": {"hit": False, "toi": None},
                    "float32": {"hit": True, "toi": None}}),
        "log.csv", 1e-6,
        "Audit: false hit at row 12 (step 7, A is body 3) of log.csv",
        "The engine said hit at t = 0.75; the exact answer is MISS (the spheres would touch at t = 1.5, outside "
        "[0, 1.0]). Over [0, 1.0] the centres come within 2.5 of each other against a contact distance rA + rB "
        "= 2.0 (a gap of 0.5). The textbook formula in float64 said no hit. The textbook formula in float32 said "
        "hit. Row 12 (step 7, A is body 3) of log.csv; roots of |d(t)| = R: 1.5, 2.5.",
    ),
    "TOI error after t = 1": (
        _case(row=5, source="float32", kind="toi error", toi=2.0, t_enter=2.0, t_exit=3.0, values={"horizon": 4.0},
              closest=1.0, contact_distance=1.5, labels={"b_id": 9},
              said={"float32": {"hit": True, "toi": 2.001}, "float64": {"hit": True, "toi": 2.0}}),
        "log.parquet", 1e-6,
        "Audit: toi error at row 5 (B is body 9) of log.parquet",
        "The textbook formula in float32 said hit at t = 2.001; the exact answer is HIT, first contact at t = 2.0. "
        "The time is off by 0.001 (tolerance 1e-06 x max(1, toi) = 2e-06). Over [0, 4.0] the centres come within "
        "1.0 of each other against a contact distance rA + rB = 1.5 (an overlap of 0.5). The textbook formula in "
        "float64 said hit at t = 2.0. Row 5 (B is body 9) of log.parquet; roots of |d(t)| = R: 2.0, 3.0.",
    ),
    "TOI error before t = 1, no labels": (
        _case(row=0, source="engine", kind="toi error", toi=0.5, t_enter=0.5, t_exit=0.9, closest=0.5,
              contact_distance=1.0, said={"engine": {"hit": True, "toi": 0.625}}),
        "log.npz", 1e-3,
        "Audit: toi error at row 0 of log.npz",
        "The engine said hit at t = 0.625; the exact answer is HIT, first contact at t = 0.5. The time is off by "
        "0.125 (tolerance 0.001 x max(1, toi) = 0.001). Over [0, 1.0] the centres come within 0.5 of each other "
        "against a contact distance rA + rB = 1.0 (an overlap of 0.5). Row 0 of log.npz; roots of |d(t)| = R: "
        "0.5, 0.9.",
    ),
    "false miss of a graze by a source with no name of its own, both bodies named": (
        _case(row=3, source="mine", kind="false miss", toi=0.25, t_enter=0.25, t_exit=0.25, closest=2.0,
              contact_distance=2.0, labels={"step": 4, "a_id": 1, "b_id": 2},
              said={"mine": {"hit": False, "toi": None}, "other": {"hit": True, "toi": 0.25}}),
        "log.csv", 1e-6,
        "Audit: false miss at row 3 (step 4, bodies 1 and 2) of log.csv",
        "mine said no hit; the exact answer is HIT, first contact at t = 0.25. Over [0, 1.0] the centres come "
        "within 2.0 of each other against a contact distance rA + rB = 2.0 (an overlap of 0). other said hit at "
        "t = 0.25. Row 3 (step 4, bodies 1 and 2) of log.csv; roots of |d(t)| = R: 0.25, 0.25.",
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", HAND_MADE)
def test_a_case_is_described_whole_in_words(name):
    from explorer.audit.report.cases import describe

    case, log_name, toi_tol, title, words = HAND_MADE[name]
    assert describe(case, log_name, toi_tol) == (title, words)


def test_a_case_s_bodies_are_named_by_the_engine_s_ids_when_logged():
    from explorer.audit.report.cases import scene_dict

    values = {name: 1.0 for name in ("a_cx", "a_cy", "a_cz", "a_vx", "a_vy", "a_vz", "a_r")}
    values |= {name.replace("a_", "b_"): 2.0 for name in values} | {"horizon": 1.0}
    names = {}
    for key in ("false hit, touching after the horizon, textbook answers beside", "TOI error before t = 1, no labels",
                "false miss of a graze by a source with no name of its own, both bodies named"):  # fmt: skip
        case, log_name, toi_tol, _, _ = HAND_MADE[key]
        case.values.update(values)
        names[key] = [body["name"] for body in scene_dict(case, log_name, toi_tol)["bodies"]]
    assert list(names.values()) == [["A (body 3)", "B"], ["A", "B"], ["A (body 1)", "B (body 2)"]]


def test_case_files_are_numbered_to_the_width_of_their_count():
    from explorer.audit.report.cases import file_name

    case = HAND_MADE["false hit, touching after the horizon, textbook answers beside"][0]
    toi = HAND_MADE["TOI error after t = 1"][0]
    assert file_name(1, 7, case) == "01-row-12-false-hit.json"
    assert file_name(10, 99, toi) == "10-row-5-toi-error.json"
    assert file_name(3, 150, case) == "003-row-12-false-hit.json"


def test_a_case_s_scene_gives_both_bodies_the_same_mass_and_the_log_s_name():
    """The engine's masses are not logged: the scene shows the geometry with equal masses."""
    from explorer.audit.report.cases import scene_dict

    case, log_name, toi_tol, title, words = HAND_MADE["TOI error before t = 1, no labels"]
    case.values.update({name: 0.5 for name in GEOMETRY})
    scene = scene_dict(case, log_name, toi_tol)
    assert [body["mass"] for body in scene["bodies"]] == [1.0, 1.0]
    assert (scene["title"], scene["description"]) == (title, words)


def test_the_cases_are_written_as_scenes_numbered_from_1_worst_first(tmp_path):
    from explorer.audit.report.cases import write_cases

    keys = ["false hit, touching after the horizon, textbook answers beside", "TOI error after t = 1"]
    cases = []
    for key in keys:
        case = HAND_MADE[key][0]
        case.values.update({name: 0.5 for name in GEOMETRY} | {"b_cx": 5.0})
        cases.append(case)
    names = write_cases(cases, tmp_path / "cases", "log.csv", 1e-6)
    assert names == ["01-row-12-false-hit.json", "02-row-5-toi-error.json"]
    for name, key in zip(names, keys):
        scene = scene_io.load(tmp_path / "cases" / name)
        assert scene.title == HAND_MADE[key][3].replace(HAND_MADE[key][1], "log.csv")
        assert " of log.csv" in scene.description


# -- summary.json: its keys, and what a log without times leaves out ---------------------------------

#: summary.json's keys: the contract with whatever reads the file (the README says what they hold).
SUMMARY_KEYS = {
    "log", "format", "columns", "rows", "pairs", "hits", "engine_false_hits", "engine_false_misses",
    "engine_toi_errors", "engine_toi_missing", "skipped_rows", "skipped_by_column", "skipped_examples", "time_unit",
    "warnings", "toi_tol", "status_counts", "exact_path", "answers", "textbook", "histogram_edges", "worst", "plot",
    "run",
}  # fmt: skip
ANSWER_KEYS = {"false_hits", "false_misses", "toi_errors", "toi_missing", "toi_compared", "toi_exact",
               "toi_error_max", "toi_error_histogram"}  # fmt: skip
WORST_KEYS = {"file", "row", "step", "a_id", "b_id", "source", "kind", "severity", "said", "status", "hit", "toi"}


def test_the_summary_has_its_keys_and_counts_the_times_compared(planted, planted_files, tmp_path):
    """The compared times are the pairs where the exact answer and the engine both say hit and the engine gave
    a time, counted here from the planted log; each is either exactly right or in the histogram."""
    summary = audit(planted_files["log.npz"], tmp_path / "out", chunk_rows=CHUNK)
    assert set(summary) == SUMMARY_KEYS and read_summary(tmp_path / "out") == json.loads(json.dumps(summary))
    engine = summary["answers"]["engine"]
    assert set(engine) == ANSWER_KEYS | {"false_misses_in_contact_at_end"}
    assert summary["worst"] and all(set(case) == WORST_KEYS for case in summary["worst"])
    assert summary["format"] == "npz" and summary["plot"] == "audit.png"
    assert summary["columns"] == [name for name in planted["columns"]] and summary["exact_path"] > 0
    columns = planted["columns"]
    said = (columns["engine_hit"] == 1.0) & ~np.isnan(columns["engine_toi"])
    compared = int((np.asarray(planted["hit"]) & said).sum())
    assert engine["toi_compared"] == compared == engine["toi_exact"] + sum(engine["toi_error_histogram"])
    assert isinstance(engine["toi_error_max"], float) and engine["toi_error_max"] > 0


def test_a_log_without_times_leaves_every_time_count_empty(planted, tmp_path):
    columns = {name: values for name, values in planted["columns"].items() if name != "engine_toi"}
    path = tmp_path / "log.npz"
    np.savez(path, **columns)
    summary = audit(path, tmp_path / "out", chunk_rows=CHUNK)
    engine = summary["answers"]["engine"]
    assert {key: engine[key] for key in ANSWER_KEYS if key.startswith("toi")} == dict.fromkeys(
        [key for key in ANSWER_KEYS if key.startswith("toi")]
    )
    assert engine["false_hits"] == 25 and engine["false_misses"] == 25
    assert summary["engine_toi_errors"] is None and summary["engine_toi_missing"] is None


def test_times_logged_but_none_given_or_every_row_skipped_leave_the_right_counts_empty(planted, tmp_path):
    """An engine_toi column with no time in it: times were checked (counts of 0) but there is no largest error.
    Every row skipped, and no engine_toi column: nothing was decided, the time counts stay empty."""
    columns = dict(planted["columns"]) | {"engine_toi": np.full(len(planted["columns"]["a_cx"]), np.nan)}
    np.savez(tmp_path / "no-times.npz", **columns)
    engine = audit(tmp_path / "no-times.npz", tmp_path / "out1", chunk_rows=CHUNK)["answers"]["engine"]
    assert engine["toi_compared"] == 0 and engine["toi_exact"] == 0 and engine["toi_error_max"] is None
    columns = {name: values for name, values in planted["columns"].items() if name != "engine_toi"}
    columns["a_r"] = np.full(len(columns["a_cx"]), -1.0)  # every row's radius out of range: skipped
    np.savez(tmp_path / "skipped.npz", **columns)
    summary = audit(tmp_path / "skipped.npz", tmp_path / "out2", chunk_rows=CHUNK)
    assert summary["pairs"] == 0 and summary["skipped_rows"] == len(columns["a_cx"])
    engine = summary["answers"]["engine"]
    assert [engine[key] for key in sorted(ANSWER_KEYS)] == [0, 0, None, None, None, None, None, None]


def test_a_log_of_no_rows_has_an_engine_column_s_counts_and_no_time_counts(planted, tmp_path):
    columns = {name: values[:0] for name, values in planted["columns"].items() if name != "engine_toi"}
    np.savez(tmp_path / "empty.npz", **columns)
    summary = audit(tmp_path / "empty.npz", tmp_path / "out", chunk_rows=CHUNK)
    assert summary["rows"] == 0 and summary["pairs"] == 0
    engine = summary["answers"]["engine"]
    assert [engine[key] for key in sorted(ANSWER_KEYS)] == [0, 0, None, None, None, None, None, None]


def test_a_log_s_name_in_the_cases_titles_is_printable_and_at_most_120_characters():
    from explorer.audit.run import _printable

    assert _printable("log\tof\nday 3.csv") == "log?of?day 3.csv"
    long = "é" * 130
    assert _printable(long) == "é" * 120


def test_a_relative_toi_error_of_2_to_the_minus_20_is_counted_in_the_bin_that_holds_it(tmp_path):
    """One pair: B 3 away closing at speed 1, radii 1: the exact time of impact is 1; the engine says 1 + 2**-20,
    a relative error of exactly 2**-20.  The bin counting it must be the one whose edges hold 2**-20."""
    row = dict(a_cx=0.0, a_cy=0.0, a_cz=0.0, a_vx=0.0, a_vy=0.0, a_vz=0.0, a_r=1.0, b_cx=3.0, b_cy=0.0, b_cz=0.0,
               b_vx=-1.0, b_vy=0.0, b_vz=0.0, b_r=1.0, horizon=2.0, engine_hit=1.0, engine_toi=1.0 + 2.0**-20)  # fmt: skip
    np.savez(tmp_path / "one.npz", **{name: np.array([value]) for name, value in row.items()})
    summary = audit(tmp_path / "one.npz", tmp_path / "out", chunk_rows=CHUNK)
    edges = summary["histogram_edges"]
    histogram = summary["answers"]["engine"]["toi_error_histogram"]
    assert sum(histogram) == 1 and len(edges) == len(histogram) + 1
    k = histogram.index(1)
    assert edges[k] <= 2.0**-20 < edges[k + 1] and all(b == 2 * a for a, b in zip(edges, edges[1:]))


def test_false_misses_touching_exactly_at_the_end_count_as_in_contact_at_the_end(tmp_path):
    """Two false misses, radii 1, horizon 1: B 3 away closing at 1 first touches A at t = 1 (t_enter = horizon);
    B 1 away (overlapping) leaving at 1 last touches A at t = 1 (t_exit = horizon).  Both are in contact at
    the end, by hand."""
    rows = [dict(b_cx=3.0, b_vx=-1.0), dict(b_cx=1.0, b_vx=1.0)]
    columns = {name: np.zeros(2) for name in GEOMETRY} | {"a_r": np.ones(2), "b_r": np.ones(2)}
    columns |= {"horizon": np.ones(2), "engine_hit": np.zeros(2)}
    for k, row in enumerate(rows):
        for name, value in row.items():
            columns[name][k] = value
    np.savez(tmp_path / "end.npz", **columns)
    summary = audit(tmp_path / "end.npz", tmp_path / "out", chunk_rows=CHUNK)
    engine = summary["answers"]["engine"]
    assert engine["false_misses"] == 2 and engine["false_misses_in_contact_at_end"] == 2


# -- the worst cases of five rows worked by hand ------------------------------------------------------
#
# Every pair has radii 0.5 (contact distance R = 1); ``p = cB - cA`` and ``v = vB - vA``.
# The closest approach over [0, h] is ``|p + v t*|`` with ``t* = -p.v / v.v`` clipped to [0, h].
#
# =====  ==========================  =========================  ====  ==============  ==============================
# row    A: centre, velocity         B: centre, velocity         h     engine says     exact answer
# =====  ==========================  =========================  ====  ==============  ==============================
# 0      (10,0,0), (1,0,0)           (11.5,0,0), still           1     no hit          HIT at 0.5 (p 1.5, v -1; exits
#                                                                                       at 2.5); closest at t = h: 0.5
# 1      (1,2,0), (0.25,0,0)         (0,5,0), (0.75,0,0)         4     hit at 1        MISS: p (-1,3,0), v (0.5,0,0),
#                                                                                       t* = 2 inside [0, 4]: closest 3
# 2      (0,0,0), (0,0,-1)           (0,0,4), (0,0,1)            0.5   hit at 0.25     SEPARATING: p.v = 8 > 0, t* < 0:
#                                                                                       closest 4 at t = 0
# 3      (0,0,0), (2,0,0)            (4,0,0), still              2     hit at 1.75     HIT at 1.5 (exits at 2.5);
#                                                                                       closest 0 at t = 2
# 4      (0,0,0), still              (5,0,0), still              1     no hit          right: not a case
# =====  ==========================  =========================  ====  ==============  ==============================
#
# Severities (module notes of :mod:`explorer.audit.decision.worst`): a wrong verdict ``|closest - R| / R``:
# row 0 0.5, row 1 2, row 2 3; a wrong time ``|said - toi| / max(1, |toi|)``: row 3 0.25 / 1.5.
# Wrong verdicts come first, worst first: rows 2, 1, 0, then the wrong time of row 3.

FIVE_ROWS = [
    # a centre, a velocity, a r, b centre, b velocity, b r, horizon, engine hit, engine toi
    ((10, 0, 0), (1, 0, 0), (11.5, 0, 0), (0, 0, 0), 1.0, 0.0, math.nan),
    ((1, 2, 0), (0.25, 0, 0), (0, 5, 0), (0.75, 0, 0), 4.0, 1.0, 1.0),
    ((0, 0, 0), (0, 0, -1), (0, 0, 4), (0, 0, 1), 0.5, 1.0, 0.25),
    ((0, 0, 0), (2, 0, 0), (4, 0, 0), (0, 0, 0), 2.0, 1.0, 1.75),
    ((0, 0, 0), (0, 0, 0), (5, 0, 0), (0, 0, 0), 1.0, 0.0, math.nan),
]


def _write_five_rows(path):
    """The five rows above as an ``.npz`` log with engine_hit, engine_toi and horizon columns."""
    rows = [[*ac, *av, 0.5, *bc, *bv, 0.5] for ac, av, bc, bv, *_ in FIVE_ROWS]
    extra = np.array([row[4:] for row in FIVE_ROWS], dtype=np.float64)
    return write_rows(path, rows, horizon=extra[:, 0], engine_hit=extra[:, 1], engine_toi=extra[:, 2])


@pytest.fixture
def five_rows(tmp_path):
    return _write_five_rows(tmp_path / "log.npz")


def test_the_worst_cases_in_order_with_what_each_said(five_rows, tmp_path):
    summary = audit(five_rows, tmp_path / "out")
    worst = [{k: case[k] for k in ("row", "kind", "severity", "said", "status", "hit", "toi")}
             for case in summary["worst"]]  # fmt: skip
    assert worst == [
        {"row": 2, "kind": "false hit", "severity": 3.0, "said": {"hit": True, "toi": 0.25}, "status": "SEPARATING",
         "hit": False, "toi": None},
        {"row": 1, "kind": "false hit", "severity": 2.0, "said": {"hit": True, "toi": 1.0}, "status": "MISS",
         "hit": False, "toi": None},
        {"row": 0, "kind": "false miss", "severity": 0.5, "said": {"hit": False, "toi": None}, "status": "HIT",
         "hit": True, "toi": 0.5},
        {"row": 3, "kind": "toi error", "severity": 0.25 / 1.5, "said": {"hit": True, "toi": 1.75}, "status": "HIT",
         "hit": True, "toi": 1.5},
    ]  # fmt: skip
    assert [case["file"] for case in summary["worst"]] == [
        "cases/01-row-2-false-hit.json", "cases/02-row-1-false-hit.json", "cases/03-row-0-false-miss.json",
        "cases/04-row-3-toi-error.json",
    ]  # fmt: skip


def _description(folder, name: str) -> str:
    return json.loads((folder / "cases" / name).read_text(encoding="utf-8"))["description"]


def test_each_case_says_the_closest_approach_and_the_roots(five_rows, tmp_path):
    """Row 2's roots are in the past (4 + 2t = -1, 1: t = -2.5, -1.5); row 1 has none (it passes 3 away)."""
    audit(five_rows, tmp_path / "out")
    out = tmp_path / "out"
    assert _description(out, "01-row-2-false-hit.json") == (
        "The engine said hit at t = 0.25; the exact answer is SEPARATING (the spheres would touch at t = -2.5,"
        " outside [0, 0.5]). Over [0, 0.5] the centres come within 4.0 of each other against a contact distance"
        " rA + rB = 1.0 (a gap of 3). Row 2 of log.npz; roots of |d(t)| = R: -2.5, -1.5."
    )
    assert _description(out, "02-row-1-false-hit.json") == (
        "The engine said hit at t = 1.0; the exact answer is MISS. Over [0, 4.0] the centres come within 3.0 of"
        " each other against a contact distance rA + rB = 1.0 (a gap of 2). Row 1 of log.npz; roots of"
        " |d(t)| = R: None, None."
    )
    assert _description(out, "03-row-0-false-miss.json") == (
        "The engine said no hit; the exact answer is HIT, first contact at t = 0.5. Over [0, 1.0] the centres come"
        " within 0.5 of each other against a contact distance rA + rB = 1.0 (an overlap of 0.5)."
        " Row 0 of log.npz; roots of |d(t)| = R: 0.5, 2.5."
    )
    assert _description(out, "04-row-3-toi-error.json") == (
        "The engine said hit at t = 1.75; the exact answer is HIT, first contact at t = 1.5."
        " The time is off by 0.25 (tolerance 1e-06 x max(1, toi) = 1.5e-06)."
        " Over [0, 2.0] the centres come within 0.0 of each other against a contact distance rA + rB = 1.0"
        " (an overlap of 1). Row 3 of log.npz; roots of |d(t)| = R: 1.5, 2.5."
    )


def test_worst_keeps_that_many(five_rows, tmp_path):
    summary = audit(five_rows, tmp_path / "out", worst=1)
    assert [case["row"] for case in summary["worst"]] == [2]
    assert sorted(p.name for p in (tmp_path / "out" / "cases").iterdir()) == ["01-row-2-false-hit.json"]


def test_the_summary_names_the_log_its_format_and_the_picture(five_rows, tmp_path):
    summary = audit(five_rows, tmp_path / "out")
    assert (summary["log"], summary["format"], summary["plot"]) == (str(five_rows), "npz", "audit.png")
    assert (tmp_path / "out" / "audit.png").stat().st_size > 0
    run = summary["run"]
    assert run["runner"] == "single" and run["seconds"] > 0
    assert run["pairs_per_second"] == pytest.approx(5 / run["seconds"], rel=1e-12)


def test_the_textbook_formula_in_float32_alone_wrong_is_a_case(tmp_path):
    """No engine columns: the textbook formula in float64 and float32 are the sources.  B (r 0.5) passes A
    (r 0.5, still at the origin) along x, 1 + 2**-24 to the side, from x = -3 at 6 per unit time: a miss by
    2**-24.  In float32, 1 + 2**-24 rounds to 1 (half an ulp, ties to even): the spheres graze, a hit.  The
    false hit is float32's alone, so it is a case, named for float32."""
    row = [0, 0, 0, 0, 0, 0, 0.5, -3.0, 1 + 2.0**-24, 0, 6.0, 0, 0, 0.5]
    path = write_rows(tmp_path / "graze.npz", [row])
    summary = audit(path, tmp_path / "out")
    assert summary["textbook"]["float64"]["false_hits"] == 0
    assert summary["textbook"]["float32"]["false_hits"] == 1
    assert [(c["row"], c["source"], c["kind"], c["status"]) for c in summary["worst"]] == [
        (0, "float32", "false hit", "MISS")
    ]


def test_a_time_both_types_get_wrong_is_named_for_float64(tmp_path):
    """No engine columns.  B (r 0.5) at (3, 0.012, -0.216) closing along x at 1.311 on A (r 0.5, still at the
    origin): first contact at t = 1.5436..., which float64's textbook formula misses by about 1e-16 relative
    and float32's by about 3e-7.  With a tolerance of 1e-20 both are wrong times; the ordering puts float64's
    first (the first source listed), so the case is named for float64 and its severity is float64's error."""
    row = [0, 0, 0, 0, 0, 0, 0.5, 3.0, 0.012, -0.216, -1.311, 0, 0, 0.5]
    path = write_rows(tmp_path / "both.npz", [row])
    summary = audit(path, tmp_path / "out", toi_tol=1e-20, horizon=2.0)
    assert (summary["textbook"]["float64"]["toi_errors"], summary["textbook"]["float32"]["toi_errors"]) == (1, 1)
    [case] = summary["worst"]
    assert (case["source"], case["kind"], case["status"]) == ("float64", "toi error", "HIT")
    assert 0 < case["severity"] < 1e-15


def test_a_wrong_verdict_s_severity_is_relative_to_the_contact_distance(tmp_path):
    """Radii 1.5 and 0.5 (R = 2); B passes A 5 to the side, from x = -1 to x = 1 over the horizon: closest
    5 at t = 0.5, a gap of 3, severity 3 / 2.  The engine says hit: a false hit of severity 1.5."""
    row = [0, 0, 0, 0, 0, 0, 1.5, -1.0, 5.0, 0, 2.0, 0, 0, 0.5]
    path = write_rows(tmp_path / "wide.npz", [row], engine_hit=np.array([1.0]))
    [case] = audit(path, tmp_path / "out")["worst"]
    assert (case["kind"], case["severity"]) == ("false hit", 1.5)
