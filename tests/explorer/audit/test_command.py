"""``sphere-explorer audit``'s options reach the audit, and its endings other than success are one line:
run through the real entry point, in this process.

For the endings the audit is replaced by a stand-in that fails the way the real one can (the real failures
are in tests/scenarios, hostile_inputs/test_bad_logs.py and signals/test_audit_interrupted.py, in child
processes); what is checked is the command's wording and clean-up around it: each refusal one line on stderr
with exit 2, an interruption no OUTDIR."""

from __future__ import annotations

import argparse
import errno
import io
import math
import sys
import threading

import numpy as np
import pytest
from audit_logs import read_summary
from planted import write_rows

from explorer.audit import command as audit_command
from explorer.audit import run as run_module
from explorer.audit.log.columns import GEOMETRY, LogError
from explorer.audit.needs import BASE, install_command
from explorer.audit.report.staging import OutputError
from explorer.audit.run import audit
from explorer.cli import main
from explorer.system import progress as progress_module
from explorer.system.progress import Progress
from solver.limits import MAX_HORIZON


@pytest.fixture()
def log(planted_files):
    return planted_files["log.npz"]


def test_the_tolerance_and_the_number_of_cases_reach_the_audit(log, tmp_path, capsys):
    code = main(["audit", str(log), "-o", str(tmp_path / "out"), "--toi-tol", "0.01", "--worst", "2", "-q"])
    out, err = capsys.readouterr()
    summary = read_summary(tmp_path / "out")
    assert code == 0 and err == ""
    assert summary["toi_tol"] == 0.01
    assert len(summary["worst"]) == 2 and len(list((tmp_path / "out" / "cases").iterdir())) == 2
    assert out.splitlines()[-1].endswith(str(tmp_path / "out"))


def test_without_quiet_the_progress_is_drawn_on_a_terminal(log, tmp_path, monkeypatch, terminal):
    for options, drawn in (([], True), (["-q"], False)):
        stream = terminal()
        monkeypatch.setattr(sys, "stderr", stream)
        assert main(["audit", str(log), "-o", str(tmp_path / f"out{len(options)}"), *options]) == 0
        assert bool(stream.getvalue()) is drawn


# -- endings other than success ----------------------------------------------------------------------


def command(tmp_path, *options: str) -> list[str]:
    return ["audit", str(tmp_path / "log.csv"), "-o", str(tmp_path / "out"), "-q", *options]


def failing_audit(monkeypatch, error: BaseException, seen: dict | None = None) -> None:
    """Make the audit raise ``error`` (recording its keyword arguments in ``seen``)."""

    def audit(log, output, **options):
        if seen is not None:
            seen.update(options)
        raise error

    monkeypatch.setattr(run_module, "audit", audit)


@pytest.mark.parametrize(
    "error, line",
    [
        (LogError("expected a number, got 'x'", "a_cx", line=3), "log.csv: column 'a_cx', line 3: expected a number, got 'x'"),
        (LogError("--workers: the cluster could not start"), "--workers: the cluster could not start"),
        (MemoryError(), "out of memory: try a smaller --chunk-rows"),
        (OSError(errno.ENOSPC, "No space left on device", "/data/out"), "/data/out: No space left on device"),
    ],
    ids=["about the log", "about an option", "memory", "disk"],
)  # fmt: skip
def test_each_refusal_is_one_line_with_exit_2(tmp_path, monkeypatch, capsys, error, line):
    failing_audit(monkeypatch, error)
    assert main(command(tmp_path)) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"sphere-explorer audit: {line}\n")


def test_the_cluster_options_reach_the_audit(tmp_path, monkeypatch, capsys):
    seen: dict = {}
    failing_audit(monkeypatch, LogError("stop here"), seen)
    main(command(tmp_path, "--workers", "3", "--horizon", "0.5"))
    assert (seen["dask"], seen["workers"], seen["horizon"]) == (None, 3, 0.5)
    main(command(tmp_path, "--dask", "tcp://scheduler:8786"))
    assert (seen["dask"], seen["workers"]) == ("tcp://scheduler:8786", None)


def test_a_broken_install_names_the_missing_module_and_how_to_reinstall(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "explorer.audit.run", None)  # as if the file were gone
    assert main(command(tmp_path)) == 2
    err = capsys.readouterr().err
    assert err == (
        "sphere-explorer audit: explorer.audit.run is not installed; install the project with: "
        f"{install_command(BASE)}\n"
    )


