"""QueryLog's refusals word for word, and its edges: contacts at exactly touching, labels at ±2**53, CSV cells.

An engine developer reads these messages in a traceback from their own loop, so
each is compared whole; each limit is tried at the limit and one past it.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from explorer.audit import QueryLog
from explorer.audit.log.reading import chunks, inspect
from explorer.system.files import WriteError

EXACT = 2**53
A = dict(a_center=[0, 0, 0], a_velocity=[1, 0, 0], a_radius=1)
B = dict(b_center=[3, 0, 0], b_velocity=[0, 0, 0], b_radius=1)


def refusal(call, tmp_path, horizon=None, name="q.csv") -> str:
    with QueryLog(tmp_path / name, horizon=horizon) as log:
        with pytest.raises(ValueError) as info:
            call(log)
    return str(info.value)


def read_back(path) -> dict[str, np.ndarray]:
    info = inspect(path)
    return {k: np.concatenate([c[k] for c in chunks(info, 1000)]) for k in info.columns}


# -- making a log ---------------------------------------------------------------------------------------


def test_the_log_is_refused_at_a_wrong_path_chunk_or_horizon(tmp_path):
    for path in ("q.txt", "q"):
        with pytest.raises(ValueError) as info:
            QueryLog(tmp_path / path)
        assert str(info.value) == f"path: expected a .parquet or .csv file, got {str(tmp_path / path)!r}"
    for chunk in (0, 1.5, "4"):
        with pytest.raises(ValueError) as info:
            QueryLog(tmp_path / "q.csv", chunk_rows=chunk)
        assert str(info.value) == f"chunk_rows: expected a positive whole number, got {chunk!r}"
    for horizon, shown in ((0, "0.0"), (-1, "-1.0")):
        with pytest.raises(ValueError) as info:
            QueryLog(tmp_path / "q.csv", horizon=horizon)
        assert str(info.value) == f"horizon: expected a positive number, got {shown}"
    with pytest.raises(ValueError) as info:
        QueryLog(tmp_path / "q.csv", horizon=float("inf"))
    assert str(info.value) == "horizon: expected finite numbers, got inf"
    assert not list(tmp_path.iterdir())  # nothing written for a refused log


def test_a_one_row_chunk_and_the_short_parquet_suffix(tmp_path):
    with QueryLog(tmp_path / "q.PQ", chunk_rows=1) as log:
        log.add(**A, **B)
        log.add(**A, **B)
        assert log.rows == 2
    assert read_back(tmp_path / "q.PQ")["a_vx"].tolist() == [1.0, 1.0]


# -- add: values ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "changes, message",
    [
        (dict(a_center=[0, 0]), "a_center: expected a scalar or shape (m, 3) or (3), got shape (2,)"),
        (dict(b_velocity=[[0, 0, 0, 0]]), "b_velocity: expected a scalar or shape (m, 3) or (3), got shape (1, 4)"),
        (dict(a_center=5.0), "a_center: expected shape (3,) or (m, 3), got a single number"),
        (dict(a_radius=[[1.0]]), "a_radius: expected a scalar or shape (m), got shape (1, 1)"),
        (dict(a_center="here"), "a_center: expected numbers, got 'here'"),
        (dict(a_velocity=[[0, 0, 0], [0, np.inf, 0]], a_center=[[0, 0, 0], [1, 1, 1]]),
         "a_velocity: expected finite numbers, got inf (row 1)"),
        (dict(b_radius=np.nan), "b_radius: expected finite numbers, got nan"),
        (dict(b_radius=0.0), "b_radius: expected a positive number, got 0.0"),
        (dict(a_radius=[1.0, -2.0], a_center=[[0, 0, 0], [1, 1, 1]]), "a_radius: expected a positive number, got -2.0"),
        (dict(a_center=[[0, 0, 0]] * 2, b_center=[[3, 0, 0]] * 3), "b_cx: 3 rows where a_cx has 2"),
    ],
)  # fmt: skip
def test_geometry_refused_word_for_word(tmp_path, changes, message):
    assert refusal(lambda log: log.add(**{**A, **B, **changes}), tmp_path) == message


@pytest.mark.parametrize(
    "keywords, message",
    [
        (dict(engine_hit=2), "engine_hit: expected true/false, 1/0 or None, got 2 (row 0)"),
        (dict(engine_hit=np.int64(2)), "engine_hit: expected true/false, 1/0 or None, got 2 (row 0)"),
        (dict(engine_hit=np.float64(0.5)), "engine_hit: expected true/false, 1/0 or None, got 0.5 (row 0)"),
        (dict(engine_hit=[True, "yes"]), "engine_hit: expected true/false, 1/0 or None, got 'yes' (row 1)"),
        (dict(engine_toi=-0.5), "engine_toi: expected a time >= 0, None or NaN, got -0.5"),
        (dict(engine_toi=[0.5, np.inf]), "engine_toi: expected a time >= 0, None or NaN, got inf"),
        (dict(step=1.5), "step: expected whole numbers, one per row, got 1.5"),
        (dict(a_id=[[1, 2], [3, 4]]), "a_id: expected whole numbers, one per row, got [[1, 2], [3, 4]]"),
        (dict(b_id=[1, 2, 3]), "b_id: 3 rows where a_cx has 2"),
        (dict(step=EXACT + 1), f"step: {EXACT + 1} is beyond ±2**53 (read as float64)"),
        (dict(step=-(EXACT + 1)), f"step: {-(EXACT + 1)} is beyond ±2**53 (read as float64)"),
        (dict(a_id=np.array([1, EXACT + 1], dtype=np.uint64)), f"a_id: {EXACT + 1} is beyond ±2**53 (read as float64)"),
        (dict(b_id="x" * 50), f"b_id: expected whole numbers, one per row, got {repr('x' * 50)[:39]}…"),
    ],
)  # fmt: skip
def test_engine_columns_refused_word_for_word(tmp_path, keywords, message):
    two = dict(a_center=[[0, 0, 0], [1, 1, 1]])
    assert refusal(lambda log: log.add(**{**A, **B, **two}, **keywords), tmp_path) == message


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda log: log.add(**A, **B, a_id=-(2**63)), "a_id: -9223372036854775808 is beyond ±2**53 (read as float64)"),
        (lambda log: log.add(**A, **B, a_id=np.int64(-(2**63))),
         "a_id: -9223372036854775808 is beyond ±2**53 (read as float64)"),
        (lambda log: log.add(**A, **B, b_id=2**70), f"b_id: {2**70} is beyond ±2**53 (read as float64)"),
        (lambda log: log.add(**A, **B, step=1e300), "step: 1e+300 is beyond ±2**53 (read as float64)"),
        (lambda log: log.add(**A, **B, b_id=9.3e18), "b_id: 9.3e+18 is beyond ±2**53 (read as float64)"),
        (lambda log: log.add(**A, **B, step=np.inf), "step: expected whole numbers, one per row, got inf"),
        (lambda log: log.add(**A, **B, step=np.nan), "step: expected whole numbers, one per row, got nan"),
        (lambda log: log.add(**{**A, **B, "a_center": [[0, 0, 0]] * 2}, a_id=[1, None]),
         "a_id: expected whole numbers, one per row, got [1, None]"),
        (lambda log: log.add(**A, **B, step=True), "step: expected whole numbers, one per row, got True"),
        (lambda log: log.add(**{**A, "a_center": ["1", "2", "3"]}, **B), "a_center: expected numbers, got ['1', '2', '3']"),
        (lambda log: log.add(**{**A, "a_radius": "1"}, **B), "a_radius: expected numbers, got '1'"),
        (lambda log: log.add(**{**A, "a_radius": True}, **B), "a_radius: expected numbers, got True"),
        (lambda log: log.add(**{**A, "a_radius": [1, None]}, **B), "a_radius: expected finite numbers, got nan"),
        (lambda log: log.add(**{**A, "a_velocity": np.array([1 + 1j, 0, 0])}, **B),
         "a_velocity: expected numbers, got array([1.+1.j, 0.+0.j, 0.+0.j])"),
        (lambda log: log.add(**{**A, "a_center": [2**60, 0, 0]}, **B),
         "a_center: 1152921504606846976 is beyond ±2**53 (read as float64)"),
        (lambda log: log.add(**A, **B, engine_toi="0.5"), "engine_toi: expected times, None or NaN, got '0.5'"),
        (lambda log: log.add(**A, **B, engine_toi=0.5 + 0.5j), "engine_toi: expected times, None or NaN, got (0.5+0.5j)"),
        (lambda log: log.add(**A, **B, horizon=True), "horizon: expected numbers, got True"),
        (lambda log: log.add(**{**A, **B, "a_center": [[0, 0, 0]] * 2}, engine_hit=[[1], [0]]),
         "engine_hit: expected one verdict per row, got shape (2, 1)"),
        (lambda log: log.add_step(np.zeros((2, 3)), np.zeros((2, 3)), 1, True), "dt: expected numbers, got True"),
        (lambda log: log.add_step(np.zeros((2, 3)), np.zeros((2, 3)), 1, 0.5, ids=[-(2**63), 0]),
         "ids: -9223372036854775808 is beyond ±2**53 (read as float64)"),
        (lambda log: log.add_step(np.zeros((3, 3)), np.zeros((3, 3)), 1, 0.5, contacts_start=[(1, 1)]),
         "contacts_start: expected two different bodies, got (1, 1)"),
        (lambda log: log.add_step(np.zeros((3, 3)), np.zeros((3, 3)), 1, 0.5, contacts_start=[(0, 1.5)]),
         "contacts_start: expected pairs of body indices, got (0, 1.5)"),
        (lambda log: log.add_step(np.zeros((3, 3)), np.zeros((3, 3)), 1, 0.5, contacts_end=[(True, 2)]),
         "contacts_end: expected pairs of body indices, got (True, 2)"),
        (lambda log: log.add_step(np.zeros((3, 3)), np.zeros((3, 3)), 1, 0.5, contacts_end=[("0", 2)]),
         "contacts_end: expected pairs of body indices, got ('0', 2)"),
    ],
)  # fmt: skip
def test_what_cannot_be_written_exactly_is_refused_naming_the_field(call, message, tmp_path):
    """Issue 36: these were written (an id of -2**63 the audit then refused; 1e300 as -2**63 with a numpy
    warning; text read as numbers; complex numbers without their imaginary part; True as a horizon; a body in
    contact with itself; index 1.5 as 1) or refused in numpy's words (a 2-D engine_hit)."""
    for name in ("q.csv", "q.parquet"):
        assert refusal(call, tmp_path, name=name) == message
        assert inspect(tmp_path / name).rows in (0, None)  # nothing of the refused call was written
        assert not [chunk for chunk in chunks(inspect(tmp_path / name), 1000) if chunk["a_cx"].size]


