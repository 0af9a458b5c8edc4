"""How the solver's loops run, compiled by numba or as plain Python: the one place that decides.

The maths modules (:mod:`solver._filter`, :mod:`solver._events`,
:mod:`solver._kernel`, :mod:`solver._expansion`, :mod:`solver._refine`) mark
their functions with the decorators below and hold nothing else of this.  The
same source runs either way and gives the same answers bit for bit; only the
speed differs.

The setting
    Decided once per process, when the first maths module is imported: by the
    first query (the first ``sweep`` or ``sweep_inside``, or importing
    ``simulate``, ``bounce_path``, ``ray_sphere`` or ``sweep_many``; ``import
    solver``, :class:`solver.Body` and :mod:`solver.limits` do not count).
    The user's ``SPHERE_SOLVER_JIT`` (``0``: plain Python; anything else:
    compiled) when it is set, else the program's :func:`configure`, else
    compiled.  Without numba (a browser's Python) it is plain Python.
The decorators
    :func:`jit` (small functions, inlined into their compiled callers),
    :func:`jit_loop` (a loop over many pairs, called from Python) and
    :func:`compiled` (one machine-code function for one signature, compiled
    at import); :func:`fma` and :func:`item` are what numba is taught to compile
    specially.  The last two compile without numba's reference counting of
    arrays (:data:`OPTIONS`).  numba's on-disk cache tells machine code apart
    by the function's bytecode and its file's time stamp, not by these
    options: after changing them, change the modules that use them too (or
    empty the cache), else the old machine code keeps being loaded.
The plain copy
    :func:`plain`: a solver module imported a second time as plain Python, in a
    process that compiles (``solver._plain.<name>``; a package made here,
    whose path is the solver's own folder).
The compiled motion loop, later
    The one exception to "once per process": a process that runs as plain
    Python may ask for the motion's loop over pairs compiled, loaded in a
    background thread (:func:`load_motion_loop`; the window does, after its
    first frame, so that dragging a 16-ball break recomputes its motion about
    twice as fast).  It is the loop of the compiled copy
    (``solver._compiled``, imported like the plain copy, compiled whatever
    this process decided), used from then on by every new motion
    (:func:`motion_loop`).  The loop decides the same verdicts as the plain
    Python pairs, and what it leaves unsure is decided with Python integers
    as before: the motions are the same bit for bit.  A user's
    ``SPHERE_SOLVER_JIT=0`` keeps everything plain.  The copy's machine code
    is cached under names of its own (:mod:`solver._shared_cache`), so every
    other process sharing numba's cache, which has no ``solver._compiled``,
    never loads it.
The first-call budgets
    A process starts with the plain copy and loads the compiled code only once
    it pays: :func:`exact_stage` (the exact stage, :mod:`solver._refine`:
    seconds to compile on a fresh install) after :data:`PLAIN_BUDGET` pairs,
    :func:`batch_loop` (``sweep_many``'s loops) after :data:`PLAIN_BATCH_BUDGET`
    pairs.  A process that meets few such pairs never waits for the compiler.
The slow-compile line
    :func:`announce_if_slow`: on a terminal, one line saying what is being
    compiled when that takes longer than :data:`ANNOUNCE_AFTER` seconds.

This module imports no other module of the solver by its code (it loads the
exact stage, the batch loop and the plain copies by name, when a process needs
them), so every maths module can import it; it needs neither numpy nor numba
unless the solver runs compiled.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.machinery
import importlib.util
import os
import sys
import threading
import time
from fractions import Fraction
from types import ModuleType
from typing import Callable, Iterator

#: The environment variable a user sets to choose: ``0`` plain Python, anything else compiled.  It wins over
#: :func:`configure` (the program's choice).
VARIABLE = "SPHERE_SOLVER_JIT"
#: Pairs the plain Python exact stage decides in one process before the compiled one is loaded.
PLAIN_BUDGET = 5_000
#: Pairs the plain Python copy of ``sweep_many``'s loop decides in one process before the compiled one runs.
PLAIN_BATCH_BUDGET = 10_000
#: Seconds a compilation may take before :func:`announce_if_slow` says what it is.
ANNOUNCE_AFTER = 1.0
#: Modules outside numba that numba imports during its first compilation in a process (seen with numba 0.68):
#: :func:`load_motion_loop` imports them with numba, in the calling thread, so that its thread imports none of the
#: modules the rest of a program may import.
FIRST_COMPILE_IMPORTS = ("cmath", "cffi", "scipy")
#: numba's options for :func:`jit_loop` and :func:`compiled`.  ``_nrt=False``: no reference counting of arrays.
#: These functions allocate nothing, and with it every array passed to a separately compiled function (the
#: exact stage passes its scratch arrays to ``quantity`` several times a pair) cost an atomic increment and
#: decrement: 60 to 80 % of the exact stage's time (``benchmarks/README.md``, *Motion*).
OPTIONS = {"cache": True, "error_model": "numpy", "nogil": True, "_nrt": False}

#: The package this module belongs to: ``solver``, or ``solver._plain`` in the plain copy.
_PACKAGE = __name__.rpartition(".")[0]
#: This is the plain copy's own ``_compile``: everything in the copy runs as plain Python.
PLAIN_COPY = _PACKAGE.endswith("._plain")
#: This is the compiled copy's own ``_compile``: everything in the copy runs compiled (numba permitting).
COMPILED_COPY = _PACKAGE.endswith("._compiled")

_lock = threading.RLock()
#: The program's choice (:func:`configure`), used when the environment does not say.
_wanted = True
#: The process's setting once decided (:func:`compiling`), else None.
_decided: bool | None = None
#: numba's decorator, once the setting is decided and numba imported.
_njit = None
#: The compiled exact stage, once loaded (:func:`load_exact_stage`).
_exact_module: ModuleType | None = None
#: The compiled copy's motion loop, once loaded in a plain Python process (:func:`load_motion_loop`).
_motion_loop: Callable | None = None
#: The thread loading it (:func:`load_motion_loop`), once started; False when asked for but not started.
_motion_loader: threading.Thread | bool | None = None


# -- the setting ---------------------------------------------------------------------------------


def configure(*, jit: bool) -> None:
    """Run the solver compiled by numba (``jit=True``, the default) or as plain Python (``jit=False``).

    Call it before the solver's first query: the first ``sweep`` or
    ``sweep_inside``, or importing ``simulate``, ``bounce_path``,
    ``ray_sphere`` or ``sweep_many`` (``import solver`` and
    :class:`solver.Body` do not count).  Plain Python answers at
    once and suits a few queries; compiled code takes a second to load (longer
    the first time after installing) and suits millions.  The answers are the
    same bit for bit.  A user's ``SPHERE_SOLVER_JIT`` (``0`` or ``1``) wins
    over this call.

    Raises
    ------
    ValueError
        ``jit`` is not a bool, or the solver already runs the other way in this
        process (one line, naming ``jit``).
    """
    global _wanted
    if not isinstance(jit, bool):
        raise ValueError(f"jit: expected True or False, got {jit!r}")
    with _lock:
        if _decided is None:
            _wanted = jit
            return
        would = _setting(jit) and importlib.util.find_spec("numba") is not None
        if would != _decided:
            runs = "compiled" if _decided else "as plain Python"
            raise ValueError(
                f"jit: the solver already runs {runs} in this process; call solver.configure(jit={jit}) before "
                "its first query (a sweep, or importing simulate, bounce_path, ray_sphere or sweep_many)"
            )


def _setting(wanted: bool) -> bool:
    """The setting asked for: the user's :data:`VARIABLE` when set, else ``wanted``."""
    value = os.environ.get(VARIABLE, "")
    return wanted if value == "" else value != "0"


