"""The command line: solve prints JSON, refused files exit 2 with one line."""

import json
import math
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from explorer.cli import main
from explorer.model.formats.gallery import SCENES_DIR


def _solve(path, capsys):
    code = main(["solve", str(path)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_solve_prints_the_promised_fields(capsys):
    """Every promised field of the default scene, against the values derived here by hand.

    A = (-5, -1.2, 0) moving (9, 1, 0), r 1; B fixed at (1.5, 0, 0), r 1.5.  From A: p = (6.5, 1.2, 0),
    v = (-9, -1, 0), R = 2.5, so f(t) = 82 t^2 - 119.4 t + 37.44 and disc = 119.4^2 - 4 x 82 x 37.44.
    """
    code, out, err = _solve(SCENES_DIR / "default.json", capsys)
    assert code == 0 and err == ""
    assert not re.search(r"\bNaN\b|Infinity", out)
    data = json.loads(out)
    a, b, c = 82.0, -119.4, 37.44
    disc = b * b - 4 * a * c
    t0, t1 = (-b - math.sqrt(disc)) / (2 * a), (-b + math.sqrt(disc)) / (2 * a)
    close = dict(rel=1e-12, abs=1e-12)
    assert data["status"] == "hit" and data["hit"] is True and data["decided_exactly"] is False
    assert (data["quadratic"]["a"], data["quadratic"]["b"], data["quadratic"]["c"]) == pytest.approx((a, b, c), **close)
    assert data["quadratic"]["discriminant"] == pytest.approx(disc, **close)
    assert data["quadratic"]["R"] == 2.5
    assert data["roots"] == pytest.approx([t0, t1], **close) and data["toi"] == data["roots"][0]
    assert data["quadratic"]["t_min"] == pytest.approx(119.4 / 164, **close)
    a_at = np.array([-5 + 9 * t0, -1.2 + t0, 0.0])
    normal = (np.array([1.5, 0.0, 0.0]) - a_at) / 2.5
    assert data["contact"]["time"] == pytest.approx(t0, **close)
    assert data["contact"]["normal"] == pytest.approx(normal.tolist(), **close)
    assert data["contact"]["point"] == pytest.approx((a_at + 1.0 * normal).tolist(), **close)
    va = np.array([9.0, 1.0, 0.0])
    reflected = va - 2 * va.dot(normal) * normal  # B is fixed and e = 1: a mirror in the tangent plane
    assert data["reflected_velocity"] == pytest.approx(reflected.tolist(), **close)
    assert data["velocities_after"]["A"] == data["reflected_velocity"]
    assert data["velocities_after"]["B"] == [0.0, 0.0, 0.0]
    angle = math.degrees(math.asin(abs(va.dot(normal)) / np.linalg.norm(va)))
    assert data["ricochet_angle_deg"] == pytest.approx(angle, **close)
    assert data["distance_to_hit"] == pytest.approx(t0 * math.hypot(9, 1), **close)
    assert len(data["trace"]) == 5 and "HIT" in data["trace"][-1]  # overlap, motion, approach, disc, horizon
    first = data["path"]["events"][0]
    assert first["bodies"] == ["A", "B"] and first["kind"] == "impact"
    assert first["time"] == pytest.approx(t0, **close)
    assert first["impulse"] == pytest.approx((reflected - va).tolist(), **close)  # mass 1


def test_seed_004_sample_reports_overlap(capsys):
    code, out, _ = _solve(SCENES_DIR / "seed004_sample_overlap.json", capsys)
    data = json.loads(out)
    assert code == 0 and data["status"] == "overlapping" and data["toi"] == 0.0 and data["hit"] is True


def test_refused_scene_exits_2_with_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "sphere-explorer/9"}')
    code, out, err = _solve(bad, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "unknown version" in err


def test_missing_argument_is_a_usage_error(capsys):
    assert main(["solve"]) == 2


def test_console_script_runs_as_a_process():
    proc = subprocess.run(
        [sys.executable, "-m", "explorer.cli", "solve", str(SCENES_DIR / "seed003_long_shot.json")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["status"] == "miss"


CONSOLE = """
import json, sys
from explorer.cli import console
sys.argv = ["sphere-explorer", *sys.argv[1:]]
code = console()
from solver import _compile
print(json.dumps({"code": code, "compiled": _compile.compiling(), "numba": "numba" in sys.modules}))
"""

#: The columns of an audit log, and two rows: a head-on hit at t = 0.5 and a miss.
AUDIT_LOG = "a_cx,a_cy,a_cz,a_vx,a_vy,a_vz,a_r,b_cx,b_cy,b_cz,b_vx,b_vy,b_vz,b_r\n" \
            "0,0,0,1,0,0,0.5,1.5,0,0,0,0,0,0.5\n0,0,0,1,0,0,0.5,10,0,0,0,0,0,0.5\n"  # fmt: skip


@pytest.mark.parametrize(
    "command, setting, compiled",
    [
        ("solve", None, False),  # one scene: plain Python, numba never imported
        ("solve", "1", True),  # the user's setting wins
        ("audit", None, True),  # millions of pairs: compiled, although --horizon imports the solver's limits first
        ("audit", "0", False),
    ],
)
def test_the_console_script_runs_the_solver_compiled_for_the_audit_only(tmp_path, command, setting, compiled):
    """The console script asks for the plain Python solver (one scene needs a few queries), the audit for the
    compiled one; a user's SPHERE_SOLVER_JIT (0 or 1) wins over both."""
    env = {k: v for k, v in os.environ.items() if k != "SPHERE_SOLVER_JIT"}
    if setting is not None:
        env["SPHERE_SOLVER_JIT"] = setting
    if command == "solve":
        args = ["solve", str(SCENES_DIR / "default.json")]
    else:
        (tmp_path / "log.csv").write_text(AUDIT_LOG)
        args = ["audit", str(tmp_path / "log.csv"), "-o", str(tmp_path / "out"), "-q", "--horizon", "1/2"]
    done = subprocess.run([sys.executable, "-c", CONSOLE, *args], capture_output=True, text=True, env=env,
                          timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.splitlines()[-1])
    assert out["code"] == 0 and out["compiled"] is compiled
    if command == "audit":  # (its own loops import numba either way)
        assert done.stdout.splitlines()[0].startswith("2 pairs decided, 1 hit")
    else:
        assert out["numba"] is compiled
