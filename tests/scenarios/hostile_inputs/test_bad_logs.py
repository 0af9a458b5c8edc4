"""Bad logs: one line naming the column or the row, exit 2, no traceback, no output folder.

Also what is merely skipped (NaN or out-of-range values, an empty engine_hit)
and counted, and the output folder's rules: it appears only when complete,
never through a symbolic link, and nothing is left behind on failure.
"""

from __future__ import annotations

import json
import math

import numpy as np
import planted as planted_logs
import pytest
from audit_logs import read_summary

from explorer.audit import run as audit_run
from explorer.audit.constants import TOI_TOL
from explorer.audit.decision.deciding import Settings, audit_chunk
from explorer.audit.log.columns import GEOMETRY, LogError, as_float64
from explorer.audit.log.reading import inspect
from explorer.audit.report.staging import OutputError
from explorer.cli import main


def _columns(n: int = 3000, seed: int = 3) -> dict:
    rng = np.random.default_rng(seed)
    rows = planted_logs.generic_rows(rng, n)
    table = np.array(rows)
    columns = {name: np.ascontiguousarray(table[:, k]) for k, name in enumerate(GEOMETRY)}
    columns["engine_hit"] = np.zeros(n)
    columns["engine_toi"] = np.full(n, np.nan)
    return columns


def _refused(capsys, tmp_path, log, *extra) -> str:
    """Run the command on ``log``; check the refusal's form; return the message after the program name."""
    out = tmp_path / "out"
    code = main(["audit", str(log), "-o", str(out), "--chunk-rows", "1000", *extra])
    captured = capsys.readouterr()
    assert code == 2, captured
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err
    assert captured.out == ""
    assert lines[0].startswith("sphere-explorer audit: ")
    assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.")], "a staging folder was left behind"
    return lines[0][len("sphere-explorer audit: ") :]


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".npz"])
def test_missing_columns_are_named(suffix, capsys, tmp_path):
    columns = _columns()
    del columns["a_r"], columns["b_vz"]
    log = tmp_path / f"log{suffix}"
    planted_logs.write_log(log, columns)
    message = _refused(capsys, tmp_path, log)
    assert message.startswith(f"log{suffix}: missing columns 'a_r', 'b_vz' (a log needs a_cx a_cy"), message


def test_text_in_a_csv_column_names_the_column_and_line(capsys, tmp_path):
    columns = _columns()
    text = planted_logs.csv_text(columns).splitlines()
    cells = text[2345].split(",")
    cells[1] = "12.5abc"
    text[2345] = ",".join(cells)
    (tmp_path / "log.csv").write_text("\n".join(text) + "\n")
    assert (
        _refused(capsys, tmp_path, tmp_path / "log.csv")
        == "log.csv: column 'a_cy', line 2346: expected a number, got '12.5abc'"
    )


def test_a_bad_engine_hit_in_a_csv(capsys, tmp_path):
    columns = _columns()
    text = planted_logs.csv_text(columns).splitlines()
    cells = text[1700].split(",")
    cells[GEOMETRY.index("b_r") + 1] = "yes"
    text[1700] = ",".join(cells)
    (tmp_path / "log.csv").write_text("\n".join(text) + "\n")
    message = _refused(capsys, tmp_path, tmp_path / "log.csv")
    assert message == "log.csv: column 'engine_hit', line 1701: expected true/false or 1/0, got 'yes'"


