"""Labels (``step``, ``a_id``, ``b_id``) are kept exactly or refused naming the column and row, alike in every format.

Issue 36: ``a_id = -1e31`` or ``1e300`` in a CSV (or a Parquet ``decimal128`` of
10**37) reached a scene's name check (exit 1, "unexpected error at
scene.py:447"), in one process and under Dask; a CSV read labels as float64, so
``9007199254740993`` became "body 9007199254740992" where Parquet and ``.npz``
refused it; 1.5, -2.25, ``inf`` and booleans passed as integer labels.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest
from audit_logs import read_summary

from explorer.audit.log.columns import GEOMETRY
from explorer.cli import main

EXACT = 2**53
#: Three pairs, each a hit (B crossing A's path, apart again at t = 1) that the engine calls a miss: three cases.
ROWS = 3
GEOMETRY_ROW = dict(a_cx=0.0, a_cy=0.0, a_cz=0.0, a_vx=4.0, a_vy=0.0, a_vz=0.0, a_r=1.0,
                    b_cx=3.0, b_cy=0.0, b_cz=0.0, b_vx=0.0, b_vy=2.0, b_vz=0.0, b_r=1.0)  # fmt: skip
WORDS = "expected an integer within ±2**53 (a step or body id), got"


def _columns() -> dict[str, np.ndarray]:
    columns = {name: np.full(ROWS, GEOMETRY_ROW[name]) for name in GEOMETRY}
    columns["engine_hit"] = np.zeros(ROWS)
    return columns


def csv_log(path: Path, cells: list[str]) -> Path:
    """A CSV log whose ``a_id`` cells are ``cells`` as written (one per row)."""
    columns = _columns()
    lines = [",".join([*columns, "a_id"])]
    for i in range(ROWS):
        lines.append(",".join([*(repr(float(columns[name][i])) for name in columns), cells[i]]))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def parquet_log(path: Path, array) -> Path:
    """A Parquet log whose ``a_id`` column is the pyarrow array ``array``, or a pandas array (written by
    pandas, whose metadata gives the column its pandas type back when read)."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    if isinstance(array, pd.api.extensions.ExtensionArray):
        pd.DataFrame({**_columns(), "a_id": array}).to_parquet(path)
        return path
    columns = {name: pa.array(values) for name, values in _columns().items()}
    pq.write_table(pa.table({**columns, "a_id": array}), path)
    return path


def npz_log(path: Path, values: np.ndarray) -> Path:
    """An ``.npz`` log whose ``a_id`` array is ``values``."""
    np.savez(path, **_columns(), a_id=values)
    return path


def _audit(capsys, log: Path, out: Path, *extra: str) -> tuple[int, list[str]]:
    code = main(["audit", str(log), "-o", str(out), *extra])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.err.strip().splitlines()


def _refusal(capsys, log: Path, tmp_path: Path, *extra: str) -> str:
    """The one line of a refused audit (exit 2, no folder), after the command's and the log's names."""
    code, lines = _audit(capsys, log, tmp_path / "out", *extra)
    assert code == 2 and len(lines) == 1, lines
    assert not (tmp_path / "out").exists()
    prefix = f"sphere-explorer audit: {log.name}: "
    assert lines[0].startswith(prefix), lines
    return lines[0][len(prefix) :]


def _labels_kept(capsys, log: Path, out: Path) -> list:
    """The ``a_id`` of each case in ``summary.json``, checked against its scene file's name for A."""
    code, lines = _audit(capsys, log, out)
    assert code == 0 and lines == [], lines
    worst = read_summary(out)["worst"]
    for case in worst:
        scene = json.loads((out / case["file"]).read_text(encoding="utf-8"))
        shown = "A" if case["a_id"] is None else f"A (body {case['a_id']})"
        assert scene["bodies"][0]["name"] == shown
    return sorted((case["row"], case["a_id"]) for case in worst)


# -- refused, naming the column and the row -----------------------------------------------------------


def _decimal(value: int):
    import pyarrow as pa

    return pa.array([Decimal(5), Decimal(value), Decimal(6)], pa.decimal128(38, 0))


def _typed(values: list, kind: str):
    import pyarrow as pa

    return pa.array(values, getattr(pa, kind)())


REFUSED = {
    # log: (writer, value as written, what the line says after WORDS, or the whole message)
    "csv -1e31": (csv_log, ["5", "-1e31", "6"], f"{WORDS} '-1e31'"),
    "csv 1e300": (csv_log, ["5", "1e300", "6"], f"{WORDS} '1e300'"),
    "csv 1.5": (csv_log, ["5", "1.5", "6"], f"{WORDS} '1.5'"),
    "csv -2.25": (csv_log, ["5", "-2.25", "6"], f"{WORDS} '-2.25'"),
    "csv inf": (csv_log, ["5", "inf", "6"], f"{WORDS} 'inf'"),
    "csv true": (csv_log, ["5", "true", "6"], f"{WORDS} 'true'"),
    "csv hex": (csv_log, ["5", "0x10", "6"], f"{WORDS} '0x10'"),
    "parquet float -1e31": (parquet_log, _typed([5.0, -1e31, 6.0], "float64"), f"{WORDS} -1e+31"),
    "parquet float 1e300": (parquet_log, _typed([5.0, 1e300, 6.0], "float64"), f"{WORDS} 1e+300"),
    "parquet float 1.5": (parquet_log, _typed([5.0, 1.5, 6.0], "float64"), f"{WORDS} 1.5"),
    "parquet float -2.25": (parquet_log, _typed([5.0, -2.25, 6.0], "float64"), f"{WORDS} -2.25"),
    "parquet float inf": (parquet_log, _typed([5.0, float("inf"), 6.0], "float64"), f"{WORDS} inf"),
    "parquet bool": (parquet_log, _typed([None, True, False], "bool_"), f"{WORDS} True"),
    "parquet decimal 10**37": (parquet_log, _decimal(10**37), f"{WORDS} {repr(Decimal(10**37))[:39]}…"),
    "npz float -1e31": (npz_log, np.array([5.0, -1e31, 6.0]), f"{WORDS} -1e+31"),
    "npz float 1.5": (npz_log, np.array([5.0, 1.5, 6.0]), f"{WORDS} 1.5"),
    "npz float inf": (npz_log, np.array([5.0, np.inf, 6.0]), f"{WORDS} inf"),
    "npz bool": (npz_log, np.array([False, True, False]), f"{WORDS} False"),
}
SUFFIX = {csv_log: ".csv", parquet_log: ".parquet", npz_log: ".npz"}


