"""The columns of an engine log, and turning each into a float64 array or a one-line refusal.

One row per logged pair query (``DESIGN.md``, "Engine logs for audit")::

    a_cx a_cy a_cz  a_vx a_vy a_vz  a_r     centre, velocity per frame, radius of A
    b_cx b_cy b_cz  b_vx b_vy b_vz  b_r     the same for B
    horizon                                 optional: the time unit of the velocities (default 1.0,
                                            or ``--horizon``)
    engine_hit                              optional, bool or 0/1
    engine_toi                              optional, float; empty/NaN where the engine said no hit
    step  a_id  b_id                        optional integers naming the engine's row (its step and
                                            the two bodies), shown with the worst cases: integers
                                            within ±2**53 (or whole floats), empty where missing;
                                            anything else is refused (:func:`label_floats`)

Extra columns are ignored.  Rows are numbered from 0 in file order, as numpy,
pandas and pyarrow index them (in a CSV file, row ``r`` is on line ``r + 2``).
Every problem is a :class:`LogError`: one line naming the column and, where it
is known, the row (or the line of a CSV file); messages never name the file,
the command line puts its name first.
"""

from __future__ import annotations

import math

import numpy as np

#: Required, in this order: A's centre, velocity and radius, then B's.
GEOMETRY = (
    "a_cx", "a_cy", "a_cz", "a_vx", "a_vy", "a_vz", "a_r",
    "b_cx", "b_cy", "b_cz", "b_vx", "b_vy", "b_vz", "b_r",
)  # fmt: skip
HORIZON = "horizon"
ENGINE_HIT = "engine_hit"
ENGINE_TOI = "engine_toi"
#: Optional columns the audit reads when present.
OPTIONAL = (HORIZON, ENGINE_HIT, ENGINE_TOI)
#: Optional columns naming the engine's row: carried to the worst cases, never used to decide.
LABELS = ("step", "a_id", "b_id")
#: Every column the audit can read.
KNOWN = GEOMETRY + OPTIONAL + LABELS
#: The horizon of a log without a ``horizon`` column.
DEFAULT_HORIZON = 1.0

#: Integers beyond this are not all exactly representable as float64; labels must lie within it.
EXACT_INT = 2**53


class LogError(ValueError):
    """A log the audit refuses; ``str()`` is one line naming the column and/or the row.

    Parameters
    ----------
    reason : str
        What is wrong, e.g. ``"expected a number, got 'abc'"``.
    column : str or None
    row : int or None
        0-based row, counted from the start of the chunk that raised it until
        :meth:`shifted` moves it to the whole file.
    line : int or None
        1-based line of a text file, where that is the better name for the place.
    """

    def __init__(self, reason: str, column: str | None = None, row: int | None = None, line: int | None = None):
        super().__init__(reason, column, row, line)
        self.reason = reason
        self.column = column
        self.row = row
        self.line = line

    def __str__(self) -> str:
        where = []
        if self.column is not None:
            where.append(f"column {self.column!r}")
        if self.line is not None:
            where.append(f"line {self.line}")
        elif self.row is not None:
            where.append(f"row {self.row}")
        return f"{', '.join(where)}: {self.reason}" if where else self.reason

    def shifted(self, offset: int) -> "LogError":
        """The same error with its row counted ``offset`` rows further on."""
        row = None if self.row is None else self.row + offset
        return LogError(self.reason, self.column, row, self.line)


def missing_columns(names: list[str] | tuple[str, ...]) -> None:
    """Raise :class:`LogError` when a required column is absent from ``names``."""
    absent = [name for name in GEOMETRY if name not in names]
    if absent:
        listed = ", ".join(repr(name) for name in absent)
        plural = "s" if len(absent) > 1 else ""
        raise LogError(f"missing column{plural} {listed} (a log needs {' '.join(GEOMETRY)})")