def test_text_in_parquet_and_npz_names_the_column_and_row(capsys, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    columns = _columns()
    data = {name: pa.array(values) for name, values in columns.items()}
    text = [repr(x) for x in columns["b_cz"]]
    text[2500] = "n/a"
    data["b_cz"] = pa.array(text)
    pq.write_table(pa.table(data), tmp_path / "log.parquet", row_group_size=1000)
    message = _refused(capsys, tmp_path, tmp_path / "log.parquet")
    assert message == f"log.parquet: column 'b_cz', row 0: expected a number, got {text[0]!r}", message
    np.savez(tmp_path / "log.npz", **{**columns, "a_vy": np.array(text)})
    message = _refused(capsys, tmp_path, tmp_path / "log.npz")
    assert (
        message == f"log.npz: column 'a_vy', row 0: expected a number, got {text[0]!r} (<U{max(map(len, text))} values)"
    )


def test_one_missing_column_is_named_in_the_singular(capsys, tmp_path):
    columns = _columns()
    del columns["b_cy"]
    planted_logs.write_log(tmp_path / "log.npz", columns)
    message = _refused(capsys, tmp_path, tmp_path / "log.npz")
    assert message == f"log.npz: missing column 'b_cy' (a log needs {' '.join(GEOMETRY)})"


@pytest.mark.parametrize("suffix", [".parquet", ".npz"])
def test_an_engine_hit_that_is_not_0_or_1_is_named_with_its_row(suffix, capsys, tmp_path):
    """Row 2345 is in the third chunk of 1000 rows: the row is counted from the start of the log."""
    columns = _columns()
    columns["engine_hit"][2345] = 2.0
    log = tmp_path / f"log{suffix}"
    planted_logs.write_log(log, columns, row_group_size=1000)
    message = _refused(capsys, tmp_path, log)
    assert message == f"log{suffix}: column 'engine_hit', row 2345: expected true/false or 1/0, got 2.0"


def test_an_empty_column_of_text_is_named():
    """A log of no rows gives no chunks; a caller converting an empty column of text is told its type."""
    with pytest.raises(LogError) as err:
        as_float64("b_vx", np.array([], dtype="<U3"))
    assert str(err.value) == "column 'b_vx': expected numbers, got an empty array of <U3"


def test_a_chunk_s_columns_of_different_lengths_are_refused_by_the_decision():
    """The readers never give such a chunk (an .npz log's arrays are checked first); a caller of the per-chunk
    job that does is told the lengths."""
    columns = {name: values[:3] for name, values in _columns().items()}
    columns["b_r"] = columns["b_r"][:2]
    with pytest.raises(LogError) as err:
        audit_chunk(columns, Settings(TOI_TOL, 5, None))
    sizes = ", ".join(f"{name} {2 if name == 'b_r' else 3}" for name in columns)
    assert str(err.value) == f"columns of different lengths ({sizes})"


def test_pickled_objects_are_never_loaded(capsys, tmp_path):
    columns = _columns()
    np.savez(tmp_path / "log.npz", **{**columns, "a_cx": columns["a_cx"].astype(object)})
    message = _refused(capsys, tmp_path, tmp_path / "log.npz")
    assert message == "log.npz: column 'a_cx': an array of Python objects (pickles are never loaded)", message


def test_arrays_of_different_lengths(capsys, tmp_path):
    columns = _columns()
    columns["b_r"] = columns["b_r"][:-1]
    np.savez(tmp_path / "log.npz", **columns)
    message = _refused(capsys, tmp_path, tmp_path / "log.npz")
    assert message.startswith("log.npz: arrays of different lengths (a_cx 3000, "), message
    assert "b_r 2999" in message


def _truncate(path, keep: float) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])


@pytest.mark.parametrize(
    "suffix, expected",
    [
        (".parquet", "log.parquet: not a readable Parquet file, or a truncated one"),
        (".npz", "log.npz: not a complete .npz file (truncated?)"),
        ("-z.npz", "log-z.npz: not a complete .npz file (truncated?)"),
    ],
)
def test_truncated_binary_logs(suffix, expected, capsys, tmp_path):
    log = tmp_path / f"log{suffix}"
    planted_logs.write_log(log, _columns(), row_group_size=1000)
    _truncate(log, 0.6)
    assert _refused(capsys, tmp_path, log).startswith(expected)


