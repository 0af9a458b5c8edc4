"""A log cut short as another program would cut it, at a chosen moment of the audit reading it.

:func:`cut` truncates a file the way a writer does (opening it for writing).
:func:`audit_cut` runs the real console script with a ``sitecustomize`` on
``PYTHONPATH`` (as ``test_base_install`` hides packages: this module's text)
that makes the cut at one moment of the reading, named by ``CUT_AT``:

``row-group:K``
    inside the K-th call of :meth:`pyarrow.parquet.ParquetFile.read_row_group`,
    before it reads: after the footer was read and the file mapped;
``chunk:K``
    after the audit's reader (:func:`explorer.audit.log.reading.chunks`) handed out
    its K-th chunk, before it reads the next.

With ``held``, the process also holds the log open for writing from its start,
as a writer that has not closed it would: no read lease can then be had, and
the audit reads the log with read calls instead of a map.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMMAND = Path(sys.executable).with_name("sphere-explorer")


def cut(path: str | os.PathLike[str], size: int) -> None:
    """Truncate ``path`` to ``size`` bytes as another program would, now or as soon as the system lets it.

    A reader holding a lease on the file (the audit reading it from a map) makes the system hold
    writers back: opening the file for writing then starts breaking the lease and fails at once here
    (``O_NONBLOCK``), and a child process makes the cut, waiting until the reader lets go.
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except BlockingIOError:
        code = "import os, sys; os.truncate(sys.argv[1], int(sys.argv[2]))"
        subprocess.Popen([sys.executable, "-c", code, str(path), str(size)])  # noqa: S603
        return
    try:
        os.ftruncate(fd, size)
    finally:
        os.close(fd)


def lease_available(folder: Path) -> bool:
    """Whether a read lease can be had on a new file in ``folder`` (this file system, this user)."""
    from explorer.audit.log.mapping import take_lease

    probe = folder / "lease-probe"
    probe.write_bytes(b"x")
    fd = os.open(probe, os.O_RDONLY)
    try:
        return take_lease(fd)
    finally:
        os.close(fd)
        probe.unlink()


def wait_for_size(path: Path, size: int, seconds: float = 20.0) -> bool:
    """Whether ``path`` gets to ``size`` bytes within ``seconds`` (a writer held back by a lease is let go
    when the reader closes the file, long before the system's 45 s)."""
    end = time.monotonic() + seconds
    while path.stat().st_size != size:
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


#: Run at the start of the console script (this module's own text, then this).
START = """

if os.environ.get("CUT_AT"):
    install(os.environ["CUT_LOG"], int(os.environ["CUT_TO"]), os.environ["CUT_AT"])
if os.environ.get("CUT_HELD"):
    HELD = open(os.environ["CUT_LOG"], "ab")  # noqa: SIM115 - open until the process ends
"""


def install(path: str, size: int, moment: str) -> None:
    """Make :func:`cut` happen at ``moment`` (see the module notes) in this process."""
    where, count = moment.split(":")
    calls = []

    def due() -> bool:
        calls.append(None)
        return len(calls) == int(count)

    if where == "row-group":
        import pyarrow.parquet as pq

        read = pq.ParquetFile.read_row_group

        def read_row_group(self, *args, **kwargs):
            if due():
                cut(path, size)
            return read(self, *args, **kwargs)

        pq.ParquetFile.read_row_group = read_row_group
    elif where == "chunk":
        from explorer.audit.log import reading

        chunks = reading.chunks

        def cut_chunks(*args, **kwargs):
            for chunk in chunks(*args, **kwargs):
                yield chunk
                if due():
                    cut(path, size)

        reading.chunks = cut_chunks
    else:
        raise ValueError(f"CUT_AT: no such moment {moment!r}")


def audit_cut(folder: Path, log: Path, size: int, moment: str, *args: str, held: bool = False):
    """``sphere-explorer audit LOG -o folder/out ARGS`` with ``log`` cut to ``size`` bytes at ``moment``
    (``held``: the log open for writing all along); the :class:`subprocess.CompletedProcess`.

    ``folder`` receives the ``sitecustomize.py``.
    """
    (folder / "sitecustomize.py").write_text(Path(__file__).read_text(encoding="utf-8") + START, encoding="utf-8")
    path = os.pathsep.join([str(folder), *filter(None, [os.environ.get("PYTHONPATH")])])
    env = {**os.environ, "PYTHONPATH": path, "CUT_LOG": str(log), "CUT_TO": str(size), "CUT_AT": moment,
           "CUT_HELD": "1" if held else ""}  # fmt: skip
    command = [str(COMMAND), "audit", str(log), "-o", str(folder / "out"), *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)  # noqa: S603