def test_a_horizon_of_true_is_refused(tmp_path):
    with pytest.raises(ValueError) as info:
        QueryLog(tmp_path / "q.csv", horizon=True)
    assert str(info.value) == "horizon: expected numbers, got True"
    assert not list(tmp_path.iterdir())


@pytest.mark.skipif(np.dtype(np.longdouble).itemsize <= 8, reason="long double is double here")
def test_a_long_double_that_float64_would_round_is_refused(tmp_path):
    tenth = np.longdouble(1) / np.longdouble(10)
    assert refusal(lambda log: log.add(**{**A, "a_radius": tenth}, **B), tmp_path) == (
        f"a_radius: {tenth!r} has no exact float64"
    )
    with QueryLog(tmp_path / "r.csv") as log:  # one that float64 holds is written as it is
        log.add(**{**A, "a_radius": np.longdouble(0.5)}, **B)
    assert read_back(tmp_path / "r.csv")["a_r"].tolist() == [0.5]


def test_the_cut_of_a_shown_value_is_at_forty_characters(tmp_path):
    exactly = "x" * 38  # 40 with its quotes: shown whole
    assert refusal(lambda log: log.add(**A, **B, step=exactly), tmp_path) == (
        f"step: expected whole numbers, one per row, got '{exactly}'"
    )


