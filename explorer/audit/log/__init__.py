"""The log: what an engine's log holds and how it is read and written.

The columns and their one-line refusals (:mod:`~explorer.audit.log.columns`);
a log opened and read in chunks (:mod:`~explorer.audit.log.reading`), each
format by its own reader (:mod:`~explorer.audit.log.parquet_reader`,
:mod:`~explorer.audit.log.csv_reader`, :mod:`~explorer.audit.log.npz_reader`)
with what they share: the log once opened (:mod:`~explorer.audit.log.info`)
and its columns as numpy (:mod:`~explorer.audit.log.values`); the Parquet
file's map under a read lease (:mod:`~explorer.audit.log.mapping`); the time
unit of its velocities (:mod:`~explorer.audit.log.units`); and the engine-side
writer, :class:`~explorer.audit.log.writer.QueryLog`.  Nothing here decides a
pair or writes a report (an import-linter contract checks it).
"""