def test_a_truncated_csv_names_the_last_line(capsys, tmp_path):
    log = tmp_path / "log.csv"
    planted_logs.write_csv(log, _columns())
    text = log.read_text()
    cut = text.rstrip("\n").rfind("\n") + 40  # the last line, cut after 39 characters
    log.write_text(text[:cut])
    message = _refused(capsys, tmp_path, log)
    assert message.startswith("log.csv: line 3001: ")
    assert "fields where the header has 16" in message and "(a truncated or malformed line)" in message


@pytest.mark.parametrize(
    "name, content, expected",
    [
        ("missing.csv", None, "missing.csv: no such file"),
        ("empty.csv", b"", "not a readable CSV file with a header row"),
        ("noise.bin", bytes(range(256)) * 8, "noise.bin: not a readable CSV file with a header row ("),
        ("fake.parquet", b"PAR1" + b"\0" * 100, "not a readable Parquet file"),
        ("fake.npz", b"PK\x03\x04" + b"\0" * 100, "not a complete .npz file"),
    ],
)
def test_files_that_are_not_logs(name, content, expected, capsys, tmp_path):
    log = tmp_path / name
    if content is not None:
        log.write_bytes(content)
    message = _refused(capsys, tmp_path, log)
    assert expected in message
    assert message.isprintable()


def test_a_damaged_parquet_file_is_refused_with_pyarrow_s_words(tmp_path):
    (tmp_path / "fake.parquet").write_bytes(b"PAR1" + b"\0" * 100)
    with pytest.raises(LogError) as err:
        inspect(tmp_path / "fake.parquet")
    assert str(err.value).startswith("not a readable Parquet file, or a truncated one (Parquet magic bytes not found")


@pytest.mark.parametrize("written, named, fmt", [("log.parquet", "log.data", "parquet"), ("log.npz", "log.bin", "npz"),
                                                 ("log.csv", "log", "csv")])  # fmt: skip
def test_a_log_without_a_known_suffix_is_known_by_its_first_bytes(tmp_path, written, named, fmt):
    planted_logs.write_log(tmp_path / written, _columns(50))
    (tmp_path / written).rename(tmp_path / named)
    info = inspect(tmp_path / named)
    assert (info.format, info.rows if fmt != "csv" else 50) == (fmt, 50)
    assert audit_run.audit(tmp_path / named, tmp_path / "out")["rows"] == 50


def test_a_known_suffix_decides_the_format_whatever_the_bytes(tmp_path):
    """Parquet bytes in a file named .csv (any case) are read as CSV, and refused as CSV."""
    planted_logs.write_log(tmp_path / "log.parquet", _columns(50))
    for name in ("log.csv", "LOG.CSV"):
        (tmp_path / name).write_bytes((tmp_path / "log.parquet").read_bytes())
        with pytest.raises(LogError) as err:
            inspect(tmp_path / name)
        assert str(err.value).startswith("not a readable CSV file with a header row"), str(err.value)


def test_a_log_that_cannot_be_read_is_refused_with_the_system_s_words(tmp_path, monkeypatch):
    from explorer.audit.log import reading

    def failing(path):
        raise OSError(5, "Input/output error")

    planted_logs.write_log(tmp_path / "log.npz", _columns(10))
    monkeypatch.setattr(reading, "_format", failing)
    with pytest.raises(LogError) as err:
        inspect(tmp_path / "log.npz")
    assert str(err.value) == "cannot read ([Errno 5] Input/output error)"


def test_parquet_and_csv_need_pyarrow_and_npz_does_not(tmp_path, monkeypatch):
    """pyarrow made missing: a Parquet or CSV log is refused naming what needs it; an .npz log is read."""
    from explorer.audit.log import reading
    from explorer.audit.needs import ARROW, MissingPackage

    def require(need, what=None):
        if need is ARROW:
            raise MissingPackage(f"{what} needs pyarrow")

    monkeypatch.setattr(reading, "require", require)
    for name, words in (("log.parquet", "reading Parquet needs pyarrow"), ("log.csv", "reading CSV needs pyarrow")):
        planted_logs.write_log(tmp_path / name, _columns(10))
        with pytest.raises(MissingPackage) as err:
            inspect(tmp_path / name)
        assert str(err.value) == words
    planted_logs.write_log(tmp_path / "log.npz", _columns(10))
    assert inspect(tmp_path / "log.npz").rows == 10


