"""The layers hold: import-linter's contracts (pyproject.toml) pass on the tree and catch breaches.

The contracts: ``solver`` imports nothing of ``explorer`` and no Qt, pyvista, VTK or plotting
library; ``explorer.model`` no Qt, pyvista, VTK or matplotlib; ``explorer.view`` and ``explorer.web``
no Qt; ``explorer.cli`` > ``explorer.qt`` > ``explorer.web`` > ``explorer.view`` | ``explorer.audit``
(side by side, neither importing the other) > ``explorer.model`` > ``explorer.system`` as layers; only
the command line imports the audit; the audit's rooms in layers (command > run > runners | report >
decision > log); the model's rooms in layers (actions > formats > words > derived > state); no import
cycle among the modules of a package.  The
checker resolves relative imports, sees imports inside functions and follows indirect chains;
the breach tests below run it on a copy of the tree with one bad import each.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT = Path(sys.executable).with_name("lint-imports")


def _lint(tree: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run(
        [str(LINT), "--no-cache", "--config", str(tree / "pyproject.toml")],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _copy_tree(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    for package in ("solver", "explorer"):
        shutil.copytree(ROOT / package, tree / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    return tree


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + "\n" + text + "\n", encoding="utf-8")


def test_the_contracts_hold_on_the_tree():
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "11 kept, 0 broken" in result.stdout


def test_the_layers_are_packages():
    rooms = ("audit", "audit/log", "audit/decision", "audit/report", "audit/runners")
    rooms += tuple(f"model/{room}" for room in ("actions", "formats", "words", "derived", "state"))
    for layer in ("model", "view", "web", "qt", *rooms):
        assert (ROOT / "explorer" / layer / "__init__.py").is_file()
    # the command line, and the console script's first module (it records signals before the command line is imported)
    assert not [p.name for p in (ROOT / "explorer").glob("*.py") if p.name not in ("__init__.py", "cli.py", "start.py")]


@pytest.mark.parametrize(
    "module, line, contract",
    [
        # a relative import of the window from the model, inside a function
        ("explorer/model/derived/analysis.py", "def _bad():\n    from ...qt.window import MainWindow", "layers"),
        # the drawing code reaching for the Qt window (which imports Qt: an indirect chain)
        ("explorer/view/scene_view.py", "from ..qt import window", "explorer.view imports no Qt"),
        # indirect: the view imports the model (allowed), the model imports Qt (so the view does too)
        ("explorer/model/words/text.py", "import PySide6.QtCore", "explorer.view imports no Qt"),
        ("explorer/model/words/parabola.py", "import matplotlib.pyplot", "explorer.model imports no Qt"),
        ("solver/vec.py", "from explorer.model.state import scene", "solver is pure"),
        ("solver/vec.py", "import vtkmodules.vtkCommonCore", "solver is pure"),
        # the audit (scene files, plots) reaching for the window, or for pyvista
        ("explorer/audit/report/cases.py", "def _bad():\n    from ...qt import window", "explorer.audit imports no Qt"),
        ("explorer/audit/report/plot.py", "import pyvista", "explorer.audit imports no Qt"),
        # the web page reaching for Qt (through its own module), and the drawing code for the web page
        ("explorer/web/recorded.py", "def _bad():\n    import PySide6.QtWidgets", "explorer.web imports no Qt"),
        ("explorer/view/render.py", "def _bad():\n    from ..web import page", "layers"),
        # the model reaching for the audit (a cycle through the audit's scene files)
        ("explorer/model/formats/scene_io.py", "def _bad():\n    from ...audit.report import cases", "layers"),
        # the view and the audit side by side: neither imports the other
        ("explorer/view/palette.py", "from explorer.audit import constants", "layers"),
        ("explorer/audit/report/plot.py", "def _bad():\n    from ...view import palette", "layers"),
        # the web page (not in the audit's layer, above it) running the audit: only the command line does
        ("explorer/web/page.py", "def _bad():\n    from ..audit import run", "only the command line imports the audit"),
        # the model's rooms: the scene reaching up for its words, a derived quantity for its label, the
        # words for the lab table's CSV, the table for the session (each a cycle the rooms forbid)
        ("explorer/model/state/scene.py", "def _bad():\n    from ..words import text", "the model's rooms"),
        ("explorer/model/derived/conserved.py", "from ..words.text import fmt", "the model's rooms"),
        ("explorer/model/words/values.py", "def _bad():\n    from ..formats import lab_table", "the model's rooms"),
        ("explorer/model/formats/lab_table.py", "def _bad():\n    from ..actions import session", "the model's rooms"),
        # the audit's rooms: the log reaching up for the decision, the decision for the report
        ("explorer/audit/log/columns.py", "def _bad():\n    from ..decision import judging", "the audit's rooms"),
        ("explorer/audit/decision/worst.py", "def _bad():\n    from ..report import cases", "the audit's rooms"),
        # the set-up checks reaching for numpy, directly or through the solver
        (
            "explorer/system/files.py",
            "def _bad():\n    import numpy",
            "explorer.system imports only the standard library",
        ),
        (
            "explorer/system/interrupt.py",
            "from solver import limits",
            "explorer.system imports only the standard library",
        ),
        # the one safe writer reaching up for the scene model
        ("explorer/system/files.py", "def _bad():\n    from ..model.state import scene", "layers"),
        # the compile policy importing the exact stage it loads by name (the cycle it once was)
        ("solver/_compile.py", "def _bad():\n    from . import _refine", "no import cycles"),
    ],
)
def test_a_breach_is_caught(tmp_path, module, line, contract):
    tree = _copy_tree(tmp_path)
    _append(tree / module, line)
    result = _lint(tree)
    assert result.returncode != 0, result.stdout
    broken = [row for row in result.stdout.splitlines() if row.endswith("BROKEN")]
    assert any(row.startswith(contract) for row in broken), result.stdout


def test_the_set_up_package_imports_only_the_standard_library():
    """explorer.system runs with the system Python before .venv exists: every import it makes,
    found in its source, is of the standard library (or of itself)."""
    import ast

    for path in (ROOT / "explorer" / "system").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top == "__future__", f"{path.name} imports {name}"
