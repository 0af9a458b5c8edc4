"""The ``sphere-explorer`` console script's entry: Ctrl-C and ``kill`` are recorded from its first statement.

The console script imports this module before anything else of the project:
from here on a SIGINT or SIGTERM is recorded, instead of raising
KeyboardInterrupt inside whatever import is running (a traceback, or another
error in its place).  :func:`console` hands the record to
:mod:`explorer.system.interrupt`, which acts on it at the command's first safe
point (one line, exit 130 or 143).  What comes before this module -- the
interpreter's own start -- is Python's.  Standard library only (``signal``).
"""

from __future__ import annotations

import signal

#: Signals received before :mod:`explorer.system.interrupt` took over, in order.
EARLY: list[int] = []


def _record(signum: int, frame) -> None:
    EARLY.append(signum)


for _signum in (signal.SIGINT, signal.SIGTERM):
    signal.signal(_signum, _record)


def console() -> int:
    """The console script: :func:`explorer.cli.console`, with the signals recorded so far.

    Python's own handlers are put back just before: :mod:`explorer.system.interrupt` takes over at once and
    gives them back where a command keeps their usual effect (the window).
    """
    from .cli import console as run

    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    return run(early=EARLY)