def test_labels_at_2_to_the_53_are_kept_exactly(tmp_path):
    with QueryLog(tmp_path / "q.csv") as log:
        log.add(**A, **B, step=[EXACT, -EXACT], a_id=np.array([EXACT, 0], dtype=np.uint64), b_id=[3.0, 4.0])
    lines = (tmp_path / "q.csv").read_text(encoding="ascii").splitlines()
    assert lines[0].endswith(",step,a_id,b_id")
    assert [line.split(",")[-3:] for line in lines[1:]] == [[str(EXACT), str(EXACT), "3"], [str(-EXACT), "0", "4"]]


def test_missing_verdicts_and_times_are_empty_cells(tmp_path):
    with QueryLog(tmp_path / "q.csv", horizon=0.5) as log:
        log.add(**{**A, **B, "a_center": [[0, 0, 0]] * 4}, engine_hit=[True, None, np.nan, 0],
                engine_toi=[0.25, None, np.nan, 0.0])  # fmt: skip
    lines = (tmp_path / "q.csv").read_text(encoding="ascii").splitlines()
    assert lines[0].endswith(",horizon,engine_hit,engine_toi")
    assert [line.split(",")[-3:] for line in lines[1:]] == [
        ["0.5", "1", "0.25"], ["0.5", "", ""], ["0.5", "", ""], ["0.5", "0", "0.0"]
    ]  # fmt: skip
    assert lines[1].startswith("0.0,0.0,0.0,1.0,0.0,0.0,1.0,3.0,")  # floats in their exact shortest form


