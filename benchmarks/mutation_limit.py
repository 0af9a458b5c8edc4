"""A pytest plugin for mutation runs: a test that runs too long ends its run as a timeout.

``-p benchmarks.mutation_limit --mutation-test-limit=S`` (what ``mutation.py`` passes):
a test whose setup, call and teardown together take more than ``S`` seconds ends
the test process at once with exit status 36, which mutmut records as "timeout".

mutmut's own limit is for a mutant's whole selection, ``3 x (the tests' measured
time + a constant)``: minutes for a function that sixty tests reach, all of it
spent when a mutant makes one test wait forever (a reader that never ends, a
queue never fed).  One test's limit ends such a run in seconds instead.  The
slowest test here takes a few seconds with its fixtures, so a test over the
limit is a hang or a test slowed down many times over: a caught bug either way.
"""

from __future__ import annotations

import os
import threading

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
    os._exit(TIMEOUT_STATUS)
