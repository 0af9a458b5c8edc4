"""The Dask runner's pieces, computed in this process: each worker job and reader gives what one process gives.

``test_distributed.py`` runs them on a real local cluster, in other processes; here the same delayed jobs
(:func:`explorer.audit.runners.distributed.partitions`) run on Dask's synchronous scheduler, so every line of
:mod:`explorer.audit.runners.tasks` and of the readers they call runs where the tests (and the mutation run)
see it.  The reference is the single-process runner on the same planted log, folded in file order
even though the pieces are handed over last first.
"""

from __future__ import annotations

import json
import math
from contextlib import contextmanager
from dataclasses import asdict, replace

import numpy as np
import pandas as pd
import pytest
from audit_logs import CHUNK, FORMATS
from planted import spoil_crc, write_log

from explorer.audit.decision.deciding import Settings
from explorer.audit.decision.judging import Verdicts
from explorer.audit.decision.tally import OrderedFold, Skipped, Tally
from explorer.audit.log.columns import LogError
from explorer.audit.log.reading import inspect
from explorer.audit.log.values import frame_columns
from explorer.audit.run import run_single
from explorer.audit.runners.distributed import partitions
from explorer.system.progress import Progress

dask = pytest.importorskip("dask")


def _plain(tally) -> str:
    """A tally as sorted JSON (arrays as lists, floats by repr), for comparing two of them whole."""
    return json.dumps(asdict(tally), sort_keys=True, default=lambda x: x.tolist() if hasattr(x, "tolist") else repr(x))


@pytest.mark.parametrize("name", FORMATS)
def test_the_pieces_fold_to_the_single_process_tally(planted_files, name):
    info = inspect(planted_files[name])
    settings = Settings(toi_tol=1e-6, worst=7)
    single, _ = run_single(info, settings, CHUNK, Progress(info.rows, enabled=False))
    pieces = dask.compute(*partitions(info, settings, CHUNK), scheduler="synchronous")
    assert len(pieces) >= 3 and sum(piece.rows for piece in pieces) == single.rows
    fold = OrderedFold(settings.worst)
    for index in reversed(range(len(pieces))):  # last first: the fold must put them back in file order
        fold.add(index, pieces[index])
    assert fold.folded == len(pieces)
    assert _plain(fold.total) == _plain(single)
    assert len(single.cases) == 7 and single.pairs > 0


def test_a_piece_with_a_wrong_checksum_names_its_own_first_row(planted, tmp_path):
    """A worker's piece counts rows from its own start (the client adds the rows before it): the last
    piece of a compressed log whose A x member has a wrong CRC-32 refuses at its row 0; the others pass."""
    path = tmp_path / "log-z.npz"
    write_log(path, planted["columns"])
    spoil_crc(path, "a_cx.npy")
    info = inspect(path)
    pieces = partitions(info, Settings(toi_tol=1e-6, worst=3), CHUNK)
    assert len(pieces) == math.ceil(info.rows / CHUNK) >= 3
    assert dask.compute(*pieces[:-1], scheduler="synchronous")[0].rows == CHUNK
    with pytest.raises(LogError) as caught:
        dask.compute(pieces[-1], scheduler="synchronous")
    assert str(caught.value) == "column 'a_cx', row 0: data unreadable (Bad CRC-32 for file 'a_cx.npy')"


def test_a_partition_s_pandas_columns_become_float64_with_missing_values_as_nan():
    frame = pd.DataFrame(
        {
            "a_cx": np.array([1.5, -2.0, 0.25]),
            "a_vx": pd.array([3, None, -4], dtype="Int64"),
            "engine_hit": pd.array([True, None, False], dtype="boolean"),
            "engine_toi": pd.array([0.5, None, 2.0], dtype="Float64"),
            "b_r": pd.array([7, 8, 9], dtype="UInt8"),
            "step": np.array([10, 11, 12], dtype=np.int64),
        }
    )
    columns = frame_columns(frame)
    nan = math.nan
    expected = {
        "a_cx": [1.5, -2.0, 0.25],
        "a_vx": [3.0, nan, -4.0],
        "engine_hit": [1.0, nan, 0.0],
        "engine_toi": [0.5, nan, 2.0],
        "b_r": [7.0, 8.0, 9.0],
        "step": [10, 11, 12],
    }
    assert list(columns) == list(expected)
    for name, values in expected.items():
        np.testing.assert_array_equal(columns[name], np.array(values), err_msg=name)
        assert columns[name].dtype == (np.int64 if name == "step" else np.float64), name


