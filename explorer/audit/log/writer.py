"""Writing an engine's collision queries as a log for ``sphere-explorer audit``: :class:`QueryLog`.

An engine's loop calls :meth:`QueryLog.add` per pair (or per batch of pairs)
and per step, or :meth:`QueryLog.add_step` once per step with the bodies'
centres before and after it (the recipe of the README's "Logging from a
step-based engine").  Rows are buffered ``chunk_rows`` at a time (bounded
memory whatever the length of the run) and written as Parquet row groups or
CSV lines as each chunk fills.

The file is written by the program's one safe writer
(:func:`explorer.system.files.replacing`): into a temporary file beside the
target, renamed over it only by :meth:`QueryLog.close` (the end of the
``with`` block).  So a log never appears half-written: a run that stops with an
exception inside the ``with`` block (or is killed) leaves no log, and an older
file at the path untouched.  Call :meth:`~QueryLog.close` yourself (say in a
``finally``) to keep what a failing run logged.  A run killed outright leaves
its temporary file (``.NAME.sphere-explorer-PID-....tmp.csv``) until the next
write in that folder removes it; the audit refuses it as the unfinished write
it is, never taking it for a log.

What is written is exactly what was given: values are refused, naming the
field, where the file could not hold them exactly (text, complex numbers,
integers beyond ±2**53 in float64 columns, labels that are not integers within
±2**53: the audit's own rule, :func:`explorer.audit.log.columns.bad_label_row`).
"""

from __future__ import annotations

import contextlib
import itertools
import math
import operator
import os
import time
from pathlib import Path

import numpy as np

from ...system import files
from ..needs import ARROW, require
from .columns import ENGINE_HIT, ENGINE_TOI, EXACT_INT, GEOMETRY, HORIZON, LABELS, bad_label_row, beyond_exact

#: Rows buffered before a chunk is written (one Parquet row group): about 20 MB.
CHUNK_ROWS = 1 << 17
#: Seconds between touches of the temporary file while no chunk is written, so that no other
#: write in the folder takes it for the leftover of a killed run (see explorer.system.files).
_TOUCH_EVERY = 600.0
#: The default of ``engine_hit`` and ``engine_toi``: not given (no column), unlike None (a column, value missing).
_ABSENT = object()
#: Optional columns whose values may be missing (None or NaN): None still gives the column.
_MAY_BE_MISSING = (ENGINE_HIT, ENGINE_TOI)


