"""A pytest plugin for mutation runs: a test that runs too long ends its run as a timeout.

``-p benchmarks.mutation_limit --mutation-test-limit=S`` (what ``mutation.py`` passes):
a test whose setup, call and teardown together take more than ``S`` seconds ends
the test process at once with exit status 36, which mutmut records as "timeout".

mutmut's own limit is for a mutant's whole selection, ``3 x (the tests' measured
time + a constant)``: minutes for a function that sixty tests reach, all of it
spent when a mutant makes one test wait forever (a reader that never ends, a
queue never fed).  One test's limit ends such a run in seconds instead.  The
slowest test here takes a few seconds with its fixtures, so a test over the
limit is a hang or a test slowed down many times over: a caught bug either way.  The processes the
test started (a local Dask cluster) are ended with it: left behind, mutmut, which adopts orphans,
would wait for them.
"""

from __future__ import annotations

import contextlib
import faulthandler
import os
import signal
import threading
from pathlib import Path

import pytest

#: mutmut's exit status for a timeout (mutmut.stats.status_by_exit_code).
TIMEOUT_STATUS = 36


def pytest_addoption(parser) -> None:
    parser.addoption("--mutation-test-limit", type=float, default=0.0,
                     help="end the run as a timeout (exit 36) when a test takes longer than this (0: no limit)")  # fmt: skip


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    limit = item.config.getoption("--mutation-test-limit")
    timer = threading.Timer(limit, _over, args=(item.nodeid, limit)) if limit > 0 else None
    if timer is not None:
        timer.daemon = True
        timer.start()
    yield
    if timer is not None:
        timer.cancel()


def _over(nodeid: str, limit: float) -> None:
    os.write(2, f"\nmutation run: {nodeid} took more than {limit:g} s: ending the run as a timeout\n".encode())
    report = os.environ.get("MUTATION_LIMIT_LOG")  # mutmut sends a test run's output nowhere: say it in a file
    if report:
        with contextlib.suppress(OSError), open(report, "a", encoding="utf-8") as handle:
            handle.write(f"{os.getpid()} {os.environ.get('MUTANT_UNDER_TEST')} {nodeid} over {limit:g} s\n")
            handle.flush()
            faulthandler.dump_traceback(handle, all_threads=True)
    for pid in _descendants(os.getpid()):  # a local Dask cluster the test started would outlive the run
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    os._exit(TIMEOUT_STATUS)


def _descendants(root: int) -> list[int]:
    """The processes started by ``root`` and by those, from /proc (empty where there is none)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").glob("[0-9]*/stat") if Path("/proc").is_dir() else ():
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = entry.read_text().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(entry.parent.name))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found
