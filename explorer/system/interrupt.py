"""Ctrl-C and ``kill``: a command stops, removes what it was writing, and says so in one line.

Two disciplines, one record.  The handler always *records* the signal; what it
does next depends on the block being run:

Recording (``catching(raising=False)``: ``render``, ``report``, ``export-html``, ``solve``)
    Nothing more.  The command acts on the record at its safe points, with
    :func:`check`: between the steps of a drawing, between the frames of an
    animation and the pages of a site, and just before an output is renamed
    into place (:mod:`explorer.system.files`).  So no exception is ever raised
    inside VTK (whose Python observers turn a KeyboardInterrupt into its own
    "Caught a Ctrl-C" and an exit), inside an import (which turns it into an
    ImportError or a half-made module), numba or matplotlib.  A signal that
    comes once the output is in place ends the command normally, exit 0, the
    output whole.
Raising (``catching()``: the audit)
    The handler also raises :class:`KeyboardInterrupt` at once, so a long read
    or decision stops without waiting, except where the exception is known to
    be swallowed (within numba's compiler callbacks, where C calls back into
    Python: only recorded there); Python's report of a swallowed
    KeyboardInterrupt is silenced while a signal is recorded
    (``sys.unraisablehook``), and the audit's own :func:`check` calls (between
    chunks, before its folder is renamed into place) raise for the record, so
    a signal never ends in a completed audit.

The console script records from its first line (:func:`install`), before
anything slow is imported (only the interpreter's own start-up comes before,
some 30 ms), and ignores signals once its command is over (:func:`ignore`).
SIGTERM is handled like Ctrl-C, so a ``kill`` cleans up too; the exit code
says which it was (130 or 143).  The window gives both their usual effect back
(:func:`released`).

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
#: One entry per :func:`catching` block being run: whether its handler raises at once (else it only records).
_raising: list[bool] = []
#: The handlers and unraisable hook before the outermost :func:`catching` or :func:`install` (SIGINT, SIGTERM, hook).
_before: list[tuple] = []


#: Code that calls back into Python from C, where an exception is printed and dropped (numba's
#: compiler notifying its cache through ctypes): the signal is only recorded there, for :func:`check`.
_SWALLOWING = ("llvmlite",)


def _handler(signum: int, frame) -> None:
    _received.append(signum)
    if _holding or not (_raising and _raising[-1]):
        return  # held() raises it when its block ends; a recording block acts on it at its next check()
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
    first KeyboardInterrupt was swallowed): a command's safe point."""
    if _received:
        raise KeyboardInterrupt


def exit_code(default: int = 128 + signal.SIGINT) -> int:
    """The shell's code for the signal received: 130 for SIGINT, 143 for SIGTERM."""
    signum = received()
    return default if signum is None else 128 + signum


def _ours() -> bool:
    return signal.getsignal(signal.SIGINT) is _handler


def _take_over() -> None:
    """Point SIGINT and SIGTERM at the recording handler, keeping what was there for :func:`released`."""
    previous = [signal.signal(signum, _handler) for signum in SIGNALS]
    _before[:] = [(*previous, sys.unraisablehook)]
    sys.unraisablehook = _silence_swallowed_interrupts(sys.unraisablehook)


def _give_back() -> None:
    """Restore the handlers and hook :func:`_take_over` found."""
    *previous, hook = _before.pop()
    for signum, handler in zip(SIGNALS, previous):
        signal.signal(signum, handler)
    sys.unraisablehook = hook


def install(early: list[int] | tuple[int, ...] = ()) -> None:
    """Record SIGINT and SIGTERM from now on, for the rest of the process (the console script's first act).

    Only records (see the module docstring) until a :func:`catching` block
    says otherwise; nothing slow is imported by this module, so it can run
    before anything else.  ``early``: signals already recorded (by
    :mod:`explorer.start`), acted on like the others.  Does nothing outside the
    main thread, or when already installed.
    """
    if threading.current_thread() is threading.main_thread() and not _ours():
        _received.clear()
        _take_over()
        _received.extend(early)


def ignore() -> None:
    """Ignore SIGINT and SIGTERM from now on: the command is over and a late signal changes nothing.

    Needed through the interpreter's shutdown, which puts back the default
    handlers of the signals it handled, so that one coming then would kill a
    command that had completed (only an ignored signal stays ignored).
    """
    if threading.current_thread() is threading.main_thread():
        for signum in SIGNALS:
            signal.signal(signum, signal.SIG_IGN)


@contextmanager
def catching(raising: bool = True) -> Iterator[None]:
    """Record SIGINT and SIGTERM within the block (and, ``raising``, raise KeyboardInterrupt at once);
    restore the old handlers after.

    Outside the main thread (signals can only be handled there) it only clears the record.  Within
    another such block, or after :func:`install`, it keeps the record and handlers and only sets
    whether they raise; a ``raising`` block then raises at once for a signal already recorded.
    """
    if _ours():
        _raising.append(raising)
        try:
            if raising:
                check()
            yield
        finally:
            _raising.pop()
        return
    _received.clear()
    if threading.current_thread() is not threading.main_thread():
        try:
            yield
        finally:
            _received.clear()
        return
    _take_over()
    _raising.append(raising)
    try:
        yield
    finally:
        _raising.pop()
        _give_back()
        _received.clear()  # handled: a later run in this process starts afresh


@contextmanager
def released() -> Iterator[None]:
    """Give SIGINT and SIGTERM their usual effect within the block (the window: Qt's event loop), after
    raising KeyboardInterrupt for a signal already recorded; record them again after."""
    if not _ours():
        yield
        return
    _give_back()
    try:
        check()
        yield
    finally:
        _take_over()
