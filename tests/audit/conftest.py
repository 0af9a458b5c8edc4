"""Fixtures of the audit tests: one planted log (see planted.py) written in every format."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from . import planted as planted_logs

#: Formats each planted log is written in (``-z.npz``: compressed members).
FORMATS = ("log.parquet", "log.csv", "log.npz", "log-z.npz")
#: Rows per chunk in the tests: several chunks (and Parquet row groups) per log.
CHUNK = 1000


@pytest.fixture(scope="module")
def cluster():
    """A local Dask cluster of two single-threaded workers, shared by a module's tests through ``--dask``."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
        scheduler_kwargs={"dashboard": False}, silence_logs=logging.ERROR,
    ) as cluster:  # fmt: skip
        yield cluster


@pytest.fixture(scope="session")
def planted():
    """The planted log (columns, exact answers, planted rows)."""
    return planted_logs.make_log()


@pytest.fixture(scope="session")
def planted_files(planted, tmp_path_factory):
    """``{file name: path}`` of the planted log in every format."""
    folder = tmp_path_factory.mktemp("planted")
    files = {}
    for name in FORMATS:
        path = folder / name
        planted_logs.write_log(path, planted["columns"], row_group_size=CHUNK)
        files[name] = path
    return files


def read_summary(outdir: Path) -> dict:
    """OUTDIR/summary.json."""
    return json.loads((Path(outdir) / "summary.json").read_text(encoding="utf-8"))


def comparable(summary: dict) -> dict:
    """A summary without what differs between runs of the same log (the ``run`` timings and the log's path)."""
    return {k: v for k, v in summary.items() if k not in ("run", "log")}
