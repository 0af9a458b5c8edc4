"""The solver's exact stage imported a second time, as plain Python, in a process that compiles it.

``solver._plain._refine`` is :mod:`solver._refine` run by the interpreter: the
same source, so the same answers bit for bit, at once and without waiting for
numba (see :mod:`solver._stage`).  This package's path is the solver's own
folder, so every module imported through it is a fresh copy of the solver's
module of that name; in those copies :data:`solver._filter.USE_JIT` is False.
"""

from pathlib import Path

__path__ = [str(Path(__file__).resolve().parent.parent)]
