"""Ctrl-C and kill during an audit: one line, exit 130 or 143, no OUTDIR, no staging folder left.

Signals are sent to the console script, run as a user runs it, at moments
spread over a whole run; a run killed outright (SIGKILL) leaves its staging
folder, which the next run in that folder removes.  A KeyboardInterrupt that
C code swallowed (as once inside a numba ctypes callback, when the audit then
completed with exit 0) must still stop the run.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import planted as planted_logs
import pytest

from explorer.audit import run as audit_run
from explorer.audit.log.columns import GEOMETRY
from explorer.cli import main
from explorer.model.formats.scene_io import TEMP_TAG

EXE = Path(sys.executable).with_name("sphere-explorer")


@pytest.fixture(scope="module")
def big_log(tmp_path_factory) -> Path:
    """A log that takes the console script a few seconds: 600 000 generic rows, in chunks of 20 000."""
    rng = np.random.default_rng(8)
    table = np.array(planted_logs.generic_rows(rng, 20_000))
    table = np.tile(table, (30, 1))
    columns = {name: np.ascontiguousarray(table[:, k]) for k, name in enumerate(GEOMETRY)}
    columns["engine_hit"] = (rng.random(table.shape[0]) < 0.3).astype(float)
    path = tmp_path_factory.mktemp("big") / "big.npz"
    planted_logs.write_log(path, columns)
    return path


def _start(log: Path, out: Path) -> subprocess.Popen:
    return subprocess.Popen([str(EXE), "audit", str(log), "-o", str(out), "--chunk-rows", "20000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if TEMP_TAG in p.name or ".audit-" in p.name)


@pytest.fixture(scope="module")
def run_seconds(big_log, tmp_path_factory) -> float:
    """How long a whole run takes here (it must complete: exit 0), timed on a second run: the first may compile the
    solver's machine code (a fresh install), which the runs that are interrupted then load from the cache."""
    folder = tmp_path_factory.mktemp("whole")
    for k in range(2):
        start = time.perf_counter()
        proc = _start(big_log, folder / f"out{k}")
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
        assert (folder / f"out{k}" / "summary.json").is_file()
    return time.perf_counter() - start


MOMENTS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_at_any_moment(signum, code, big_log, run_seconds, tmp_path):
    """At moments spread over a run: interrupted in one line with no OUTDIR, or (a signal that came
    after the run had printed its result) a complete run; never anything in between."""
    interrupted = 0
    for k, fraction in enumerate(MOMENTS):
        folder = tmp_path / f"at{k}"
        folder.mkdir()
        proc = _start(big_log, folder / "out")
        time.sleep(max(0.3, fraction * run_seconds))
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=120)
        assert _leftovers(folder) == [], fraction
        if err == "" and proc.returncode in (0, -signum):  # it had completed (the signal came as it exited)
            assert out.splitlines()[1] == str(folder / "out")
            assert (folder / "out" / "summary.json").is_file()
            continue
        interrupted += 1
        assert proc.returncode == code, (fraction, err)
        assert err.strip().splitlines() == ["sphere-explorer audit: interrupted; nothing was written"], err
        assert not (folder / "out").exists()
    assert interrupted >= len(MOMENTS) // 2, f"only {interrupted} of the runs were stopped mid-way"


def test_a_killed_run_is_cleaned_up_by_the_next(big_log, run_seconds, tmp_path):
    proc = _start(big_log, tmp_path / "first")
    deadline = time.monotonic() + run_seconds + 60
    while not _leftovers(tmp_path) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)  # until its staging folder exists
    proc.kill()
    proc.wait(timeout=60)
    stale = _leftovers(tmp_path)
    assert stale, "the killed run should have left its staging folder (it was killed after making it)"
    assert main(["audit", str(big_log), "-o", str(tmp_path / "second"), "-q", "--chunk-rows", "20000"]) == 0
    assert _leftovers(tmp_path) == []
    assert not (tmp_path / "first").exists()