@pytest.mark.parametrize("case", list(REFUSED))
def test_a_label_that_is_not_an_exact_integer_is_refused_naming_column_and_row(case, capsys, tmp_path):
    write, values, words = REFUSED[case]
    log = write(tmp_path / f"log{SUFFIX[write]}", values)
    row = 0 if case == "npz bool" else 1  # a boolean column is refused at its first value
    assert _refusal(capsys, log, tmp_path) == f"column 'a_id', row {row}: {words}"


BEYOND = "column 'a_id', row 1: integer 9007199254740993 is beyond 2**53 and has no exact float64"


@pytest.mark.parametrize(
    "write, values",
    [
        (csv_log, ["5", str(EXACT + 1), "6"]),  # before: read as float64, "body 9007199254740992"
        (csv_log, ["5", f"{EXACT + 1}.0", "6"]),
        (parquet_log, [5, EXACT + 1, 6]),
        (npz_log, np.array([5, EXACT + 1, 6])),
    ],
    ids=["csv", "csv .0", "parquet int64", "npz int64"],
)
def test_one_past_2_53_is_refused_alike_in_every_format(write, values, capsys, tmp_path):
    if write is parquet_log:
        values = _typed(values, "int64")
    log = write(tmp_path / f"log{SUFFIX[write]}", values)
    assert _refusal(capsys, log, tmp_path) == BEYOND


# -- kept exactly, the same in every format ---------------------------------------------------------


@pytest.mark.parametrize(
    "write, values",
    [
        (csv_log, [str(-EXACT), str(EXACT), ""]),
        (csv_log, [f"{-EXACT}.0", f" +{EXACT} ", "NaN"]),  # pandas' whole floats, spaces, a sign, a missing cell
        (parquet_log, [-EXACT, EXACT, None]),
        (parquet_log, "decimal"),
        (parquet_log, "float"),
        (npz_log, np.array([-EXACT, EXACT, 0])),
    ],
    ids=["csv", "csv written otherwise", "parquet int64", "parquet decimal", "parquet float64", "npz int64"],
)
def test_labels_at_2_53_are_kept_exactly_in_every_format(write, values, capsys, tmp_path):
    import pyarrow as pa

    if isinstance(values, str) and values == "decimal":
        values = pa.array([Decimal(-EXACT), Decimal(EXACT), None], pa.decimal128(38, 0))
    elif isinstance(values, str):
        values = pa.array([float(-EXACT), float(EXACT), None], pa.float64())
    elif write is parquet_log:
        values = pa.array(values, pa.int64())
    log = write(tmp_path / f"log{SUFFIX[write]}", values)
    kept = _labels_kept(capsys, log, tmp_path / "out")
    last = 0 if write is npz_log else None  # .npz has no missing integers
    assert kept == [(0, -EXACT), (1, EXACT), (2, last)]


# -- under Dask: the same answers -------------------------------------------------------------------


def test_dask_refuses_and_keeps_labels_as_one_process_does(cluster, capsys, tmp_path):
    import pandas as pd
    import pyarrow as pa

    logs = {
        "csv -1e31": csv_log(tmp_path / "a.csv", ["5", "-1e31", "6"]),
        "csv 2**53 + 1": csv_log(tmp_path / "b.csv", ["5", str(EXACT + 1), "6"]),
        "parquet decimal 10**37": parquet_log(tmp_path / "c.parquet", _decimal(10**37)),
        "parquet bool": parquet_log(tmp_path / "d.parquet", _typed([None, True, False], "bool_")),
        "pandas boolean": parquet_log(tmp_path / "g.parquet", pd.array([None, True, False], dtype="boolean")),
        "npz 1.5": npz_log(tmp_path / "e.npz", np.array([5.0, 1.5, 6.0])),
    }
    for name, log in logs.items():
        alone = _refusal(capsys, log, tmp_path)
        spread = _refusal(capsys, log, tmp_path, "--dask", cluster.scheduler_address)
        assert alone == spread, name
        assert alone.startswith("column 'a_id', row 1: "), name
    kept = parquet_log(tmp_path / "f.parquet", pa.array([-EXACT, EXACT, None], pa.int64()))
    code, lines = _audit(capsys, kept, tmp_path / "spread", "--dask", cluster.scheduler_address)
    assert code == 0, lines
    assert sorted((c["row"], c["a_id"]) for c in read_summary(tmp_path / "spread")["worst"]) == [
        (0, -EXACT), (1, EXACT), (2, None),
    ]  # fmt: skip
