"""Something costly made once per test run and shared by every test worker (``pytest -n``): the first worker to
ask makes it while the others wait for it, then all read the same folder."""

from __future__ import annotations

import fcntl
import os
import shutil
from pathlib import Path
from typing import Callable


def run_folder(tmp_path_factory) -> Path:
    """The temporary folder of this whole run: the workers' common parent under ``pytest -n``, else this
    process's own."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def made_once(tmp_path_factory, name: str, make: Callable[[Path], None]) -> Path:
    """The folder ``name`` of this run, made by ``make(folder)`` (which must create ``folder``) the first time
    any worker asks.  ``make`` works on a folder of its own and the result is renamed into place, so a
    worker never reads a half-made folder; a ``make`` that fails leaves nothing, and the next to ask tries
    again."""
    root = run_folder(tmp_path_factory)
    done = root / name
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        if not done.exists():
            work = root / f"{name}.making-{os.getpid()}"
            shutil.rmtree(work, ignore_errors=True)
            try:
                make(work)
                work.rename(done)
            finally:
                shutil.rmtree(work, ignore_errors=True)
    return done