def test_a_partition_s_nullable_integer_beyond_2_53_is_refused_naming_its_row():
    frame = pd.DataFrame({"a_id": pd.array([1, None, 2**53 + 1], dtype="Int64")})
    with pytest.raises(LogError) as caught:
        frame_columns(frame)
    assert (
        str(caught.value) == "column 'a_id', row 2: integer 9007199254740993 is beyond 2**53 and has no exact float64"
    )


def test_a_partition_s_text_column_is_left_as_objects_for_the_one_rule_to_refuse():
    frame = pd.DataFrame({"a_cx": pd.array(["1.0", "x"], dtype="string")})
    values = frame_columns(frame)["a_cx"]
    assert values.dtype == object and values.tolist() == ["1.0", "x"]


# -- the client's side of the Dask runner, in this process ---------------------------------------------
# ``run_dask`` hands the pieces to a client and folds what ``as_completed`` gives back.  Here the client
# is a stand-in that computes each piece on the synchronous scheduler when ``as_completed`` reaches it,
# and ``as_completed`` hands the pieces over in an order the test chooses (a cluster's order is luck).


class _Future:
    """A piece handed to the stand-in client: computed (or refused) when ``as_completed`` reaches it."""

    def __init__(self, task, fail: LogError | None):
        self.key, self._task, self._fail = task.key, task, fail
        self.status, self._value, self.cancels, self.released = "pending", None, 0, False

    def run(self) -> None:
        if self.status == "cancelled":
            return
        try:
            if self._fail is not None:
                raise self._fail
            self._value = dask.compute(self._task, scheduler="synchronous")[0]
            self.status = "finished"
        except Exception as err:  # noqa: BLE001  (what a worker's failure looks like to the client)
            self._value, self.status = err, "error"

    def result(self):
        assert self.status == "finished"
        return self._value

    def exception(self):
        assert self.status == "error"
        return self._value

    def cancel(self) -> None:
        self.cancels += 1
        if self.status == "pending":
            self.status = "cancelled"

    def release(self) -> None:
        self.released = True


class _Client:
    """The stand-in client: two workers; ``fail`` maps a piece's index to the error its worker raises."""

    def __init__(self, fail: dict[int, Exception]):
        self.fail, self.futures = fail, []

    def scheduler_info(self) -> dict:
        return {"workers": {"tcp://w1": {}, "tcp://w2": {}}}

    def compute(self, tasks) -> list:
        self.futures = [_Future(task, self.fail.get(i)) for i, task in enumerate(tasks)]
        return self.futures


class _Progress:
    """Records the progress updates."""

    def __init__(self):
        self.updates = []

    def update(self, rows, fraction=None):
        self.updates.append((rows, fraction))

    def finish(self):
        self.updates.append("finished")


def _dask_runner(monkeypatch, order, fail=None) -> _Client:
    """Make ``run_dask`` use the stand-in client, ``as_completed`` giving the pieces in ``order(n)``."""
    import distributed

    from explorer.audit.runners import distributed as runner

    client = _Client(fail or {})
    connected = []

    @contextmanager
    def connect(address, workers):
        connected.append((address, workers))
        yield client

    def as_completed(futures):
        assert futures is client.futures
        for i in order(len(futures)):
            futures[i].run()
            yield futures[i]

    monkeypatch.setattr(runner, "connect", connect)
    monkeypatch.setattr(distributed, "as_completed", as_completed)
    client.connected = connected
    return client


def _shuffled(n: int) -> list[int]:
    """Every piece, in an order far from the file's: odd ones last first, then even ones first first."""
    return [i for i in reversed(range(n)) if i % 2] + [i for i in range(n) if not i % 2]


@pytest.mark.parametrize("name", FORMATS)
def test_the_dask_runner_folds_pieces_arriving_out_of_order_into_the_single_process_tally(
    planted_files, monkeypatch, name
):
    from explorer.audit.runners.distributed import run_dask

    info = inspect(planted_files[name])
    settings = Settings(toi_tol=1e-6, worst=7)
    single, _ = run_single(info, settings, CHUNK, Progress(info.rows, enabled=False))
    client = _dask_runner(monkeypatch, _shuffled)
    progress = _Progress()
    tally, run = run_dask(info, settings, CHUNK, progress, address=None, workers=3)
    assert _plain(tally) == _plain(single)
    assert client.connected == [(None, 3)]
    n = len(client.futures)
    assert n >= 3 and all(future.released for future in client.futures)
    assert {k: run[k] for k in ("runner", "address", "workers", "chunks")} == {
        "runner": "dask", "address": "local", "workers": 2, "chunks": n}  # fmt: skip
    assert 60 > run["seconds"] >= run["compute_seconds"] >= 0 and 60 > run["cluster_seconds"] >= 0
    # one update a piece, in arrival order, with the piece's rows; a fraction only when the log's rows are unknown
    sizes = [client.futures[i].result().rows for i in _shuffled(n)]
    fractions = [(k + 1) / n for k in range(n)] if info.rows is None else [None] * n
    assert progress.updates == [*zip(sizes, fractions), "finished"]
    assert sum(sizes) == single.rows


