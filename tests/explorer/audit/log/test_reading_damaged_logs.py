"""Reading logs whose insides are damaged: .npz members shorter than they claim or corrupt, CSV blocks a
Dask worker parses; each refused in one line naming the column (and the row or line)."""

from __future__ import annotations

import io
import zipfile

import numpy as np
import pytest
from planted import spoil_crc, write_packed

from explorer.audit.log.columns import GEOMETRY, LogError
from explorer.audit.log.csv_reader import read_csv_block
from explorer.audit.log.info import printable
from explorer.audit.run import audit


def npy_bytes(values: np.ndarray, claimed: int) -> bytes:
    """An .npy member whose header says ``claimed`` float64 values, followed by ``values``."""
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, {"descr": "<f8", "fortran_order": False, "shape": (claimed,)})
    buffer.write(values.astype("<f8").tobytes())
    return buffer.getvalue()


def npz(path, short: str | None = None, compression=zipfile.ZIP_STORED, n: int = 10) -> None:
    """A pair log of ``n`` rows (A near the origin, B about 5 away, radius 1); member ``short`` holds half.

    A's x is random, so that its member compresses to more than a few hundred bytes."""
    columns = {name: np.full(n, 1.0) for name in GEOMETRY}
    columns.update(a_cx=np.random.default_rng(3).uniform(-1, 1, n), b_cx=np.full(n, 5.0), a_vx=np.zeros(n))
    with zipfile.ZipFile(path, "w", compression) as archive:
        for name, values in columns.items():
            archive.writestr(name + ".npy", npy_bytes(values[: n // 2] if name == short else values, n))


@pytest.mark.parametrize("compression", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])
@pytest.mark.parametrize("short", ["a_cx", "b_r"])  # the first member, and the last (followed by the directory)
def test_a_member_shorter_than_its_header_is_refused_before_reading(tmp_path, compression, short):
    path = tmp_path / "log.npz"
    npz(path, short, compression)
    with pytest.raises(LogError) as info:
        audit(path, tmp_path / "out")
    assert str(info.value) == f"column '{short}': the array ends early: 10 values declared, 5 stored (truncated file?)"
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("where", [200, 9000])  # the start of A's x member's compressed data, and its middle
def test_a_corrupt_compressed_member_is_refused_in_one_line(tmp_path, where):
    path = tmp_path / "log.npz"
    npz(path, None, zipfile.ZIP_DEFLATED, n=4000)
    assert audit(path, tmp_path / "ok")["pairs"] == 4000
    raw = bytearray(path.read_bytes())
    for k in range(where, where + 60):
        raw[k] ^= 0xFF
    path.write_bytes(bytes(raw))
    with pytest.raises(LogError) as info:
        audit(path, tmp_path / "out")
    message = str(info.value)
    assert message.startswith("column 'a_cx'") and "\n" not in message
    assert "not a readable array (" in message or "data unreadable (" in message
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("member", ["a_cx", "b_r"])
def test_a_wrong_checksum_names_the_first_row_of_the_chunk_that_met_it(tmp_path, member):
    """40,000 rows read 5,000 at a time: zipfile checks a member's CRC-32 with its last bytes, so in the
    chunk of rows 35,000 to 39,999 (counting that chunk's start twice named row 70,000, beyond the log)."""
    path = tmp_path / "log.npz"
    npz(path, None, zipfile.ZIP_DEFLATED, n=40_000)
    spoil_crc(path, member + ".npy")
    with pytest.raises(LogError) as info:
        audit(path, tmp_path / "out", chunk_rows=5_000)
    assert str(info.value) == f"column '{member}', row 35000: data unreadable (Bad CRC-32 for file '{member}.npy')"
    assert not (tmp_path / "out").exists()


HEADER = tuple(GEOMETRY)
ROW = ",".join(["0", "0", "0", "1", "0", "0", "1", "5", "0", "0", "0", "0", "0", "1"])


def test_a_csv_block_is_parsed_as_the_whole_file_is(tmp_path):
    first = (",".join(HEADER) + "\n" + ROW + "\n" + ROW + "\n").encode()
    columns = read_csv_block(str(tmp_path / "log.csv"), first, HEADER, HEADER, True)
    assert columns["b_cx"].tolist() == [5.0, 5.0] and columns["a_vx"].tolist() == [1.0, 1.0]
    later = (ROW + "\n").encode()
    assert read_csv_block(str(tmp_path / "log.csv"), later, HEADER, HEADER, False)["a_r"].tolist() == [1.0]


def test_a_csv_block_with_a_bad_value_names_the_column_and_the_files_line(tmp_path):
    path = tmp_path / "log.csv"
    bad = ROW.replace(",5,", ",five,")
    path.write_text(",".join(HEADER) + "\n" + ROW + "\n" + bad + "\n", encoding="ascii")
    with pytest.raises(LogError) as info:
        read_csv_block(str(path), (bad + "\n").encode(), HEADER, HEADER, False)
    assert str(info.value) == "column 'b_cx', line 3: expected a number, got 'five'"


def test_a_csv_block_with_a_short_line_names_the_files_line(tmp_path):
    path = tmp_path / "log.csv"
    short = ",".join(ROW.split(",")[:5])
    path.write_text(",".join(HEADER) + "\n" + ROW + "\n" + short + "\n", encoding="ascii")
    with pytest.raises(LogError) as info:
        read_csv_block(str(path), (short + "\n").encode(), HEADER, HEADER, False)
    assert str(info.value) == (f"line 3: 5 fields where the header has 14: {short!r} (a truncated or malformed line)")


def test_a_quoted_text_is_cut_only_beyond_its_limit():
    assert printable("x" * 160) == "x" * 160
    assert printable("x" * 161) == "x" * 159 + "…"
    assert printable("a\tb\n\x00c", limit=4) == "a b…" and printable("a\tb\n\x00c") == "a b ?c"


def test_a_bad_value_in_a_workers_csv_block_names_the_files_line(tmp_path):
    """The Dask worker's job passes the file's path on, so the refusal can name the line in the file."""
    from explorer.audit.decision.deciding import Settings
    from explorer.audit.runners.tasks import audit_csv_block

    path = tmp_path / "log.csv"
    bad = ROW.replace(",5,", ",five,")
    path.write_text(",".join(HEADER) + "\n" + ROW + "\n" + bad + "\n", encoding="ascii")
    with pytest.raises(LogError) as info:
        audit_csv_block(str(path), (bad + "\n").encode(), HEADER, HEADER, False, Settings())
    assert str(info.value) == "column 'b_cx', line 3: expected a number, got 'five'"


def test_an_unreadable_files_message_gives_the_first_line_of_the_error_or_its_kind():
    from explorer.audit.log.info import unreadable

    assert str(unreadable("not a log", OSError("  bad magic\nsecond line"))) == "not a log (bad magic)"
    assert str(unreadable("not a log", EOFError())) == "not a log (EOFError)"


# -- .npz pieces read by offset (the Dask worker's reader) ----------------------------------------


def test_a_piece_of_an_npz_log_gives_integer_and_boolean_columns_exactly(tmp_path):
    from explorer.audit.log.npz_reader import NpzLog

    n = 6
    columns = {name: np.full(n, 1.0) for name in GEOMETRY}
    columns.update(step=np.arange(n, dtype=np.int64) * 1000 + 2**40, engine_hit=np.arange(n) % 3 == 0)
    np.savez(tmp_path / "log.npz", **columns)
    with NpzLog(tmp_path / "log.npz", tuple(columns)) as log:
        piece = log.read(2, 5)
    assert piece["step"].tolist() == [2000 + 2**40, 3000 + 2**40, 4000 + 2**40]
    assert piece["engine_hit"].tolist() == [False, True, False]


def test_an_npz_log_cut_short_after_it_was_opened_is_refused_naming_the_column(tmp_path):
    """A member whose bytes are gone when a piece is read (the file truncated meanwhile): row 0 of the piece."""
    from explorer.audit.log.npz_reader import NpzLog

    path = tmp_path / "log.npz"
    npz(path, n=1000)
    last = max(zipfile.ZipFile(path).infolist(), key=lambda member: member.header_offset)
    with NpzLog(path, tuple(GEOMETRY)) as log:
        with open(path, "r+b") as handle:  # cut inside the last member's values: every other member is whole
            handle.truncate(last.header_offset + 30 + len(last.filename) + 128 + 800)
        with pytest.raises(LogError) as info:
            log.read(0, 1000)
    assert str(info.value) == f"column {last.filename[:-4]!r}, row 0: the array ends early (truncated file?)"


# -- object columns (pandas partitions, mixed values) ---------------------------------------------


def test_numpy_text_in_an_object_column_is_refused_and_numpy_booleans_are_read():
    from explorer.audit.log.columns import as_float64

    values = np.array([np.float32(1.5), np.int64(-3), np.True_, None], dtype=object)
    assert as_float64("a_cx", values).tolist()[:3] == [1.5, -3.0, 1.0]
    for text in (np.str_("2.5"), np.str_("abc")):
        with pytest.raises(LogError) as info:
            as_float64("a_cx", np.array([1.0, text], dtype=object))
        assert str(info.value).startswith("column 'a_cx', row 1: expected a number, got ")


def test_a_partitions_unsigned_integers_beyond_2_53_are_refused():
    pd = pytest.importorskip("pandas")
    from explorer.audit.log.values import frame_columns

    frame = pd.DataFrame({"b_id": pd.array([1, None, 2**53 + 1], dtype="UInt64")})
    with pytest.raises(LogError) as info:
        frame_columns(frame)
    assert str(info.value) == "column 'b_id', row 2: integer 9007199254740993 is beyond 2**53 and has no exact float64"


# -- finding a bad value's line in a CSV file (for the refusal's words) ----------------------------


@pytest.mark.parametrize(
    "lines, text, field, expected",
    [
        # the header (line 1) is never the answer, even when it holds the text
        (["a_cx,b_cx", "1,2", "a_cx,2"], "a_cx", 0, 3),
        (["five", "1", "five"], "five", None, 3),
        # the text in another field first, then in the field asked for
        (["a,b,c,d", "x,five,x,x", "x,x,x,five"], "five", 3, 3),
        # a line too short for the field, then one that has it
        (["a,b,c,d", "x,x,five", "x,x,x,five"], "five", 3, 3),
        (["a,b,c", "x,x,x", "x,x,x"], "five", 1, None),  # not there
        (["a,b", "1,2"], "", None, None),  # nothing to look for
        (["a,b", "x,five", "five"], "five", None, 3),  # a whole line equal to the text
        (["a,b", "x,five"], "five", 1, 2),  # the first line after the header
        (["a,b", "x,five", "x,five"], "five", 1, 2),  # the first of two lines that have it
        (["x", "five"], "five", None, 2),  # a whole line, the first after the header
        (["a,b", "x,5", "5,y"], "5", 0, 3),  # first at a line's end in another field
        (["a,b", "x,2X"], "2X", 1, 2),  # a value ending in a letter
        (["a,b", "x,five "], "five ", 1, 2),  # a value ending in a space
        (["", "a,b", "x,five"], "five", 1, 3),  # an empty first line counts
        (["", "\r", "five,b", "five,x"], "five", 0, 4),  # the header after empty lines is never the answer
        (["five,b"], "five", 0, None),  # a header alone
        (["", ""], "five", 0, None),  # no header
    ],
)  # fmt: skip
def test_the_line_of_a_bad_value_is_found_in_the_field_it_came_from(tmp_path, lines, text, field, expected):
    from explorer.audit.log.csv_reader import _locate_line

    for ending in ("\n", "\r\n"):
        path = tmp_path / "log.csv"
        path.write_bytes(ending.join(lines).encode() + ending.encode())
        assert _locate_line(path, text, field) == expected, ending


# -- integers at float64's limit, and errors that cross to a Dask worker's client -----------------


@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
def test_integers_up_to_2_53_are_exact_and_one_more_is_refused_naming_its_row(dtype):
    from explorer.audit.log.columns import check_exact_integers

    top = 2**53
    check_exact_integers("step", np.array([0, top, 7], dtype=dtype))  # 2**53 itself is exact
    if dtype is np.int64:
        check_exact_integers("step", np.array([-top, 1], dtype=dtype))
    beyond = [top + 1] if dtype is np.uint64 else [top + 1, -top - 1]
    for value in beyond:
        with pytest.raises(LogError) as info:
            check_exact_integers("step", np.array([1, 2, value], dtype=dtype))
        assert str(info.value) == f"column 'step', row 2: integer {value} is beyond 2**53 and has no exact float64"


def test_a_log_error_survives_pickling_whole():
    """A Dask worker's refusal reaches the client pickled: reason, column, row and line all come back."""
    import pickle

    for error in (LogError("bad", "a_cx", 3), LogError("bad", "a_cx", None, 7), LogError("no column")):
        back = pickle.loads(pickle.dumps(error))
        fields = ("reason", "column", "row", "line")
        assert type(back) is LogError and str(back) == str(error)
        assert [getattr(back, name) for name in fields] == [getattr(error, name) for name in fields]


# -- finding a line in files whose lines cannot be counted, or with a stray byte --------------------


def test_a_line_with_a_stray_byte_elsewhere_is_still_found(tmp_path):
    from explorer.audit.log.csv_reader import _locate_line

    path = tmp_path / "log.csv"
    path.write_bytes(b"a,b\n\xff,five\n")
    assert _locate_line(path, "five", 1) == 2


@pytest.mark.parametrize("name", ["log.csv.gz", "LOG.CSV.GZ", "log.csv.bz2", "log.csv.BZ2"])
def test_no_line_is_named_in_a_compressed_file(tmp_path, name):
    """Lines of a compressed file cannot be counted in its bytes: none is named (here the bytes are plain
    text, so a search would find one)."""
    from explorer.audit.log.csv_reader import _locate_line

    path = tmp_path / name
    path.write_bytes(b"a,b\nx,five\n")
    assert _locate_line(path, "five", 1) is None


# -- the CSV reader's block size: about the chunk's rows, within bounds ---------------------------


def _lines_of(tmp_path, count: int, width: int):
    """A file of ``count`` lines of ``width`` bytes each, line break included; as the reader's LogInfo sees it."""
    from types import SimpleNamespace

    path = tmp_path / "lines.csv"
    path.write_bytes((b"1" * (width - 1) + b"\n") * count)
    return SimpleNamespace(path=path)


@pytest.mark.parametrize(
    "count, width, chunk_rows, expected",
    [
        (5000, 40, 10_000, 400_000),  # 40 bytes a row (the first 64 kB end within a line), 10,000 rows
        (2, 40, 10_000, 400_000),  # a header and one row
        (3, 40, 10_000, 400_000),  # a header and two rows
        (5000, 10, 100_000, 1_600_000),  # rows under 16 bytes are counted as 16
        (5000, 40, 100, 1 << 16),  # at least 64 kB
        (5000, 40, 10**8, 1 << 29),  # at most 512 MB
    ],
)  # fmt: skip
def test_the_csv_block_holds_about_a_chunk_of_rows(tmp_path, count, width, chunk_rows, expected):
    from explorer.audit.log.csv_reader import csv_block_size

    assert csv_block_size(_lines_of(tmp_path, count, width), chunk_rows) == expected


def _even_csv(path, rows: int, extra: str = "") -> None:
    """A log whose rows all have the same length: every geometry value 1.5 (B 4 away), ``extra`` appended."""
    values = {name: "1.5" for name in GEOMETRY} | {"b_cx": "5.5"}
    lines = [",".join(GEOMETRY) + (",note" if extra else "")]
    lines += [",".join(values[name] for name in GEOMETRY) + (f",{extra}" if extra else "")] * rows
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize("name", ["log.csv", "log.csv.gz", "LOG.CSV.BZ2"])
def test_a_csv_log_is_read_in_chunks_of_about_the_rows_asked(tmp_path, name):
    """Compressed too: the block is measured in the decompressed text."""
    from explorer.audit.log.reading import chunks, inspect

    path = tmp_path / name
    _even_csv(path, 10_000)  # 56 bytes a row: 2,000 rows are 112 kB, above the 64 kB floor
    write_packed(path, path.read_bytes())
    sizes = [len(chunk["a_cx"]) for chunk in chunks(inspect(path), 2000)]
    assert sum(sizes) == 10_000 and len(sizes) >= 5
    assert all(1900 <= size <= 2100 for size in sizes[:-1]), sizes


def test_a_csv_log_s_other_columns_are_not_read(tmp_path):
    from explorer.audit.log.reading import chunks, inspect

    path = tmp_path / "log.csv"
    _even_csv(path, 20, extra="free text")
    info = inspect(path)
    (chunk,) = chunks(info, 1000)
    assert tuple(chunk) == info.columns == GEOMETRY
    np.testing.assert_array_equal(chunk["b_cx"], np.full(20, 5.5))


def test_the_engine_s_verdict_may_be_written_as_1_0_and_0_0_or_in_words(tmp_path):
    from explorer.audit.log.reading import chunks, inspect

    words = ["1.0", "0.0", "true", "FALSE", "True", "false", "1", "0", "TRUE", "False"]
    path = tmp_path / "log.csv"
    row = ",".join("1.5" for _ in GEOMETRY)
    lines = [",".join(GEOMETRY) + ",engine_hit"] + [f"{row},{word}" for word in words]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (chunk,) = chunks(inspect(path), 1000)
    np.testing.assert_array_equal(chunk["engine_hit"], [1, 0, 1, 0, 1, 0, 1, 0, 1, 0])


def test_a_malformed_line_is_refused_in_words_with_nothing_else_on_stderr(tmp_path, capfd, monkeypatch):
    """Nothing else: pyarrow calls the reader's handler of malformed rows, and prints what that raises
    ("Exception ignored in ...") through sys.unraisablehook, recorded here."""
    import sys

    from explorer.audit.log.reading import chunks, inspect

    unraisable = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)

    path = tmp_path / "log.csv"
    _even_csv(path, 30)
    text = path.read_text().splitlines()
    text[20] = "1.5,2.5," + "7" * 70  # three fields where the header has 14, and a long line
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    with pytest.raises(LogError) as caught:
        list(chunks(inspect(path), 1000))
    assert (
        str(caught.value)
        == f"line 21: 3 fields where the header has 14: {text[20][:60]!r} (a truncated or malformed line)"
    )
    assert capfd.readouterr().err == "" and unraisable == []


def test_a_long_bad_value_is_quoted_to_40_characters(tmp_path):
    from explorer.audit.log.reading import chunks, inspect

    path = tmp_path / "log.csv"
    _even_csv(path, 30)
    text = path.read_text().splitlines()
    bad = "x" * 50
    text[12] = text[12].replace("5.5", bad)
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    with pytest.raises(LogError) as caught:
        list(chunks(inspect(path), 1000))
    assert str(caught.value) == f"column 'b_cx', line 13: expected a number, got {'x' * 40!r}"


def test_any_other_csv_error_is_one_line_with_pyarrow_s_words(tmp_path):
    import pyarrow as pa

    from explorer.audit.log.csv_reader import csv_error

    err = pa.ArrowInvalid("CSV parse error: something else\nsecond line")
    refusal = csv_error(tmp_path / "log.csv", GEOMETRY, err, [])
    assert str(refusal) == "CSV file unreadable (CSV parse error: something else)"


def test_an_empty_csv_file_is_refused_with_pyarrow_s_words(tmp_path):
    from explorer.audit.log.reading import inspect

    path = tmp_path / "log.csv"
    path.write_bytes(b"")
    with pytest.raises(LogError) as caught:
        inspect(path)
    assert str(caught.value) == "not a readable CSV file with a header row (Empty CSV file)"


# -- pyarrow columns as float64 ------------------------------------------------------------------


def test_every_kind_of_numeric_arrow_column_becomes_float64_with_nulls_as_nan():
    import pyarrow as pa

    from explorer.audit.log.values import arrow_values

    nan = np.nan
    cases = {
        "null": (pa.nulls(3), [nan, nan, nan]),
        "int64": (pa.array([1, -2, 3]), [1.0, -2.0, 3.0]),
        "uint8 with a null": (pa.array([7, None], pa.uint8()), [7.0, nan]),
        "float32": (pa.array([0.5, -1.25], pa.float32()), [0.5, -1.25]),
        "float64 with a null": (pa.array([0.1, None]), [0.1, nan]),
        "bool": (pa.array([True, None, False]), [1.0, nan, 0.0]),
        "chunked int32": (pa.chunked_array([[1], [2, 3]], pa.int32()), [1.0, 2.0, 3.0]),
    }
    for label, (array, expected) in cases.items():
        values = arrow_values("a_cx", array)
        assert values.dtype == np.float64, label
        np.testing.assert_array_equal(values, expected, err_msg=label)


@pytest.mark.parametrize("null", [False, True])
def test_an_arrow_integer_beyond_2_53_is_refused_naming_column_and_row(null):
    """With a null before it too: filled for the check, not turned into a float that rounds 2**53 + 1 down."""
    import pyarrow as pa

    from explorer.audit.log.values import arrow_values

    values = [1, None, 2**53 + 1] if null else [1, 2, 2**53 + 1]
    with pytest.raises(LogError) as caught:
        arrow_values("b_id", pa.array(values, pa.int64()))
    assert (
        str(caught.value) == "column 'b_id', row 2: integer 9007199254740993 is beyond 2**53 and has no exact float64"
    )


@pytest.mark.parametrize("group_rows", [10, 1000])  # row by row group, and in batches (groups > 2 chunks)
def test_a_parquet_integer_beyond_2_53_is_refused_naming_its_column(tmp_path, group_rows):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from explorer.audit.log.reading import chunks, inspect

    data = {name: pa.array(np.full(30, 1.0)) for name in GEOMETRY}
    data["a_vy"] = pa.array([0] * 25 + [2**53 + 2] + [0] * 4, pa.int64())
    path = tmp_path / "log.parquet"
    pq.write_table(pa.table(data), path, row_group_size=group_rows)
    with pytest.raises(LogError) as caught:
        list(chunks(inspect(path), 10))
    assert caught.value.column == "a_vy"
    assert "integer 9007199254740994 is beyond 2**53" in str(caught.value)


# -- Parquet: by row group, or in batches when groups are large; only the known columns -------------


@pytest.mark.parametrize(
    "chunk_rows, by_group",
    [(1000, True), (600, True), (500, True), (499, False), (400, False), (300, False)],
)  # fmt: skip
def test_parquet_row_groups_up_to_twice_the_chunk_are_read_whole(tmp_path, chunk_rows, by_group):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from explorer.audit.log.reading import chunks, inspect

    data = {name: pa.array(np.arange(3000, dtype=float)) for name in GEOMETRY}
    data["note"] = pa.array(["text"] * 3000)
    path = tmp_path / "log.parquet"
    pq.write_table(pa.table(data), path, row_group_size=1000)
    info = inspect(path)
    got = list(chunks(info, chunk_rows))
    sizes = [len(chunk["a_cx"]) for chunk in got]
    assert sum(sizes) == 3000
    assert sizes == [1000] * 3 if by_group else max(sizes) <= chunk_rows, sizes
    assert all(tuple(chunk) == GEOMETRY for chunk in got)
    np.testing.assert_array_equal(np.concatenate([chunk["b_r"] for chunk in got]), np.arange(3000.0))


# -- CSV lines longer than the reader's block -----------------------------------------------------


def _csv_with_long_lines(path, rows: int, long_rows: dict[int, int]) -> None:
    """A log whose row i has A's x = i and a ``note`` column; row r of ``long_rows`` has a note of that many bytes."""
    names = ",".join(GEOMETRY) + ",note"
    body = ",".join("1.5" for _ in GEOMETRY[1:])
    lines = [names] + [f"{i},{body},{'n' * long_rows.get(i, 3)}" for i in range(rows)]
    data = ("\n".join(lines) + "\n").encode()
    write_packed(path, data)


@pytest.mark.parametrize("name", ["log.csv", "log.csv.gz"])
@pytest.mark.parametrize(
    "long_rows",
    # midway, the first row (one longer than pyarrow's default block too), two of them
    [{3000: 300_000}, {0: 200_000}, {0: 2_500_000}, {10: 100_000, 4990: 900_000}],
)  # fmt: skip
def test_csv_lines_longer_than_the_reader_s_block_are_read(tmp_path, name, long_rows):
    from explorer.audit.log.reading import chunks, inspect

    path = tmp_path / name
    _csv_with_long_lines(path, 5000, long_rows)
    info = inspect(path)
    got = list(chunks(info, 500))
    assert all(tuple(chunk) == GEOMETRY for chunk in got)
    np.testing.assert_array_equal(np.concatenate([chunk["a_cx"] for chunk in got]), np.arange(5000.0))


@pytest.mark.parametrize("name", ["log.csv", "log.csv.gz", "log.csv.bz2"])
def test_the_longest_line_is_measured_across_the_pieces_read(tmp_path, name):
    from explorer.audit.log.csv_reader import longest_line

    cases = [
        (b"ab\ncde\n", 4),
        (b"ab\ncde", 3),  # the last line without its line break
        (b"x" * (40 << 20) + b"\nab\n", (40 << 20) + 1),  # a line over several pieces of 16 MB
        (b"ab\n" + b"y" * (20 << 20) + b"\n" + b"z" * 100, (20 << 20) + 1),
        (b"y" * (17 << 20) + b"\n" + b"ab\n" * (6 << 20), (17 << 20) + 1),  # the longest in an earlier piece
        (b"", 0),
    ]
    for data, expected in cases:
        path = tmp_path / name
        write_packed(path, data)
        assert longest_line(path) == expected, (len(data), name)


# -- .npz: the archive's own words, array shapes, header versions, a file cut while read -----------


def test_a_file_that_is_not_a_whole_zip_archive_is_refused_with_zipfile_s_words(tmp_path):
    from explorer.audit.log.reading import inspect

    path = tmp_path / "log.npz"
    npz(path)
    path.write_bytes(path.read_bytes()[:-30])  # the end of the central directory cut off
    with pytest.raises(LogError) as caught:
        inspect(path)
    assert str(caught.value) == "not a complete .npz file (truncated?) (File is not a zip file)"


def test_an_array_of_more_than_one_dimension_is_refused_naming_it(tmp_path):
    from explorer.audit.log.reading import inspect

    path = tmp_path / "log.npz"
    columns = {name: np.ones(6) for name in GEOMETRY} | {"b_vy": np.ones((3, 2))}
    np.savez(path, **columns)
    with pytest.raises(LogError) as caught:
        inspect(path)
    assert str(caught.value) == "column 'b_vy': expected one value per row, got an array of shape (3, 2)"


def test_arrays_in_npy_format_version_2_are_read(tmp_path):
    from explorer.audit.log.reading import chunks, inspect

    path = tmp_path / "log.npz"
    with zipfile.ZipFile(path, "w") as archive:
        for k, name in enumerate(GEOMETRY):
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.arange(5.0) + k, version=(2, 0) if k % 2 else (1, 0))
            archive.writestr(name + ".npy", buffer.getvalue())
    (chunk,) = chunks(inspect(path), 100)
    for k, name in enumerate(GEOMETRY):
        np.testing.assert_array_equal(chunk[name], np.arange(5.0) + k, err_msg=name)