def compiling() -> bool:
    """True when this process runs the solver compiled by numba.

    Decided at the first call, for good (see the module notes); always False in
    the plain copy, and without numba (or numpy); True in the compiled copy
    whenever numba can be imported.
    """
    global _decided
    if _decided is None:
        with _lock:
            if _decided is None:
                _decided = not PLAIN_COPY and (COMPILED_COPY or _setting(_wanted)) and _import_numba()
    return _decided


def _import_numba() -> bool:
    """Import numba, make its cache safe to share (:mod:`solver._shared_cache`) and teach it :func:`fma` and
    :func:`item`; False when it cannot be imported."""
    global _njit
    try:
        from numba import njit, types
        from numba.core import caching
        from numba.extending import intrinsic, overload
    except ImportError:  # numba (or numpy) cannot be imported here: the same source runs as plain Python
        return False
    # every process may load what any other wrote to numba's cache, a copy of the solver's entries included
    importlib.import_module(f"{_PACKAGE.partition('.')[0]}._shared_cache").share(caching)

    @intrinsic
    def fused(typingctx, a, b, c):
        """``a * b + c`` with one rounding (LLVM's fma intrinsic)."""
        signature = types.float64(types.float64, types.float64, types.float64)

        def codegen(context, builder, sig, args):
            return builder.fma(*args)

        return signature, codegen

    @overload(fma, inline="always")
    def _fma_compiled(a, b, c):
        return lambda a, b, c: fused(a, b, c)

    @overload(item, inline="always")
    def _item_compiled(x, i):
        if isinstance(x, types.Array):
            return lambda x, i: x[i]
        return lambda x, i: x

    _njit = njit
    return True


