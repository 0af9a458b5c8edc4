"""Reading a Parquet log through a map of the file: it holds no more of the file than a column or two at a
time, and a log shortened under it is refused in words instead of killing the process."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from explorer.audit.columns import GEOMETRY
from explorer.audit.mapping import SHRUNK
from explorer.audit.reading import chunks, inspect

from .planted import write_parquet

ROOT = Path(__file__).resolve().parents[2]
ROWS, GROUP = 400_000, 50_000  # 8 row groups of 16 columns: 51 MB of float64, 400 kB a column chunk
MB = 1 << 20


def random_log(path: Path, rows: int = ROWS, group: int = GROUP) -> None:
    """A log of valid random pairs (uncompressible values, so the file is as large as its data)."""
    rng = np.random.default_rng(7)
    columns = {name: rng.uniform(-5, 5, rows) for name in GEOMETRY}
    columns.update(a_r=rng.uniform(0.1, 2, rows), b_r=rng.uniform(0.1, 2, rows), horizon=np.ones(rows))
    columns["engine_hit"] = (rng.uniform(size=rows) < 0.5).astype(float)
    write_parquet(path, columns, row_group_size=group)


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


def test_a_log_shortened_while_it_is_read_is_refused_in_words(tmp_path):
    """Run in a child process: without the check, touching the map past the new end kills it (SIGBUS)."""
    path = tmp_path / "log.parquet"
    random_log(path, rows=4 * GROUP)
    script = textwrap.dedent(
        f"""
        import os
        from explorer.audit.columns import LogError
        from explorer.audit.reading import chunks, inspect
        stream = chunks(inspect({str(path)!r}), {GROUP})
        first = next(stream)
        os.truncate({str(path)!r}, os.path.getsize({str(path)!r}) * 6 // 10)
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
    assert done.stdout.strip() == f"refused: {SHRUNK}"


# -- the map itself, in this process --------------------------------------------------------------


def _open_files() -> int:
    return len(list(Path("/proc/self/fd").iterdir()))


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="needs Linux's /proc")
def test_a_file_is_mapped_for_pyarrow_and_closed_whole(tmp_path):
    import pyarrow as pa

    from explorer.audit.mapping import MappedLog

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
    from explorer.audit.mapping import MappedLog

    path = tmp_path / "empty.parquet"
    path.write_bytes(b"")
    log = MappedLog(path)
    assert log.source == str(path)
    log.check()
    log.release(0, 4096)
    log.close()
    assert log.source is None


def test_a_mapped_file_cut_shorter_is_refused_before_its_pages_are_touched(tmp_path):
    """In this process: the check only looks at the file's size (touching the map past the end would kill it)."""
    import os

    from explorer.audit.columns import LogError
    from explorer.audit.mapping import MappedLog

    path = tmp_path / "log.parquet"
    path.write_bytes(b"x" * 100_000)
    log = MappedLog(path)
    log.check()
    os.truncate(path, 100_000)  # the same size: still fine
    log.check()
    os.truncate(path, 99_999)
    with pytest.raises(LogError) as caught:
        log.check()
    assert str(caught.value) == SHRUNK
    log.close()
