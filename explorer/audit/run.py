"""The audit from log to output folder: read, decide, fold, write.

:func:`audit` is what ``sphere-explorer audit`` calls.  In one process the log
is read by a background thread (pyarrow and file reads release the GIL) while
the main thread decides the previous chunk; at most two chunks are in memory
at once.  With ``dask`` or ``workers`` the same per-chunk job runs on a Dask
cluster instead (:mod:`explorer.audit.runners.distributed`).
"""

from __future__ import annotations

import itertools
import os
import queue
import threading
import time
from pathlib import Path
from typing import Iterable, Iterator

from solver.limits import check_horizon

from ..system import interrupt
from ..system.progress import Progress
from .constants import CHUNK_ROWS, TOI_TOL, WORST
from .decision.deciding import Settings, audit_chunk
from .decision.tally import OrderedFold, Tally
from .log import units
from .log.columns import LogError
from .log.csv_reader import csv_block_size
from .log.info import LogInfo, shrunk
from .log.mapping import CHANGED
from .log.reading import chunks, inspect
from .needs import DASK, require
from .report.cases import write_cases
from .report.staging import check_target, staged
from .report.summary import build, write

#: Files written in OUTDIR.
SUMMARY = "summary.json"
PLOT = "audit.png"
CASES = "cases"


class Prefetch:
    """Iterate ``items`` in a background thread, one item ahead; errors are re-raised in the consumer.

    At most two items are alive at once: the one the consumer holds and the
    one being read.  The next read starts only when the consumer asks for
    the next item (so it must drop its reference to the previous one first).

    Attributes
    ----------
    busy : float
        Seconds the background thread spent producing items (reading).
    """

    _END = object()

    def __init__(self, items: Iterable) -> None:
        self.busy = 0.0
        self._queue: queue.Queue = queue.Queue()
        self._slots = threading.Semaphore(2)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._produce, args=(iter(items),), name="audit-reader", daemon=True)
        self._thread.start()

    def _produce(self, items: Iterator) -> None:
        try:
            while True:
                while not self._slots.acquire(timeout=0.1):
                    if self._stop.is_set():
                        return
                if self._stop.is_set():
                    return
                start = time.perf_counter()
                try:
                    item = next(items)
                except StopIteration:
                    self._queue.put(self._END)
                    return
                self.busy += time.perf_counter() - start
                self._queue.put(item)
                item = None
        except BaseException as err:  # noqa: BLE001 - handed to the consumer, raised there
            self._queue.put(_Failure(err))
        finally:
            close = getattr(items, "close", None)
            if close is not None:
                close()

    def __iter__(self) -> Iterator:
        while True:
            item = self._queue.get()
            if item is self._END:
                return
            if isinstance(item, _Failure):
                raise item.error
            yield item
            item = None  # the consumer is done with it: let the next read start
            self._slots.release()

    def close(self) -> None:
        """Stop the background thread and wait for it."""
        self._stop.set()
        self._slots.release()
        self._thread.join()
        while not self._queue.empty():
            self._queue.get_nowait()


class _Failure:
    def __init__(self, error: BaseException) -> None:
        self.error = error


def run_single(info: LogInfo, settings: Settings, chunk_rows: int, progress: Progress) -> tuple[Tally, dict]:
    """Audit the log in this process; return the tally and how the run went (times in seconds)."""
    start = time.perf_counter()
    fold = OrderedFold(settings.worst)
    decide = 0.0
    estimate = None
    if info.rows is None:  # CSV: rows estimated from the block size for the progress bar only
        estimate = max(info.size / max(csv_block_size(info, chunk_rows) / chunk_rows, 1.0), 1.0)
    reader = Prefetch(chunks(info, chunk_rows))
    items = iter(reader)
    try:
        for index in itertools.count():
            try:
                raw = next(items)
            except StopIteration:
                break
            except LogError as err:  # rows of the chunk being read count from its start
                raise err.shifted(fold.rows_before) from None
            t = time.perf_counter()
            try:
                tally = audit_chunk(raw, settings)
            except LogError as err:
                raise err.shifted(fold.rows_before) from None
            del raw  # before the next read starts (see Prefetch)
            decide += time.perf_counter() - t
            fold.add(index, tally)
            interrupt.check()
            progress.update(tally.rows, None if estimate is None else min(fold.rows_before / estimate, 1.0))
        progress.finish()
    finally:
        reader.close()
    seconds = time.perf_counter() - start
    run = {"runner": "single", "workers": 1, "chunks": fold.folded, "seconds": seconds,
           "read_seconds": reader.busy, "decide_seconds": decide}  # fmt: skip
    return fold.total, run


