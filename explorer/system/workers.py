"""Jobs shared out among worker processes: each started fresh, silent, and stopped with the command.

A command with many independent steps (a site's pages) runs them in a few
worker processes, one per usable core (:func:`usable_cores`), with
:func:`run_in_workers`.  What it promises:

Fresh processes
    Each worker is a new interpreter (``python -c``, as multiprocessing's
    "spawn" starts one, with this process's ``sys.path``), never a copy of the
    command's process: forking a process that holds VTK's or OpenGL's state is
    unsafe.  Unlike multiprocessing's, it does not import the command's main
    script again, and no resource-tracker process is left to outlive it.
Silent
    A worker's standard input and output are ``/dev/null`` and its standard error
    a temporary file, read only when the worker dies before answering (its last
    line joins :class:`WorkerLost`'s message): nothing of it reaches the
    terminal.  Jobs and answers go through two pipes of its own; what
    a job raised comes back to the command, which raises it (the worker's
    traceback as its cause).
Stopped with the command
    A worker runs in a session of its own (a terminal's Ctrl-C does not reach
    it) and ignores SIGINT and SIGTERM: the command acts on the signal
    (:mod:`.interrupt`, checked every :data:`CHECK_EVERY` seconds while it
    waits), and its workers are killed and waited for before
    :func:`run_in_workers` returns or raises, in every case.  A worker whose
    command died outright finds its pipe closed and ends.

Standard library only.
"""

from __future__ import annotations

import multiprocessing.connection
import os
import signal
import subprocess
import sys
import tempfile
import traceback
from collections import deque
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import Callable, Iterator, Sequence

from . import interrupt

#: Seconds between two looks at the signal record while the workers are busy.
CHECK_EVERY = 0.1


class WorkerLost(RuntimeError):
    """A worker process ended without answering (killed from outside, or crashed)."""


class WorkersUnavailable(RuntimeError):
    """No worker process could be started (the system refused a new process): the caller may do the work itself."""


class WorkerTraceback(Exception):
    """The traceback, as text, of what a job raised in its worker (the cause of the exception raised here)."""


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity), at least 1."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except (AttributeError, OSError):  # no affinity on this system
        return os.cpu_count() or 1


def run_in_workers(function: Callable, jobs: Sequence[tuple], count: int, done: Callable[[int, object], None]) -> None:
    """``function(*jobs[k])`` for each k, in ``count`` worker processes; ``done(k, result)`` here as each ends.

    Parameters
    ----------
    function : callable
        A module's function (a worker imports it by name); its arguments and
        result are pickled.
    jobs : sequence of tuple
        Handed out in this order, the next to the first worker free.
    count : int
        Worker processes, at least 1.
    done : callable
        Called in this process with the job's index and its result, in the
        order the jobs end.

    Raises
    ------
    KeyboardInterrupt
        A signal was recorded (:func:`explorer.system.interrupt.check`).
    Exception
        What ``function`` raised for a job, the first to end so (no other job is
        handed out after it).
    WorkerLost
        A worker ended without answering.
    WorkersUnavailable
        A worker could not be started (before any job was handed out).
    """
    workers: list[tuple[subprocess.Popen, Connection, Connection]] = []
    try:
        with _signals_blocked():  # the workers start with them blocked, until they ignore them
            for _ in range(count):
                workers.append(_started(function))
        _share_out(list(jobs), workers, done)
    finally:
        for process, _, _ in workers:
            process.kill()
        for process, send, reply in workers:
            process.wait()
            process.errors.close()
            send.close()
            reply.close()


def _how_it_ended(process: subprocess.Popen) -> str:
    """``exit N``; when the worker ended by itself with an error (N > 0, not killed by a signal), the last line it
    wrote on its stderr too, if any (an import error, say)."""
    code = process.wait()
    if code <= 0:
        return f"exit {code}"
    process.errors.seek(0)
    lines = [line.strip() for line in process.errors.read()[-4096:].decode("utf-8", "replace").splitlines()]
    last = next((line for line in reversed(lines) if line), "")
    return f"exit {code}: {last[:200]}" if last else f"exit {code}"