def test_an_interruption_after_the_audit_completed_removes_its_outdir(tmp_path, monkeypatch, capsys):
    """A signal that lands once OUTDIR is complete: the user asked for nothing, so nothing is left."""

    def audit(log, output, **options):
        (tmp_path / "out").mkdir()
        (tmp_path / "out" / "summary.json").write_text("{}", encoding="utf-8")
        return {"warnings": []}

    def report(summary, output):
        raise KeyboardInterrupt

    monkeypatch.setattr(run_module, "audit", audit)
    monkeypatch.setattr(audit_command, "_report", report)
    assert main(command(tmp_path)) == 130
    assert capsys.readouterr().err == "sphere-explorer audit: interrupted; nothing was written\n"
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("before", ["absent", "an empty folder"])
def test_an_interruption_as_the_audit_returns_removes_the_outdir_just_put_in_place(before, tmp_path, monkeypatch,
                                                                                   capsys):  # fmt: skip
    """A signal between OUTDIR's rename into place and the audit's return (seen once in the signal tests: exit 143,
    "nothing was written", and OUTDIR left complete)."""
    if before == "an empty folder":
        (tmp_path / "out").mkdir()

    def audit(log, output, **options):
        (tmp_path / "out").mkdir(exist_ok=True)
        (tmp_path / "out" / "summary.json").write_text("{}", encoding="utf-8")
        raise KeyboardInterrupt  # the signal's handler, right after the rename

    monkeypatch.setattr(run_module, "audit", audit)
    assert main(command(tmp_path)) == 130
    assert capsys.readouterr().err == "sphere-explorer audit: interrupted; nothing was written\n"
    assert not (tmp_path / "out").exists()


def test_an_interruption_never_removes_a_folder_that_held_something_before(tmp_path, monkeypatch, capsys):
    """OUTDIR held a file of the user's (the audit refuses such a folder; a signal may come first)."""
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "summary.json").write_text("the user's", encoding="utf-8")
    failing_audit(monkeypatch, KeyboardInterrupt())
    assert main(command(tmp_path)) == 130
    assert (tmp_path / "out" / "summary.json").read_text(encoding="utf-8") == "the user's"


def test_an_interruption_during_the_audit_ends_in_one_line(tmp_path, monkeypatch, capsys):
    failing_audit(monkeypatch, KeyboardInterrupt())
    assert main(command(tmp_path)) == 130
    assert capsys.readouterr() == ("", "sphere-explorer audit: interrupted; nothing was written\n")


def test_the_help_ends_with_the_log_format_unless_the_parser_has_its_own_epilog():
    bare, own = argparse.ArgumentParser(), argparse.ArgumentParser(epilog="see the manual")
    audit_command.add_arguments(bare)
    audit_command.add_arguments(own)
    assert bare.epilog == audit_command.DESCRIPTION and "a_cx a_cy a_cz a_vx" in bare.format_help()
    assert own.epilog == "see the manual"


def test_outdir_is_required_and_the_help_names_it_and_the_tolerance(capsys):
    """Without -o the command stops before reading anything (one line, exit 2); the help's
    usage line names OUTDIR and TOL, the words its explanations use."""
    assert main(["audit", "log.csv"]) == 2
    assert capsys.readouterr().err == (
        "sphere-explorer audit: the following arguments are required: -o/--output (see sphere-explorer audit --help)\n"
    )
    assert main(["audit", "--help"]) == 0
    help_text = capsys.readouterr().out
    assert "-o OUTDIR" in help_text and "OUTDIR/summary.json" in help_text
    assert "--toi-tol TOL" in help_text and "> TOL * max(1," in help_text


def test_each_options_placeholder_is_the_word_its_help_uses():
    """The help explains each value by its placeholder (``--toi-tol TOL``: "... > TOL * max(1, |toi|)"),
    so the placeholder shown in the usage line must be that word."""
    import re

    parser = argparse.ArgumentParser()
    audit_command.add_arguments(parser)
    placeholders = {}
    for action in parser._actions:
        if action.option_strings and action.nargs != 0 and action.dest != "help":
            placeholders[action.option_strings[-1]] = action.metavar
            assert re.search(rf"\b{re.escape(str(action.metavar))}\b", action.help), action.option_strings
    assert placeholders == {"--output": "OUTDIR", "--toi-tol": "TOL", "--worst": "N", "--chunk-rows": "ROWS",
                            "--horizon": "H", "--dask": "ADDRESS", "--workers": "N"}  # fmt: skip