def test_a_verdict_for_all_rows_at_once(tmp_path):
    with QueryLog(tmp_path / "q.parquet") as log:
        log.add(**{**A, **B, "a_center": [[0, 0, 0]] * 3}, engine_hit=False, engine_toi=None)
        log.add(**{**A, **B, "a_center": [[0, 0, 0]] * 2}, engine_hit=np.nan, engine_toi=np.nan)
    read = read_back(tmp_path / "q.parquet")
    assert read["engine_hit"][:3].tolist() == [0.0, 0.0, 0.0]
    assert np.isnan(read["engine_hit"][3:].astype(float)).all() and np.isnan(read["engine_toi"]).all()


def test_per_row_horizons_and_the_columns_a_call_must_keep(tmp_path):
    with QueryLog(tmp_path / "q.csv") as log:
        log.add(**A, **B, horizon=[0.5])
        with pytest.raises(ValueError) as info:
            log.add(**A, **B, horizon=0.5, step=1)
        assert str(info.value) == "step: this call gives it and the log's first did not (rows share their columns)"
        assert log.rows == 1
    assert read_back(tmp_path / "q.csv")["horizon"].tolist() == [0.5]
    assert refusal(lambda log: log.add(**A, **B, horizon=0.5), tmp_path, horizon=0.25) == (
        "horizon: this log's rows all have horizon 0.25 (QueryLog(horizon=...))"
    )
    with pytest.raises(ValueError) as info:
        log.add(**A, **B, horizon=0.5)
    assert str(info.value) == f"{tmp_path / 'q.csv'}: the log is closed"


def test_an_empty_log_has_its_columns_and_no_rows(tmp_path):
    for name, horizon, header in (("e.csv", 0.5, "b_r,horizon"), ("f.csv", None, "b_r")):
        with QueryLog(tmp_path / name, horizon=horizon):
            pass
        assert (tmp_path / name).read_text(encoding="ascii").splitlines()[0].endswith(header)
        assert len((tmp_path / name).read_text(encoding="ascii").splitlines()) == 1
    with QueryLog(tmp_path / "e.parquet", horizon=0.5):
        pass
    info = inspect(tmp_path / "e.parquet")
    assert (info.rows, info.columns[-1]) == (0, "horizon")


def test_discard_writes_nothing_and_closing_twice_is_harmless(tmp_path):
    log = QueryLog(tmp_path / "q.parquet", chunk_rows=1)
    log.add(**A, **B)
    log.add(**A, **B)  # a row group written to the temporary file
    log.discard()
    log.discard()
    log.close()
    assert not list(tmp_path.iterdir())
    kept = QueryLog(tmp_path / "k.csv")
    kept.add(**A, **B)
    kept.close()
    kept.close()
    assert len((tmp_path / "k.csv").read_text(encoding="ascii").splitlines()) == 2


# -- add_step ----------------------------------------------------------------------------------------------


def test_contacts_from_the_centres_include_exactly_touching(tmp_path):
    """Radii 1 and 2 (R = 3): bodies 3 apart touch exactly, 3.5 apart do not; body 2 is 1 from body 0."""
    before = [[0.0, 0, 0], [3.0, 0, 0], [-1.0, 0, 0]]
    after = [[0.0, 0, 0], [3.5, 0, 0], [-5.0, 0, 0]]
    with QueryLog(tmp_path / "q.csv") as log:
        log.add_step(before, after, [1.0, 2.0, 0.5], 0.5, step=7)
    read = read_back(tmp_path / "q.csv")
    # pairs (0, 1), (0, 2), (1, 2): start 3 <= 3 touch, 1 <= 1.5 touch, 4 > 2.5; end: 3.5 > 3, 5 > 1.5, 8.5 > 2.5
    assert read["engine_hit"].astype(float).tolist() == [1.0, 1.0, 0.0]
    assert read["step"].tolist() == [7, 7, 7]
    assert read["b_vx"].tolist() == [1.0, -8.0, -8.0]  # (after − before) / dt


