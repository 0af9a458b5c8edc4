"""Reading a Parquet log through a map of the file: it holds no more of the file than a column or two at a
time, and a log shortened under it is refused in words instead of killing the process."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from cutting import lease_available, wait_for_size
from planted import random_columns, write_parquet

from explorer.audit.log.mapping import CHANGED
from explorer.audit.log.reading import chunks, inspect

ROOT = Path(__file__).resolve().parents[4]
ROWS, GROUP = 400_000, 50_000  # 8 row groups of 16 columns: 51 MB of float64, 400 kB a column chunk
MB = 1 << 20


def random_log(path: Path, rows: int = ROWS, group: int = GROUP) -> None:
    """A log of valid random pairs (uncompressible values, so the file is as large as its data)."""
    write_parquet(path, random_columns(rows), row_group_size=group)


def resident_file_bytes() -> int:
    """Bytes of file-backed pages this process holds (``RssFile`` of /proc/self/status)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("RssFile:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no RssFile line in /proc/self/status")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc")
def test_reading_holds_no_more_of_the_file_than_a_row_group(tmp_path):
    path = tmp_path / "log.parquet"
    random_log(path)
    assert path.stat().st_size > 45 * MB
    info = inspect(path)
    for _ in chunks(info, GROUP):  # once first: the libraries loaded on first use are then resident already
        pass
    before = resident_file_bytes()
    most, rows = 0, 0
    for chunk in chunks(info, GROUP):
        rows += len(chunk["a_cx"])
        most = max(most, resident_file_bytes() - before)
    assert rows == ROWS
    # a map whose pages were kept would hold the whole file by the end (51 MB); one row group is 6.4 MB
    assert most < 8 * MB, f"{most / MB:.1f} MB of the log held at once"


def test_a_log_cut_while_it_is_read_is_refused_in_words_and_cut_once_let_go(tmp_path):
    """Run in a child process: touching the map past a new end would kill it (SIGBUS).  The cut is held back
    by the reader's lease (or, where there is none, the file is read with read calls, not mapped)."""
    path = tmp_path / "log.parquet"
    random_log(path, rows=4 * GROUP)
    size = path.stat().st_size * 6 // 10
    script = textwrap.dedent(
        f"""
        from explorer.audit.log.columns import LogError
        from explorer.audit.log.reading import chunks, inspect
        from tests.support.cutting import cut
        stream = chunks(inspect({str(path)!r}), {GROUP})
        first = next(stream)
        cut({str(path)!r}, {size})
        try:
            for chunk in stream:
                pass
        except LogError as err:
            print("refused:", err)
        else:
            print("read to the end")
        """
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr[-2000:]}"
    assert done.stdout.startswith("refused: "), done.stdout
    if lease_available(tmp_path):  # read from the map: the lease's words; else pyarrow's short read
        assert done.stdout.strip() == f"refused: {CHANGED}"
    assert wait_for_size(path, size)


# -- the map itself, in this process --------------------------------------------------------------


def _open_files() -> int:
    return len(list(Path("/proc/self/fd").iterdir()))


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="needs Linux's /proc")
def test_a_file_is_mapped_for_pyarrow_and_closed_whole(tmp_path):
    import pyarrow as pa

    from explorer.audit.log.mapping import MappedLog

    path = tmp_path / "log.parquet"
    path.write_bytes(b"0123456789" * 1000)
    before = _open_files()
    log = MappedLog(path)
    assert isinstance(log.source, pa.BufferReader) and log.source.read(4) == b"0123"
    assert _open_files() > before  # the file, and the map's own copy of its descriptor
    log.release(4096, 4096)  # pages given back are read again from the file
    assert log.source.read_at(10, 4096) == path.read_bytes()[4096:4106]
    log.close()
    assert log.source is None and _open_files() == before
    log.check()  # closed: nothing to check, nothing to give back
    log.release(0, 4096)
    log.close()


def test_a_file_that_cannot_be_mapped_is_read_by_its_path(tmp_path):
    from explorer.audit.log.mapping import MappedLog

    path = tmp_path / "empty.parquet"
    path.write_bytes(b"")
    log = MappedLog(path)
    assert log.source == str(path)
    log.check()
    log.release(0, 4096)
    log.close()
    assert log.source is None


def test_a_mapped_file_opened_for_writing_is_refused_before_its_pages_are_touched(tmp_path):
    """In this process: a writer is held back by the lease (touching the map past a new end would kill the
    process), and the check refuses once one has asked; closing lets it go."""
    import os

    from explorer.audit.log.columns import LogError
    from explorer.audit.log.mapping import MappedLog

    if not lease_available(tmp_path):
        pytest.skip("no read leases on this file system")
    path = tmp_path / "log.parquet"
    path.write_bytes(b"x" * 100_000)
    log = MappedLog(path)
    assert log.mapped
    log.check()
    with pytest.raises(BlockingIOError):  # held back; the lease is now being broken
        os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    with pytest.raises(LogError) as caught:
        log.check()
    assert str(caught.value) == CHANGED
    assert path.stat().st_size == 100_000 and log.source.read_at(10, 99_990) == b"x" * 10
    log.close()
    os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))  # let go: a writer may open it now


def test_a_file_open_for_writing_is_not_mapped_but_read_by_its_path(tmp_path):
    """No lease can be had on a file that a writer has open: it is read with read calls, never mapped."""
    from explorer.audit.log.mapping import MappedLog

    path = tmp_path / "log.parquet"
    path.write_bytes(b"x" * 100_000)
    with open(path, "ab"):
        log = MappedLog(path)
        assert not log.mapped and log.source == str(path)
        log.check()
        log.close()


def test_decoded_columns_are_never_views_of_the_map(tmp_path):
    """What pyarrow decodes a row group to is its own memory: a cut after the map is let go cannot reach it
    (uncompressed and dictionary pages too, where a view would be cheapest)."""
    import mmap

    import pyarrow as pa
    import pyarrow.parquet as pq

    columns = random_columns(5000)
    for options in ({"compression": "none", "use_dictionary": False}, {"compression": "none"}, {}):
        path = tmp_path / "log.parquet"
        pq.write_table(pa.table(columns), path, row_group_size=5000, **options)
        with open(path, "rb") as handle:
            view = pa.py_buffer(mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ))  # unmapped when collected
        table = pq.ParquetFile(pa.BufferReader(view), pre_buffer=False).read_row_group(0)
        for column in table.columns:
            for buffer in column.chunk(0).buffers():
                assert buffer is None or not view.address <= buffer.address < view.address + view.size, options
