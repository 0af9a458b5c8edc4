"""A first run says only what it measured: counts in words, nulls for what was not computed, the time unit.

The logs here are a few rows whose answers are worked out by hand in each
docstring (head-on shots along x: contact when the gap between the centres
has closed to ``R = rA + rB``).
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from audit_logs import head_on_shot as _shot
from audit_logs import read_summary
from planted import write_rows

from explorer.audit.log.units import horizons_and_least_motion
from explorer.audit.report import plot
from explorer.audit.run import audit
from solver import Body, Status, sweep

COMMAND = Path(sys.executable).with_name("sphere-explorer")


def _command(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "SPHERE_SOLVER_JIT"}
    return subprocess.run([str(COMMAND), "audit", *args], capture_output=True, text=True, env=env, timeout=300)


@pytest.fixture
def verdicts_only(tmp_path) -> Path:
    """Row 0: gap 1.5, contact at t = 0.5, the engine says no (a false miss); row 1: gap 10, never within
    t <= 1 (closest 9), the engine says yes (a false hit); row 2: gap 10, the engine says no. No times."""
    return write_rows(
        tmp_path / "log.npz", [_shot(1.5), _shot(10.0), _shot(10.0)],
        engine_hit=np.array([0.0, 1.0, 0.0]), step=np.array([7, 7, 8]), a_id=np.array([3, 3, 3]),
        b_id=np.array([9, 12, 12]),
    )  # fmt: skip


def test_counts_in_words_and_no_times_counted(verdicts_only, tmp_path):
    """The false miss (row 0) is still in contact at t = 1 (the gap has closed to 0.5): the step-lag hint."""
    done = _command(str(verdicts_only), "-o", str(tmp_path / "out"))
    assert done.returncode == 0
    assert done.stdout.splitlines()[0] == "3 pairs decided, 1 hit; engine: 1 false hit, 1 false miss"
    assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith(
        "sphere-explorer audit: warning: 1 of the engine's 1 false miss is still in contact at the end of the step,"
    )
    engine = read_summary(tmp_path / "out")["answers"]["engine"]
    assert (engine["false_hits"], engine["false_misses"], engine["false_misses_in_contact_at_end"]) == (1, 1, 1)
    assert engine["toi_errors"] is engine["toi_error_max"] is engine["toi_compared"] is None


def test_no_empty_toi_panel_and_the_worst_named_by_the_engine(verdicts_only, tmp_path):
    """Severity: |closest - R| / R: the false hit 8 (closest 9), the false miss 0.5 (closest 0.5): hit first."""
    summary = audit(verdicts_only, tmp_path / "out")
    assert [(c["kind"], c["row"], c["step"], c["a_id"], c["b_id"]) for c in summary["worst"]] == [
        ("false hit", 1, 7, 3, 12), ("false miss", 0, 7, 3, 9)
    ]  # fmt: skip
    fig = plot.write_plot(summary, tmp_path / "audit.png")
    bars, times = fig.axes
    assert [t.get_text() for t in bars.get_xticklabels()] == ["false hits", "false misses"]
    assert not times.axison and [t.get_text() for t in times.texts] == [plot.NO_TIMES]
    assert [t.get_text() for t in fig.texts] == [
        "3 pairs audited exactly (1 hit, 0 rows skipped)",
        "Worst: false hit at row 1 (step 7, bodies 3 and 12); false miss at row 0 (step 7, bodies 3 and 9)",
    ]


def test_times_logged_but_none_compared_is_null_not_zero(tmp_path):
    """engine_toi alone: a hit where a time is given.  Row 0 (gap 1.5, a hit at 0.5) has none: a false
    miss; row 1 (gap 10) none: right.  No pair is a hit for both, so no time was compared."""
    log = write_rows(tmp_path / "log.npz", [_shot(1.5), _shot(10.0)], engine_toi=np.array([np.nan, np.nan]))
    summary = audit(log, tmp_path / "out")
    engine = summary["answers"]["engine"]
    assert (engine["false_misses"], engine["toi_compared"], engine["toi_errors"]) == (1, 0, 0)
    assert (
        engine["toi_error_max"] is None and read_summary(tmp_path / "out")["answers"]["engine"]["toi_error_max"] is None
    )
    fig = plot.write_plot(summary, tmp_path / "audit.png")
    assert [t.get_text() for t in fig.axes[1].texts] == [plot.NO_TIMES_COMPARED] and not fig.axes[1].axison


def test_with_times_the_histogram_is_drawn(tmp_path):
    """Row 0: gap 1.5, contact at exactly 0.5, the engine says 0.5: one time compared, exactly right."""
    log = write_rows(tmp_path / "log.npz", [_shot(1.5)], engine_toi=np.array([0.5]))
    summary = audit(log, tmp_path / "out")
    assert summary["answers"]["engine"]["toi_error_max"] == 0.0
    fig = plot.write_plot(summary, tmp_path / "audit.png")
    assert fig.axes[1].axison and fig.axes[1].get_title() == "TOI errors (1 pair compared, 1 exactly right)"


def test_a_status_prints_its_name():
    status = sweep(Body(center=(0, 0, 0), velocity=(1, 0, 0), radius=0.5),
                   Body(center=(1.5, 0, 0), velocity=(0, 0, 0), radius=0.5)).status  # fmt: skip
    assert (str(status), f"{status}", f"{status:>5}", f"{status:d}", int(status)) == ("HIT", "HIT", "  HIT", "4", 4)
    assert Status(4) is status and repr(status) == "<Status.HIT: 4>"


def test_the_horizon_is_the_time_unit(tmp_path):
    """A at 60 m/s, B 3.5 m away (R = 1): contact after 2.5 m, at t = 1/24 s: a hit within one second,
    a miss within a step of 1/60 s (2.5 m > 1 m travelled)."""
    log = write_rows(tmp_path / "log.npz", [_shot(3.5, speed=60.0)])
    per_second = _command(str(log), "-o", str(tmp_path / "s"))
    per_step = _command(str(log), "-o", str(tmp_path / "t"), "--horizon", "1/60")
    assert per_second.returncode == per_step.returncode == 0
    assert per_second.stdout.startswith("1 pair decided, 1 hit;") and per_step.stdout.startswith(
        "1 pair decided, 0 hits;"
    )
    assert read_summary(tmp_path / "s")["time_unit"]["source"] == "default"
    unit = read_summary(tmp_path / "t")["time_unit"]
    assert (unit["source"], unit["horizon"], unit["least_motion"]) == ("--horizon", 1 / 60, 60.0 / 60)
    help_text = _command("--help").stdout
    assert "--horizon" in help_text and "time unit" in help_text


def test_horizon_twice_is_refused(tmp_path):
    log = write_rows(tmp_path / "log.npz", [_shot(3.5)], horizon=np.array([1.0]))
    done = _command(str(log), "-o", str(tmp_path / "o"), "--horizon", "0.5")
    assert done.returncode == 2 and not (tmp_path / "o").exists()
    assert done.stderr.splitlines() == [
        "sphere-explorer audit: --horizon: the log has a horizon column of its own; leave out one or the other"
    ]


def test_velocities_in_the_wrong_unit_are_warned_about_once(tmp_path):
    """Every moving pair covers 2e6 contact distances (R = 1) per horizon: warned; a still pair does not count.
    With one pair at 1 R per horizon among them: no warning."""
    fast = [_shot(5.0, speed=2e6), _shot(7.0, speed=3e6), _shot(5.0, speed=0.0)]
    warned = _command(str(write_rows(tmp_path / "fast.npz", fast)), "-o", str(tmp_path / "w"))
    assert warned.returncode == 0 and len(warned.stderr.splitlines()) == 1
    assert warned.stderr.startswith("sphere-explorer audit: warning: every moving pair moves more than 1e+06 contact")
    assert read_summary(tmp_path / "w")["warnings"] == [warned.stderr.split("warning: ", 1)[1].rstrip("\n")]
    assert read_summary(tmp_path / "w")["time_unit"]["least_motion"] == 2e6
    mixed = _command(str(write_rows(tmp_path / "mixed.npz", [*fast, _shot(5.0)])), "-o", str(tmp_path / "m"))
    assert mixed.returncode == 0 and mixed.stderr == ""
    assert read_summary(tmp_path / "m")["warnings"] == []


def test_the_horizons_and_least_motion_of_a_chunk():
    """The compiled one-pass scan against the definition, pair by pair with math.hypot: pairs that do not
    move are left out, and so are the rows not kept; a chunk with none moving (or no pairs) gives inf."""
    rng = np.random.default_rng(5)
    m = 500
    va, vb = rng.normal(0.0, 3.0, (m, 3)), rng.normal(0.0, 3.0, (m, 3))
    vb[::7] = va[::7]  # these do not move relative to each other
    ra, rb, h = rng.uniform(0.1, 2.0, m), rng.uniform(0.1, 2.0, m), rng.uniform(0.01, 3.0, m)
    kept = rng.uniform(size=m) < 0.8
    kept[np.argmin(h)] = kept[np.argmax(h)] = False  # the extremes are not counted
    expected = min(math.hypot(*(vb[i] - va[i])) * h[i] / (ra[i] + rb[i]) for i in range(m) if (vb[i] != va[i]).any())
    low, high, least = horizons_and_least_motion(va.T, vb.T, ra, rb, h)
    assert (low, high) == (min(h), max(h))
    assert math.isclose(least, expected, rel_tol=1e-15)
    in_kept = [
        math.hypot(*(vb[i] - va[i])) * h[i] / (ra[i] + rb[i]) for i in range(m) if kept[i] and (vb[i] != va[i]).any()
    ]
    low, high, least = horizons_and_least_motion(va.T, vb.T, ra, rb, h, kept)
    assert (low, high) == (min(h[kept]), max(h[kept])) and low > min(h) and high < max(h)
    assert math.isclose(least, min(in_kept), rel_tol=1e-15)
    assert horizons_and_least_motion(va[::7].T, vb[::7].T, ra[::7], rb[::7], h[::7])[2] == math.inf
    empty = np.zeros((0, 3))
    assert horizons_and_least_motion(empty.T, empty.T, np.zeros(0), np.zeros(0), np.zeros(0)) == (
        math.inf, -math.inf, math.inf,
    )  # fmt: skip
