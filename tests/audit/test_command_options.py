"""``sphere-explorer audit``'s options reach the audit: run through the real entry point, in this process."""

from __future__ import annotations

import os
import sys

import pytest

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
