"""The command line: solve prints JSON, refused files exit 2 with one line."""

import json
import re
import math
import subprocess
import sys

from explorer.cli import main
from explorer.model.gallery import SCENES_DIR


def _solve(path, capsys):
    code = main(["solve", str(path)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_solve_prints_the_promised_fields(capsys):
    code, out, err = _solve(SCENES_DIR / "default.json", capsys)
    assert code == 0 and err == ""
    data = json.loads(out)
    for key in ("hit", "toi", "roots", "status", "contact", "reflected_velocity", "trace", "quadratic", "path"):
        assert key in data
    assert data["status"] == "hit" and data["hit"] is True
    t0, t1 = data["roots"]
    assert 0 <= data["toi"] == t0 < t1
    normal = data["contact"]["normal"]
    assert math.isclose(math.hypot(*normal), 1.0, rel_tol=1e-12)
    assert not re.search(r"\bNaN\b|Infinity", out)


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
