"""Which copy of the solver's loops runs: plain Python, until the compiled one pays.

Two of them, each the same source compiled by numba or run as plain Python
(:mod:`solver._plain`): ``sweep_many``'s loop over the pairs
(:func:`batch_kernel`) and the exact stage (:func:`exact_stage`).

The pairs the filter cannot prove (spheres touching exactly, exact tangents,
contact exactly at the horizon) are decided by the exact stage
(:mod:`solver._refine`: floating-point expansions, Python integers for the
rare inputs outside their range).  Compiled, it takes well under a
microsecond a pair, but compiling it takes seconds on a fresh install (numba
then caches it on disk, and a later process loads it in a fraction of a
second).  So a process starts with the same source run as plain Python
(:mod:`solver._plain`, about 0.1 ms a pair) and loads the compiled stage once
the plain one has decided :data:`PLAIN_BUDGET` pairs (about half a second of
them).  Both run the same operations on the same floats, so they give the same
answers bit for bit (``tests/solver/test_plain_python_path.py``): which one
decided a pair never shows.  A process that meets a few such pairs (an audit
of random pairs meets tens per million) never waits for the compiler.

Without numba (``SPHERE_SOLVER_JIT=0``, the explorer) there is no compiled
stage; the caller decides those pairs with Python integers, which are faster
than the plain expansions.

``sweep_many``'s loop is treated the same way: its first
:data:`PLAIN_BATCH_BUDGET` pairs in a process go through the plain Python copy
of the loop (about 50 µs a pair), so that a first call on a thousand pairs
does not wait seconds for the compiler; any call that would go beyond it runs
the compiled loop.  The answers are again the same bit for bit.

Compiling numba code is one long step: :func:`announce_if_slow` puts a line
on stderr (a terminal only) when one takes longer than
:data:`ANNOUNCE_AFTER` seconds, saying what is being compiled.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import threading
import time
from types import ModuleType
from typing import Iterator

from ._filter import PLAIN_COPY, USE_JIT

#: Pairs the plain Python exact stage decides in one process before the compiled one is loaded.
PLAIN_BUDGET = 5_000
#: Pairs the plain Python copy of ``sweep_many``'s loop decides in one process before the compiled one runs.
PLAIN_BATCH_BUDGET = 10_000
#: Seconds a compilation may take before :func:`announce_if_slow` says what it is.
ANNOUNCE_AFTER = 1.0

_lock = threading.Lock()
_spent = 0
_batch_spent = 0
_module: ModuleType | None = None


def batch_kernel(pairs: int):
    """The loop of ``sweep_many`` (:func:`solver._kernel.sweep_kernel`) to run on ``pairs`` pairs.

    The plain Python copy's while this process's calls stay within
    :data:`PLAIN_BATCH_BUDGET` pairs, else the compiled one (or, without
    numba, the module's own, which is plain Python).
    """
    global _batch_spent
    from . import _kernel

    if USE_JIT:
        with _lock:
            if _batch_spent + pairs <= PLAIN_BATCH_BUDGET:
                _batch_spent += pairs
                return importlib.import_module(f"{__package__}._plain._kernel").sweep_kernel
            _batch_spent = PLAIN_BATCH_BUDGET  # spent: from now on the compiled loop
    return _kernel.sweep_kernel


def exact_stage(pairs: int) -> ModuleType | None:
    """The copy of the exact stage (:mod:`solver._refine`) to decide ``pairs`` more pairs.

    Parameters
    ----------
    pairs : int
        Pairs about to be decided.

    Returns
    -------
    module or None
        The compiled :mod:`solver._refine` (loaded now if this call uses up
        :data:`PLAIN_BUDGET`), its plain Python copy ``solver._plain._refine``
        while within the budget, or None without numba (``SPHERE_SOLVER_JIT=0``:
        decide with integers).
    """
    global _spent
    if PLAIN_COPY:  # in solver._plain itself: its own plain expansions, like the copy the compiled solver starts with
        return importlib.import_module(f"{__package__}._refine")
    if not USE_JIT:
        return None
    if _module is None:
        with _lock:
            if _spent + pairs <= PLAIN_BUDGET:
                _spent += pairs
                return importlib.import_module(f"{__package__}._plain._refine")
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