class QueryLog:
    """A log of sphere-sweep queries, one row per pair per step, written a chunk at a time.

    Parameters
    ----------
    path : path
        ``.parquet`` (or ``.pq``) or ``.csv``; written only when the log is closed.
    horizon : float, optional
        The time unit of the velocities for every row (an engine stepping at ``dt`` logs
        velocities per second and ``horizon=dt``), written as the ``horizon`` column.
        Without it, give ``horizon`` per row to :meth:`add` (or let :meth:`add_step` give
        ``dt``); a log with neither has no ``horizon`` column (the audit's ``--horizon`` or 1).
    chunk_rows : int
        Rows held in memory before they are written.

    Attributes
    ----------
    closed : bool
        True once the log is closed or discarded (then :meth:`add` refuses).

    Raises
    ------
    ValueError
        A path of another type, a horizon that is not a positive finite time, or a file that
        cannot be written there (one line naming it).

    Examples
    --------
    >>> with QueryLog("queries.parquet", horizon=1 / 60) as log:          # doctest: +SKIP
    ...     log.add(a_center, a_velocity, 0.1, b_center, b_velocity, 0.1, engine_hit=True, step=k, a_id=3, b_id=7)
    """

    def __init__(self, path: str | os.PathLike[str], *, horizon: float | None = None,
                 chunk_rows: int = CHUNK_ROWS) -> None:  # fmt: skip
        suffix = Path(path).suffix.lower()
        if suffix not in (".parquet", ".pq", ".csv"):
            raise ValueError(f"path: expected a .parquet or .csv file, got {files.show_path(path)!r}")
        if not isinstance(chunk_rows, int) or chunk_rows < 1:
            raise ValueError(f"chunk_rows: expected a positive whole number, got {chunk_rows!r}")
        self.path = Path(path)
        self.horizon = None if horizon is None else _time("horizon", horizon)
        self.rows = 0
        self._chunk_rows = chunk_rows
        self._buffer: dict[str, np.ndarray] | None = None
        self._filled = 0
        self._steps = itertools.count()
        self._csv = suffix == ".csv"
        if not self._csv:
            require(ARROW, "writing Parquet")
        self._stack = contextlib.ExitStack()
        self._handle, self._tmp = self._stack.enter_context(files.replacing(self.path, binary=True))
        self._touched = time.monotonic()
        self._writer = None  # the Parquet writer, made with the first chunk
        self._wrote_header = False  # the CSV header, written with the first chunk
        self.closed = False

    # -- adding rows -------------------------------------------------------------------------

    def add(self, a_center, a_velocity, a_radius, b_center, b_velocity, b_radius, *, horizon=None,
            engine_hit=_ABSENT, engine_toi=_ABSENT, step=None, a_id=None, b_id=None) -> None:  # fmt: skip
        """Log one pair query, or ``m`` at once.

        Parameters
        ----------
        a_center, a_velocity, b_center, b_velocity : (3,) or (m, 3) float
            Centres at the start of the query; velocities per the horizon's time unit.
        a_radius, b_radius : float or (m,) float
            Positive.
        horizon : float or (m,) float, optional
            Only when the log was made without one.
        engine_hit : bool, 0/1 or (m,) of those, optional
            The engine's verdict; None (or NaN) where it has none.  Left out: no such column.
        engine_toi : float or (m,) float, optional
            The engine's time of impact in [0, horizon]; None or NaN where it said no hit.
            Left out: no such column.
        step, a_id, b_id : int or (m,) int, optional
            The engine's names for the row, carried to the audit's worst cases.

        The first call fixes the log's columns: every later call gives the same keywords
        (``engine_toi=None`` where the engine gave no time still gives the column).

        Raises
        ------
        ValueError
            Naming the field (and the row of a batch): a wrong shape, a value that is not a
            finite number (text, booleans and complex numbers are not numbers here), an integer
            beyond ±2**53 where a float64 is written, a radius or horizon not positive, an
            ``engine_hit`` other than true/false/0/1, a negative ``engine_toi``, a label that is
            not an integer within ±2**53, a keyword the first call did not give (or the other
            way round).  Nothing of a refused call is logged.
        explorer.system.files.WriteError
            A ``ValueError`` naming the file, when a chunk cannot be written (a full disk): the
            log is then discarded, its temporary file removed.
        """
        given = {"horizon": horizon, "engine_hit": engine_hit, "engine_toi": engine_toi,
                 "step": step, "a_id": a_id, "b_id": b_id}  # fmt: skip
        columns = _geometry(a_center, a_velocity, a_radius, b_center, b_velocity, b_radius)
        m = _rows(columns, given)
        columns = {name: np.broadcast_to(values, (m,)) for name, values in columns.items()}
        columns.update(self._optional(given, m))
        self._append(columns, m)

    def add_step(self, before, after, radius, dt: float, *, contacts_start=None, contacts_end=None, pairs=None,
                 ids=None, step: int | None = None) -> None:  # fmt: skip
        """Log every pair of a step of a step-based engine, the right way round.

        Each row is a pair's query over the step: centres at the start of the step,
        the velocity the engine applied over it, ``(after - before) / dt``, and
        horizon ``dt``; the engine's answer is whether it had the pair in contact at
        the start **or** at the end of the step (a discrete test sees only those two
        instants; what touches only in between is a tunnel, a false miss).  Pairing a
        step's state with the contacts an engine reports for that step alone is the
        step-lag mistake: an engine that detects contacts before it moves the bodies
        (pybullet) reports a contact that begins during step k only after step k + 1.

        Parameters
        ----------
        before, after : (n, 3) float
            The bodies' centres at the start and at the end of the step.
        radius : float or (n,) float
        dt : float
            The step, in the time unit of the velocities (the log's ``horizon``).
        contacts_start, contacts_end : iterable of (i, j), optional
            Pairs of body indices (into ``before``) the engine had in contact at the start and
            at the end of the step; None: decided from the centres, ``|ci - cj| <= ri + rj``.
        pairs : (m, 2) int, optional
            The pairs to log (body indices, e.g. the broad phase's); default every ``i < j``.
        ids : (n,) int, optional
            The engine's body ids, logged as ``a_id`` and ``b_id``; default the indices.
        step : int, optional
            Logged as ``step``; default the number of steps logged before.

        Raises
        ------
        ValueError
            Naming the field, as :meth:`add` does.
        """
        before, after = _centres("before", before), _centres("after", after)
        n = before.shape[0]
        if after.shape != before.shape:
            raise ValueError(f"after: expected the shape of before {before.shape}, got {after.shape}")
        dt = _time("dt", dt)
        radius = _positive("radius", np.broadcast_to(_numbers("radius", radius, (n,)), (n,)))
        i, j = _pairs(pairs, n)
        start = _contacts("contacts_start", contacts_start, before, radius, i, j)
        end = _contacts("contacts_end", contacts_end, after, radius, i, j)
        ids = np.arange(n) if ids is None else _integers("ids", ids, (n,))
        velocity = (after - before) / dt
        self.add(
            before[i], velocity[i], radius[i], before[j], velocity[j], radius[j],
            horizon=None if self.horizon is not None and self.horizon == dt else dt,
            engine_hit=start | end, step=next(self._steps) if step is None else step, a_id=ids[i], b_id=ids[j],
        )  # fmt: skip

    def _optional(self, given: dict, m: int) -> dict[str, np.ndarray]:
        """The optional columns of one call, checked against the log's horizon and its first call."""
        if given["horizon"] is not None and self.horizon is not None:
            raise ValueError(f"horizon: this log's rows all have horizon {self.horizon!r} (QueryLog(horizon=...))")
        out = {}
        if self.horizon is not None:
            out[HORIZON] = np.full(m, self.horizon)
        elif given["horizon"] is not None:
            out[HORIZON] = _positive("horizon", _numbers("horizon", given["horizon"], (m,)))
        if given["engine_hit"] is not _ABSENT:
            out[ENGINE_HIT] = _verdicts(given["engine_hit"], m)
        if given["engine_toi"] is not _ABSENT:
            out[ENGINE_TOI] = _times(given["engine_toi"], m)
        for name in LABELS:
            if given[name] is not None:
                out[name] = _integers(name, given[name], (m,))
        return {name: np.broadcast_to(values, (m,)) for name, values in out.items()}

    def _append(self, columns: dict[str, np.ndarray], m: int) -> None:
        if self.closed:
            raise ValueError(f"{files.show_path(self.path)}: the log is closed")
        if self._buffer is None:
            self._buffer = {name: np.empty(self._chunk_rows, dtype=_dtype(name)) for name in columns}
        elif columns.keys() != self._buffer.keys():
            wrong = sorted(set(columns) ^ set(self._buffer))[0]
            if wrong in columns:
                raise ValueError(f"{wrong}: this call gives it and the log's first did not (rows share their columns)")
            where_none = " (None where there is none)" if wrong in _MAY_BE_MISSING else ""
            raise ValueError(f"{wrong}: the log's first call gave it; give it on every call{where_none}")
        done = 0
        while done < m:
            take = min(m - done, self._chunk_rows - self._filled)
            for name, values in columns.items():
                self._buffer[name][self._filled : self._filled + take] = values[done : done + take]
            self._filled += take
            done += take
            if self._filled == self._chunk_rows:
                self._flush()
        self.rows += m
        if time.monotonic() - self._touched > _TOUCH_EVERY:
            os.utime(self._tmp)
            self._touched = time.monotonic()

    # -- writing -------------------------------------------------------------------------------

    def _flush(self) -> None:
        """Write the buffered rows (a Parquet row group, or CSV lines)."""
        if not self._filled:
            return
        chunk = {name: values[: self._filled] for name, values in self._buffer.items()}
        try:
            if self._csv:
                self._handle.write(_csv_text(chunk, header=not self._wrote_header))
                self._wrote_header = True
            else:
                self._write_parquet(chunk)
        except OSError as exc:  # a full disk, a file too large: the log cannot be whole, nothing is left
            self.discard()
            raise files.WriteError(f"{files.show_path(self.path)}: cannot write ({files.os_reason(exc)})") from None
        self._filled = 0
        self._touched = time.monotonic()

    def _write_parquet(self, chunk: dict[str, np.ndarray]) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        arrays = {}
        for name, values in chunk.items():
            missing = np.isnan(values) if values.dtype.kind == "f" else None
            if name == ENGINE_HIT:
                arrays[name] = pa.array(values == 1.0, mask=missing)
            else:
                arrays[name] = pa.array(values, mask=missing if name == ENGINE_TOI else None)
        table = pa.table(arrays)
        if self._writer is None:
            self._writer = pq.ParquetWriter(self._handle, table.schema)
        self._writer.write_table(table, row_group_size=self._chunk_rows)

    def close(self) -> None:
        """Write what is buffered and put the log in place (the temporary file renamed over ``path``).

        A log to which nothing was added gets the columns it would have had: the geometry,
        and ``horizon`` when the log has one, with no rows.
        """
        if self.closed:
            return
        self.closed = True
        try:
            if self._buffer is None:  # nothing added: an empty log with the required columns
                self._buffer = {name: np.empty(0) for name in GEOMETRY + ((HORIZON,) if self.horizon else ())}
            self._flush()
            if self._csv and not self._wrote_header:
                self._handle.write(_csv_text({name: values[:0] for name, values in self._buffer.items()}, True))
            elif not self._csv:
                if self._writer is None:
                    self._write_parquet({name: values[:0] for name, values in self._buffer.items()})
                self._writer.close()
        except BaseException as err:
            self._stack.__exit__(type(err), err, err.__traceback__)
            raise
        self._stack.close()

    def discard(self) -> None:
        """Stop without writing: the temporary file is removed, nothing appears at ``path``."""
        if self.closed:
            return
        self.closed = True
        if self._writer is not None:
            with contextlib.suppress(Exception):
                self._writer.close()
        stop = _Discarded()
        self._stack.__exit__(_Discarded, stop, None)

    def __enter__(self) -> "QueryLog":
        return self

    def __exit__(self, kind, error, trace) -> None:
        if kind is None:
            self.close()
        else:
            self.discard()