# -- the decorators ------------------------------------------------------------------------------


def jit(function: Callable | None = None, *, plain: Callable | None = None):
    """Compile ``function`` with numba, inlined into its compiled callers; or run it as it is.

    IEEE semantics for division by zero (inf or NaN, no exception); machine
    code cached on disk beside the source.  ``@jit(plain=other)`` runs
    ``other`` instead as plain Python (the same results by other operations,
    where the compiled form uses what plain Python lacks).
    """
    if function is None:
        return functools.partial(jit, plain=plain)
    if not compiling():
        return function if plain is None else plain
    return _njit(cache=True, error_model="numpy", inline="always")(function)


def jit_loop(what: str):
    """Like :func:`jit`, for a loop over many pairs called from Python; ``what`` names it to the user.

    Compiled (:data:`OPTIONS`: it may allocate no array), it releases the GIL
    while it runs (another thread, the audit's reader, is not held up for the
    length of a batch), and its first call in a
    process, which loads its machine code from numba's cache or compiles it,
    says ``what`` is compiling when that takes a while (:func:`announce_if_slow`).
    """

    def decorate(function: Callable) -> Callable:
        if not compiling():
            return function
        return _Loop(_njit(**OPTIONS)(function), what)

    return decorate


class _Loop:
    """A compiled loop called from Python: its first call in this process is announced if slow."""

    def __init__(self, dispatcher, what: str) -> None:
        self.dispatcher = dispatcher
        self.what = what
        functools.update_wrapper(self, getattr(dispatcher, "py_func", dispatcher))

    def __call__(self, *args):
        if getattr(self.dispatcher, "signatures", True):  # its machine code is loaded in this process
            return self.dispatcher(*args)
        with announce_if_slow(self.what):
            return self.dispatcher(*args)


def compiled(signature: str):
    """Compile with numba for exactly ``signature`` when the module is imported (or load it from the cache).

    For the exact stage (:mod:`solver._expansion`, :mod:`solver._refine`):
    one machine-code function per decorated function, whatever its callers
    pass.  Left to itself numba compiles a function again for every constant
    argument a caller passes (``quantity(DISC, ...)`` and ``quantity(C, ...)``
    become two functions), and inlining copies a callee into every call site;
    together that took minutes.  ``signature`` is numba's string form, e.g.
    ``"int64(float64[::1], int64)"``; :data:`OPTIONS` (it may allocate no
    array).  As plain Python the function runs as it is.
    """

    def decorate(function: Callable) -> Callable:
        if not compiling():
            return function
        return _njit(signature, **OPTIONS)(function)

    return decorate


def as_python(function: Callable) -> Callable:
    """The plain Python source of a :func:`jit` function, to call from Python without compiling a copy of it.

    Calling a compiled function from Python compiles a stand-alone copy of it
    on first use (a third of a second); the source gives the same answers.
    """
    return getattr(function, "py_func", function)


def fma(a: float, b: float, c: float) -> float:
    """``a * b + c`` rounded once: compiled, the processor's fused multiply-add; as Python, exact rationals."""
    return float(Fraction(a) * Fraction(b) + Fraction(c))


