"""The notebook example (examples/first_steps.ipynb): its code cells, run in order as a notebook runs them, in a
fresh process in a folder of its own, load, solve, change a velocity and draw through the front door."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import imageio.v3 as iio

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "examples" / "first_steps.ipynb"


def test_the_notebook_s_cells_run_in_order_and_draw_the_faster_shot(tmp_path):
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    code = "\n\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "code")
    (tmp_path / "scenes").symlink_to(ROOT / "scenes")  # the notebook runs from the project's folder
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    status, toi, _ = lines[0].split(" ", 2)
    assert status == "hit" and 0.0 < float(toi) < 1.0
    sooner, _, later = lines[1].partition(" < ")
    assert float(sooner) < float(later) == float(toi)
    picture = iio.imread(tmp_path / "faster.png")
    assert picture.shape[:2] == (500, 800)