class _Discarded(Exception):
    """Thrown into the safe writer to make it remove the temporary file."""


# -- checking the values -----------------------------------------------------------------------


def _dtype(name: str) -> type:
    return np.int64 if name in LABELS else np.float64


def _numbers(field: str, value, shapes: tuple[int | None, ...]) -> np.ndarray:
    """``value`` as float64 of one of the trailing shapes allowed, every value finite (see :func:`_exact`)."""
    array = _exact(field, value, "numbers")
    if array.ndim > len(shapes) or (array.ndim and array.shape[-1] != shapes[-1] and shapes[-1] is not None):
        wanted = " or ".join(f"({', '.join('m' if s is None else str(s) for s in shapes[k:])})"
                             for k in range(len(shapes)))  # fmt: skip
        raise ValueError(f"{field}: expected a scalar or shape {wanted}, got shape {array.shape}")
    bad = ~np.isfinite(array)
    if bad.any():
        where = (
            f" (row {int(np.flatnonzero(bad.reshape(array.shape[0], -1).any(axis=1))[0])})" if array.ndim > 1 else ""
        )
        raise ValueError(f"{field}: expected finite numbers, got {float(array[bad].flat[0])!r}{where}")
    return array


def _exact(field: str, value, wanted: str) -> np.ndarray:
    """``value`` as a float64 array holding exactly the numbers given, None as NaN.

    Real numbers only: text (even ``"1.5"``), booleans, complex numbers (whose imaginary part would be
    dropped) and other objects are refused, and so are integers beyond ±2**53 and long doubles that
    float64 would round.  ``wanted`` says what was expected, for the message.
    """
    try:
        array = np.asarray(value)
    except ValueError:  # lists of different lengths
        raise ValueError(f"{field}: expected {wanted}, got {_shown(value)}") from None
    kind = array.dtype.kind
    if kind == "O":
        cells = array.reshape(-1).tolist()
        for cell in cells:
            if cell is not None and (isinstance(cell, (bool, np.bool_)) or not isinstance(cell, (int, float, np.number))
                                     or isinstance(cell, (complex, np.complexfloating))):  # fmt: skip
                raise ValueError(f"{field}: expected {wanted}, got {_shown(value)}")
            if isinstance(cell, (int, np.integer)) and abs(int(cell)) > EXACT_INT:
                raise ValueError(f"{field}: {int(cell)} is beyond ±2**53 (read as float64)")
        return np.array([math.nan if cell is None else float(cell) for cell in cells]).reshape(array.shape)
    if kind in "iu":
        beyond = beyond_exact(array)
        if beyond.any():
            raise ValueError(f"{field}: {int(array[beyond].flat[0])} is beyond ±2**53 (read as float64)")
    elif kind == "f":
        if array.dtype.itemsize > 8:
            rounded = array.astype(np.float64)
            inexact = ~((rounded == array) | np.isnan(array))
            if inexact.any():
                raise ValueError(f"{field}: {array[inexact].flat[0]!r} has no exact float64")
    else:  # text, booleans, complex numbers, dates...
        raise ValueError(f"{field}: expected {wanted}, got {_shown(value)}")
    return array.astype(np.float64)


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _geometry(a_center, a_velocity, a_radius, b_center, b_velocity, b_radius) -> dict[str, np.ndarray]:
    """The 14 geometry columns of a call, each ``(m,)`` or ``()`` (one value for every row)."""
    out = {}
    for side, center, velocity, radius in (
        ("a", a_center, a_velocity, a_radius),
        ("b", b_center, b_velocity, b_radius),
    ):
        c, v = (_vectors(f"{side}_{what}", value) for what, value in (("center", center), ("velocity", velocity)))
        r = _positive(f"{side}_radius", _numbers(f"{side}_radius", radius, (None,)))
        for k, axis in enumerate("xyz"):
            out[f"{side}_c{axis}"] = c[..., k]
        for k, axis in enumerate("xyz"):
            out[f"{side}_v{axis}"] = v[..., k]
        out[f"{side}_r"] = r
    return {name: out[name] for name in GEOMETRY}


