"""Columns of Python objects (what pandas and pyarrow give for mixed or text cells) read as float64, or refused.

:func:`explorer.audit.log.columns.as_float64` is the one rule every reader's columns go through; an object
column is read cell by cell: numbers and booleans of any kind as their value, the missing-value markers
as NaN (the row is then skipped), anything else refused naming the column, the row and the cell.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from explorer.audit.log.columns import LogError, as_float64


def _objects(*cells) -> np.ndarray:
    out = np.empty(len(cells), dtype=object)
    out[:] = cells
    return out


def test_numbers_of_every_kind_read_as_their_value_and_missing_ones_as_nan():
    cells = _objects(None, True, False, 3, -2.5, np.float32(1.5), np.int64(-7), np.uint8(200), Decimal("0.1"), pd.NA,
                     pd.NaT, 2**53)  # fmt: skip
    values = as_float64("a_cx", cells)
    expected = [math.nan, 1.0, 0.0, 3.0, -2.5, 1.5, -7.0, 200.0, 0.1, math.nan, math.nan, 9007199254740992.0]
    assert values.dtype == np.float64 and values.shape == (12,)
    assert [None if math.isnan(x) else x for x in values.tolist()] == [
        None if isinstance(x, float) and math.isnan(x) else x for x in expected
    ]


@pytest.mark.parametrize(
    "cell, row, words",
    [
        ("abc", 2, "expected a number, got 'abc'"),
        (b"1", 1, "expected a number, got b'1'"),
        (Fraction(1, 3), 0, "expected a number, got Fraction(1, 3)"),
        ([1.0], 3, "expected a number, got [1.0]"),
        # 40 characters are shown whole; longer ones cut to 39 and an ellipsis
        ("x" * 38, 1, "expected a number, got '" + "x" * 38 + "'"),
        ("y" * 39, 1, "expected a number, got '" + "y" * 38 + "…"),
        # integers as every reader takes them: beyond 2**53 refused, not rounded (the number cut like a cell)
        (2**53 + 1, 2, "integer 9007199254740993 is beyond 2**53 and has no exact float64"),
        (np.int64(-(2**53) - 1), 0, "integer -9007199254740993 is beyond 2**53 and has no exact float64"),
        (10**400, 2, "integer 1" + "0" * 38 + "… is beyond 2**53 and has no exact float64"),
    ],
)
def test_anything_else_is_refused_naming_the_column_the_row_and_the_cell(cell, row, words):
    cells = _objects(*([0.5] * row), cell, 1.0)
    with pytest.raises(LogError) as caught:
        as_float64("b_vy", cells)
    assert (caught.value.column, caught.value.row, caught.value.reason) == ("b_vy", row, words)
    assert str(caught.value) == f"column 'b_vy', row {row}: {words}"


def test_a_float64_column_is_taken_as_it_is_and_others_converted():
    """A C-contiguous float64 column is the chunk's own array (no copy of the log's biggest data); a strided
    one is made contiguous; float32, integers and booleans become float64 of the same values."""
    column = np.array([1.5, -2.0, 3.25])
    assert as_float64("a_cx", column) is column
    strided = np.arange(6.0)[::2]
    assert as_float64("a_cx", strided).flags.c_contiguous and as_float64("a_cx", strided).tolist() == [0.0, 2.0, 4.0]
    for values in (np.array([1.5, 2.0], dtype=np.float32), np.array([3, -4], dtype=np.int16),
                   np.array([7, 8], dtype=np.uint8), np.array([True, False])):  # fmt: skip
        out = as_float64("a_cx", values)
        assert out.dtype == np.float64 and out.tolist() == values.astype(float).tolist()