def test_add_step_refusals_word_for_word(tmp_path):
    two = np.zeros((2, 3))
    cases = [
        (lambda log: log.add_step(np.zeros(3), np.zeros(3), 1, 0.5),
         "before: expected an (n, 3) array of centres, got shape (3,)"),
        (lambda log: log.add_step(two, two, 1, 0.0), "dt: expected a positive number, got 0.0"),
        (lambda log: log.add_step(two, two, [1, 2, 3], 0.5), "radius: expected a scalar or shape (2), got shape (3,)"),
        (lambda log: log.add_step(two, two, 1, 0.5, pairs=[0, 1]),
         "pairs: expected an (m, 2) array of body indices, got [0, 1]"),
        (lambda log: log.add_step(two, two, 1, 0.5, pairs=[[0.0, 1.0]]),
         "pairs: expected an (m, 2) array of body indices, got [[0.0, 1.0]]"),
        (lambda log: log.add_step(two, two, 1, 0.5, pairs=[[0, 2]]),
         "pairs: expected indices of two different bodies in [0, 2), got [[0, 2]]"),
        (lambda log: log.add_step(two, two, 1, 0.5, pairs=[[1, 1]]),
         "pairs: expected indices of two different bodies in [0, 2), got [[1, 1]]"),
        (lambda log: log.add_step(two, two, 1, 0.5, pairs=[[-1, 1]]),
         "pairs: expected indices of two different bodies in [0, 2), got [[-1, 1]]"),
        (lambda log: log.add_step(two, two, 1, 0.5, contacts_start=[(0, 2)]),
         "contacts_start: body index out of [0, 2) in (0, 2)"),
        (lambda log: log.add_step(two, two, 1, 0.5, contacts_end=[(2, 0)]),
         "contacts_end: body index out of [0, 2) in (2, 0)"),
        (lambda log: log.add_step(two, two, 1, 0.5, contacts_end=[(0,)]),
         "contacts_end: expected pairs of body indices, got (0,)"),
        (lambda log: log.add_step(two, two, 1, 0.5, ids=[1, 2, 3]),
         "ids: expected whole numbers, one per row, got [1, 2, 3]"),
    ]  # fmt: skip
    for call, message in cases:
        assert refusal(call, tmp_path) == message


def test_given_contacts_count_either_way_round_and_only_for_logged_pairs(tmp_path):
    centres = [[0.0, 0, 0], [10.0, 0, 0], [20.0, 0, 0]]  # far apart: only the given contacts count
    with QueryLog(tmp_path / "q.csv", horizon=0.5) as log:
        log.add_step(centres, centres, 1.0, 0.5, contacts_start=[(2, 1)], contacts_end=[(0, 2)], ids=[7, 8, 9])
    read = read_back(tmp_path / "q.csv")
    assert read["engine_hit"].astype(float).tolist() == [0.0, 1.0, 1.0]  # pairs (0, 1), (0, 2), (1, 2)
    assert (read["a_id"].tolist(), read["b_id"].tolist()) == ([7, 7, 8], [8, 9, 9])
    assert "horizon" in read  # the log's own horizon, dt being the same


def test_none_gives_the_column_with_values_missing_and_leaving_it_out_gives_none(tmp_path):
    """What the refusal advises ("None where there is none") is accepted; labels have no missing value."""
    with QueryLog(tmp_path / "q.csv", horizon=0.5) as log:
        log.add(**A, **B, engine_hit=None, engine_toi=None)  # the engine said nothing for this pair
        log.add(**A, **B, engine_hit=True, engine_toi=0.25)
        with pytest.raises(ValueError) as info:
            log.add(**A, **B, engine_hit=True)
        assert (
            str(info.value)
            == "engine_toi: the log's first call gave it; give it on every call (None where there is none)"
        )
    lines = (tmp_path / "q.csv").read_text(encoding="ascii").splitlines()
    assert lines[0].endswith(",horizon,engine_hit,engine_toi")
    assert [line.split(",")[-2:] for line in lines[1:]] == [["", ""], ["1", "0.25"]]
    with QueryLog(tmp_path / "r.csv") as log:
        log.add(**A, **B, step=3)
        with pytest.raises(ValueError) as info:
            log.add(**A, **B, step=None)
        assert str(info.value) == "step: the log's first call gave it; give it on every call"


