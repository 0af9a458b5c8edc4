"""A log cut short while ``sphere-explorer audit`` reads it is refused in one line, whatever its format or row groups.

Issue 36: a Parquet log of one row group (pyarrow's default up to 1M rows) cut
while the audit read it from its map killed the process (SIGBUS, exit 135, no
message); a CSV log cut at a line's end was audited as a shorter log (exit 0).
Each case runs the console script with the cut made by a stand-in for another
program at a chosen moment (:mod:`tests.support.cutting`).
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from cutting import audit_cut, lease_available, wait_for_size
from planted import random_columns, write_log

pytestmark = pytest.mark.long  # started first (tests/conftest.py)

ROWS = 20_000
#: The one line a log that changed while it was read gets (after the command's name and the log's).
CHANGED = "the log changed while it was being read (opened for writing or cut short: is something still writing it?)"


def _write(path: Path, row_group_size: int = ROWS) -> Path:
    write_log(path, random_columns(ROWS), row_group_size=row_group_size)
    return path


def _line_start(path: Path, fraction: float) -> int:
    """The offset of the first line to start at or after ``fraction`` of the file (a cut there leaves whole lines)."""
    data = path.read_bytes()
    return data.index(b"\n", int(len(data) * fraction)) + 1


def _refused(done, log: Path, folder: Path) -> None:
    assert done.returncode == 2, f"exit {done.returncode}: {done.stderr[-2000:]}"
    assert done.stdout == ""
    assert done.stderr.splitlines() == [f"sphere-explorer audit: {log.name}: {CHANGED}"], done.stderr
    assert not (folder / "out").exists()


@pytest.mark.parametrize(
    "groups, moment, keep, chunk_rows",
    [
        (1, "row-group:1", 0.6, ROWS),  # one row group, cut while it is read from the map (was SIGBUS)
        (4, "row-group:2", 0.35, ROWS // 4),  # four, cut within the second while it is read (was SIGBUS)
        (4, "row-group:2", 0.6, ROWS // 4),  # four, cut after the second (was refused in other words)
        (1, "chunk:1", 0.6, 2_000),  # one row group larger than two chunks: read in batches, by read calls
    ],
)
def test_a_parquet_log_cut_while_read_is_refused_in_one_line(tmp_path, groups, moment, keep, chunk_rows):
    log = _write(tmp_path / "log.parquet", row_group_size=ROWS // groups)
    size = int(log.stat().st_size * keep)
    done = audit_cut(tmp_path, log, size, moment, "--chunk-rows", str(chunk_rows))
    _refused(done, log, tmp_path)
    assert wait_for_size(log, size)  # a cut held back is let go when the audit stops, not after the system's 45 s


def test_a_log_opened_for_writing_while_its_one_row_group_is_read_is_refused(tmp_path):
    """Opened for writing (and left as it was) during the read: what was read is whole, as the writer was held
    back, but the log is being written: refused, not audited."""
    if not lease_available(tmp_path):
        pytest.skip("no read leases on this file system: a writer cannot be seen")
    log = _write(tmp_path / "log.parquet")
    done = audit_cut(tmp_path, log, log.stat().st_size, "row-group:1")
    _refused(done, log, tmp_path)


@pytest.mark.parametrize("groups", [1, 4])
def test_a_parquet_log_still_open_for_writing_is_read_without_a_map_and_refused_when_cut(tmp_path, groups):
    """A writer that has not closed the log: no lease, so no map; the cut gives pyarrow a short read."""
    log = _write(tmp_path / "log.parquet", row_group_size=ROWS // groups)
    size = int(log.stat().st_size * (0.6 if groups == 1 else 0.35))
    done = audit_cut(tmp_path, log, size, f"row-group:{min(groups, 2)}", "--chunk-rows", str(ROWS // groups), held=True)
    _refused(done, log, tmp_path)


@pytest.mark.parametrize("name", ["log.npz", "log-z.npz"])
def test_an_npz_log_cut_while_read_is_refused_in_one_line(tmp_path, name):
    log = _write(tmp_path / name)
    done = audit_cut(tmp_path, log, log.stat().st_size * 6 // 10, "chunk:1", "--chunk-rows", "2000")
    _refused(done, log, tmp_path)


def test_a_csv_log_cut_at_a_line_s_end_while_read_is_refused_not_audited_shorter(tmp_path):
    """Whole lines are left: nothing in the text says it was cut (before: exit 0, fewer pairs)."""
    log = _write(tmp_path / "log.csv")
    done = audit_cut(tmp_path, log, _line_start(log, 0.6), "chunk:1", "--chunk-rows", "2000")
    _refused(done, log, tmp_path)


def test_a_compressed_csv_log_cut_while_read_is_refused_in_one_line(tmp_path):
    plain = _write(tmp_path / "plain.csv")
    log = tmp_path / "log.csv.gz"
    log.write_bytes(gzip.compress(plain.read_bytes(), compresslevel=1))
    done = audit_cut(tmp_path, log, log.stat().st_size * 6 // 10, "chunk:1", "--chunk-rows", "2000")
    _refused(done, log, tmp_path)


def test_a_log_left_whole_is_audited_with_the_stand_in_in_place(tmp_path):
    """The control: the stand-in installed but never cutting lets the audit finish."""
    log = _write(tmp_path / "log.parquet")
    done = audit_cut(tmp_path, log, 0, "row-group:99")  # installed, never reached
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == str(tmp_path / "out")