# -- the audit called as a function: its own checks, and the progress line --------------------------------


def test_horizon_twice_is_refused_in_words(log, tmp_path, capsys):
    """The planted log has a horizon column: --horizon as well is one line, and no OUTDIR."""
    code = main(["audit", str(log), "-o", str(tmp_path / "a"), "--horizon", "0.5"])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert (
        err == "sphere-explorer audit: --horizon: the log has a horizon column of its own; leave out one or the other\n"
    )
    assert not (tmp_path / "a").exists()


def test_the_horizon_argument_is_checked_by_the_audit_itself(log, tmp_path):
    """Called as a function, past the command's parser."""
    for bad, words in (
        (0.0, "must be in (0, 1e+06], got 0.0"),
        (-1.0, "must be in (0, 1e+06], got -1.0"),
        (MAX_HORIZON * 2, "must be in (0, 1e+06], got 2000000.0"),
        (math.inf, "must be finite, got inf"),
        (True, "expected a number, got True"),
        ("1/60", "expected a number, got '1/60'"),  # text: the parser's business
    ):
        with pytest.raises(LogError) as err:
            audit(log, tmp_path / "b", horizon=bad)
        assert str(err.value) == f"--horizon: {words}"
    assert not (tmp_path / "b").exists()


@pytest.mark.parametrize("horizon", [0.5, MAX_HORIZON])
def test_horizon_option_up_to_the_limit(tmp_path, horizon):
    """A (r 0.5) at the origin moving at 1e-6, B (r 0.5) 1 + 1e-6 away: contact at t = 1, a hit within
    any horizon >= 1; the time unit is the option's."""
    path = write_rows(tmp_path / "one.npz", [[0, 0, 0, 1e-6, 0, 0, 0.5, 1 + 1e-6, 0, 0, 0, 0, 0, 0.5]])
    summary = audit(path, tmp_path / "out", horizon=horizon)
    assert (summary["time_unit"]["source"], summary["time_unit"]["horizon"]) == ("--horizon", horizon)
    assert summary["hits"] == (horizon >= 1)


def test_a_folder_with_files_is_refused_in_words_before_the_log_is_opened(tmp_path):
    """The log named does not exist: the folder is refused first, before any work."""
    out = tmp_path / "full"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    with pytest.raises(OutputError) as err:
        audit(tmp_path / "missing.npz", out)
    assert str(err.value).endswith(" exists and is not empty; give the audit a new folder")
    assert str(err.value).startswith("-o: ") and str(out.name) in str(err.value)
    assert [p.name for p in out.iterdir()] == ["keep.txt"]


def test_the_audit_draws_no_progress_unless_asked(log, tmp_path, monkeypatch, terminal):
    """Called as a function the audit is quiet; asked, it draws the bar, full at the end, and ends the line."""
    quiet = terminal()
    monkeypatch.setattr(sys, "stderr", quiet)
    audit(log, tmp_path / "q")
    assert quiet.getvalue() == ""
    loud = terminal()
    monkeypatch.setattr(sys, "stderr", loud)
    rows = audit(log, tmp_path / "l", quiet=False)["rows"]
    drawn = loud.getvalue().split("\r")[1:]
    assert len(drawn) == 2  # the one chunk's drawing (its total known), and the full bar at the end
    assert all(line.startswith("audit [" + "#" * 30 + f"] 100.0%  {rows:,} rows  ") for line in drawn)
    assert drawn[-1].endswith(" M rows/s \n")


class _Clock:
    """``time.perf_counter`` replaced: returns the next of the given times."""

    def __init__(self, *times: float) -> None:
        self.times = list(times)

    def __call__(self) -> float:
        return self.times.pop(0)


def _progress(monkeypatch, terminal, total, *times):
    """A progress bar on a terminal whose clock reads ``times`` in turn (the first when it is made)."""
    monkeypatch.setattr(progress_module.time, "perf_counter", _Clock(*times))
    stream = terminal()
    return Progress(total, stream=stream), stream