def test_more_refusals_word_for_word(tmp_path):
    two = dict(a_center=[[0, 0, 0], [1, 1, 1]])
    cases = [
        (lambda log: log.add(**A, **B, engine_toi=["soon"]), "engine_toi: expected times, None or NaN, got ['soon']"),
        (lambda log: log.add(**{**A, **B, **two}, engine_toi=[[0.5], [0.5]]),
         "engine_toi: expected one time per row, got shape (2, 1)"),
        (lambda log: log.add(**A, **B, horizon=-1), "horizon: expected a positive number, got -1.0"),
        (lambda log: log.add(**A, **B, horizon=np.nan), "horizon: expected finite numbers, got nan"),
        (lambda log: log.add(**{**A, **B, **two}, step=[EXACT, EXACT + 1]),
         f"step: {EXACT + 1} is beyond ±2**53 (read as float64)"),
        (lambda log: log.add(**{**A, **B, "a_center": [[0, 0, 0]] * 2, "b_center": [[3, 0, 0]] * 3}, step=[1] * 4),
         "b_cx: 3 rows where a_cx has 2"),
        (lambda log: log.add(**{**A, **B, "a_radius": [1.0, np.nan], **two}),
         "a_radius: expected finite numbers, got nan"),
        (lambda log: log.add(**A, **B, step="x" * 39), f"step: expected whole numbers, one per row, got '{'x' * 38}…"),
        (lambda log: log.add_step(np.zeros((2, 3)), [[0, 0, 0], [np.nan, 0, 0]], 1, 0.5),
         "after: expected finite numbers, got nan (row 1)"),
        (lambda log: log.add_step([[np.inf, 0, 0], [0, 0, 0]], np.zeros((2, 3)), 1, 0.5),
         "before: expected finite numbers, got inf (row 0)"),
        (lambda log: log.add_step(np.zeros((2, 3)), np.zeros((2, 3)), [1, -1], 0.5),
         "radius: expected a positive number, got -1.0"),
    ]  # fmt: skip
    for call, message in cases:
        assert refusal(call, tmp_path) == message


def test_add_step_with_another_dt_than_the_logs_horizon_is_refused(tmp_path):
    with QueryLog(tmp_path / "q.csv", horizon=0.5) as log:
        log.add_step(np.zeros((2, 3)), [[0, 0, 0], [9, 0, 0]], 1, 0.5)  # the log's own dt: fine
        with pytest.raises(ValueError) as info:
            log.add_step(np.zeros((2, 3)), [[0, 0, 0], [9, 0, 0]], 1, 0.25)
        assert str(info.value) == "horizon: this log's rows all have horizon 0.5 (QueryLog(horizon=...))"
    with QueryLog(tmp_path / "r.csv") as log:  # no horizon of its own: each row gets its dt
        log.add_step(np.zeros((2, 3)), [[0, 0, 0], [9, 0, 0]], 1, 0.25)
    assert read_back(tmp_path / "r.csv")["horizon"].tolist() == [0.25]


def test_contacts_from_the_centres_use_the_sum_of_the_radii_squared(tmp_path):
    """Radii 1 and 2 (R = 3, R² = 9): 3.5 apart at both ends (12.25 > 9): no contact."""
    centres = [[0.0, 0, 0], [3.5, 0, 0]]
    with QueryLog(tmp_path / "q.csv") as log:
        log.add_step(centres, centres, [1.0, 2.0], 0.5)
    assert read_back(tmp_path / "q.csv")["engine_hit"].astype(float).tolist() == [0.0]


def test_missing_times_are_nulls_in_parquet(tmp_path):
    import pyarrow.parquet as pq

    with QueryLog(tmp_path / "q.parquet", horizon=0.5) as log:
        log.add(
            **{**A, **B, "a_center": [[0, 0, 0]] * 3}, engine_hit=[True, None, False], engine_toi=[0.25, None, np.nan]
        )
    table = pq.read_table(tmp_path / "q.parquet")
    assert (table.column("engine_toi").null_count, table.column("engine_hit").null_count) == (2, 1)
    assert table.column("a_cx").null_count == 0 and table.column("horizon").null_count == 0