def item(x, i: int):
    """``x[i]`` for an array, ``x`` itself for a float (a per-pair or a shared value).

    Compiled, the choice is made once for the type of ``x``, so a loop over the
    pairs has no branch for it.
    """
    return x if isinstance(x, float) else x[i]


def array(size: int, kind: type = float):
    """``size`` zeros of ``kind`` (float or int) as compiled code takes them: a numpy array, or as plain
    Python a list (read and written three times faster than numpy's scalars)."""
    if not compiling():
        return [kind(0)] * size
    import numpy as np

    return np.zeros(size, dtype=np.float64 if kind is float else np.int64)


# -- the plain copy ------------------------------------------------------------------------------


def plain(name: str) -> ModuleType:
    """The solver's module ``name`` run as plain Python, in a process that compiles: ``solver._plain.<name>``.

    The same source imported a second time, through a package whose path is
    the solver's own folder; in that copy this module is the copy's own
    ``_compile``, so every decorator leaves its function as it is.  The same
    operations on the same floats: the same answers bit for bit, at once and
    without waiting for numba.  In the copy itself, the copy's module.
    """
    if PLAIN_COPY:
        return importlib.import_module(f"{_PACKAGE}.{name}")
    return _copy("_plain", name)


def _copy(package_name: str, name: str) -> ModuleType:
    """The solver's module ``name`` imported again as ``solver.<package_name>.<name>`` (the plain or the compiled
    copy: the copy's own ``_compile`` knows which it is by the package's name)."""
    package = f"{_PACKAGE}.{package_name}"
    with _lock:
        if package not in sys.modules:
            spec = importlib.machinery.ModuleSpec(package, None, is_package=True)
            spec.submodule_search_locations = [os.path.dirname(os.path.abspath(__file__))]
            sys.modules[package] = importlib.util.module_from_spec(spec)
    return importlib.import_module(f"{package}.{name}")


# -- the compiled motion loop, later -------------------------------------------------------------


def motion_loop() -> Callable | None:
    """The compiled loop over a motion's pairs (:func:`solver._events.events_kernel`) if this process has one.

    Returns
    -------
    callable or None
        A process that compiles: its own.  A plain Python process: the
        compiled copy's once :func:`load_motion_loop` has loaded it, else None
        (the motion tests its pairs in plain Python).  The plain copy: None.
    """
    if PLAIN_COPY:
        return None
    if compiling():
        return importlib.import_module(f"{_PACKAGE}._events").events_kernel
    return _motion_loop


def load_motion_loop() -> threading.Thread | None:
    """In a plain Python process, load the compiled motion loop in a background thread (see the module notes).

    numba is imported first, in the calling thread (0.3 s; with
    :data:`FIRST_COMPILE_IMPORTS`), so that no module is
    imported by two threads at once: a program calls this once its own imports
    are done (the window, once its panels are built; at 4decb2d pyqtgraph and
    numba, both importing colorama in two threads, left the plot unbuilt in 2
    starts of 6).  The thread then imports the compiled copy
    (``solver._compiled``, modules no other thread imports) and runs one small
    motion there so that the loop's machine code is loaded (from numba's
    cache, 0.3 s; compiled, about a second, the first time after installing)
    before :func:`motion_loop` hands it out.  Until then, and for good if numba
    cannot be imported or loading fails, motions run as plain Python.  A second
    call, a process that compiles anyway, the plain copy and a user's
    ``SPHERE_SOLVER_JIT=0`` start nothing.

    Returns
    -------
    threading.Thread or None
        The (daemon) thread started, else None.
    """
    global _motion_loader
    if PLAIN_COPY or COMPILED_COPY or not _setting(True) or compiling():
        return None
    with _lock:
        if _motion_loader is not None:
            return None
        _motion_loader = False  # asked for: a second call starts nothing, whatever happens below
        try:
            if not _copy("_compiled", "_compile").compiling():  # imports numba, in this thread
                return None  # numba cannot be imported here: motions stay plain Python
        except Exception:  # noqa: BLE001 - a broken numba install leaves the motion in plain Python, as it was
            return None
        for name in FIRST_COMPILE_IMPORTS:
            with contextlib.suppress(ImportError):
                importlib.import_module(name)
        _motion_loader = threading.Thread(target=_load_motion_loop, name="solver-motion-loop", daemon=True)
    _motion_loader.start()
    return _motion_loader


