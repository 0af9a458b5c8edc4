"""The command as a user runs it, and what does not depend on how the log is cut or which columns it has."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import planted as planted_logs
import pytest
from audit_logs import CHUNK, comparable, read_summary

from explorer.audit.run import audit
from explorer.system.progress import Progress

COMMAND = Path(sys.executable).with_name("sphere-explorer")


def test_the_console_script_end_to_end(planted_files, planted, tmp_path):
    """The installed command (which turns the compiled solver off for one-scene commands) audits a log."""
    env = {k: v for k, v in os.environ.items() if k != "SPHERE_SOLVER_JIT"}
    out = tmp_path / "out"
    done = subprocess.run(
        [str(COMMAND), "audit", str(planted_files["log.csv"]), "-o", str(out)],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # not a terminal: no progress bar
    first, second = done.stdout.splitlines()
    fh, fm, te = (len(planted["planted"][k]) for k in ("false hit", "false miss", "toi error"))
    assert first == (
        f"{len(planted['hit']):,} pairs decided, {int(planted['hit'].sum()):,} hits; "
        f"engine: {fh} false hits, {fm} false misses, {te} TOI errors"
    )
    assert second == str(out)
    assert read_summary(out)["engine_false_misses"] == fm


def test_a_bad_log_through_the_console_script_is_one_line(tmp_path):
    (tmp_path / "log.csv").write_text("a_cx,a_cy\n1,2\n")
    done = subprocess.run(
        [str(COMMAND), "audit", str(tmp_path / "log.csv"), "-o", str(tmp_path / "out")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("sphere-explorer audit: log.csv: missing columns 'a_cz', 'a_vx'")
    assert len(done.stderr.splitlines()) == 1 and done.stdout == ""


def test_the_progress_bar_is_for_terminals_only(terminal):
    shown, piped, quiet = terminal(), io.StringIO(), terminal()
    for stream, enabled in ((shown, True), (piped, True), (quiet, False)):
        bar = Progress(1000, enabled=enabled, stream=stream)
        bar._drawn = -1e9
        bar.update(250)
        bar.close()
    assert shown.getvalue().startswith("\raudit [#######") and "25.0%" in shown.getvalue()
    assert shown.getvalue().endswith("\n")
    assert piped.getvalue() == quiet.getvalue() == ""


def test_chunk_size_does_not_change_the_result(planted_files, tmp_path):
    small = audit(planted_files["log.npz"], tmp_path / "small", worst=30, chunk_rows=CHUNK)
    whole = audit(planted_files["log.npz"], tmp_path / "whole", worst=30, chunk_rows=1 << 20)
    odd = audit(planted_files["log.npz"], tmp_path / "odd", worst=30, chunk_rows=777)
    assert small["run"]["chunks"] == 6 and whole["run"]["chunks"] == 1
    assert comparable(small) == comparable(whole) == comparable(odd)


def test_engine_toi_alone_means_hit_where_given(planted, tmp_path):
    columns = {k: v for k, v in planted["columns"].items() if k != "engine_hit"}
    columns["engine_toi"] = np.where(planted["columns"]["engine_hit"] == 1.0, planted["columns"]["engine_toi"], np.nan)
    planted_logs.write_log(tmp_path / "log.parquet", columns)
    summary = audit(tmp_path / "log.parquet", tmp_path / "out", worst=200)
    expected = {k: len(v) for k, v in planted["planted"].items()}
    got = {"false hit": summary["engine_false_hits"], "false miss": summary["engine_false_misses"],
           "toi error": summary["engine_toi_errors"]}  # fmt: skip
    assert got == expected


def test_engine_hit_alone_checks_verdicts_only(planted, tmp_path):
    columns = {k: v for k, v in planted["columns"].items() if k != "engine_toi"}
    planted_logs.write_log(tmp_path / "log.csv", columns)
    summary = audit(tmp_path / "log.csv", tmp_path / "out", worst=200)
    assert summary["engine_false_hits"] == len(planted["planted"]["false hit"])
    assert summary["engine_false_misses"] == len(planted["planted"]["false miss"])
    assert summary["engine_toi_errors"] is None and summary["answers"]["engine"]["toi_error_histogram"] is None
    assert {case["kind"] for case in summary["worst"]} == {"false hit", "false miss"}


def test_a_tighter_tolerance_finds_more(planted_files, planted, tmp_path):
    loose = audit(planted_files["log.parquet"], tmp_path / "loose", toi_tol=1e-3)
    tight = audit(planted_files["log.parquet"], tmp_path / "tight", toi_tol=1e-7)
    planted_toi = len(planted["planted"]["toi error"])
    assert loose["engine_toi_errors"] < planted_toi
    assert tight["engine_toi_errors"] == planted_toi + len(planted["near"])


def test_the_reader_holds_at_most_two_chunks():
    """One chunk being decided, one read ahead: memory is two chunks, however fast the reader."""
    import time
    import weakref

    from explorer.audit.run import Prefetch

    alive: set[int] = set()
    most = [0]

    class Chunk:
        def __init__(self, i: int) -> None:
            alive.add(i)
            most[0] = max(most[0], len(alive))
            weakref.finalize(self, alive.discard, i)

    reader = Prefetch(Chunk(i) for i in range(30))
    seen = 0
    for chunk in reader:
        time.sleep(0.002)
        seen += 1
        del chunk
    reader.close()
    assert seen == 30 and most[0] == 2


def test_a_reader_error_reaches_the_consumer_in_order():
    from explorer.audit.run import Prefetch

    def items():
        yield 1
        yield 2
        raise ValueError("page 3 unreadable")

    got = []
    with pytest.raises(ValueError, match="page 3"):
        for item in Prefetch(items()):
            got.append(item)
    assert got == [1, 2]


def test_parquet_row_groups_larger_than_a_chunk(planted, planted_files, tmp_path):
    """Row groups of 6000 rows read in batches of 1000: the same result as row groups of 1000."""
    planted_logs.write_log(tmp_path / "big-groups.parquet", planted["columns"], row_group_size=6000)
    batched = audit(tmp_path / "big-groups.parquet", tmp_path / "batched", chunk_rows=CHUNK)
    grouped = audit(planted_files["log.parquet"], tmp_path / "grouped", chunk_rows=CHUNK)
    assert batched["run"]["chunks"] == 6
    assert comparable(batched) == comparable(grouped)


def test_a_kill_cleans_up_like_ctrl_c(planted_files, tmp_path, monkeypatch, capsys):
    """SIGTERM while the audit runs: exit 143, no output folder, no staging folder, the handler restored."""
    import signal

    import explorer.audit.run as audit_run
    from explorer.cli import main

    original = audit_run.audit_chunk
    calls = []

    def killed(raw, settings):
        calls.append(1)
        if len(calls) == 3:
            os.kill(os.getpid(), signal.SIGTERM)
        return original(raw, settings)

    monkeypatch.setattr(audit_run, "audit_chunk", killed)
    before = signal.getsignal(signal.SIGTERM)
    assert main(["audit", str(planted_files["log.npz"]), "-o", str(tmp_path / "out"), "--chunk-rows", "1000"]) == 143
    assert capsys.readouterr().err == "sphere-explorer audit: interrupted; nothing was written\n"
    assert list(tmp_path.iterdir()) == []
    assert signal.getsignal(signal.SIGTERM) is before


def test_engine_hit_as_true_false_in_a_csv(planted, tmp_path):
    text = planted_logs.csv_text(planted["columns"]).splitlines()
    column = text[0].split(",").index("engine_hit")
    rows = [text[0]]
    for line in text[1:]:
        cells = line.split(",")
        cells[column] = {"1": "true", "0": "False"}[cells[column]]
        rows.append(",".join(cells))
    (tmp_path / "words.csv").write_text("\n".join(rows) + "\n")
    planted_logs.write_csv(tmp_path / "digits.csv", planted["columns"])
    words = audit(tmp_path / "words.csv", tmp_path / "w")
    digits = audit(tmp_path / "digits.csv", tmp_path / "d")
    assert comparable(words) == comparable(digits)


@pytest.mark.parametrize("where", ["a chunk", "the output folder"])
def test_a_refused_audit_returns_only_once_the_plots_import_has_ended(where, planted_files, tmp_path, monkeypatch):
    """A process that ends while the background import of matplotlib is inside C++ code aborts ("terminate
    called", exit -6) instead of exiting 2 with its refusal: the refusal waits for that thread, whether the log
    is refused or, once every row is decided, the output folder cannot be written (a full disk)."""
    import errno
    import threading
    import time

    import explorer.audit.report.plot as plot
    import explorer.audit.run as audit_run
    from explorer.audit.log.columns import LogError

    def slow_import():
        time.sleep(0.5)  # a cold disk: matplotlib's import still running when the audit is refused

    def refused(raw, settings):
        raise LogError("row 1: refused for this test")

    def full(outdir):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(plot, "_import", slow_import)
    if where == "a chunk":
        monkeypatch.setattr(audit_run, "audit_chunk", refused)
    else:
        monkeypatch.setattr(audit_run, "staged", full)
    with pytest.raises((LogError, OSError), match="refused for this test|No space left"):
        audit(planted_files["log.npz"], tmp_path / "out", chunk_rows=1000)
    assert [t for t in threading.enumerate() if t.name == "audit-plot-import"] == []
    assert list(tmp_path.iterdir()) == []