def _last_member(path) -> str:
    with zipfile.ZipFile(path) as archive:
        return max(archive.infolist(), key=lambda m: m.header_offset).filename[:-4]


def test_a_stored_member_whose_directory_claims_fewer_bytes_is_refused_at_open(tmp_path):
    """zipfile reads a stored member up to the size its directory gives; reading by offset past that would run
    into the next member's bytes."""
    from explorer.audit.log.reading import inspect

    path = tmp_path / "log.npz"
    npz(path, n=2000)  # 16 kB a member: zipfile reads ahead 4 kB, not to the end (where it would check the CRC)
    raw = bytearray(path.read_bytes())
    name = b"a_cx.npy"
    at = raw.index(b"PK\x01\x02")
    while raw[at + 46 : at + 46 + len(name)] != name:
        at = raw.index(b"PK\x01\x02", at + 4)
    size = int.from_bytes(raw[at + 20 : at + 24], "little")  # compressed size; the data, 16,000 bytes, ends it
    raw[at + 20 : at + 24] = (size - 8000).to_bytes(4, "little")
    path.write_bytes(bytes(raw))
    with pytest.raises(LogError) as caught:
        inspect(path)
    assert (
        str(caught.value) == "column 'a_cx': the array ends early: 2000 values declared, 1000 stored (truncated file?)"
    )