def test_progress_line_counts_rows_and_rate(monkeypatch, terminal):
    """Started at 3 s; 2,050,001 rows by 4 s: 2.050001 M rows/s, shown as 2.1."""
    bar, stream = _progress(monkeypatch, terminal, 6_150_003, 3.0, 4.0)
    bar.update(2_050_001)
    assert stream.getvalue() == "\raudit [" + "#" * 10 + "-" * 20 + "]  33.3%  2,050,001 rows  2.1 M rows/s "


def test_progress_rate_over_a_short_time(monkeypatch, terminal):
    """1,000,000 rows in half a second: 2.0 M rows/s; rows add up over updates; a redraw waits 0.2 s."""
    bar, stream = _progress(monkeypatch, terminal, None, 10.0, 10.5, 10.6, 10.75)
    bar.update(1_000_000, 0.25)
    bar.update(1_000_000, 0.5)  # 0.1 s after the last drawing: not drawn
    bar.update(1_000_000, 0.75)
    assert stream.getvalue().split("\r")[1:] == [
        "audit [" + "#" * 7 + "-" * 23 + "]  25.0%  1,000,000 rows  2.0 M rows/s ",
        "audit [" + "#" * 22 + "-" * 8 + "]  75.0%  3,000,000 rows  4.0 M rows/s ",
    ]
    bar.close()
    assert stream.getvalue().endswith("\n")


def test_progress_unknown_total_and_an_overfull_count(monkeypatch, terminal):
    """No total and no fraction: an empty bar and a question mark.  More rows than the total: a full bar.
    The first drawing may come as soon as 0.2 s (the interval) after the clock's zero."""
    bar, stream = _progress(monkeypatch, terminal, None, 0.0, Progress.INTERVAL)
    bar.update(5)
    assert stream.getvalue() == "\raudit [" + "-" * 30 + "]   ?    5 rows  0.0 M rows/s "
    bar, stream = _progress(monkeypatch, terminal, 2, 0.0, 1.0)
    bar.update(3)
    assert stream.getvalue() == "\raudit [" + "#" * 30 + "] 150.0%  3 rows  0.0 M rows/s "


def test_progress_finished_is_drawn_full_at_once(monkeypatch, terminal):
    """Finished 0.1 s after the last drawing (within the interval): drawn anyway, full, then the line ends."""
    bar, stream = _progress(monkeypatch, terminal, None, 0.0, 1.0, 1.1)
    bar.update(40, 0.4)
    bar.finish()
    bar.close()
    assert stream.getvalue().split("\r")[1:] == [
        "audit [" + "#" * 12 + "-" * 18 + "]  40.0%  40 rows  0.0 M rows/s ",
        "audit [" + "#" * 30 + "] 100.0%  40 rows  0.0 M rows/s \n",
    ]


def test_progress_off_when_not_a_terminal_or_quiet(terminal):
    plain = io.StringIO()
    Progress(10, stream=plain).update(5)
    quiet = terminal()
    off = Progress(10, enabled=False, stream=quiet)
    off.update(5)
    off.finish()
    off.close()
    assert plain.getvalue() == quiet.getvalue() == "" and off.rows == 5


class _Ticks:
    """A clock for one module's ``time``: each reading on the main thread is one second after the last; on
    other threads (the reader) a quarter of a second after their last."""

    def __init__(self) -> None:
        self.now = 0.0
        self.reader = 0.0

    def perf_counter(self) -> float:
        if threading.current_thread() is not threading.main_thread():
            self.reader += 0.25
            return self.reader
        self.now += 1.0
        return self.now


def test_a_csv_log_s_progress_is_a_fraction_of_its_size(planted_files, tmp_path, monkeypatch, terminal):
    """A CSV log's rows are not known before it is read: the bar's fraction is the rows so far over the rows
    the file's size gives at the first 64 kB's bytes per row.  The planted rows are alike, so that estimate
    is close: the bar rises chunk by chunk to nearly full, and is drawn full once the log is read.  Every
    update is drawn (a clock one second on at each reading)."""
    monkeypatch.setattr(progress_module, "time", _Ticks())
    stream = terminal()
    monkeypatch.setattr(sys, "stderr", stream)
    summary = audit(planted_files["log.csv"], tmp_path / "out", chunk_rows=1000, quiet=False)
    percents = [float(line.split("]")[1].split("%")[0]) for line in stream.getvalue().split("\r")[1:]]
    assert len(percents) == summary["run"]["chunks"] + 1 >= 6  # a drawing a chunk, and the full bar at the end
    assert percents == sorted(percents) and 10.0 <= percents[0] <= 25.0 and 90.0 <= percents[-2] < percents[-1]
    assert stream.getvalue().endswith("] 100.0%  6,000 rows  0.0 M rows/s \n")