def _vectors(field: str, value) -> np.ndarray:
    """A ``(3,)`` or ``(m, 3)`` float64 array of centres or velocities."""
    array = _numbers(field, value, (None, 3))
    if array.ndim == 0:
        raise ValueError(f"{field}: expected shape (3,) or (m, 3), got a single number")
    return array


def _rows(columns: dict[str, np.ndarray], given: dict) -> int:
    """The rows of a call: the one length of its arrays (1 when all are scalars)."""
    lengths = {}
    for name, value in [*columns.items(), *given.items()]:
        shape = np.shape(value) if value is not None else ()
        if shape:
            lengths.setdefault(shape[0], name)
    if len(lengths) > 1:
        (n1, f1), (n2, f2) = list(lengths.items())[:2]
        raise ValueError(f"{f2}: {n2} rows where {f1} has {n1}")
    return next(iter(lengths), 1)


def _positive(field: str, values: np.ndarray) -> np.ndarray:
    bad = ~(values > 0)
    if bad.any():
        raise ValueError(f"{field}: expected a positive number, got {float(values[bad].flat[0])!r}")
    return values


def _time(field: str, value) -> float:
    array = _numbers(field, value, ())
    return float(_positive(field, array))


def _verdicts(value, m: int) -> np.ndarray:
    """``engine_hit`` as float64 1/0, NaN where missing (None or NaN)."""
    array = np.asarray(value, dtype=object if np.ndim(value) else None)
    if array.ndim > 1:
        raise ValueError(f"engine_hit: expected one verdict per row, got shape {array.shape}")
    flat = np.broadcast_to(array, (m,)).tolist() if np.ndim(array) else [array.item()] * m
    out = np.empty(m)
    for k, cell in enumerate(flat):
        if cell is None or (isinstance(cell, float) and math.isnan(cell)):
            out[k] = math.nan
        elif isinstance(cell, (bool, np.bool_)) or cell in (0, 1):
            out[k] = float(bool(cell))
        else:
            raise ValueError(f"engine_hit: expected true/false, 1/0 or None, got {_shown(cell)} (row {k})")
    return out


