"""Hostile logs, round 2: chunks of bad rows, huge integers, and the same answer under Dask.

A chunk whose rows are all skipped once made the audit write three floats per
row into an empty buffer (a segfault, a double free, or a summary from garbage
with exit 0).  Each pattern of bad rows here must give exit 0, the rows skipped
and counted by column, and on every other row the planted log's exact answers
(decided in rationals by planted.py, not by the solver) — in one process and
on a Dask cluster alike.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import planted as planted_logs
import pytest
from audit_logs import CHUNK, comparable, read_summary

from explorer.audit.log.columns import LogError
from explorer.audit.run import audit
from explorer.cli import main

pytestmark = pytest.mark.long  # started first (tests/conftest.py)

distributed = pytest.importorskip("distributed")

N_ROWS = 6000  # planted.make_log's default size: six chunks of CHUNK rows

#: Which rows each pattern spoils (chunks of CHUNK = 1000 rows).
PATTERNS = {
    "one whole chunk": list(range(2000, 3000)),
    "the first chunk": list(range(0, 1000)),
    "the last chunk": list(range(5000, 6000)),
    "two chunks in a row": list(range(1000, 3000)),
    "one row in each chunk": [17 + 1000 * k for k in range(6)],
    "every row": list(range(N_ROWS)),
}

#: How a row is spoiled, in turn: (column, value).  Each makes the row skipped for that column.
SPOILERS = (("a_cx", np.nan), ("b_cy", 2e12), ("a_vz", 1e-200), ("b_r", 0.0), ("horizon", -1.0), ("engine_hit", np.nan))


def _spoiled(planted, rows: list[int]) -> tuple[dict, dict]:
    """The planted columns with ``rows`` spoiled in turn by each of SPOILERS; and the count per column."""
    columns = {name: values.copy() for name, values in planted["columns"].items()}
    counts: dict[str, int] = {}
    for k, row in enumerate(rows):
        column, value = SPOILERS[k % len(SPOILERS)]
        columns[column][row] = value
        counts[column] = counts.get(column, 0) + 1
    return columns, counts


def _expected(planted, rows: list[int]) -> dict:
    """The summary's figures over the rows left, from the planted truth."""
    bad = set(rows)
    keep = np.array([r not in bad for r in range(N_ROWS)])
    plants = planted["planted"]
    return {
        "rows": N_ROWS,
        "pairs": int(keep.sum()),
        "skipped_rows": len(bad),
        "hits": int(planted["hit"][keep].sum()),
        "engine_false_hits": sum(r not in bad for r in plants["false hit"]),
        "engine_false_misses": sum(r not in bad for r in plants["false miss"]),
        "engine_toi_errors": sum(r not in bad for r in plants["toi error"]),
    }


def _check(summary: dict, planted, rows: list[int], counts: dict) -> None:
    assert {key: summary[key] for key in _expected(planted, rows)} == _expected(planted, rows)
    assert summary["skipped_by_column"] == counts
    assert [s["row"] for s in summary["skipped_examples"]] == sorted(rows)[: len(summary["skipped_examples"])]
    assert summary["skipped_examples"], "the first skipped rows are shown"
    bad = set(rows)
    for kind, planted_rows in planted["planted"].items():
        found = sorted(case["row"] for case in summary["worst"] if case["kind"] == kind)
        assert found == [r for r in planted_rows if r not in bad], kind


@pytest.mark.parametrize("suffix", [".parquet", ".npz", ".csv"])
@pytest.mark.parametrize("pattern", list(PATTERNS))
def test_bad_rows_in_any_pattern_are_skipped_and_the_rest_exact(pattern, suffix, planted, cluster, tmp_path):
    rows = PATTERNS[pattern]
    columns, counts = _spoiled(planted, rows)
    log = tmp_path / f"log{suffix}"
    planted_logs.write_log(log, columns, row_group_size=CHUNK)
    alone = audit(log, tmp_path / "alone", worst=1000, chunk_rows=CHUNK)
    _check(alone, planted, rows, counts)
    assert read_summary(tmp_path / "alone")["pairs"] == alone["pairs"]
    spread = audit(log, tmp_path / "spread", worst=1000, chunk_rows=CHUNK, dask=cluster.scheduler_address)
    assert comparable(spread) == comparable(alone)


