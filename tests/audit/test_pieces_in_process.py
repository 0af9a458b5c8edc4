"""The Dask runner's pieces, computed in this process: each worker job and reader gives what one process gives.

``test_dask.py`` runs them on a real local cluster, in other processes; here the same delayed jobs
(:func:`explorer.audit.distributed.partitions`) run on Dask's synchronous scheduler, so every line of
:mod:`explorer.audit.tasks` and of the readers they call runs where the tests (and the mutation run)
see it.  The reference is the single-process runner on the same planted log, folded in file order
even though the pieces are handed over last first.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict

import numpy as np
import pandas as pd
import pytest

from explorer.audit.columns import LogError
from explorer.audit.deciding import Settings
from explorer.audit.distributed import partitions
from explorer.audit.progress import Progress
from explorer.audit.reading import frame_columns, inspect
from explorer.audit.run import run_single
from explorer.audit.tally import OrderedFold

from .conftest import CHUNK, FORMATS
from .planted import spoil_crc, write_log

dask = pytest.importorskip("dask")


def _plain(tally) -> str:
    """A tally as sorted JSON (arrays as lists, floats by repr), for comparing two of them whole."""
    return json.dumps(asdict(tally), sort_keys=True, default=lambda x: x.tolist() if hasattr(x, "tolist") else repr(x))


@pytest.mark.parametrize("name", FORMATS)
def test_the_pieces_fold_to_the_single_process_tally(planted_files, name):
    info = inspect(planted_files[name])
    settings = Settings(toi_tol=1e-6, worst=7)
    single, _ = run_single(info, settings, CHUNK, Progress(info.rows, enabled=False))
    pieces = dask.compute(*partitions(info, settings, CHUNK), scheduler="synchronous")
    assert len(pieces) >= 3 and sum(piece.rows for piece in pieces) == single.rows
    fold = OrderedFold(settings.worst)
    for index in reversed(range(len(pieces))):  # last first: the fold must put them back in file order
        fold.add(index, pieces[index])
    assert fold.folded == len(pieces)
    assert _plain(fold.total) == _plain(single)
    assert len(single.cases) == 7 and single.pairs > 0


def test_a_piece_with_a_wrong_checksum_names_its_own_first_row(planted, tmp_path):
    """A worker's piece counts rows from its own start (the client adds the rows before it): the last
    piece of a compressed log whose A x member has a wrong CRC-32 refuses at its row 0; the others pass."""
    path = tmp_path / "log-z.npz"
    write_log(path, planted["columns"])
    spoil_crc(path, "a_cx.npy")
    info = inspect(path)
    pieces = partitions(info, Settings(toi_tol=1e-6, worst=3), CHUNK)
    assert len(pieces) == math.ceil(info.rows / CHUNK) >= 3
    assert dask.compute(*pieces[:-1], scheduler="synchronous")[0].rows == CHUNK
    with pytest.raises(LogError) as caught:
        dask.compute(pieces[-1], scheduler="synchronous")
    assert str(caught.value) == "column 'a_cx', row 0: data unreadable (Bad CRC-32 for file 'a_cx.npy')"


def test_a_partition_s_pandas_columns_become_float64_with_missing_values_as_nan():
    frame = pd.DataFrame(
        {
            "a_cx": np.array([1.5, -2.0, 0.25]),
            "a_vx": pd.array([3, None, -4], dtype="Int64"),
            "engine_hit": pd.array([True, None, False], dtype="boolean"),
            "engine_toi": pd.array([0.5, None, 2.0], dtype="Float64"),
            "b_r": pd.array([7, 8, 9], dtype="UInt8"),
            "step": np.array([10, 11, 12], dtype=np.int64),
        }
    )
    columns = frame_columns(frame)
    nan = math.nan
    expected = {
        "a_cx": [1.5, -2.0, 0.25],
        "a_vx": [3.0, nan, -4.0],
        "engine_hit": [1.0, nan, 0.0],
        "engine_toi": [0.5, nan, 2.0],
        "b_r": [7.0, 8.0, 9.0],
        "step": [10, 11, 12],
    }
    assert list(columns) == list(expected)
    for name, values in expected.items():
        np.testing.assert_array_equal(columns[name], np.array(values), err_msg=name)
        assert columns[name].dtype == (np.int64 if name == "step" else np.float64), name


def test_a_partition_s_nullable_integer_beyond_2_53_is_refused_naming_its_row():
    frame = pd.DataFrame({"a_id": pd.array([1, None, 2**53 + 1], dtype="Int64")})
    with pytest.raises(LogError) as caught:
        frame_columns(frame)
    assert (
        str(caught.value) == "column 'a_id', row 2: integer 9007199254740993 is beyond 2**53 and has no exact float64"
    )


def test_a_partition_s_text_column_is_left_as_objects_for_the_one_rule_to_refuse():
    frame = pd.DataFrame({"a_cx": pd.array(["1.0", "x"], dtype="string")})
    values = frame_columns(frame)["a_cx"]
    assert values.dtype == object and values.tolist() == ["1.0", "x"]
