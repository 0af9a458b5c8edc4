"""QueryLog: what it writes is what it was given, a chunk at a time, and never half a file."""

from __future__ import annotations

import sys

import numpy as np
import pyarrow.parquet as pq
import pytest

from explorer.audit import QueryLog
from explorer.audit.log.columns import GEOMETRY
from explorer.audit.log.reading import chunks, inspect


def _batch(rng, m: int) -> dict:
    return {
        "a_center": rng.normal(size=(m, 3)), "a_velocity": rng.normal(size=(m, 3)), "a_radius": rng.uniform(0.1, 1, m),
        "b_center": rng.normal(size=(m, 3)), "b_velocity": rng.normal(size=(m, 3)), "b_radius": rng.uniform(0.1, 1, m),
    }  # fmt: skip


@pytest.mark.parametrize("name", ["q.csv", "q.parquet"])
def test_every_value_comes_back_to_the_last_bit_across_chunks(tmp_path, name):
    """Batches of 7 and 3 rows through chunks of 4: rows cross chunk ends inside one call."""
    rng = np.random.default_rng(5)
    batches = [_batch(rng, 7), _batch(rng, 3)]
    hits = [np.array([1, 0, 1, 0, 0, 1, 1], dtype=bool), np.array([0, 0, 1], dtype=bool)]
    tois = [np.where(h, rng.uniform(0, 0.5, h.size), np.nan) for h in hits]
    with QueryLog(tmp_path / name, horizon=0.25, chunk_rows=4) as log:
        for k, (batch, hit, toi) in enumerate(zip(batches, hits, tois)):
            log.add(**batch, engine_hit=hit, engine_toi=toi, step=k, a_id=np.arange(hit.size), b_id=100 + k)
    info = inspect(tmp_path / name)
    read = {key: np.concatenate([c[key] for c in chunks(info, 1000)]).astype(np.float64) for key in info.columns}
    sides = {"a": ("a_center", "a_velocity", "a_radius"), "b": ("b_center", "b_velocity", "b_radius")}
    for side, (centre, velocity, radius) in sides.items():
        for k, axis in enumerate("xyz"):
            np.testing.assert_array_equal(read[f"{side}_c{axis}"], np.concatenate([b[centre][:, k] for b in batches]))
            np.testing.assert_array_equal(read[f"{side}_v{axis}"], np.concatenate([b[velocity][:, k] for b in batches]))
        np.testing.assert_array_equal(read[f"{side}_r"], np.concatenate([b[radius] for b in batches]))
    np.testing.assert_array_equal(read["engine_hit"], np.concatenate(hits).astype(float))
    np.testing.assert_array_equal(read["engine_toi"], np.concatenate(tois))  # NaN where no hit
    np.testing.assert_array_equal(read["step"], [0] * 7 + [1] * 3)
    np.testing.assert_array_equal(read["b_id"], [100] * 7 + [101] * 3)
    np.testing.assert_array_equal(read["horizon"], [0.25] * 10)
    if name.endswith(".csv"):
        lines = (tmp_path / name).read_text(encoding="ascii").splitlines()
        assert len(lines) == 11 and lines[0].startswith(",".join(GEOMETRY))  # one header, ten rows
    else:
        assert [g.num_rows for g in map(pq.ParquetFile(tmp_path / name).metadata.row_group, range(3))] == [4, 4, 2]


def test_a_failing_run_leaves_no_log_and_an_old_one_untouched(tmp_path):
    path = tmp_path / "q.parquet"
    path.write_bytes(b"old")
    with pytest.raises(RuntimeError), QueryLog(path, chunk_rows=2) as log:
        log.add(**_batch(np.random.default_rng(1), 5), engine_hit=True)
        raise RuntimeError("the engine crashed")
    assert path.read_bytes() == b"old" and sorted(p.name for p in tmp_path.iterdir()) == ["q.parquet"]


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda log: log.add([0, 0], [0, 0, 0], 1, [3, 0, 0], [0, 0, 0], 1), "a_center: expected a scalar or shape"),
        (lambda log: log.add([0, 0, 0], [0, 0, 0], -1, [3, 0, 0], [0, 0, 0], 1), "a_radius: expected a positive"),
        (lambda log: log.add([0, 0, 0], [np.nan, 0, 0], 1, [3, 0, 0], [0, 0, 0], 1), "a_velocity: expected finite"),
        (lambda log: log.add([0, 0, 0], [0, 0, 0], 1, [3, 0, 0], [0, 0, 0], 1, engine_hit=2), "engine_hit: expected"),
        (lambda log: log.add([0, 0, 0], [0, 0, 0], 1, [3, 0, 0], [0, 0, 0], 1, horizon=2.0), "horizon: this log's"),
        (lambda log: log.add([0, 0, 0], [0, 0, 0], 1, [3, 0, 0], [0, 0, 0], 1, step=1.5), "step: expected whole"),
        (lambda log: log.add_step(np.zeros((2, 3)), np.zeros((3, 3)), 1, 0.5), "after: expected the shape"),
    ],
)
def test_bad_values_are_refused_naming_the_field(tmp_path, call, message):
    with QueryLog(tmp_path / "q.csv", horizon=0.5) as log:
        with pytest.raises(ValueError, match="^" + message):
            call(log)
    assert (tmp_path / "q.csv").read_text(encoding="ascii").startswith("a_cx,")  # still a (header-only) log