def test_a_column_twice_in_the_header_is_named(capsys, tmp_path):
    columns = _columns(20)
    text = planted_logs.csv_text(columns).splitlines()
    text[0] = text[0] + ",a_cx"
    text[1:] = [line + ",0" for line in text[1:]]
    (tmp_path / "log.csv").write_text("\n".join(text) + "\n")
    assert _refused(capsys, tmp_path, tmp_path / "log.csv") == "log.csv: column 'a_cx': appears more than once"


def test_a_column_of_two_dimensions_or_of_integers_beyond_2_53_is_named():
    with pytest.raises(LogError) as err:
        as_float64("b_vy", np.zeros((3, 2)))
    assert str(err.value) == "column 'b_vy': expected one value per row, got an array of shape (3, 2)"
    with pytest.raises(LogError) as err:
        as_float64("a_cz", np.array([0, 2**53 + 1], dtype=np.int64))
    assert str(err.value).startswith("column 'a_cz', row 1: ")


@pytest.mark.parametrize("rows", [0, 30])
def test_a_log_with_engine_times_and_nothing_decided_counts_no_time_errors(tmp_path, rows):
    """No rows at all, or every radius 0 (outside the accepted range): no pair is decided, but the log has
    engine_toi, so the time counts are 0, not absent."""
    columns = _columns(30)
    columns = {name: values[:rows] for name, values in columns.items()}
    columns["a_r"] = np.zeros(rows)
    planted_logs.write_log(tmp_path / "log.npz", columns)
    summary = audit_run.audit(tmp_path / "log.npz", tmp_path / "out")
    assert (summary["pairs"], summary["skipped_rows"]) == (0, rows)
    engine = summary["answers"]["engine"]
    assert (engine["toi_errors"], engine["toi_missing"], engine["toi_compared"]) == (0, 0, 0)


def test_a_folder_is_not_a_log(capsys, tmp_path):
    (tmp_path / "logs").mkdir()
    assert _refused(capsys, tmp_path, tmp_path / "logs") == "logs: not a file"


