"""Arrow and pandas columns to numpy: the one conversion every reader and both runners use.

A Parquet row group or a CSV block (pyarrow) and a Dask partition (pandas)
become ``{name: (n,) array}``, nulls as NaN; integers that float64 cannot
hold exactly, and label text that is not an integer within ±2**53, are
refused naming the column and the row.
"""

from __future__ import annotations

import numpy as np

from .columns import EXACT_INT, LABELS, LogError, check_exact_integers, inexact, not_a_label
from .info import printable


def arrow_values(name: str, array, text_labels: bool = False) -> np.ndarray:
    """A pyarrow column (Array or ChunkedArray) as a numpy array, nulls as NaN (or None for non-numbers).

    Label columns (``step``, ``a_id``, ``b_id``) keep what :func:`~explorer.audit.log.columns.label_floats`
    needs to refuse what is not a label (booleans stay booleans, decimals are converted exactly); with
    ``text_labels`` (a CSV block) they are text, read exactly (:func:`_text_labels`).

    Raises
    ------
    LogError
        For integers that float64 cannot hold exactly, or label text that is not an integer within
        ±2**53, naming the column and the row.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    kind = array.type
    if pa.types.is_null(kind):
        return np.full(len(array), np.nan)
    if name in LABELS:
        if text_labels and (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
            return _text_labels(name, array)
        if pa.types.is_decimal(kind):  # exactly, or as Decimal objects for label_floats to refuse by row
            try:
                array, kind = pc.cast(array, pa.int64(), safe=True), pa.int64()
            except pa.ArrowInvalid:
                return array.to_numpy(zero_copy_only=False)
        if pa.types.is_boolean(kind):  # refused by label_floats, naming the row: not cast to 0/1
            return array.to_numpy(zero_copy_only=False)
    numeric = any(test(kind) for test in (pa.types.is_integer, pa.types.is_boolean, pa.types.is_floating,
                                          pa.types.is_decimal))  # fmt: skip
    if pa.types.is_integer(kind):  # the one rule of as_float64, with the row named
        check_exact_integers(name, array.fill_null(0).to_numpy(zero_copy_only=False))
    if numeric and (kind != pa.float64() or array.null_count):
        try:
            array = pc.cast(array, pa.float64(), safe=True)
        except pa.ArrowInvalid as err:
            raise LogError(f"values that float64 cannot hold exactly ({printable(str(err))})", name) from None
    return array.to_numpy(zero_copy_only=False)  # text and the like: as_float64 refuses it, naming the row


#: A label cell of a CSV log: an integer, optionally with a ``.0`` tail (as pandas writes a whole float).
_LABEL_TEXT = r"^\s*[+-]?[0-9]+(\.0*)?\s*$"
#: Digits of the largest label, 2**53.
_LABEL_DIGITS = len(str(EXACT_INT))


def _text_labels(name: str, array) -> np.ndarray:
    """A label column of a CSV block, read as text, as exact ``(n,) float64`` (missing cells NaN).

    A cell is an integer within ±2**53 written in decimal digits, optionally signed, surrounded by
    spaces or ending in ``.0`` (``7``, ``-3``, `` 12 ``, ``4.0``); anything else (``1.5``, ``1e3``,
    ``inf``, ``0x10``, a number beyond 2**53) is refused, naming the row.  So a label is read as the
    integer it says, never rounded through float64 (``9007199254740993`` is refused, not read as
    ``...992``).
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    if not pc.any(pc.match_substring(array, "x", ignore_case=True)).as_py():  # pyarrow reads 0x10 as hex
        try:  # plain integers, the usual case: one cast
            return arrow_values(name, pc.cast(array, pa.int64()))
        except pa.ArrowInvalid:
            pass
    valid = pc.fill_null(pc.match_substring_regex(array, _LABEL_TEXT), True).to_numpy(zero_copy_only=False)
    if not valid.all():
        row = int(np.flatnonzero(~valid)[0])
        raise not_a_label(name, array[row].as_py(), row)
    digits = pc.replace_substring_regex(pc.utf8_trim_whitespace(array), r"^\+|\.0*$", "")
    long = pc.greater(pc.utf8_length(pc.replace_substring_regex(digits, r"^-?0*", "")), _LABEL_DIGITS)
    long = pc.fill_null(long, False).to_numpy(zero_copy_only=False)
    if long.any():  # more digits than any int64 may have: refused before the cast fails
        row = int(np.flatnonzero(long)[0])
        raise inexact(name, digits[row].as_py(), row)
    return arrow_values(name, pc.cast(digits, pa.int64()))


def batch_columns(batch, text_labels: bool = False) -> dict[str, np.ndarray]:
    """A pyarrow RecordBatch or Table as ``{name: (n,) array}`` (``text_labels``: a CSV block, see
    :func:`arrow_values`)."""
    return {name: arrow_values(name, batch.column(i), text_labels) for i, name in enumerate(batch.schema.names)}


def frame_columns(frame) -> dict[str, np.ndarray]:
    """A pandas DataFrame (a Dask partition) as ``{name: (n,) array}``, missing values as NaN or None."""
    out = {}
    for name in frame.columns:
        series = frame[name]
        if isinstance(series.dtype, np.dtype):
            out[name] = series.to_numpy()
        elif name in LABELS and str(series.dtype) == "boolean":  # not 0/1: label_floats refuses it by row
            out[name] = series.to_numpy(dtype=object)
        elif str(series.dtype).startswith(("Int", "UInt", "Float", "boolean")):  # nullable numbers
            if str(series.dtype).startswith(("Int", "UInt")):
                check_exact_integers(name, series.to_numpy(dtype=series.dtype.numpy_dtype, na_value=0))
            out[name] = series.to_numpy(dtype=np.float64, na_value=np.nan)
        else:  # text and other extension types: refused row by row by as_float64
            out[name] = series.to_numpy(dtype=object)
    return out