def _started(function: Callable) -> tuple[subprocess.Popen, Connection, Connection]:
    """A worker process for ``function``: the process, the connection that sends it jobs, the one its answers
    come on."""
    jobs_in, jobs_out = os.pipe()
    answers_in, answers_out = os.pipe()
    try:
        boot = _BOOT.format(path=sys.path, fds=(jobs_in, answers_out), module=function.__module__,
                            name=function.__qualname__)  # fmt: skip
        errors = tempfile.TemporaryFile()  # read only if the worker dies: its last words say why
        try:
            process = subprocess.Popen([sys.executable, "-c", boot], pass_fds=(jobs_in, answers_out),
                                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors,
                                       start_new_session=True)  # fmt: skip
        except BaseException:
            errors.close()
            raise
        process.errors = errors
    except BaseException as exc:
        for fd in (jobs_out, answers_in):
            os.close(fd)
        if isinstance(exc, OSError):
            raise WorkersUnavailable(f"a worker process could not be started ({exc.strerror or exc})") from exc
        raise
    finally:
        os.close(jobs_in)
        os.close(answers_out)
    return process, Connection(jobs_out, readable=False), Connection(answers_in, writable=False)


#: What a worker runs: this process's module path, then :func:`_serve` with the function.
_BOOT = """import sys
sys.path[:] = {path!r}
from explorer.system.workers import _serve
from {module} import {name} as function
_serve(*{fds!r}, function)
"""


def _share_out(jobs: list[tuple], workers: list, done: Callable[[int, object], None]) -> None:
    """Hand ``jobs`` out to the idle ``workers`` (process, sends, answers) until each has ended; see
    :func:`run_in_workers`."""
    waiting = deque(enumerate(jobs))
    busy: dict[Connection, tuple] = {}  # answers -> (process, sends)
    for process, send, reply in workers:
        if waiting:
            send.send(waiting.popleft())
            busy[reply] = (process, send)
    while busy:
        interrupt.check()
        for reply in multiprocessing.connection.wait(list(busy), CHECK_EVERY):
            process, send = busy.pop(reply)
            try:
                k, ok, result, text = reply.recv()
            except (EOFError, OSError):
                interrupt.check()  # a worker killed with the command's process group: the signal, not a loss
                raise WorkerLost(f"a worker process ended without answering ({_how_it_ended(process)})") from None
            if not ok:
                raise result from WorkerTraceback(text)
            done(k, result)
            if waiting:
                send.send(waiting.popleft())
                busy[reply] = (process, send)


def _serve(jobs_fd: int, answers_fd: int, function: Callable) -> None:
    """A worker: ignore the stopping signals, and answer each job ``(k, args)`` read from ``jobs_fd`` with
    ``(k, True, result, None)`` or ``(k, False, exception, traceback text)`` on ``answers_fd``, until the
    command closes its end."""
    for signum in interrupt.SIGNALS:
        signal.signal(signum, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, interrupt.SIGNALS)
    jobs, answers = Connection(jobs_fd, writable=False), Connection(answers_fd, readable=False)
    while True:
        try:
            k, args = jobs.recv()
        except (EOFError, OSError):
            return  # the command is over (or died)
        try:
            answer = (k, True, function(*args), None)
        except Exception as exc:  # noqa: BLE001 - every failure goes back to the command, which raises it
            answer = (k, False, exc, traceback.format_exc())
        try:
            answers.send(answer)
        except (EOFError, OSError):
            return
        except Exception:  # noqa: BLE001 - an answer that cannot be pickled: said as text
            answers.send((k, False, RuntimeError(f"a worker's answer could not be sent back: {answer[2]!r}"),
                          traceback.format_exc()))  # fmt: skip


@contextmanager
def _signals_blocked() -> Iterator[None]:
    """SIGINT and SIGTERM held back from this thread within the block (and so from the processes it starts);
    one that comes meanwhile is handled when the block ends."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, interrupt.SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
