"""Audit an engine's collision log: every logged sphere-sweep query checked exactly.

``sphere-explorer audit LOG -o OUTDIR`` (:mod:`explorer.audit.command`) reads a
Parquet, CSV or ``.npz`` log (:mod:`~explorer.audit.log.columns`,
:mod:`~explorer.audit.log.reading`), decides every pair with
:func:`solver.sweep_many` chunk by chunk (:mod:`~explorer.audit.decision.rows`,
:mod:`~explorer.audit.decision.deciding`), compares the engine's answers -- or, without
them, the textbook formula's in float32 and float64
(:mod:`~explorer.audit.decision.textbook`) -- with the exact ones
(:mod:`~explorer.audit.decision.judging`), folds the chunks' totals
(:mod:`~explorer.audit.decision.tally`) and writes the summary, a plot and the worst
cases as scene files (:mod:`~explorer.audit.report.summary`,
:mod:`~explorer.audit.report.plot`, :mod:`~explorer.audit.decision.worst`,
:mod:`~explorer.audit.report.cases`) into a folder that appears only when complete
(:mod:`~explorer.audit.report.staging`).  :mod:`~explorer.audit.runners.distributed` runs the
same per-chunk job on a Dask cluster.

No Qt, pyvista or VTK here (an import-linter contract checks it); the scene
files are made by :mod:`explorer.model.formats.scene_io`.

:class:`QueryLog` (:mod:`~explorer.audit.log.writer`) writes such a log from an
engine's loop; it is imported on first use, so that importing the command line
needs nothing beyond the standard library.
"""

__all__ = ["QueryLog"]


def __getattr__(name: str):
    """``explorer.audit.QueryLog``, imported when first asked for."""
    if name == "QueryLog":
        from .log.writer import QueryLog

        return QueryLog
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
