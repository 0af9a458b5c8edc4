"""Layer boundaries: the solver imports no Qt, pyvista or explorer; the model and drawing code import no Qt."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
QT = {"PySide6", "PyQt5", "PyQt6", "pyvistaqt", "shiboken6", "qtpy"}
RENDERING = {"pyvista", "vtk", "vtkmodules", "matplotlib", "pyqtgraph"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def _files(package: str):
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", _files("solver"), ids=lambda p: p.name)
def test_solver_is_pure(path):
    bad = _imports(path) & (QT | RENDERING | {"explorer", "matplotlib", "pyqtgraph"})
    assert not bad, f"{path.name} imports {bad}"


#: The only modules of the app allowed to import Qt: the window layer.
QT_LAYER = {"window.py", "panels.py", "app.py", "plot_panel.py", "lab_panel.py"}
#: The scene model: neither Qt nor the rendering libraries.
MODEL = {
    "scene.py",
    "scene_io.py",
    "analysis.py",
    "precision.py",
    "paste.py",
    "parabola.py",
    "palette.py",
    "gallery.py",
    "history.py",
    "text.py",
}


@pytest.mark.parametrize("path", [p for p in _files("explorer") if p.name not in QT_LAYER], ids=lambda p: p.name)
def test_model_and_drawing_import_no_qt(path):
    bad = _imports(path) & QT
    assert not bad, f"{path.name} imports {bad}"


@pytest.mark.parametrize("name", sorted(MODEL))
def test_scene_model_imports_no_rendering(name):
    bad = _imports(ROOT / "explorer" / name) & (QT | RENDERING)
    assert not bad, f"{name} imports {bad}"


def test_the_layers_exist_as_listed():
    names = {p.name for p in _files("explorer")}
    assert QT_LAYER <= names and MODEL <= names