def _times(value, m: int) -> np.ndarray:
    """``engine_toi`` as float64, NaN where missing (None or NaN); refuses negative or infinite times."""
    array = _exact("engine_toi", value, "times, None or NaN") if value is not None else np.full(m, math.nan)
    if array.ndim > 1:
        raise ValueError(f"engine_toi: expected one time per row, got shape {array.shape}")
    array = np.broadcast_to(array, (m,))
    bad = np.isinf(array) | (array < 0)
    if bad.any():
        raise ValueError(f"engine_toi: expected a time >= 0, None or NaN, got {float(array[bad][0])!r}")
    return array


def _integers(field: str, value, shapes: tuple[int | None, ...]) -> np.ndarray:
    """Labels and ids: integers (or whole floats) within ±2**53, as int64 (the audit's rule for labels,
    :func:`~explorer.audit.log.columns.bad_label_row`, but never missing)."""
    array = np.asarray(value)
    if array.ndim > 1 or (array.ndim and shapes[0] and array.shape[0] != shapes[0]):
        raise ValueError(f"{field}: expected whole numbers, one per row, got {_shown(value)}")
    flat = array.reshape(-1)
    row = bad_label_row(flat)
    if row is None and flat.dtype.kind in "fO":  # NaN and None are missing labels to the audit: none here
        row = next((k for k, cell in enumerate(flat.tolist()) if cell is None or cell != cell), None)
    if row is not None:
        cell = flat[row].item() if isinstance(flat[row], np.generic) else flat[row]
        if type(cell) in (int, float) and math.isfinite(cell) and abs(cell) > EXACT_INT:
            raise ValueError(f"{field}: {cell!r} is beyond ±2**53 (read as float64)")
        raise ValueError(f"{field}: expected whole numbers, one per row, got {_shown(value)}")
    if flat.dtype.kind == "O":  # Python integers, whole floats
        return np.array([int(cell) for cell in flat.tolist()], dtype=np.int64).reshape(array.shape)
    return array.astype(np.int64)