def test_the_dask_runner_reports_the_first_refusal_in_file_order_at_its_row_in_the_log(planted_files, monkeypatch):
    """Pieces 1 and 3 refuse (3 arrives first); the report is piece 1's, its row counted from the log's start,
    and every piece after a refused one is cancelled when the refusal arrives."""
    from explorer.audit.runners.distributed import run_dask

    info = inspect(planted_files["log.parquet"])
    fail = {1: LogError("bad value", "a_cx", 17), 3: LogError("other", "b_r", 2)}
    client = _dask_runner(monkeypatch, lambda n: [3, 0, 2, 1, *range(4, n)], fail)
    progress = _Progress()
    with pytest.raises(LogError) as caught:
        run_dask(info, Settings(toi_tol=1e-6, worst=3), CHUNK, progress, address="tcp://sched:8786")
    assert str(caught.value) == f"column 'a_cx', row {CHUNK + 17}: bad value"
    assert progress.updates and "finished" not in progress.updates  # the bar is not drawn full on a refusal
    assert client.connected == [("tcp://sched:8786", None)]
    futures = client.futures
    assert [f.status for f in futures[:4]] == ["finished", "error", "finished", "error"]
    assert all(f.status == "cancelled" for f in futures[4:]) and len(futures) > 4
    assert [f.cancels for f in futures] == [0, 0, 1, 1] + [2] * (len(futures) - 4)


def test_the_dask_runner_words_a_worker_s_other_failure_in_one_line(planted_files, monkeypatch):
    from explorer.audit.runners.distributed import run_dask

    info = inspect(planted_files["log.npz"])
    _dask_runner(monkeypatch, lambda n: range(n), {2: MemoryError("worker\nout of memory")})
    with pytest.raises(LogError) as caught:
        run_dask(info, Settings(toi_tol=1e-6, worst=3), CHUNK, _Progress())
    assert str(caught.value) == "a Dask task failed (MemoryError: worker out of memory)"


def test_the_dask_runner_refuses_a_log_dask_cannot_read_in_one_line(planted_files, monkeypatch, tmp_path):
    from explorer.audit.runners import distributed as runner

    info = inspect(planted_files["log.parquet"])
    info = replace(info, path=tmp_path / "gone.parquet")
    client = _dask_runner(monkeypatch, lambda n: range(n))
    with pytest.raises(LogError) as caught:
        runner.run_dask(info, Settings(toi_tol=1e-6, worst=3), CHUNK, _Progress())
    assert str(caught.value).startswith("Dask cannot read it (") and "gone.parquet" in str(caught.value)
    assert client.connected == []


@pytest.mark.parametrize("name", ["log.csv.gz", "LOG.CSV.GZ", "log.csv.bz2", "log.CSV.BZ2"])
def test_a_compressed_csv_log_is_one_piece_with_the_single_process_tally(planted, tmp_path, name):
    """A compressed file cannot be cut in byte ranges: Dask reads it whole, decompressed, as one piece."""
    from planted import csv_text, write_packed

    path = tmp_path / name
    write_packed(path, csv_text(planted["columns"]).encode())
    info = inspect(path)
    settings = Settings(toi_tol=1e-6, worst=7)
    single, _ = run_single(info, settings, CHUNK, Progress(info.rows, enabled=False))
    (piece,) = dask.compute(*partitions(info, settings, CHUNK), scheduler="synchronous")
    assert _plain(piece) == _plain(single) and single.rows == len(planted["columns"]["a_cx"])