def audit(
    log: str | os.PathLike[str],
    outdir: str | os.PathLike[str],
    *,
    toi_tol: float = TOI_TOL,
    worst: int = WORST,
    chunk_rows: int = CHUNK_ROWS,
    dask: str | None = None,
    workers: int | None = None,
    quiet: bool = True,
    horizon: float | None = None,
) -> dict:
    """Audit an engine log and write ``outdir``; return the summary.

    Parameters
    ----------
    log : path
        Parquet, CSV (header row) or ``.npz`` with the columns of
        :mod:`explorer.audit.log.columns`.
    outdir : path
        Folder to create (must not exist, or be empty): ``summary.json``,
        ``audit.png`` and ``cases/*.json``.
    toi_tol : float
        Relative TOI tolerance.
    worst : int
        Case files to write.
    chunk_rows : int
        Rows per chunk (per Dask partition).
    dask : str, optional
        Address of a Dask scheduler.
    workers : int, optional
        Run on a local Dask cluster of this many single-threaded processes.
    quiet : bool
        No progress bar.
    horizon : float, optional
        The horizon (time unit of the velocities) of every row, for a log
        without a ``horizon`` column; default 1 (see :mod:`explorer.audit.log.units`).

    Raises
    ------
    LogError
        One line naming the problem with the log, the output folder, the
        cluster or ``horizon``.  ``outdir`` is then not created.
    MissingPackage
        One line naming the command that installs what reading the log's
        format or running on Dask needs.
    """
    settings = Settings(float(toi_tol), int(worst), _horizon(horizon))
    check_target(outdir)
    if dask or workers:
        require(DASK)
    info = inspect(log)
    origin = units.source(info.columns, settings.horizon)
    if origin == units.FROM_COLUMN and settings.horizon is not None:
        raise LogError("--horizon: the log has a horizon column of its own; leave out one or the other")
    from .report.plot import preload, wait_for_preload, write_plot

    preload()  # matplotlib imported in the background while the rows are decided
    try:
        tally, run = _decide(info, settings, chunk_rows, dask, workers, quiet)
        time_unit = units.describe(origin, settings.horizon, tally.horizon_low, tally.horizon_high, tally.least_motion)
        log_name = _printable(Path(log).name)
        with staged(outdir) as stage:
            files = write_cases(tally.cases, stage / CASES, log_name, settings.toi_tol)
            summary = build(str(log), info.format, info.columns, tally, settings.toi_tol, files, PLOT, run, time_unit)
            write_plot(summary, stage / PLOT)
            write(summary, stage / SUMMARY)
            interrupt.check()  # a signal whose KeyboardInterrupt was swallowed: no complete folder
    except Exception:  # refused (a log, a full disk): the process will end soon, never inside the plot's import
        wait_for_preload()  # (a signal is not waited for: that process leaves with os._exit)
        raise
    return summary


def _horizon(value: float | None) -> float | None:
    """``--horizon`` checked: None, or a horizon :func:`solver.limits.check_horizon` accepts (a LogError otherwise)."""
    if value is None:
        return None
    try:
        return check_horizon(value, "--horizon")
    except ValueError as exc:
        raise LogError(str(exc)) from None


def _decide(info: LogInfo, settings: Settings, chunk_rows: int, dask: str | None, workers: int | None,
            quiet: bool) -> tuple[Tally, dict]:  # fmt: skip
    """Decide every row, in this process or on Dask; return the tally and how the run went."""
    progress = Progress(info.rows, enabled=not quiet)
    try:
        if dask or workers:
            from .runners.distributed import run_dask

            tally, run = run_dask(info, settings, chunk_rows, progress, address=dask, workers=workers)
        else:
            tally, run = run_single(info, settings, chunk_rows, progress)
    except LogError:  # a short read or a line cut in two: said as what it is when the log got shorter
        if shrunk(info):
            raise LogError(CHANGED) from None
        raise
    finally:
        progress.close()
    if shrunk(info):  # a CSV log cut at a line's end reads as a shorter log
        raise LogError(CHANGED)
    run["pairs_per_second"] = tally.rows / run["seconds"] if run["seconds"] > 0 else None
    return tally, run


def _printable(name: str) -> str:
    """A file name fit for a scene's title: printable characters, at most 120."""
    return "".join(ch if ch.isprintable() else "?" for ch in name)[:120]
