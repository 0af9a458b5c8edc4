"""Ctrl-C and ``kill``: a command stops, removes what it was writing, and says so in one line.

A signal handler that only raises :class:`KeyboardInterrupt` can lose the
signal: raised while the main thread runs a Python callback under C code (a
ctypes callback, a weakref callback such as the import system's, a
destructor), the exception is printed with a traceback and dropped there, and
an audit would run on to a complete output.  So the handler *records* the
signal, raises only where the exception is not known to be swallowed (not
within numba's compiler callbacks), Python's report of a swallowed
KeyboardInterrupt is silenced while a signal is recorded (``sys.unraisablehook``),
and :func:`check` (called by the audit between chunks and before its output
folder is renamed into place) raises for a recorded signal: a signal can never
end in a completed run, and is said in one line.  SIGTERM is handled like Ctrl-C,
so a ``kill`` cleans up too; the exit code says which it was (130 or 143).

Standard library only.
"""

from __future__ import annotations

import signal
import sys
import threading
from contextlib import contextmanager
from typing import Iterator

#: What a command stopped by a signal says after its name (every writer removes what it had begun).
MESSAGE = "interrupted; nothing was written"
#: The signals that stop a command.
SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: The exit codes of a command they stopped (the shell's 128 + the signal's number: 130, 143).
EXIT_CODES = tuple(128 + signum for signum in SIGNALS)

_received: list[int] = []
#: One entry per :func:`held` block being run.
_holding: list[bool] = []


#: Code that calls back into Python from C, where an exception is printed and dropped (numba's
#: compiler notifying its cache through ctypes): the signal is only recorded there, for :func:`check`.
_SWALLOWING = ("llvmlite",)


def _handler(signum: int, frame) -> None:
    _received.append(signum)
    if _holding:
        return  # held() raises it when its block ends
    while frame is not None:
        if frame.f_globals.get("__name__", "").startswith(_SWALLOWING):
            return  # raising here would print a traceback and be lost; the next check() stops the run
        frame = frame.f_back
    raise KeyboardInterrupt


def _silence_swallowed_interrupts(previous_hook):
    """An unraisable-exception hook that drops a KeyboardInterrupt this module raised (the signal is
    recorded and :func:`check` stops the run) and passes everything else to ``previous_hook``."""

    def hook(unraisable) -> None:
        if _received and issubclass(unraisable.exc_type, KeyboardInterrupt):
            return
        previous_hook(unraisable)

    return hook


@contextmanager
def held() -> Iterator[None]:
    """Within the block a stopping signal is only recorded; it is raised when the block ends.

    For creating a temporary: a KeyboardInterrupt raised inside ``mkdtemp``, after the folder exists
    but before its name is known, would leave it behind.
    """
    _holding.append(True)
    try:
        yield
    finally:
        _holding.pop()
    if not _holding:
        check()


def received() -> int | None:
    """The first signal received since :func:`catching` began, or None."""
    return _received[0] if _received else None


def check() -> None:
    """Raise :class:`KeyboardInterrupt` if a stopping signal has been received (even one whose
    first KeyboardInterrupt was swallowed)."""
    if _received:
        raise KeyboardInterrupt


def exit_code(default: int = 128 + signal.SIGINT) -> int:
    """The shell's code for the signal received: 130 for SIGINT, 143 for SIGTERM."""
    signum = received()
    return default if signum is None else 128 + signum


@contextmanager
def catching() -> Iterator[None]:
    """Record SIGINT and SIGTERM (and raise KeyboardInterrupt) within the block; restore the old handlers after.

    Outside the main thread (signals can only be handled there) it only clears the record; within
    another such block it does nothing (the outer block keeps the record).
    """
    if signal.getsignal(signal.SIGINT) is _handler:
        yield
        return
    _received.clear()
    if threading.current_thread() is not threading.main_thread():
        try:
            yield
        finally:
            _received.clear()
        return
    previous = {signum: signal.signal(signum, _handler) for signum in SIGNALS}
    previous_hook = sys.unraisablehook
    sys.unraisablehook = _silence_swallowed_interrupts(previous_hook)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        sys.unraisablehook = previous_hook
        _received.clear()  # handled: a later run in this process starts afresh