def test_a_stored_log_cut_while_it_is_read_is_refused_naming_the_member(tmp_path):
    import os

    from explorer.audit.log.npz_reader import NpzLog

    path = tmp_path / "log.npz"
    npz(path, n=10_000)
    last = _last_member(path)
    with NpzLog(path, GEOMETRY) as log:
        stream = log.chunks(600)
        first = next(stream)
        assert len(first[last]) == 600
        os.truncate(path, os.path.getsize(path) - 40_000)  # the directory and the last member's last 4,900 values
        with pytest.raises(LogError) as caught:
            for chunk in stream:
                assert all(len(values) == 600 for values in chunk.values())
    assert str(caught.value) == f"column {last!r}, row 0: the array ends early (truncated file?)"


def test_the_block_grows_only_for_a_line_too_long_and_stops_at_the_cap(tmp_path):
    import pyarrow as pa

    from explorer.audit.log.csv_reader import MAX_CSV_BLOCK, _block_for_long_lines

    path = tmp_path / "log.csv"
    path.write_bytes(b"a,b\n" + b"x" * 99_999 + b"\n1,2\n")  # longest line: 100,000 bytes
    straddling = pa.ArrowInvalid("straddling object straddles two block boundaries (try to increase block size?)")
    assert _block_for_long_lines(straddling, path, 1 << 16) == 200_000  # twice the longest line
    assert _block_for_long_lines(straddling, path, 150_000) == 300_000  # at least twice the block
    assert _block_for_long_lines(straddling, path, MAX_CSV_BLOCK // 2 + 1) == MAX_CSV_BLOCK
    assert _block_for_long_lines(straddling, path, MAX_CSV_BLOCK) is None  # refused: pyarrow's words
    assert _block_for_long_lines(pa.ArrowInvalid("CSV parse error: Expected 2 columns"), path, 1 << 16) is None


def test_a_reread_passes_over_exactly_the_rows_handed_out(tmp_path):
    """Chunks of one row: the first block holds the header and row 0 only (a 40 kB note), row 1 (100 kB) is
    longer than the block, so the reader starts again having handed out one row, which it must not repeat."""
    from explorer.audit.log.reading import chunks, inspect

    path = tmp_path / "log.csv"
    _csv_with_long_lines(path, 10, {0: 40_000, 1: 100_000})
    got = list(chunks(inspect(path), 1))
    assert len(got[0]["a_cx"]) == 1 and all(len(chunk["a_cx"]) for chunk in got)
    np.testing.assert_array_equal(np.concatenate([chunk["a_cx"] for chunk in got]), np.arange(10.0))


def test_damaged_parquet_data_is_refused_with_pyarrow_s_words(tmp_path):
    """The first column chunk's page header overwritten (the footer intact): pyarrow cannot decode the page."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from explorer.audit.log.reading import chunks, inspect

    path = tmp_path / "log.parquet"
    rng = np.random.default_rng(1)
    pq.write_table(pa.table({name: rng.uniform(1, 2, 5000) for name in GEOMETRY}), path, compression="snappy")
    raw = bytearray(path.read_bytes())
    raw[4:64] = b"\xff" * 60
    path.write_bytes(bytes(raw))
    with pytest.raises(LogError) as caught:
        list(chunks(inspect(path), 1000))
    words = str(caught.value)
    prefix = "Parquet data unreadable (truncated or corrupt?) ("
    assert words.startswith(prefix) and len(words) > len(prefix) + 5 and "None" not in words, words


def test_lines_are_found_alike_whatever_the_block_size(tmp_path):
    """The search reads the file in blocks (never a map, which a cut file turns into SIGBUS): a line split
    across blocks, or longer than one, is found with its number all the same."""
    from explorer.audit.log.csv_reader import _lines_holding

    lines = [b"head", b"", b"a five b", b"x" * 40 + b"five", b"no", b"five", b"five five", b"\r", b"tail five"]
    data = b"\n".join(lines)  # the last line without its line break
    path = tmp_path / "log.csv"
    path.write_bytes(data)
    expected = [(k + 1, line) for k, line in enumerate(lines) if b"five" in line]
    for block in (1, 2, 3, 5, 8, 13, 64, 1 << 16):
        with open(path, "rb") as handle:
            assert list(_lines_holding(handle, b"five", 1, block)) == expected, block


def test_no_line_is_named_in_a_file_that_is_a_header_alone(tmp_path):
    from explorer.audit.log.csv_reader import _locate_line

    path = tmp_path / "log.csv"
    path.write_bytes(b"\n\nfive,b")  # the header, last, without its line break
    assert _locate_line(path, "five", 0) is None