def _describe(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _object_values(name: str, values: np.ndarray) -> np.ndarray:
    """Numbers, booleans and missing values (None, NaN, pandas' NA) of an object array as float64.

    Integers follow :func:`check_exact_integers`'s rule: beyond ±2**53 they are refused, not rounded.
    """
    out = np.empty(values.shape[0], dtype=np.float64)
    for i, item in enumerate(values.tolist()):
        if item is None or type(item).__name__ in ("NAType", "NaTType"):
            out[i] = math.nan
        elif isinstance(item, (bool, int, float, np.bool_)) or (
            isinstance(item, np.generic) and np.issubdtype(type(item), np.number)
        ):
            if isinstance(item, (int, np.integer)) and abs(int(item)) > EXACT_INT:
                raise inexact(name, int(item), i)
            out[i] = float(item)
        elif type(item).__name__ == "Decimal":
            out[i] = float(item)
        else:
            raise LogError(f"expected a number, got {_describe(item)}", name, i)
    return out


def inexact(name: str, value: int | str, row: int) -> LogError:
    """The refusal of an integer float64 cannot hold exactly (``value`` as a number, or its digits as text)."""
    digits = str(value)
    shown = digits if len(digits) <= 40 else digits[:39] + "…"
    return LogError(f"integer {shown} is beyond 2**53 and has no exact float64", name, row)


def not_a_label(name: str, value: object, row: int) -> LogError:
    """The refusal of a ``step``, ``a_id`` or ``b_id`` cell that is not an integer within ±2**53."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return inexact(name, int(value), row)
    return LogError(f"expected an integer within ±2**53 (a step or body id), got {_describe(value)}", name, row)


def beyond_exact(values: np.ndarray) -> np.ndarray:
    """``(n,) bool``: which of the integers ``values`` lie beyond ±2**53 (compared as integers, never as floats)."""
    if values.dtype.kind == "u":
        return values > np.uint64(EXACT_INT)
    return (values > EXACT_INT) | (values < -EXACT_INT)


def check_exact_integers(name: str, values: np.ndarray) -> None:
    """Refuse integers that float64 cannot hold exactly (beyond ±2**53), naming the first one's row.

    Parameters
    ----------
    name : str
        The column, for the message.
    values : (n,) signed or unsigned integer array
        Compared as integers: converting to float64 first would round 2**53 + 1
        down to 2**53 and let it through.

    Raises
    ------
    LogError
    """
    beyond = beyond_exact(values)
    if beyond.any():
        row = int(np.flatnonzero(beyond)[0])
        raise inexact(name, int(values[row]), row)


def as_float64(name: str, values: np.ndarray) -> np.ndarray:
    """One column as a C-contiguous ``(n,) float64`` array, missing values as NaN.

    Parameters
    ----------
    name : str
        The column, for messages.
    values : (n,) array
        Floats, integers, booleans, or objects among those and None.

    Returns
    -------
    (n,) float64
        ``values`` itself when it already is one (no copy).

    Raises
    ------
    LogError
        Naming the column (and the first bad row): text, dates, nested data,
        integers beyond 2**53, arrays that are not one-dimensional.
    """
    values = np.asarray(values)
    if values.ndim != 1:
        raise LogError(f"expected one value per row, got an array of shape {values.shape}", name)
    kind = values.dtype.kind
    if kind == "f":
        out = values.astype(np.float64, copy=False)
    elif kind in "iu":
        check_exact_integers(name, values)
        out = values.astype(np.float64)
    elif kind == "b":
        out = values.astype(np.float64)
    elif kind == "O":
        out = _object_values(name, values)
    else:
        if not values.size:
            raise LogError(f"expected numbers, got an empty array of {values.dtype}", name)
        raise LogError(f"expected a number, got {_describe(values[0].item())} ({values.dtype} values)", name, 0)
    return np.ascontiguousarray(out)


def _missing(item: object) -> bool:
    """Whether one cell of an object column is a missing value (None, NaN, pandas' NA)."""
    if item is None or type(item).__name__ in ("NAType", "NaTType"):
        return True
    try:
        return bool(item != item)
    except (TypeError, ValueError, ArithmeticError):  # a signalling Decimal NaN, an odd object
        return False


def _label_item_ok(item: object) -> bool:
    """Whether one cell of an object column is a label (see :func:`bad_label_row`)."""
    if isinstance(item, (bool, np.bool_)):
        return False
    if isinstance(item, (int, np.integer)):
        return abs(int(item)) <= EXACT_INT
    if isinstance(item, (float, np.floating)) or type(item).__name__ == "Decimal":
        if _missing(item):
            return True
        try:
            return abs(item) <= EXACT_INT and item == int(item)
        except (OverflowError, ValueError, ArithmeticError):  # infinities
            return False
    return _missing(item)


def bad_label_row(values: np.ndarray) -> int | None:
    """The first row of ``values`` that is not a label, or None when every one is.

    A label (``step``, ``a_id``, ``b_id``) is an integer within ±2**53, held as
    an integer or as a whole float, or missing (NaN, None).  Booleans, text,
    fractions and infinities are not.  One rule for every reader of the audit
    and for :class:`~explorer.audit.QueryLog`.

    Parameters
    ----------
    values : (n,) array
        Of any dtype.
    """
    kind = values.dtype.kind
    if kind in "iu":
        bad = beyond_exact(values)
    elif kind == "f":
        with np.errstate(invalid="ignore"):
            whole = (np.abs(values) <= EXACT_INT) & (values == np.floor(values))
        bad = ~whole & ~np.isnan(values)  # NaN: missing
    elif kind == "O":
        return next((i for i, item in enumerate(values.tolist()) if not _label_item_ok(item)), None)
    else:  # booleans, text, dates...
        return 0 if values.size else None
    return int(np.flatnonzero(bad)[0]) if bad.any() else None


def label_floats(name: str, values: np.ndarray) -> np.ndarray:
    """A label column as ``(n,) float64``, missing values as NaN: exact, every label being within ±2**53.

    Parameters
    ----------
    name : str
        ``step``, ``a_id`` or ``b_id``, for messages.
    values : (n,) array
        As a reader gives it: integers, floats, objects (Python numbers,
        ``Decimal``, None), or anything else, which is refused.

    Raises
    ------
    LogError
        Naming the column and the first row that is not a label (see
        :func:`bad_label_row`).
    """
    values = np.asarray(values)
    if values.ndim != 1:
        raise LogError(f"expected one value per row, got an array of shape {values.shape}", name)
    row = bad_label_row(values)
    if row is not None:
        value = values[row]
        raise not_a_label(name, value.item() if isinstance(value, np.generic) else value, row)
    if values.dtype.kind == "O":
        cells = values.tolist()
        return np.array([math.nan if _missing(item) else float(item) for item in cells], dtype=np.float64)
    return np.ascontiguousarray(values.astype(np.float64, copy=False))


def read_only(column: np.ndarray) -> np.ndarray:
    """``column`` seen through a read-only view (no copy).

    To compiled code a writable array and a read-only one are two types, each compiled on its own: the log's
    readers hand over either (a file's columns read in place are read-only, converted ones writable), and a log
    mixing them waited for the compiler once per mix (seven versions of one check, at 5f28a03).  The audit's
    compiled code sees every column through this.
    """
    view = column.view()
    view.flags.writeable = False
    return view