def test_the_run_times_reading_and_deciding(planted_files, tmp_path, monkeypatch):
    """With the clock above: each of the 6 chunks takes two readings on the main thread to decide (one
    second), the run one more at each end (13 s in all); the reader two readings a chunk (a quarter of a
    second each), its last, finding the end, not counted."""
    monkeypatch.setattr(run_module, "time", _Ticks())
    run = audit(planted_files["log.npz"], tmp_path / "out", chunk_rows=1000)["run"]
    assert (run["runner"], run["workers"], run["chunks"]) == ("single", 1, 6)
    assert (run["decide_seconds"], run["read_seconds"], run["seconds"]) == (6.0, 1.5, 13.0)
    assert run["pairs_per_second"] == 6000 / 13.0


def test_the_reader_closes_its_source_when_stopped_early():
    """The consumer takes one chunk and stops: the source (a generator still held elsewhere) is closed."""
    closed = []

    def source():
        try:
            yield from range(10)
        finally:
            closed.append(True)

    chunks = source()
    reader = run_module.Prefetch(chunks)
    assert next(iter(reader)) == 0
    reader.close()
    assert closed == [True]


def test_a_csv_log_s_bar_never_passes_full_when_its_rows_were_underestimated(tmp_path, monkeypatch, terminal):
    """400 rows of long numbers first, then 30,000 short ones: the rows estimated from the first 64 kB (long
    ones) are far fewer than there are, so the rows read pass the estimate early; the bar stays at 100 %."""
    rng = np.random.default_rng(4)
    header = ",".join(GEOMETRY)
    long_rows = [",".join(repr(x) for x in rng.uniform(0.5, 1.0, 14).tolist()) for _ in range(400)]
    short_rows = ["0,0,0,1,0,0,1,5,0,0,0,0,0,1"] * 30_000
    path = tmp_path / "log.csv"
    path.write_text("\n".join([header, *long_rows, *short_rows]) + "\n")
    monkeypatch.setattr(progress_module, "time", _Ticks())
    stream = terminal()
    monkeypatch.setattr(sys, "stderr", stream)
    audit(path, tmp_path / "out", chunk_rows=1000, quiet=False)
    percents = [float(line.split("]")[1].split("%")[0]) for line in stream.getvalue().split("\r")[1:]]
    assert len(percents) >= 3 and percents[-2] == percents[-1] == 100.0 and max(percents) == 100.0


def test_progress_on_a_stream_that_cannot_say_it_is_a_terminal_is_off():
    """A stream with only write and flush (no isatty): taken for not a terminal, nothing drawn, no error."""

    class Sink:
        def __init__(self) -> None:
            self.text = ""

        def write(self, text: str) -> None:
            self.text += text

        def flush(self) -> None:
            pass

    sink = Sink()
    bar = Progress(10, stream=sink)
    bar.update(5)
    bar.finish()
    bar.close()
    assert not bar.enabled and sink.text == ""


@pytest.mark.parametrize("where", [{"workers": 2}, {"dask": "tcp://sched:8786"}])
def test_without_dask_a_cluster_run_is_refused_before_any_work(log, tmp_path, monkeypatch, where):
    """Dask made missing: --workers or --dask alone is refused naming what to install, before the log is read
    (the runner is never reached) and with no OUTDIR."""
    from explorer.audit.needs import DASK, MissingPackage
    from explorer.audit.runners import distributed

    def require(need, what=None):
        if need is DASK:
            raise MissingPackage("running on a Dask cluster needs distributed")

    def never(*args, **kwargs):
        raise AssertionError("the Dask runner was reached")

    monkeypatch.setattr(run_module, "require", require)
    monkeypatch.setattr(distributed, "run_dask", never)
    with pytest.raises(MissingPackage):
        audit(log, tmp_path / "out", **where)
    assert not (tmp_path / "out").exists()
