"""The audit on a Dask cluster: ``--dask ADDRESS`` (a running scheduler) or ``--workers N`` (a local one).

The log is partitioned by Dask's own readers: Parquet by row groups through
:func:`dask.dataframe.read_parquet`; CSV in blocks of whole lines through
:func:`dask.bytes.read_bytes` (the byte-range reader under
:func:`dask.dataframe.read_csv`), each parsed by pyarrow with the very options
of the single-process run, because pandas' parser rounds some decimal numbers
differently and fills short lines with NaN instead of refusing them; ``.npz``
by row ranges as :func:`dask.delayed` tasks (Dask has no ``.npz`` reader).
Each partition is one task (:mod:`explorer.audit.runners.tasks`), Dask schedules them,
and the client folds the tallies in file order as they arrive, so the result
is identical to the single-process run's.

The workers must be able to read the log at the same path (use an absolute
path on a shared file system with ``--dask``) and have this project and its
``audit`` extra installed.
"""

from __future__ import annotations

import logging
import time
from contextlib import contextmanager
from typing import Iterator

from ...system import interrupt
from ...system.progress import Progress
from ..decision.deciding import Settings
from ..decision.tally import OrderedFold, Tally
from ..log.columns import LogError
from ..log.csv_reader import csv_block_size, csv_compression
from ..log.info import LogInfo, printable
from .tasks import audit_csv_block, audit_frame, audit_npz_range

#: Seconds to wait for a scheduler given with ``--dask``.
CONNECT_TIMEOUT = 10


def partitions(info: LogInfo, settings: Settings, chunk_rows: int) -> list:
    """One :class:`dask.delayed.Delayed` per piece of the log, in file order, each computing a Tally."""
    import dask

    path = str(info.path.absolute())
    if info.format == "parquet":
        import dask.dataframe as dd

        frame = dd.read_parquet(
            path,
            columns=list(info.columns),
            split_row_groups="adaptive",
            blocksize=chunk_rows * 8 * len(info.columns),
            # one numpy array per column, no copy into a 2-D block (a fifth less time per partition)
            arrow_to_pandas={"split_blocks": True, "self_destruct": True},
        )
        return [dask.delayed(audit_frame, pure=True)(part, settings) for part in frame.to_delayed()]
    if info.format == "csv":
        from dask.bytes import read_bytes

        compression = csv_compression(info.path)
        _, blocks = read_bytes(
            path,
            delimiter=b"\n",
            blocksize=None if compression else csv_block_size(info, chunk_rows),  # a compressed file: one block
            sample=False,
            compression=compression,
        )
        task = dask.delayed(audit_csv_block, pure=True)
        return [task(path, block, info.header, info.columns, i == 0, settings) for i, block in enumerate(blocks[0])]
    task = dask.delayed(audit_npz_range, pure=True)
    return [task(path, info.columns, start, min(start + chunk_rows, info.rows), settings)
            for start in range(0, info.rows, chunk_rows)]  # fmt: skip


@contextmanager
def connect(address: str | None, workers: int | None) -> Iterator:
    """A Dask client: on the scheduler at ``address``, or on a local cluster of ``workers`` processes.

    Raises
    ------
    LogError
        When the scheduler cannot be reached (one line).
    """
    from distributed import Client, LocalCluster

    if address:
        try:
            client = Client(address, timeout=f"{CONNECT_TIMEOUT}s")
        except (OSError, TimeoutError, ValueError) as err:
            raise LogError(f"--dask: cannot reach a Dask scheduler at {address!r} ({err})") from None
        with client:
            yield client
        return
    with (
        LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            scheduler_kwargs={"dashboard": False},
            silence_logs=logging.CRITICAL,  # a task's refusal is reported once, by the client
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


def run_dask(info: LogInfo, settings: Settings, chunk_rows: int, progress: Progress, address: str | None = None,
             workers: int | None = None) -> tuple[Tally, dict]:  # fmt: skip
    """Audit the log on Dask; return the folded tally and how the run went.

    Raises
    ------
    LogError
        The first problem of the log in file order (the same one the
        single-process run reports), or a failure of the cluster.
    """
    from distributed import as_completed

    start = time.perf_counter()
    try:
        tasks = partitions(info, settings, chunk_rows)
    except (OSError, ValueError) as err:
        raise LogError(f"Dask cannot read it ({err})") from None
    fold = OrderedFold(settings.worst)
    errors: dict[int, BaseException] = {}
    with connect(address, workers) as client:
        n_workers = len(client.scheduler_info().get("workers", {}))
        ready = time.perf_counter()
        futures = client.compute(tasks)
        index = {future.key: i for i, future in enumerate(futures)}
        finished = 0
        for future in as_completed(futures):
            i = index[future.key]
            if future.status == "finished":
                tally = future.result()
                fold.add(i, tally)
                finished += 1
                progress.update(tally.rows, None if info.rows else finished / len(futures))
            elif future.status == "error":
                errors[i] = future.exception()
                for later in futures[i + 1 :]:  # the first error in file order is the one reported
                    later.cancel()
            future.release()
            interrupt.check()
        done = time.perf_counter()
    if errors:
        first = min(errors)
        err = errors[first]
        if isinstance(err, LogError):
            raise err.shifted(fold.rows_before)
        raise LogError(f"a Dask task failed ({type(err).__name__}: {printable(str(err))})")
    progress.finish()
    run = {"runner": "dask", "address": address or "local", "workers": n_workers, "chunks": len(tasks),
           "seconds": time.perf_counter() - start, "cluster_seconds": ready - start,
           "compute_seconds": done - ready}  # fmt: skip
    return fold.total, run
