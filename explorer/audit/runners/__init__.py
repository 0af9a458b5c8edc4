"""The runners: every chunk of a log decided, in this process or on a Dask cluster.

:mod:`~explorer.audit.runners.distributed` runs the per-piece jobs of
:mod:`~explorer.audit.runners.tasks` on Dask.  Both give the tally that
:func:`explorer.audit.run.audit` turns into the report.
"""
