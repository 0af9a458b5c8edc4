"""``sphere-explorer audit``'s options reach the audit, and its endings other than success are one line:
run through the real entry point, in this process.

For the endings the audit is replaced by a stand-in that fails the way the real one can (the real failures
are in test_bad_logs.py and test_signals.py, in child processes); what is checked is the command's
wording and clean-up around it: each refusal one line on stderr with exit 2, an interruption no OUTDIR."""

from __future__ import annotations

import argparse
import errno
import os
import sys

import pytest

from explorer.audit import cli
from explorer.audit import run as run_module
from explorer.audit.columns import LogError
from explorer.audit.needs import BASE, install_command
from explorer.cli import main

from .conftest import read_summary


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


def test_the_audit_turns_compilation_back_on_for_itself_and_its_workers(log, tmp_path, monkeypatch):
    """The console script turns the solver's compilation off for one-scene commands; millions of pairs need
    it, so the audit turns it on in its environment, which the local Dask workers it starts inherit."""
    for before, after in (("0", "1"), ("1", "1")):
        monkeypatch.setenv("SPHERE_SOLVER_JIT", before)
        assert main(["audit", str(log), "-o", str(tmp_path / f"out{before}"), "-q"]) == 0
        assert os.environ["SPHERE_SOLVER_JIT"] == after


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
    monkeypatch.setitem(sys.modules, "explorer.model.scene_io", None)  # as if the file were gone
    assert main(command(tmp_path)) == 2
    err = capsys.readouterr().err
    assert err == (
        "sphere-explorer audit: explorer.model.scene_io is not installed; install the project with: "
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
    monkeypatch.setattr(cli, "_report", report)
    assert main(command(tmp_path)) == 130
    assert capsys.readouterr().err == "sphere-explorer audit: interrupted; nothing was written\n"
    assert not (tmp_path / "out").exists()


def test_an_interruption_during_the_audit_ends_in_one_line(tmp_path, monkeypatch, capsys):
    failing_audit(monkeypatch, KeyboardInterrupt())
    assert main(command(tmp_path)) == 130
    assert capsys.readouterr() == ("", "sphere-explorer audit: interrupted; nothing was written\n")


def test_the_help_ends_with_the_log_format_unless_the_parser_has_its_own_epilog():
    bare, own = argparse.ArgumentParser(), argparse.ArgumentParser(epilog="see the manual")
    cli.add_arguments(bare)
    cli.add_arguments(own)
    assert bare.epilog == cli.DESCRIPTION and "a_cx a_cy a_cz a_vx" in bare.format_help()
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
    cli.add_arguments(parser)
    placeholders = {}
    for action in parser._actions:
        if action.option_strings and action.nargs != 0 and action.dest != "help":
            placeholders[action.option_strings[-1]] = action.metavar
            assert re.search(rf"\b{re.escape(str(action.metavar))}\b", action.help), action.option_strings
    assert placeholders == {"--output": "OUTDIR", "--toi-tol": "TOL", "--worst": "N", "--chunk-rows": "ROWS",
                            "--horizon": "H", "--dask": "ADDRESS", "--workers": "N"}  # fmt: skip
