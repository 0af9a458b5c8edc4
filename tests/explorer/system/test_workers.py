"""Jobs in worker processes (explorer/system/workers.py): answers come back by index as each ends; what a job
raised is raised here with the worker's traceback; a worker says nothing on the terminal; a signal stops the
run at once and no worker outlives it; a worker that dies is said."""

from __future__ import annotations

import math
import os
import signal
import threading
import time

import pytest
from signal_helpers import alive

from explorer.system import interrupt
from explorer.system.workers import WorkerLost, WorkerTraceback, run_in_workers, usable_cores


def _children() -> set[int]:
    """This process's children now (its workers among them)."""
    found = set()
    for task in os.listdir(f"/proc/{os.getpid()}/task"):
        with open(f"/proc/{os.getpid()}/task/{task}/children", encoding="ascii") as children:
            found |= {int(pid) for pid in children.read().split()}
    return found


def test_each_answer_comes_back_with_its_index_and_no_worker_is_left():
    done: dict[int, float] = {}
    before = _children()
    run_in_workers(math.sqrt, [(4.0,), (9.0,), (16.0,), (25.0,), (36.0,)], 2, done.__setitem__)
    assert done == {0: 2.0, 1: 3.0, 2: 4.0, 3: 5.0, 4: 6.0}
    assert _children() - before == set()


def test_what_a_job_raised_is_raised_here_with_the_worker_traceback():
    with pytest.raises(ValueError, match="math domain error") as raised:
        run_in_workers(math.sqrt, [(4.0,), (-1.0,)], 2, lambda k, result: None)
    cause = raised.value.__cause__
    assert isinstance(cause, WorkerTraceback) and "ValueError: math domain error" in str(cause)


def test_a_worker_says_nothing_on_the_terminal(capfd):
    run_in_workers(os.write, [(1, b"on stdout\n"), (2, b"on stderr\n")], 2, lambda k, result: None)
    run_in_workers(print, [("printed",)], 1, lambda k, result: None)
    assert capfd.readouterr() == ("", "")


def test_a_worker_that_dies_is_said():
    with pytest.raises(WorkerLost, match=r"ended without answering \(exit 3\)"):
        run_in_workers(os._exit, [(3,)], 1, lambda k, result: None)


def test_a_signal_stops_the_run_at_once_and_ends_every_worker():
    """Two workers asleep for a minute: a SIGTERM to this process (which they ignore) ends the run within a
    second, the workers killed and waited for."""
    before = _children()
    seen: set[int] = set()

    def signal_soon():
        time.sleep(1.0)
        seen.update(_children() - before)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=signal_soon, daemon=True).start()
    start = time.perf_counter()
    with interrupt.catching(raising=False):
        with pytest.raises(KeyboardInterrupt):
            run_in_workers(time.sleep, [(60,), (60,), (60,)], 2, lambda k, result: None)
    assert time.perf_counter() - start < 2.0
    assert len(seen) == 2 and not [pid for pid in seen if alive(pid)]


def test_usable_cores_are_those_this_process_may_run_on(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {3})
    assert usable_cores() == 1


def _never_imported() -> None:
    """A job function whose module no worker can import (its ``__module__`` is set below)."""


_never_imported.__module__ = "no_module_of_this_name"


def test_a_worker_that_cannot_start_says_why_in_one_line():
    before = _children()
    with pytest.raises(WorkerLost) as lost:
        run_in_workers(_never_imported, [()], 1, lambda k, result: None)
    assert str(lost.value) == (
        "a worker process ended without answering (exit 1: ModuleNotFoundError: No module named 'no_module_of_this_name')"
    )
    assert _children() - before == set()
