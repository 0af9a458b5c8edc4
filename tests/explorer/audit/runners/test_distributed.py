"""On a Dask cluster the audit gives exactly the single-process result, and refuses the same bad rows.

A real ``distributed.LocalCluster`` of two worker processes (no network beyond
localhost), shared by the tests through ``--dask ADDRESS``; one test starts its
own with ``workers=2`` (the ``--workers`` path).  The logs are small and cut in
several partitions (Parquet row groups, CSV blocks, ``.npz`` row ranges).
"""

from __future__ import annotations

import numpy as np
import planted as planted_logs
import pytest
from audit_logs import CHUNK, FORMATS, comparable

from explorer.audit.log.columns import LogError
from explorer.audit.run import audit

distributed = pytest.importorskip("distributed")


def _files(tmp_path, name: str) -> list:
    return sorted(p.relative_to(tmp_path / name) for p in (tmp_path / name).rglob("*"))


@pytest.mark.parametrize("fmt", FORMATS)
def test_dask_equals_one_process(fmt, planted_files, cluster, tmp_path):
    log = planted_files[fmt]
    alone = audit(log, tmp_path / "alone", worst=40, chunk_rows=CHUNK)
    spread = audit(log, tmp_path / "spread", worst=40, chunk_rows=CHUNK, dask=cluster.scheduler_address)
    assert spread["run"]["runner"] == "dask" and spread["run"]["workers"] == 2
    assert spread["run"]["chunks"] >= 4, "the log must be cut in several partitions"
    assert comparable(spread) == comparable(alone)
    assert alone["engine_false_hits"] > 0 and len(alone["worst"]) == 40
    assert _files(tmp_path, "alone") == _files(tmp_path, "spread")
    for case in alone["worst"]:
        assert (tmp_path / "alone" / case["file"]).read_bytes() == (tmp_path / "spread" / case["file"]).read_bytes()


def test_a_local_cluster_of_two_workers(planted_files, tmp_path):
    """``--workers 2``: the audit starts (and stops) its own local cluster."""
    log = planted_files["log.parquet"]
    alone = audit(log, tmp_path / "alone", chunk_rows=CHUNK)
    local = audit(log, tmp_path / "local", chunk_rows=CHUNK, workers=2)
    assert local["run"]["runner"] == "dask" and local["run"]["workers"] == 2
    assert comparable(local) == comparable(alone)


def _damaged(planted) -> dict:
    """The planted log with NaN rows scattered over the partitions (skipped and counted)."""
    columns = {name: values.copy() for name, values in planted["columns"].items()}
    columns["a_vx"][[5, 1500, 4321]] = np.nan
    columns["b_r"][[2200, 5999]] = -1.0
    columns["engine_hit"][3003] = np.nan
    return columns


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".npz"])
def test_skipped_rows_are_the_same(suffix, planted, cluster, tmp_path):
    log = tmp_path / f"damaged{suffix}"
    planted_logs.write_log(log, _damaged(planted), row_group_size=CHUNK)
    alone = audit(log, tmp_path / "alone", chunk_rows=CHUNK)
    spread = audit(log, tmp_path / "spread", chunk_rows=CHUNK, dask=cluster.scheduler_address)
    assert comparable(spread) == comparable(alone)
    assert alone["skipped_rows"] == 6
    assert alone["skipped_by_column"] == {"a_vx": 3, "b_r": 2, "engine_hit": 1}
    assert [s["row"] for s in alone["skipped_examples"]] == [5, 1500, 2200, 3003, 4321, 5999]


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".npz"])
def test_the_same_first_bad_row_is_refused(suffix, planted, cluster, tmp_path):
    """An engine_hit of 2 in a late partition, and another after it: both runs name the first."""
    columns = {name: values.copy() for name, values in planted["columns"].items()}
    columns["engine_hit"][[4321, 5500]] = 2.0
    log = tmp_path / f"bad{suffix}"
    planted_logs.write_log(log, columns, row_group_size=CHUNK)
    messages = []
    for where, kwargs in (("alone", {}), ("spread", {"dask": cluster.scheduler_address})):
        with pytest.raises(LogError) as caught:
            audit(log, tmp_path / where, chunk_rows=CHUNK, **kwargs)
        messages.append(str(caught.value))
        assert not (tmp_path / where).exists()
    assert messages[0] == messages[1]
    where = "line 4323" if suffix == ".csv" else "row 4321"
    assert messages[0].startswith(f"column 'engine_hit', {where}: expected true/false or 1/0"), messages[0]


def test_a_wrong_checksum_is_refused_at_the_same_row(planted, cluster, tmp_path):
    """A compressed log whose A x member has a wrong CRC-32: zipfile finds it with the member's last bytes,
    in the last chunk, whose first row both runs name (a worker's row counts from its piece's start)."""
    log = tmp_path / "log-z.npz"
    planted_logs.write_log(log, planted["columns"])
    planted_logs.spoil_crc(log, "a_cx.npy")
    rows = len(planted["columns"]["a_cx"])
    last = (rows - 1) // CHUNK * CHUNK
    for where, kwargs in (("alone", {}), ("spread", {"dask": cluster.scheduler_address})):
        with pytest.raises(LogError) as caught:
            audit(log, tmp_path / where, chunk_rows=CHUNK, **kwargs)
        assert str(caught.value) == f"column 'a_cx', row {last}: data unreadable (Bad CRC-32 for file 'a_cx.npy')"
        assert not (tmp_path / where).exists()


def test_an_unreachable_scheduler_is_one_line(planted_files, tmp_path, monkeypatch):
    import explorer.audit.runners.distributed as runner

    monkeypatch.setattr(runner, "CONNECT_TIMEOUT", 2)
    with pytest.raises(LogError, match="cannot reach a Dask scheduler"):
        audit(planted_files["log.npz"], tmp_path / "out", dask="tcp://127.0.0.1:9")
    assert not (tmp_path / "out").exists()