def test_a_call_without_a_column_the_first_gave_is_refused(tmp_path):
    with QueryLog(tmp_path / "q.csv") as log:
        log.add([0, 0, 0], [1, 0, 0], 1, [3, 0, 0], [0, 0, 0], 1, engine_hit=True)
        with pytest.raises(ValueError, match="^engine_hit: the log's first call gave it"):
            log.add([0, 0, 0], [1, 0, 0], 1, [3, 0, 0], [0, 0, 0], 1)
    assert len((tmp_path / "q.csv").read_text(encoding="ascii").splitlines()) == 2


def test_add_step_logs_the_applied_velocity_and_the_contacts_either_way_round(tmp_path):
    """Bodies 0 (still at 0), 1 (still at x = 5), 2 (x 1 -> 2 in dt 0.5: 2 per unit); radius 0.5, R = 1.
    Pairs (2, 0) and (1, 2); the engine had (2, 0) in contact at the start; at the end the centres
    are 2 and 3 apart: no contact.  So engine_hit 1 then 0."""
    before = [[0.0, 0, 0], [5.0, 0, 0], [1.0, 0, 0]]
    after = [[0.0, 0, 0], [5.0, 0, 0], [2.0, 0, 0]]
    with QueryLog(tmp_path / "q.csv") as log:
        for _ in range(2):
            log.add_step(before, after, 0.5, 0.5, contacts_start={(2, 0)}, pairs=[[2, 0], [1, 2]])
    info = inspect(tmp_path / "q.csv")
    read = next(chunks(info, 100))
    np.testing.assert_array_equal(read["a_vx"], [2.0, 0.0, 2.0, 0.0])
    np.testing.assert_array_equal(read["b_vx"], [0.0, 2.0, 0.0, 2.0])
    np.testing.assert_array_equal(read["a_cx"], [1.0, 5.0, 1.0, 5.0])
    np.testing.assert_array_equal(read["horizon"], [0.5] * 4)
    np.testing.assert_array_equal(read["engine_hit"].astype(float), [1, 0, 1, 0])
    np.testing.assert_array_equal(read["step"], [0, 0, 1, 1])
    np.testing.assert_array_equal(read["a_id"], [2, 1, 2, 1])
    np.testing.assert_array_equal(read["b_id"], [0, 2, 0, 2])


def test_the_package_hands_out_the_query_log_on_first_use():
    import explorer.audit
    from explorer.audit.log import writer

    assert explorer.audit.QueryLog is writer.QueryLog
    with pytest.raises(AttributeError, match="module 'explorer.audit' has no attribute 'Querylog'"):
        explorer.audit.Querylog  # noqa: B018


def test_writing_parquet_without_pyarrow_is_refused_naming_what_needs_it(tmp_path, monkeypatch):
    """pyarrow gone (None in sys.modules makes its import fail): a Parquet log is refused at once, in one
    line saying what needs it; nothing is written.  A CSV log needs no pyarrow."""
    from explorer.audit.needs import MissingPackage

    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(MissingPackage) as caught:
        QueryLog(tmp_path / "log.parquet")
    assert str(caught.value).startswith("writing Parquet needs pyarrow, which is not installed; install it with: ")
    assert "\n" not in str(caught.value) and list(tmp_path.iterdir()) == []
    with QueryLog(tmp_path / "log.csv") as log:
        log.add(np.zeros((1, 3)), np.zeros((1, 3)), 1.0, np.full((1, 3), 3.0), np.zeros((1, 3)), 1.0)
    assert (tmp_path / "log.csv").read_text(encoding="ascii").count("\n") == 2
