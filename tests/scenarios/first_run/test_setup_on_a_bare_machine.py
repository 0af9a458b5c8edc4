"""The two README commands on a bare machine: each system piece hidden in turn.

Pieces are hidden without uninstalling anything: ``SPHERE_EXPLORER_SYSTEM_ROOT`` points the
checks (explorer.system) at a stand-in root holding every piece but the hidden one; ``PATH``
gets a stand-in ``apt-get``; ``PYTHONPATH`` shadows ``ensurepip``.  ``make test`` must stop with
one line giving the exact install command before any test runs (never "0 tests"), or install the
piece as root; a half-made ``.venv`` is rebuilt; the window refuses to start in one line naming
the Debian package of a missing xcb library.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from explorer.system import probes as system

ROOT = Path(__file__).resolve().parents[3]
PYTHON = sys.executable
SCRIPT = Path(sys.executable).with_name("sphere-explorer")


def fake_root(folder: Path, hide: tuple[str, ...] = ()) -> Path:
    """A stand-in ``/`` with every package of :data:`explorer.system.probes.PACKAGES` but ``hide``."""
    lib = folder / "usr" / "lib" / "x86_64-linux-gnu"
    (lib / "dri").mkdir(parents=True, exist_ok=True)
    (folder / "usr" / "bin").mkdir(parents=True, exist_ok=True)
    (lib / "libxcb.so.1").touch()
    for package, (kind, name) in system.PACKAGES.items():
        if package in hide:
            continue
        path = (folder / "usr" / "bin" / name) if kind == "program" else (lib / name)
        path.touch()
        if kind == "program":
            path.chmod(0o755)
    return folder


def _env(root: Path | None = None, **extra) -> dict[str, str]:
    env = {**os.environ, "SPHERE_EXPLORER_INSTALL": "never", **extra}
    env["PATH"] = "/usr/local/bin:/usr/bin:/bin" if "PATH" not in extra else extra["PATH"]
    if root is not None:
        env[system.ROOT_VARIABLE] = str(root)
    return env


def _setup(*args, env, cwd=ROOT, timeout=300):
    return subprocess.run(
        [PYTHON, "-m", "explorer.system", *map(str, args)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_nothing_is_missing_in_a_complete_root(tmp_path):
    proc = _setup("test", "--system-only", env=_env(fake_root(tmp_path)))
    assert proc.returncode == 0 and proc.stderr == ""


@pytest.mark.parametrize("package", system.NEEDS["test"])
def test_each_hidden_piece_stops_make_test_with_the_install_command(tmp_path, package):
    proc = _setup("test", "--system-only", env=_env(fake_root(tmp_path, hide=(package,))))
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1, proc.stderr
    kind, name = system.PACKAGES[package]
    assert f"make test needs {package} ({name}); install with: " in proc.stderr
    assert proc.stderr.rstrip().endswith(f"apt-get install -y --no-install-recommends {package}")


def test_make_run_does_not_need_xvfb_but_does_need_the_xcb_libraries(tmp_path):
    assert _setup("run", "--system-only", env=_env(fake_root(tmp_path / "a", hide=("xvfb", "xauth")))).returncode == 0
    proc = _setup("run", "--system-only", env=_env(fake_root(tmp_path / "b", hide=("libxcb-cursor0",))))
    assert proc.returncode == 2 and "libxcb-cursor0 (libxcb-cursor.so.0)" in proc.stderr


def test_make_docs_needs_only_mesa_to_draw_the_gallery(tmp_path):
    others = ("xvfb", "xauth", "chromium", "npm", "libxcb-cursor0", "libglib2.0-0")
    assert _setup("docs", "--system-only", env=_env(fake_root(tmp_path / "a", hide=others))).returncode == 0
    proc = _setup("docs", "--system-only", env=_env(fake_root(tmp_path / "b", hide=("libegl1",))))
    assert proc.returncode == 2 and proc.stderr.startswith("make docs needs libegl1 (")


def test_as_root_with_apt_the_missing_piece_is_installed(tmp_path):
    root = fake_root(tmp_path / "root", hide=("xvfb",))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "apt.log"
    apt = bin_dir / "apt-get"
    apt.write_text(
        "#!/bin/sh\n"
        f'echo "$@" >> {log}\n'
        'case "$*" in *install*xvfb*) '
        f"touch {root}/usr/bin/Xvfb && chmod 755 {root}/usr/bin/Xvfb;; esac\n"
    )
    apt.chmod(0o755)
    env = _env(root, PATH=f"{bin_dir}:/usr/bin:/bin", SPHERE_EXPLORER_INSTALL="yes")
    proc = _setup("test", "--system-only", env=env)
    assert proc.returncode == 0, proc.stderr
    assert log.read_text().splitlines() == ["update -qq", "install -y -qq --no-install-recommends xvfb"]
    apt.write_text("#!/bin/sh\nexit 100\n")  # apt cannot install it: one line saying so
    (root / "usr" / "bin" / "Xvfb").unlink()
    proc = _setup("test", "--system-only", env=env)
    assert proc.returncode == 2 and proc.stderr.splitlines()[-1].startswith("make test: apt-get could not install xvfb")


def test_make_test_stops_before_any_test_with_one_clear_line(tmp_path):
    env = _env(fake_root(tmp_path / "root", hide=("xvfb",)))
    venv = tmp_path / "venv"
    proc = subprocess.run(
        ["make", "--no-print-directory", "test", f"PYTHON={PYTHON}", f"VENV={venv}"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode != 0 and proc.stdout == ""
    lines = [row for row in proc.stderr.splitlines() if not re.match(r"make(\[\d+\])?: \*\*\* ", row)]  # make's own
    assert lines == ["make test needs xvfb (Xvfb); install with: " + system.install_command(["xvfb"])]
    assert not venv.exists()  # stopped before the environment, and long before pytest


def test_make_without_python_says_what_to_install(tmp_path):
    proc = subprocess.run(
        ["make", "--no-print-directory", "test", "PYTHON=/nonexistent/python3", f"VENV={tmp_path / 'venv'}"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode != 0
    assert (
        "make: /nonexistent/python3 not found; install with: sudo apt-get install -y python3 python3-venv"
        in proc.stderr
    )


# -- the virtual environment --------------------------------------------------------------------


def test_without_the_venv_module_make_names_python3_venv(tmp_path):
    shadow = tmp_path / "shadow" / "ensurepip"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('No module named ensurepip')\n")
    env = _env(PYTHONPATH=f"{tmp_path / 'shadow'}{os.pathsep}{ROOT}")
    proc = _setup("test", "--venv", tmp_path / "venv", "--no-project-install", env=env)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert "needs Python's venv module with ensurepip" in proc.stderr
    assert "apt-get install -y --no-install-recommends python3" in proc.stderr and "-venv" in proc.stderr
    assert not (tmp_path / "venv").exists()


def test_a_half_made_venv_is_detected_and_rebuilt(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run(
        [PYTHON, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120
    )  # as after a failed ensurepip
    assert system_main_problem(venv) == "no pip in it"
    proc = _setup("test", "--venv", venv, "--no-project-install", env=_env())
    assert proc.returncode == 0, proc.stderr
    assert f"{venv} is half-made (no pip in it); removing it and building it again" in proc.stderr
    assert system_main_problem(venv) is None
    again = _setup("test", "--venv", venv, "--no-project-install", env=_env())
    assert again.returncode == 0 and again.stderr == ""  # a working one is kept


def system_main_problem(venv: Path) -> str | None:
    from explorer.system.__main__ import venv_problem

    return venv_problem(venv)


def test_broken_venvs_are_named(tmp_path):
    empty = tmp_path / "empty"
    (empty / "bin").mkdir(parents=True)
    assert system_main_problem(empty) == "no pyvenv.cfg"
    (empty / "pyvenv.cfg").write_text("home = /nowhere\n")
    assert system_main_problem(empty) == "no bin/python"
    (empty / "bin" / "python").symlink_to("/nowhere/python3")
    assert system_main_problem(empty) == "no bin/python"  # a dangling link: its Python was removed
    (empty / "bin" / "python").unlink()
    (empty / "bin" / "python").write_text("#!/bin/sh\nexit 1\n")
    assert "does not run" in system_main_problem(empty)  # not executable
    (empty / "bin" / "python").chmod(0o755)
    assert system_main_problem(empty) == "bin/python fails"


# -- the window and the renderer at start-up ------------------------------------------------------


@pytest.mark.parametrize("package", ["libxcb-cursor0", "libxkbcommon-x11-0", "libgl1"])
def test_the_window_names_a_missing_library_instead_of_aborting(tmp_path, package):
    assert os.environ.get("DISPLAY"), "runs under Xvfb (pytest-xvfb)"
    env = {**os.environ, system.ROOT_VARIABLE: str(fake_root(tmp_path, hide=(package,)))}
    env.pop("QT_QPA_PLATFORM", None)
    proc = subprocess.run([str(SCRIPT)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert f"the window (Qt's xcb platform) needs {package} ({system.PACKAGES[package][1]})" in proc.stderr
    assert proc.stderr.rstrip().endswith(f"apt-get install -y --no-install-recommends {package}")


def test_the_command_is_named_as_it_is_run(monkeypatch):
    venv_script = ROOT / ".venv" / "bin" / "sphere-explorer"
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert system.command_name(str(venv_script)) == os.path.join(".venv", "bin", "sphere-explorer")
    monkeypatch.chdir("/")
    assert system.command_name(str(venv_script)) == str(venv_script)
    monkeypatch.setenv("PATH", f"{venv_script.parent}:/usr/bin:/bin")  # the environment activated
    assert system.command_name(str(venv_script)) == "sphere-explorer"


def test_the_set_up_writes_the_projects_bytecode_even_where_python_is_told_not_to(tmp_path, monkeypatch):
    """With ``PYTHONDONTWRITEBYTECODE`` set (as on some machines) no command would ever cache the project's
    compiled modules; the set-up writes them, current, for every module of the project's packages, and again after
    an edit.  The set-up runs in this process on a copy of the sources, its other steps left out: run for real it
    would install the copy into this run's own venv."""
    import importlib.util
    import shutil

    import explorer.system.__main__ as setup

    project = tmp_path / "project"
    for package in setup.PROJECT_PACKAGES:
        shutil.copytree(ROOT / package, project / package, ignore=shutil.ignore_patterns("__pycache__"))
    for step in ("ensure_packages", "ensure_venv", "ensure_installed", "ensure_web_runtime"):
        monkeypatch.setattr(setup, step, lambda *args, **kwargs: None)
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    venv = Path(PYTHON).parents[1]
    assert setup.main(["run", "--venv", str(venv), "--project", str(project)]) == 0
    sources = list(project.rglob("*.py"))
    assert len(sources) > 100
    stale = [str(p) for p in sources if not Path(importlib.util.cache_from_source(str(p))).exists()]
    assert stale == []
    edited = project / "solver" / "vec.py"
    edited.write_text(edited.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    cached = Path(importlib.util.cache_from_source(str(edited)))
    before = cached.read_bytes()
    assert setup.main(["run", "--venv", str(venv), "--project", str(project)]) == 0
    assert cached.read_bytes() != before  # written again for the edited source
