"""numba's on-disk cache shared by every process, whoever wrote it: the one place that makes it so.

Every process that runs the solver compiled reads and writes the same cache
(``solver/__pycache__/*.nbi`` and ``*.nbc``): the window and its background
compile of the motion loop, a site export's worker processes, ``audit
--workers`` and Dask workers, ``render``, ``solve``, the tests' workers.
numba names a cache entry by the source file and the function
(``_events.events_kernel-138.py311.nbi``), not by the module that compiled it;
but what it stores refers to that module by name, and loading the entry imports
it.  The compiled copy that the window loads in the background
(``solver._compiled``, see :mod:`solver._compile`) is a package made at run time,
which no other process has: a site's worker loading the window's entry failed
with ``No module named 'solver._compiled'``, and a window loading the worker's
entry would have loaded the other module's machine code.

:func:`share` mends both, once per process, before the first function is
compiled:

- a copy's functions are cached under names of their own (the copy's package in
  the file name: ``solver._compiled._events.events_kernel-138.py311.nbi``), so
  the copy and the solver itself never read each other's entries;
- an entry that cannot be loaded (written by a process whose modules this one
  lacks, cut short by a full disk or a killed process, written by another numba)
  counts as missing: numba compiles the function again and writes it over.

Standard library only at import; numba is passed in by :mod:`solver._compile`
once it has been imported there.
"""

from __future__ import annotations

import threading
from types import ModuleType

#: The solver's top package (``solver``): its own modules keep numba's names; a copy's get the copy's package.
ROOT = __name__.partition(".")[0]
#: The attribute set on numba's caching module once :func:`share` has run in this process.
MARK = "_sphere_solver_shared"

_lock = threading.Lock()


def entry_name(module: str, fullname: str) -> str:
    """The name numba's cache gives a function of ``module``: ``fullname`` (numba's ``<file>.<qualname>``),
    prefixed by the package when the module is one of a copy of the solver (``solver._compiled``).

    Examples
    --------
    >>> entry_name("solver._events", "_events.events_kernel")
    '_events.events_kernel'
    >>> entry_name("solver._compiled._events", "_events.events_kernel")
    'solver._compiled._events.events_kernel'
    """
    package = module.rpartition(".")[0]
    if package == ROOT or not module.startswith(ROOT + "."):
        return fullname
    return f"{package}.{fullname}"


def share(caching: ModuleType) -> None:
    """Make numba's cache (``caching``: the module ``numba.core.caching``) safe to share, once per process.

    See the module notes.  Safe to call from several threads and again: the
    second call changes nothing.
    """
    with _lock:
        if getattr(caching, MARK, False):
            return
        impl, cache = caching.CacheImpl, caching.Cache
        init, filename_base, load = impl.__init__, impl.get_filename_base, cache.load_overload

        def __init__(self, py_func) -> None:  # noqa: N807 - numba's method
            self._solver_module = getattr(py_func, "__module__", "") or ""
            init(self, py_func)

        def get_filename_base(self, fullname: str, abiflags: str) -> str:
            return filename_base(self, entry_name(getattr(self, "_solver_module", ""), fullname), abiflags)

        def load_overload(self, sig, target_context):
            try:
                return load(self, sig, target_context)
            except Exception:  # noqa: BLE001 - an entry this process cannot load is a miss: compiled and written again
                return None

        impl.__init__, impl.get_filename_base, cache.load_overload = __init__, get_filename_base, load_overload
        setattr(caching, MARK, True)