def test_a_failing_close_leaves_nothing(tmp_path, monkeypatch):
    log = QueryLog(tmp_path / "q.csv")
    log.add(**A, **B)

    def broken():
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(log, "_flush", broken)
    with pytest.raises(WriteError) as info:
        log.close()
    assert str(info.value) == f"{tmp_path / 'q.csv'}: cannot write (No space left on device)"
    assert log.closed is True and not list(tmp_path.iterdir())


def test_a_discarded_parquet_log_leaves_no_writer_to_fail_later(tmp_path, monkeypatch):
    """Discarding closes the Parquet writer of the row groups already written: left open, the writer would
    try to finish the (removed, closed) file when collected, and Python would print 'Exception ignored'."""
    import gc
    import sys

    ignored = []
    monkeypatch.setattr(sys, "unraisablehook", lambda report: ignored.append(repr(report.exc_value)))
    log = QueryLog(tmp_path / "q.parquet", chunk_rows=1)
    log.add(**A, **B)
    log.add(**A, **B)  # a row group written: the writer is open
    log.discard()
    del log
    gc.collect()
    assert ignored == [] and not list(tmp_path.iterdir())


def test_each_chunk_is_one_parquet_row_group_even_above_pyarrows_default(tmp_path):
    """A chunk is written as one row group of ``chunk_rows`` rows, also above pyarrow's default size (1 Mi
    rows), which would split it: the audit reads a log row group by row group."""
    import pyarrow.parquet as pq

    size, m = (1 << 20) + 5, (1 << 20) + 8
    zeros, ones = np.zeros((m, 3)), np.ones(m)
    with QueryLog(tmp_path / "q.parquet", chunk_rows=size) as log:
        log.add(zeros, zeros, ones, zeros + 5.0, zeros, ones)
    meta = pq.ParquetFile(tmp_path / "q.parquet").metadata
    assert [meta.row_group(i).num_rows for i in range(meta.num_row_groups)] == [size, 3]


def test_discard_marks_the_log_closed(tmp_path):
    log = QueryLog(tmp_path / "q.parquet", chunk_rows=1)
    assert log.closed is False
    log.add(**A, **B)
    log.discard()
    assert log.closed is True and not list(tmp_path.iterdir())


def test_a_long_run_touches_its_temporary_file(tmp_path, monkeypatch):
    """A run that writes no chunk for a while touches its temporary file (here: at every call)."""
    from explorer.audit.log import writer

    monkeypatch.setattr(writer, "_TOUCH_EVERY", -1.0)
    with QueryLog(tmp_path / "q.csv") as log:
        (tmp,) = list(tmp_path.iterdir())
        for _ in range(2):
            os.utime(tmp, (0, 0))
            log.add(**A, **B)
            assert tmp.stat().st_mtime > 0


def test_a_log_given_no_rows_is_written_with_its_columns_and_no_rows(tmp_path):
    """Batches of no pairs (a step without any) allocate the buffer but add nothing: the log has no rows."""
    empty = np.zeros((0, 3))
    for name in ("q.csv", "q.parquet"):
        with QueryLog(tmp_path / name, horizon=0.5, chunk_rows=4) as log:
            log.add(empty, empty, np.ones(0), empty, empty, np.ones(0))
        info = inspect(tmp_path / name)
        assert sum(len(chunk["a_cx"]) for chunk in chunks(info, 4)) == 0, name
        assert info.columns[-1] == "horizon", name


def test_discard_removes_the_file_even_when_the_parquet_writer_fails_to_close(tmp_path, monkeypatch):
    log = QueryLog(tmp_path / "q.parquet", chunk_rows=1)
    log.add(**A, **B)  # a row group written: the writer is open

    def broken() -> None:
        raise OSError("No space left on device")

    monkeypatch.setattr(log._writer, "close", broken)
    log.discard()
    assert log.closed is True and not list(tmp_path.iterdir())


def test_a_run_that_keeps_writing_does_not_touch_its_temporary_file(tmp_path, monkeypatch):
    """Within the touching interval the temporary file is left alone (touched only after a silence)."""
    from explorer.audit.log import writer

    monkeypatch.setattr(writer, "_TOUCH_EVERY", 3600.0)
    with QueryLog(tmp_path / "q.csv") as log:
        (tmp,) = list(tmp_path.iterdir())
        os.utime(tmp, (0, 0))
        log.add(**A, **B)
        assert tmp.stat().st_mtime == 0