def _load_motion_loop() -> None:
    """The loader thread's work (:func:`load_motion_loop`), numba imported already."""
    global _motion_loop
    try:
        motion, body = _copy("_compiled", "motion"), _copy("_compiled", "body")
        # two balls meeting head-on: the loop's machine code for the arrays every motion passes it
        motion.simulate([body.Body((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0), body.Body((3.0, 0.0, 0.0))], 1.0)
        loop = _copy("_compiled", "_events").events_kernel
    except Exception:  # noqa: BLE001 - a broken numba install leaves the motion in plain Python, as it was
        return
    _motion_loop = loop


# -- the first-call budgets ----------------------------------------------------------------------


class _Budget:
    """Pairs a plain copy decides in this process before the compiled code takes over, for good."""

    def __init__(self, pairs: int) -> None:
        self.pairs = pairs
        self.spent = 0

    def take(self, pairs: int) -> bool:
        """True, counting them, while ``pairs`` more stay within the budget; else False from now on."""
        with _lock:
            if self.spent + pairs <= self.pairs:
                self.spent += pairs
                return True
            self.spent = self.pairs
            return False


#: The exact stage's budget (:func:`exact_stage`) and the batch loop's (:func:`batch_loop`).
EXACT_BUDGET = _Budget(PLAIN_BUDGET)
BATCH_BUDGET = _Budget(PLAIN_BATCH_BUDGET)


def exact_stage(pairs: int) -> ModuleType | None:
    """The copy of the exact stage (:mod:`solver._refine`) to decide ``pairs`` more pairs.

    The pairs the float filter cannot prove (spheres touching exactly, exact
    tangents, contact exactly at the horizon) are decided by the exact stage:
    floating-point expansions, Python integers for the rare inputs outside
    their range.  Compiled, it takes well under a microsecond a pair, but
    compiling it takes seconds on a fresh install (numba then caches it); its
    plain copy takes about 0.1 ms a pair.

    Returns
    -------
    module or None
        Its plain copy while this process's pairs stay within
        :data:`PLAIN_BUDGET`, then the compiled stage (loaded now if this call
        uses the budget up); None when the solver runs as plain Python (the
        caller decides those pairs with Python integers, faster than the plain
        expansions).  In the plain copy, the copy's own.
    """
    if PLAIN_COPY:  # the plain copy's own expansions, like the copy a compiled process starts with
        return plain("_refine")
    if not compiling():
        return None
    if _exact_module is None and EXACT_BUDGET.take(pairs):
        return plain("_refine")
    return load_exact_stage()


def load_exact_stage() -> ModuleType | None:
    """Load the compiled exact stage now (compiling it if numba's cache does not have it); None as plain Python."""
    global _exact_module
    if PLAIN_COPY or not compiling():
        return None
    if _exact_module is None:  # two threads here import it once (the import system's lock), both then use it
        with announce_if_slow("the exact stage for touching and grazing pairs"):
            _exact_module = importlib.import_module(f"{_PACKAGE}._refine")
    return _exact_module


def batch_loop(pairs: int, name: str = "sweep_kernel") -> Callable:
    """``sweep_many``'s loop (:func:`solver._kernel.sweep_kernel`, or the loop of :mod:`solver._kernel` named
    ``name``) to run on ``pairs`` more pairs.

    Its plain Python copy (about 50 µs a pair) while this process's calls stay
    within :data:`PLAIN_BATCH_BUDGET` pairs, so that a first call on a thousand
    pairs does not wait seconds for the compiler; else the module's own
    (compiled, or plain Python when the solver runs so).  The batch loops share the budget.
    """
    if compiling() and BATCH_BUDGET.take(pairs):
        return getattr(plain("_kernel"), name)
    return getattr(importlib.import_module(f"{_PACKAGE}._kernel"), name)


# -- the slow-compile line -----------------------------------------------------------------------


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