def test_a_bad_value_in_a_later_csv_piece_is_named_by_its_line_in_the_file(planted, tmp_path):
    from planted import csv_text

    lines = csv_text(planted["columns"]).splitlines()
    row = len(lines) - 100  # a data row in the last block
    cells = lines[row].split(",")
    cells[3] = "3.0.1"
    lines[row] = ",".join(cells)
    path = tmp_path / "log.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    info = inspect(path)
    pieces = partitions(info, Settings(toi_tol=1e-6, worst=3), CHUNK)
    assert len(pieces) >= 3
    with pytest.raises(LogError) as caught:
        dask.compute(*pieces, scheduler="synchronous")
    assert str(caught.value) == f"column {info.header[3]!r}, line {row + 1}: expected a number, got '3.0.1'"


def test_a_parquet_log_s_other_columns_are_not_read_into_the_pieces(planted, tmp_path):
    """A text column besides the known ones (an engine's note): Dask reads only the known columns, so the
    pieces fold to the single-process tally."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    columns = planted["columns"]
    n = len(columns["a_cx"])
    table = pa.table({**{name: pa.array(values) for name, values in columns.items()}, "note": ["a note"] * n})
    path = tmp_path / "log.parquet"
    pq.write_table(table, path, row_group_size=CHUNK)
    info = inspect(path)
    settings = Settings(toi_tol=1e-6, worst=7)
    single, _ = run_single(info, settings, CHUNK, Progress(info.rows, enabled=False))
    pieces = dask.compute(*partitions(info, settings, CHUNK), scheduler="synchronous")
    fold = OrderedFold(settings.worst)
    for index, piece in enumerate(pieces):
        fold.add(index, piece)
    assert _plain(fold.total) == _plain(single) and single.rows == n


@pytest.mark.parametrize("where", [{"dask": "tcp://sched:8786"}, {"workers": 2}])
def test_the_audit_given_a_scheduler_or_workers_runs_on_dask_with_the_same_summary(
    planted_files, monkeypatch, tmp_path, where
):
    """The whole audit with --dask or --workers, through the stand-in client: the summary is the single
    process's, and the run says Dask ran it, on the address or the local cluster asked for."""
    from audit_logs import comparable

    from explorer.audit.run import audit

    path = planted_files["log.parquet"]
    single = audit(path, tmp_path / "single", chunk_rows=CHUNK, worst=5)
    client = _dask_runner(monkeypatch, _shuffled)
    summary = audit(path, tmp_path / "dask", chunk_rows=CHUNK, worst=5, **where)
    assert comparable(summary) == comparable(single)
    assert client.connected == [(where.get("dask"), where.get("workers"))]
    assert summary["run"]["runner"] == "dask" and summary["run"]["chunks"] == len(client.futures) >= 3


# -- folding by hand ------------------------------------------------------------------------------------


def _skipped(*rows: int) -> list[Skipped]:
    return [Skipped(row=r, column="a_r", reason="not finite") for r in rows]


def test_folding_keeps_the_first_skipped_rows_counted_from_the_start():
    """Chunks of 30, 10 and 10 rows with 19, 3 and 1 skipped: the first 20 skipped rows of the log are the
    19 of the first chunk and the first of the second (row 30 + 2); the third chunk's is past the limit."""
    total = Tally()
    total.add(Tally(rows=30, skipped_examples=_skipped(*range(0, 19)), skipped_by_column={"a_r": 19}), 5)
    total.add(Tally(rows=10, skipped_examples=_skipped(2, 5, 7), skipped_by_column={"a_r": 3, "b_r": 1}), 5)
    total.add(Tally(rows=10, skipped_examples=_skipped(4), skipped_by_column={"b_r": 2}), 5)
    assert [s.row for s in total.skipped_examples] == [*range(0, 19), 32]
    assert total.skipped_by_column == {"a_r": 22, "b_r": 3}
    assert total.rows == 50


def test_folding_skipped_rows_of_a_later_chunk_shifted():
    total = Tally()
    total.add(Tally(rows=7, skipped_examples=_skipped(1)), 5)
    total.add(Tally(rows=4, skipped_examples=_skipped(0, 3)), 5)
    assert [s.row for s in total.skipped_examples] == [1, 7, 10]


def test_verdicts_add_up_every_count():
    total = Verdicts()
    for missing, exact in ((2, 1), (3, 4)):
        total.add(Verdicts(false_hits=1, false_misses=2, toi_errors=3, toi_missing=missing, toi_exact=exact,
                           toi_error_max=0.5 * missing))  # fmt: skip
    assert (total.false_hits, total.false_misses, total.toi_errors, total.toi_missing, total.toi_exact) == (
        2, 4, 6, 5, 5
    )  # fmt: skip
    assert total.toi_error_max == 1.5