def _small_log(folder: Path) -> Path:
    """``folder/log.npz``: 3000 generic rows (three chunks of 1000)."""
    rng = np.random.default_rng(2)
    table = np.array(planted_logs.generic_rows(rng, 3000))
    columns = {name: np.ascontiguousarray(table[:, k]) for k, name in enumerate(GEOMETRY)}
    planted_logs.write_log(folder / "log.npz", columns)
    return folder / "log.npz"


def test_a_swallowed_interrupt_still_stops_the_run(tmp_path, monkeypatch, capsys):
    """SIGTERM whose KeyboardInterrupt is swallowed by the code it lands in (before: exit 0, a complete run)."""
    _small_log(tmp_path)
    original = audit_run.audit_chunk
    calls = []

    def swallowing(raw, settings):
        calls.append(1)
        if len(calls) == 2:
            try:
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(0.5)  # the handler runs here
            except KeyboardInterrupt:
                pass  # what a ctypes callback does with it
        return original(raw, settings)

    monkeypatch.setattr(audit_run, "audit_chunk", swallowing)
    code = main(["audit", str(tmp_path / "log.npz"), "-o", str(tmp_path / "out"), "--chunk-rows", "1000"])
    err = capsys.readouterr().err
    assert code == 143, err
    assert len(calls) == 2, "the run went on after the signal"
    assert not (tmp_path / "out").exists()
    assert _leftovers(tmp_path) == []
    assert err.strip().splitlines() == ["sphere-explorer audit: interrupted; nothing was written"]


def test_a_signal_inside_numba_s_compiler_callback_is_one_line(tmp_path, monkeypatch, capsys):
    """Raised inside llvmlite's ctypes callback, a KeyboardInterrupt was printed with a 7-line traceback and
    lost; there the signal is only recorded, and the run stops at its next check."""
    _small_log(tmp_path)
    callback_globals = {"__name__": "llvmlite.binding.executionengine", "os": os, "signal": signal, "time": time}
    exec("def notify():\n    os.kill(os.getpid(), signal.SIGTERM)\n    time.sleep(0.5)\n    return 'finished'\n",
         callback_globals)  # fmt: skip
    original = audit_run.audit_chunk
    seen = []

    def compiling(raw, settings):
        if not seen:
            seen.append(callback_globals["notify"]())  # no exception escapes the callback
        return original(raw, settings)

    monkeypatch.setattr(audit_run, "audit_chunk", compiling)
    code = main(["audit", str(tmp_path / "log.npz"), "-o", str(tmp_path / "out"), "--chunk-rows", "1000"])
    err = capsys.readouterr().err
    assert seen == ["finished"]
    assert code == 143 and err.strip().splitlines() == ["sphere-explorer audit: interrupted; nothing was written"], err
    assert not (tmp_path / "out").exists()


SIGNAL_IN_A_WEAKREF_CALLBACK = """
import os, signal, sys, time, weakref
from explorer.audit import run as audit_run
from explorer.cli import main

class Lock:
    pass

original = audit_run.audit_chunk
kept = []

def notify(_):
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(0.5)  # the handler runs here, inside the callback, where Python prints and drops exceptions

def dropping_a_lock(raw, settings):
    if not kept:
        lock = Lock()
        kept.append(weakref.ref(lock, notify))
        del lock  # as the import system's module locks are dropped
    return original(raw, settings)

audit_run.audit_chunk = dropping_a_lock
sys.exit(main(["audit", sys.argv[1], "-o", sys.argv[2], "--chunk-rows", "1000"]))
"""


def test_a_signal_inside_a_weakref_callback_is_one_line(tmp_path):
    """A SIGTERM that landed in the import system's weakref callback (seen in CI) printed 'Exception ignored
    in ...' and a 6-line traceback before the one line; run as a process, so Python's own report is what shows."""
    _small_log(tmp_path)
    script = tmp_path / "weakref_signal.py"
    script.write_text(SIGNAL_IN_A_WEAKREF_CALLBACK)
    proc = subprocess.run([sys.executable, str(script), str(tmp_path / "log.npz"), str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert proc.returncode == 143, proc.stderr
    assert proc.stderr.strip().splitlines() == ["sphere-explorer audit: interrupted; nothing was written"]
    assert not (tmp_path / "out").exists()
    assert _leftovers(tmp_path) == []
