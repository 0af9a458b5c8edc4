"""The command a missing package's refusal names: the exact install line for this interpreter, written by hand.

:mod:`explorer.audit.needs` words it from ``sys.executable`` (its pip, or ``python -m pip``), the
working folder (paths inside it are relative) and whether the project runs from its source tree
(``-e .[audit]``) or an installed copy (``sphere-sweep-explorer[audit]``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from explorer.audit import needs
from explorer.audit.needs import ARROW, BASE, DASK, MissingPackage, Need, install_command, missing, require

ROOT = Path(__file__).resolve().parents[3]


def _interpreter(tmp_path: Path, monkeypatch, with_pip: bool) -> Path:
    """A fake environment ``tmp_path/env/bin`` whose python is this process's ``sys.executable``."""
    bin_dir = tmp_path / "env" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").write_text("")
    if with_pip:
        (bin_dir / "pip").write_text("")
    monkeypatch.setattr(sys, "executable", str(bin_dir / "python"))
    return bin_dir


def test_a_base_dependency_is_installed_by_name_with_the_environment_s_pip(tmp_path, monkeypatch):
    _interpreter(tmp_path, monkeypatch, with_pip=True)
    monkeypatch.chdir(tmp_path)
    assert install_command(ARROW) == "env/bin/pip install 'pyarrow>=14'"


def test_without_a_pip_script_the_interpreter_runs_pip(tmp_path, monkeypatch):
    _interpreter(tmp_path, monkeypatch, with_pip=False)
    monkeypatch.chdir(tmp_path)
    assert install_command(ARROW) == "env/bin/python -m pip install 'pyarrow>=14'"


def test_an_interpreter_outside_the_working_folder_is_named_in_full(tmp_path, monkeypatch):
    bin_dir = _interpreter(tmp_path, monkeypatch, with_pip=True)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert install_command(ARROW) == f"{bin_dir / 'pip'} install 'pyarrow>=14'"


def test_from_the_source_tree_the_extra_is_an_editable_install_of_it(tmp_path, monkeypatch):
    _interpreter(tmp_path, monkeypatch, with_pip=True)
    monkeypatch.chdir(ROOT)
    pip = f"{tmp_path / 'env' / 'bin' / 'pip'}"
    assert install_command(DASK) == f"{pip} install -e '.[audit]'"
    assert install_command(BASE) == f"{pip} install -e ."
    monkeypatch.chdir(ROOT / "tests")  # the tree is above: named in full, not as ../
    assert install_command(DASK) == f"{pip} install -e '{ROOT}[audit]'"


def test_an_installed_copy_installs_the_project_by_name(tmp_path, monkeypatch):
    _interpreter(tmp_path, monkeypatch, with_pip=True)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(needs, "_project_root", lambda: None)  # as from site-packages
    assert install_command(DASK) == "env/bin/pip install 'sphere-sweep-explorer[audit]'"
    assert install_command(BASE) == "env/bin/pip install sphere-sweep-explorer"


def test_the_project_root_is_this_checkout():
    assert needs._project_root() == ROOT


def test_a_missing_module_is_named_by_its_package_in_one_line(tmp_path, monkeypatch):
    _interpreter(tmp_path, monkeypatch, with_pip=True)
    monkeypatch.chdir(tmp_path)
    lacking = Need("drawing sparks", ("json", "no_such_package_xyz.sub", "another_missing_one"), "sparks>=2")
    assert missing(lacking) == "no_such_package_xyz"
    assert missing(Need("nothing", ("json", "math"))) is None
    with pytest.raises(MissingPackage) as caught:
        require(lacking)
    assert str(caught.value) == (
        "drawing sparks needs no_such_package_xyz, which is not installed; install it with: "
        "env/bin/pip install 'sparks>=2'"
    )
    with pytest.raises(MissingPackage, match=r"^reading sparks needs no_such_package_xyz, "):
        require(lacking, "reading sparks")
    require(Need("nothing", ("json",)))  # all importable: no refusal


@pytest.mark.parametrize("pyproject, is_ours", [('[project]\nname = "sphere-sweep-explorer"\n', True),
                                                ('[project]\nname = "someone-else"\n', False), (None, False)])  # fmt: skip
def test_only_this_project_s_tree_counts_as_its_source(tmp_path, monkeypatch, pyproject, is_ours):
    """A copy of the module in another tree (another project's, or none) sees that tree."""
    import importlib.util

    copy = tmp_path / "explorer" / "audit" / "needs.py"
    copy.parent.mkdir(parents=True)
    copy.write_text(Path(needs.__file__).read_text(encoding="utf-8"), encoding="utf-8")
    if pyproject is not None:
        (tmp_path / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("needs_copy", copy)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "needs_copy", module)  # dataclasses look their module up there
    spec.loader.exec_module(module)
    assert module._project_root() == (tmp_path.resolve() if is_ours else None)


def test_a_checkout_of_another_project_is_not_this_ones_source(monkeypatch):
    """The checkout's pyproject.toml names this project: asked for another, the module finds no source tree
    (in this module itself, where a mutation run sees it; the copy above runs in a module of its own)."""
    monkeypatch.setattr(needs, "PROJECT", "someone-else")
    assert needs._project_root() is None