def test_skipped_rows_are_counted_and_named(tmp_path, capsys):
    columns = _columns()
    columns["a_cx"][10] = np.nan
    columns["a_vz"][20] = 1e-200  # below the smallest non-zero velocity component
    columns["b_r"][30] = 0.0
    columns["b_cy"][40] = 2e12  # beyond the coordinate range
    columns["engine_hit"][50] = np.nan  # the engine's verdict is missing
    columns["horizon"] = np.ones(3000)
    columns["horizon"][60] = -1.0
    log = tmp_path / "log.parquet"
    planted_logs.write_log(log, columns)
    code = main(["audit", str(log), "-o", str(tmp_path / "out"), "-q"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert captured.out.splitlines() == [captured.out.splitlines()[0], str(tmp_path / "out")]
    assert "6 rows skipped" in captured.out
    summary = read_summary(tmp_path / "out")
    assert summary["rows"] == 3000 and summary["pairs"] == 2994 and summary["skipped_rows"] == 6
    assert summary["skipped_by_column"] == {"a_cx": 1, "a_vz": 1, "b_cy": 1, "b_r": 1, "engine_hit": 1, "horizon": 1}
    examples = {s["row"]: (s["column"], s["reason"]) for s in summary["skipped_examples"]}
    assert examples == {
        10: ("a_cx", "must be within ±1e+12, got nan"),
        20: ("a_vz", "must be 0 or of magnitude in [1e-100, 1e+12], got 1e-200"),
        30: ("b_r", "must be in [1e-12, 1e+12], got 0.0"),
        40: ("b_cy", "must be within ±1e+12, got 2000000000000.0"),
        50: ("engine_hit", "empty: the engine's verdict is missing"),
        60: ("horizon", "must be in (0, 1e+06], got -1.0"),
    }


def test_a_log_with_no_rows(tmp_path, capsys):
    columns = {name: values[:0] for name, values in _columns().items()}
    planted_logs.write_log(tmp_path / "log.csv", columns)
    assert main(["audit", str(tmp_path / "log.csv"), "-o", str(tmp_path / "out")]) == 0
    summary = read_summary(tmp_path / "out")
    assert (summary["rows"], summary["pairs"], summary["engine_false_hits"], summary["worst"]) == (0, 0, 0, [])


# -- the output folder -------------------------------------------------------------------------


@pytest.fixture
def small_log(tmp_path):
    log = tmp_path / "log.npz"
    planted_logs.write_log(log, _columns())
    return log


def _true_hits(columns: dict) -> int:
    """Pairs that touch within their horizon (1), decided in rationals by planted.exact."""
    rows = zip(*(columns[name] for name in GEOMETRY))
    return sum(planted_logs.exact([*row, 1.0])[0] for row in rows)


def test_an_empty_folder_is_filled(small_log, tmp_path):
    (tmp_path / "out").mkdir()
    assert main(["audit", str(small_log), "-o", str(tmp_path / "out"), "-q"]) == 0
    summary = read_summary(tmp_path / "out")
    hits = _true_hits(_columns())  # the engine said "no hit" on every row: each true hit is a false miss
    assert (summary["pairs"], summary["hits"], summary["engine_false_misses"]) == (3000, hits, hits)
    assert summary["engine_false_hits"] == 0 and hits > 100


def test_a_failure_while_writing_leaves_nothing(small_log, tmp_path, monkeypatch):
    import explorer.audit.report.plot as plot

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(plot, "write_plot", broken)
    with pytest.raises(OutputError, match=r"^-o: .*/out: cannot write \(No space left on device\)$"):
        audit_run.audit(small_log, tmp_path / "out")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.npz"]


def test_an_interruption_leaves_nothing(small_log, tmp_path, monkeypatch, capsys):
    calls = []

    def interrupted(raw, settings):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return original(raw, settings)

    original = audit_run.audit_chunk
    monkeypatch.setattr(audit_run, "audit_chunk", interrupted)
    assert main(["audit", str(small_log), "-o", str(tmp_path / "out"), "--chunk-rows", "1000"]) == 130
    assert "nothing was written" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.npz"]


@pytest.mark.parametrize(
    "args, expected",
    [
        (["--toi-tol", "-1"], "--toi-tol"),
        (["--toi-tol", "nan"], "--toi-tol"),
        (["--worst", "5000"], "--worst"),
        (["--chunk-rows", "10"], "--chunk-rows"),
        (["--workers", "0"], "--workers"),
        (["--workers", "2", "--dask", "tcp://127.0.0.1:8786"], "not allowed with"),
    ],
)
def test_bad_arguments(args, expected, small_log, capsys, tmp_path):
    assert main(["audit", str(small_log), "-o", str(tmp_path / "out"), *args]) == 2
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_the_summary_is_strict_json(small_log, tmp_path):
    audit_run.audit(small_log, tmp_path / "out")
    text = (tmp_path / "out" / "summary.json").read_text()
    json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} in summary.json"))
    summary = json.loads(text)
    for key in ("pairs", "hits", "engine_false_hits", "engine_false_misses", "engine_toi_errors", "skipped_rows"):
        assert isinstance(summary[key], int) and not isinstance(summary[key], bool), key
    assert math.isclose(summary["toi_tol"], 1e-6)
    hits = _true_hits(_columns())
    assert summary["hits"] == hits == summary["engine_false_misses"]
    assert (summary["engine_false_hits"], summary["engine_toi_errors"], summary["skipped_rows"]) == (0, 0, 0)
    assert sum(summary["status_counts"].values()) == 3000
