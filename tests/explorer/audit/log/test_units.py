"""The time-unit warning, word for word, for each place the horizon came from (in this process).

Pairs of contact distance R = 1 whose slowest moving pair covers ``speed * horizon`` contact distances
per horizon: above 1e6 the audit warns once (and still audits), naming where the horizon came from.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from audit_logs import head_on_shot as _shot
from audit_logs import read_summary
from planted import write_rows

from explorer.cli import main

HINT = "Velocities are per horizon's unit: an engine stepping at dt = 1/60 s logs m/s and horizon = 1/60"


def _warning(where: str, least: str) -> str:
    return (
        "sphere-explorer audit: warning: every moving pair moves more than 1e+06 contact distances (rA + rB) "
        f"within its horizon (at least {least}): are the velocities per the time unit of {where}? {HINT}\n"
    )


@pytest.mark.parametrize(
    "speeds, horizon, option, where, least",
    [
        # no horizon column, no option: horizon 1, the slowest moving pair 2.7182e6 R per horizon (3 digits shown)
        ((2.7182e6, 4e6, 0.0), None, (), "the default horizon 1 (the log has no horizon column)", "2.72e+06"),
        # --horizon 2: 1.5e6 * 2 = 3e6
        ((1.5e6, 9e6), None, ("--horizon", "2"), "--horizon", "3e+06"),
        # a horizon column of 1/4: 8e6 / 4 = 2e6
        ((8e6, 1e7), 0.25, (), "the log's horizon column", "2e+06"),
    ],
)
def test_fast_pairs_are_warned_about_naming_where_the_horizon_came_from(
    tmp_path, capsys, speeds, horizon, option, where, least
):
    rows = [_shot(5.0, speed=s) for s in speeds]
    extra = {} if horizon is None else {"horizon": np.full(len(rows), horizon)}
    log = write_rows(tmp_path / "log.npz", rows, **extra)
    assert main(["audit", str(log), "-o", str(tmp_path / "out"), *option]) == 0
    out, err = capsys.readouterr()
    assert err == _warning(where, least)
    assert read_summary(tmp_path / "out")["warnings"] == [err.split("warning: ", 1)[1].rstrip("\n")]


def test_one_pair_within_the_unit_silences_it(tmp_path, capsys):
    # exactly 1e6 R per horizon: not more than 1e6
    log = write_rows(tmp_path / "log.npz", [_shot(5.0, speed=2e6), _shot(5.0, speed=1e6)])
    assert main(["audit", str(log), "-o", str(tmp_path / "out")]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    "origin, option, low, high, least, horizon, span, motion",
    [
        ("column", None, 0.5, 0.5, 2.0, 0.5, [0.5, 0.5], 2.0),  # one horizon in every row
        ("column", None, 0.25, 4.0, 2.0, None, [0.25, 4.0], 2.0),  # horizons that differ
        ("column", None, math.inf, -math.inf, 2.0, None, None, 2.0),  # no pair decided
        ("--horizon", 0.125, math.inf, -math.inf, 3.0, 0.125, [0.125, 0.125], 3.0),
        ("default", None, math.inf, -math.inf, math.inf, 1.0, [1.0, 1.0], None),  # nothing moves
    ],
)  # fmt: skip
def test_the_time_unit_says_where_the_horizon_came_from_and_its_range(origin, option, low, high, least, horizon,
                                                                       span, motion):  # fmt: skip
    from explorer.audit.log.units import describe

    unit = describe(origin, option, low, high, least)
    assert unit == {"source": origin, "horizon": horizon, "horizon_range": span, "least_motion": motion,
                    "unit_warning": None}  # fmt: skip