def test_a_log_of_bad_rows_through_the_command(planted, tmp_path, capsys):
    """The reported crash: a CSV of 1000 rows, every one out of range (exit 139 before)."""
    columns, _ = _spoiled(planted, list(range(N_ROWS)))
    columns = {name: values[:1000] for name, values in columns.items()}
    planted_logs.write_log(tmp_path / "bad.csv", columns)
    assert main(["audit", str(tmp_path / "bad.csv"), "-o", str(tmp_path / "out"), "-q"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["0 pairs decided, 0 hits; engine: 0 false hits, 0 false misses, 0 TOI errors; 1,000 rows skipped",
                   str(tmp_path / "out")]  # fmt: skip


# The audit's own compiled code and the solver's batch loop over columns (the row checks, the judging,
# the textbook formula, the time unit's scan) run with numba's bounds checking on, in a fresh process with a fresh cache, on the
# chunk shapes that broke it: an out-of-bounds write is an IndexError there, not silent corruption.
BOUNDS_SCRIPT = r"""
import numpy as np
from explorer.audit.log.columns import GEOMETRY
from explorer.audit.decision.judging import judge
from explorer.audit.decision.rows import decide
from explorer.audit.decision.textbook import textbook_columns
from explorer.audit.log.units import horizons_and_least_motion
from solver import _compile

_compile.BATCH_BUDGET.take(_compile.PLAIN_BATCH_BUDGET + 1)  # the compiled batch loop from the first chunk
rng = np.random.default_rng(5)
n = 64
for bad in ([], list(range(n)), [0], [n - 1], list(range(0, n, 2)), list(range(n - 1))):
    cols = {name: rng.uniform(1.0, 2.0, n) for name in GEOMETRY}
    cols["horizon"] = np.ones(n)
    cols["engine_hit"] = rng.integers(0, 2, n).astype(float)
    cols["engine_toi"] = np.where(cols["engine_hit"] == 1.0, 0.5, np.nan)
    for row in bad:
        cols["a_cx"][row] = np.nan
    for mode in (0, 1, 2):
        decided = decide(cols, n, mode)
        m = n - len(bad)
        assert decided.pairs == m and decided.kept.sum() == m, (bad, mode)
        assert (decided.reason != 0).sum() == len(bad)
        assert np.array_equal(np.flatnonzero(~decided.kept), bad)
        hit, toi = decided.result.hit, decided.result.toi
        judge(hit, toi, decided.engine_hit if mode else hit, decided.engine_toi if mode else toi, 1e-6, True,
              decided.kept)
        textbook_columns([decided.columns[name] for name in GEOMETRY + ("horizon",)])
        horizons_and_least_motion([cols["a_vx"], cols["a_vy"], cols["a_vz"]], [cols["b_vx"], cols["b_vy"], cols["b_vz"]],
                                  cols["a_r"], cols["b_r"], cols["horizon"], decided.kept)
print("ok")
"""


def test_the_audits_compiled_code_under_bounds_checking(tmp_path):
    env = {**os.environ, "NUMBA_BOUNDSCHECK": "1", "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-c", BOUNDS_SCRIPT], capture_output=True, text=True, env=env, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "ok"


# -- the same answer in one process and under Dask -----------------------------------------------


@pytest.mark.parametrize("value", [2**53 + 1, -(2**53) - 1, 2**63 - 1])
def test_an_integer_beyond_2_53_is_refused_alike(value, planted, cluster, tmp_path):
    """An int64 column holding a value float64 cannot hold: one process refused it, Dask skipped it."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    columns = planted["columns"]
    data = {name: pa.array(values) for name, values in columns.items()}
    ints = np.zeros(N_ROWS, dtype=np.int64)
    ints[3456] = value
    data["a_cz"] = pa.array(ints)
    pq.write_table(pa.table(data), tmp_path / "big.parquet", row_group_size=CHUNK)
    messages = []
    for where, kwargs in (("alone", {}), ("spread", {"dask": cluster.scheduler_address})):
        with pytest.raises(LogError) as caught:
            audit(tmp_path / "big.parquet", tmp_path / where, chunk_rows=CHUNK, **kwargs)
        messages.append(str(caught.value))
        assert not (tmp_path / where).exists()
    assert (
        messages[0]
        == messages[1]
        == f"column 'a_cz', row 3456: integer {value} is beyond 2**53 and has no exact float64"
    )


def _command(log: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    """The installed console script, as a user runs it (its own stdout and stderr, Dask workers' too)."""
    exe = Path(sys.executable).with_name("sphere-explorer")
    return subprocess.run([str(exe), "audit", str(log), "-o", str(out), *extra],
                          capture_output=True, text=True, timeout=600)  # fmt: skip


def test_a_refusal_under_workers_is_one_line(planted, tmp_path):
    """Before: 7 to 8 lines of ``distributed.worker - ERROR`` came before the refusal."""
    columns = {name: values.copy() for name, values in planted["columns"].items()}
    columns["engine_hit"][4321] = 2.0
    planted_logs.write_log(tmp_path / "bad.parquet", columns, row_group_size=CHUNK)
    lines = {}
    for where, extra in (("alone", ()), ("spread", ("--workers", "2"))):
        proc = _command(tmp_path / "bad.parquet", tmp_path / where, "--chunk-rows", str(CHUNK), *extra)
        assert proc.returncode == 2, proc.stderr
        assert proc.stdout == ""
        lines[where] = proc.stderr.splitlines()
        assert len(lines[where]) == 1, proc.stderr
        assert not (tmp_path / where).exists()
    assert lines["alone"] == lines["spread"]
    assert (
        lines["alone"][0]
        == "sphere-explorer audit: bad.parquet: column 'engine_hit', row 4321: expected true/false or 1/0, got 2.0"
    )


def test_an_empty_dask_address_is_refused(planted_files, tmp_path, capsys):
    """Before: ``--dask ''`` quietly ran in one process."""
    assert main(["audit", str(planted_files["log.npz"]), "-o", str(tmp_path / "out"), "--dask", ""]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--dask" in err[0] and "empty" in err[0], err
    assert not (tmp_path / "out").exists()


def test_the_summary_of_a_log_of_bad_rows_is_strict_json(planted, tmp_path):
    columns, _ = _spoiled(planted, PATTERNS["every row"])
    planted_logs.write_log(tmp_path / "bad.npz", columns)
    audit(tmp_path / "bad.npz", tmp_path / "out", chunk_rows=CHUNK)
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["pairs"] == 0 and summary["skipped_rows"] == N_ROWS and summary["worst"] == []


@pytest.mark.parametrize(
    "column, value, words",
    [
        ("engine_hit", float("nan"), "empty: the engine's verdict is missing"),
        ("horizon", 0.0, "must be in (0, 1e+06], got 0.0"),
        ("a_r", -1.0, "must be in [1e-12, 1e+12], got -1.0"),
        ("b_r", 2e12, "must be in [1e-12, 1e+12], got 2000000000000.0"),
        ("a_vx", 1e-200, "must be 0 or of magnitude in [1e-100, 1e+12], got 1e-200"),
        ("b_vz", -3e12, "must be 0 or of magnitude in [1e-100, 1e+12], got -3000000000000.0"),
        ("a_cy", float("inf"), "must be within ±1e+12, got inf"),
    ],
)  # fmt: skip
def test_a_skipped_row_s_reason_gives_the_range_its_value_left(column, value, words):
    """The ranges of solver.limits' table (radius 1e-12 .. 1e12, horizon at most 1e6, |x| <= 1e12, a velocity
    component 0 or at least 1e-100), written out here by hand."""
    from explorer.audit.decision.rows import skip_reason

    assert skip_reason(column, value) == words
