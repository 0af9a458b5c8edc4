"""Which exact stage decides what the float filter leaves: Python integers, until the compiled one pays.

The pairs the filter cannot prove (spheres touching exactly, exact tangents,
contact exactly at the horizon) are decided either by the compiled expansion
stage (:mod:`solver._refine`, well under a microsecond a pair) or by Python
integers (:mod:`solver._exact`, about 20 µs a pair).  Their verdicts are the
same; the tests check it on the hard families.  The compiled stage costs
seconds to compile on a fresh install (numba then caches it on disk, and a
later process loads it in a fraction of a second), so it is loaded only once
it pays: the integers decide until the pairs they have decided in this
process, with those of the call at hand, would exceed
:data:`INTEGER_BUDGET` (about half a second of integers); from then on the
compiled stage decides.  A process that meets a few such pairs (an audit of
random pairs meets tens per million) never waits for the compiler.

Compiling numba code is one long step: :func:`announce_if_slow` puts a line
on stderr (a terminal only) when one takes longer than
:data:`ANNOUNCE_AFTER` seconds, saying what is being compiled.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from types import ModuleType
from typing import Iterator

from ._filter import USE_JIT

#: Pairs the integers decide in one process before the compiled stage is loaded.
INTEGER_BUDGET = 25_000
#: Seconds a compilation may take before :func:`announce_if_slow` says what it is.
ANNOUNCE_AFTER = 1.0

_lock = threading.Lock()
_spent = 0
_module: ModuleType | None = None


def compiled_stage(pairs: int) -> ModuleType | None:
    """The compiled exact stage to decide ``pairs`` more pairs, or None: decide them with integers.

    Parameters
    ----------
    pairs : int
        Pairs about to be decided.

    Returns
    -------
    module or None
        :mod:`solver._refine` (loaded now if this call uses up the budget),
        or None without numba (``SPHERE_SOLVER_JIT=0``) or while within budget.
    """
    global _spent
    if not USE_JIT or pairs <= 0:
        return None
    if _module is None:
        with _lock:
            if _spent + pairs <= INTEGER_BUDGET:
                _spent += pairs
                return None
        return load()
    return _module


def load() -> ModuleType | None:
    """Load the compiled exact stage now (compiling it if numba's cache does not have it); None without numba."""
    global _module
    if not USE_JIT:
        return None
    if _module is None:
        with announce_if_slow("the exact stage for touching and grazing pairs"):
            from . import _refine
        _module = _refine
    return _module


def first_call(function, what: str):
    """:func:`announce_if_slow` around the first call in this process of a compiled ``function``, else nothing.

    For the loops over many pairs (``sweep_many``'s, the motion's): their first
    call loads their machine code from numba's cache, or compiles it.
    """
    if getattr(function, "signatures", True):  # plain Python, or already loaded in this process
        return contextlib.nullcontext()
    return announce_if_slow(what)


@contextlib.contextmanager
def announce_if_slow(what: str, stream=None) -> Iterator[None]:
    """Say on ``stream`` (default stderr, a terminal only) what is being compiled, if it takes a while.

    Nothing is written when the block ends within :data:`ANNOUNCE_AFTER`
    seconds (numba loaded the machine code from its cache); otherwise one line
    when that time has passed and its end (with the seconds taken) when it ends.
    """
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    if not (isatty is not None and isatty()):
        yield
        return
    start = time.perf_counter()
    said = threading.Event()

    def say() -> None:
        said.set()
        stream.write(f"solver: compiling {what} (first use after installing; cached for next time)...")
        stream.flush()

    timer = threading.Timer(ANNOUNCE_AFTER, say)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        timer.join()  # a line being written is finished first
        if said.is_set():
            stream.write(f" done in {time.perf_counter() - start:.1f} s\n")
            stream.flush()