def _centres(field: str, value) -> np.ndarray:
    array = _numbers(field, value, (None, 3))
    if array.ndim != 2:
        raise ValueError(f"{field}: expected an (n, 3) array of centres, got shape {array.shape}")
    return array


def _pairs(pairs, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Index arrays ``(i, j)`` of the pairs to log."""
    if pairs is None:
        i, j = np.triu_indices(n, k=1)
        return i, j
    array = np.asarray(pairs)
    if array.ndim != 2 or array.shape[1] != 2 or (array.size and array.dtype.kind not in "iu"):
        raise ValueError(f"pairs: expected an (m, 2) array of body indices, got {_shown(pairs)}")
    if array.size and (array.min() < 0 or array.max() >= n or (array[:, 0] == array[:, 1]).any()):
        raise ValueError(f"pairs: expected indices of two different bodies in [0, {n}), got {_shown(pairs)}")
    return array[:, 0].astype(np.intp), array[:, 1].astype(np.intp)


def _contacts(field: str, contacts, centres: np.ndarray, radius: np.ndarray, i: np.ndarray, j: np.ndarray):
    """Per logged pair: in contact (given as index pairs, or decided from the centres)."""
    n = centres.shape[0]
    if contacts is None:
        gap = centres[j] - centres[i]
        return np.einsum("ij,ij->i", gap, gap) <= (radius[i] + radius[j]) ** 2
    keys = []  # a pair as min * n + max: memory in the contacts and the pairs logged, never n * n
    for pair in contacts:
        try:
            a, b = (operator.index(x) for x in _two(pair))
        except (TypeError, ValueError):  # not two, or not integers (1.5, True, "1")
            raise ValueError(f"{field}: expected pairs of body indices, got {_shown(pair)}") from None
        if not (0 <= a < n and 0 <= b < n):
            raise ValueError(f"{field}: body index out of [0, {n}) in {_shown(pair)}")
        if a == b:
            raise ValueError(f"{field}: expected two different bodies, got {_shown(pair)}")
        keys.append(min(a, b) * n + max(a, b))
    logged = np.minimum(i, j).astype(np.int64) * n + np.maximum(i, j)
    return np.isin(logged, np.array(keys, dtype=np.int64))


def _two(pair) -> tuple:
    """The two items of a contact pair; TypeError for anything else, booleans among them."""
    a, b = pair
    if isinstance(a, (bool, np.bool_)) or isinstance(b, (bool, np.bool_)):
        raise TypeError("a boolean is no body index")
    return a, b


# -- CSV -------------------------------------------------------------------------------------


def _csv_text(chunk: dict[str, np.ndarray], header: bool) -> bytes:
    """Rows as CSV lines: floats in their shortest exact form, missing values empty."""
    cells = []
    for name, values in chunk.items():
        if name in LABELS:
            cells.append([str(x) for x in values.tolist()])
        elif name == ENGINE_HIT:
            cells.append(["" if x != x else "1" if x else "0" for x in values.tolist()])
        else:
            cells.append(["" if x != x else repr(x) for x in values.tolist()])
    lines = [",".join(chunk)] if header else []
    lines.extend(",".join(row) for row in zip(*cells))
    return ("\n".join(lines) + "\n").encode("ascii") if lines else b""
