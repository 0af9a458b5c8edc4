"""``python3 -m explorer.system run|test|docs``: what ``make run``, ``make test`` and ``make docs`` do first.

1. **System packages** the target needs (:data:`explorer.system.probes.NEEDS`: Mesa's
   GL/EGL, Qt's xcb libraries, Xvfb and Chromium for the tests): when one is missing, running
   as root with apt-get, it is installed; otherwise one line gives the exact
   install command and the exit code is 2.
2. **.venv**: a working one is kept; a half-made one (no ``bin/python``, no pip,
   an old Python, no ``pyvenv.cfg``) is removed and built again.  Building it
   needs Python's venv module with ensurepip (Debian: ``python3-venv``),
   installed or named the same way.
3. **The project** installed into it (``pip install -e .``, ``-e '.[test]'`` or
   ``-e '.[docs]'``) when ``pyproject.toml`` changed since the last complete
   install of that target or of ``test`` (whose extra holds the others).
   Then its packages' bytecode is written (``compileall``, quick when nothing
   changed): where Python is told not to write bytecode itself
   (``PYTHONDONTWRITEBYTECODE``, set on some machines), every command would
   otherwise compile the project's modules again at each start.
4. **The live web pages' runtime** (Pyodide and vtk.js at pinned versions,
   :mod:`explorer.system.web_runtime`) fetched with npm into ``.venv`` unless
   it is there and checked.  ``make test`` needs it (npm is then a system
   package it installs or names); ``make run`` fetches it when npm is there
   and otherwise says in one line that live pages need it; ``make docs``
   does not need it.  The target ``web-runtime`` does only this step.

Standard library only (it runs before ``.venv`` exists).  Environment:
``SPHERE_EXPLORER_INSTALL=never`` never runs apt-get (``auto``, the default:
only as root); ``SPHERE_EXPLORER_SYSTEM_ROOT`` stands for ``/`` (see
:mod:`explorer.system`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

from . import web_runtime
from .probes import NEEDS, ROOT_VARIABLE, install_command, is_root, missing, missing_message

MIN_PYTHON = (3, 11)
EXTRAS = {"run": ".", "test": ".[test]", "docs": ".[docs]"}
#: What each target prepares: the project's extras above, or only the web runtime.
TARGETS = (*EXTRAS, "web-runtime")


class Refused(Exception):
    """Set-up cannot go on; the message is the one line to show."""


def _note(what: str, message: str) -> None:
    print(f"{what}: {message}", file=sys.stderr, flush=True)


def _may_install() -> bool:
    setting = os.environ.get("SPHERE_EXPLORER_INSTALL", "auto")
    if setting == "yes":
        return shutil.which("apt-get") is not None
    # auto: as root, on the real system (never into a stand-in root of the tests)
    return setting == "auto" and is_root() and not os.environ.get(ROOT_VARIABLE) and shutil.which("apt-get") is not None


def _apt_install(packages: list[str], what: str) -> bool:
    _note(what, f"installing {' '.join(packages)} with apt-get")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (
        ["apt-get", "update", "-qq"],
        ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages],
    ):
        if subprocess.run(command, env=env, stdout=subprocess.DEVNULL).returncode != 0:
            return False
    return True


def ensure_packages(packages: tuple[str, ...] | list[str], what: str) -> None:
    """Install (as root, with apt-get) or name the missing ``packages``; raise :class:`Refused` when they stay missing."""
    gone = missing(packages)
    if not gone:
        return
    if _may_install():
        installed = _apt_install(gone, what)
        still = missing(packages)
        if not still:
            return
        if not installed:
            raise Refused(f"{what}: apt-get could not install {' '.join(still)}; try: {install_command(still)}")
        gone = still
    raise Refused(missing_message(gone, what))


# -- the virtual environment ------------------------------------------------------------


def venv_package() -> str:
    """The Debian package that gives this Python its venv/ensurepip modules."""
    try:
        default = os.path.realpath(shutil.which("python3") or "/usr/bin/python3")
        if os.path.realpath(sys.executable) == default:
            return "python3-venv"
    except OSError:
        pass
    return f"python3.{sys.version_info[1]}-venv"


def venv_module_problem() -> str | None:
    """Why this Python cannot build a virtual environment with pip; None when it can."""
    try:
        import ensurepip
        import venv  # noqa: F401

        ensurepip.version()
    except Exception as exc:  # noqa: BLE001 - ImportError, or a Debian stub without the pip wheel
        return f"{type(exc).__name__}: {exc}"
    return None


def venv_problem(venv: Path) -> str | None:
    """Why ``venv`` is not a usable environment (half-made, broken, too old); None when it is."""
    python = venv / "bin" / "python"
    if not (venv / "pyvenv.cfg").is_file():
        return "no pyvenv.cfg"
    if not python.exists():
        return "no bin/python"
    check = "import sys, pip; sys.exit(0 if sys.version_info >= %r else 5)" % (MIN_PYTHON,)
    try:
        result = subprocess.run([str(python), "-c", check], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bin/python does not run ({exc})"
    if result.returncode == 5:
        return f"made with a Python older than {MIN_PYTHON[0]}.{MIN_PYTHON[1]}"
    if result.returncode != 0:
        return "no pip in it" if "pip" in result.stderr else "bin/python fails"
    return None


def _remove(path: Path) -> None:
    if path.is_symlink() or path.is_file():
        path.unlink()
    else:
        shutil.rmtree(path)


def ensure_venv(venv: Path, what: str) -> bool:
    """Keep a working ``venv``, or build it (again); return True when it was built."""
    if venv.exists() or venv.is_symlink():
        problem = venv_problem(venv)
        if problem is None:
            return False
        _note(what, f"{venv} is half-made ({problem}); removing it and building it again")
        _remove(venv)
    problem = venv_module_problem()
    if problem is not None:
        package = venv_package()
        if sys.base_prefix == "/usr" and _may_install():
            _apt_install([package], what)
            problem = venv_module_problem()
        if problem is not None:
            if sys.base_prefix == "/usr":
                raise Refused(
                    f"{what}: creating {venv} needs Python's venv module with ensurepip ({package}); "
                    f"install with: {install_command([package])}"
                )
            raise Refused(
                f"{what}: creating {venv} needs Python's venv module with ensurepip, which {sys.executable} lacks "
                f"({problem}); use a Python that has it, e.g. make PYTHON=/usr/bin/python3 "
                f"after: {install_command(['python3-venv'])}"
            )
    result = subprocess.run([sys.executable, "-m", "venv", str(venv)], stdout=subprocess.DEVNULL)
    problem = venv_problem(venv) if result.returncode == 0 else f"python -m venv exited with {result.returncode}"
    if problem is not None:
        if venv.exists() or venv.is_symlink():
            _remove(venv)
        raise Refused(f"{what}: could not build {venv} ({problem}); nothing was left behind, fix that and run again")
    return True


def ensure_installed(venv: Path, project: Path, target: str, what: str) -> None:
    """``pip install -e`` the project (with the target's extra) unless done since pyproject.toml last changed
    (for this target, or for ``test``, whose extra holds every other)."""
    pyproject = project / "pyproject.toml"
    stamps = [venv / ".installed-test", venv / f".installed-{target}"]
    changed = pyproject.stat().st_mtime
    if any(s.exists() and s.stat().st_mtime >= changed for s in stamps):
        return
    spec = EXTRAS[target]
    _note(what, f"installing the project into {venv} (pip install -e '{spec}')")
    command = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "-e", spec]
    if subprocess.run(command, cwd=project).returncode != 0:
        raise Refused(
            f"{what}: pip install -e '{spec}' failed (pip's message is above); fix that and run make {target} again"
        )
    (venv / f".installed-{target}").touch()


#: The project's packages whose bytecode the set-up writes.
PROJECT_PACKAGES = ("explorer", "solver")


def write_bytecode(venv: Path, project: Path) -> None:
    """Write the bytecode of :data:`PROJECT_PACKAGES` with the venv's Python (``compileall``: modules whose bytecode is
    current are left alone).  Only a speed-up: a module it cannot compile is left for its import to report."""
    command = [str(venv / "bin" / "python"), "-m", "compileall", "-q", *PROJECT_PACKAGES]
    subprocess.run(command, cwd=project, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def ensure_web_runtime(venv: Path, what: str, required: bool) -> None:
    """Fetch the live pages' runtime into ``venv`` unless it is there and checked (see the module docstring)."""
    if web_runtime.problem(venv) is None:
        return
    if shutil.which("npm") is None:
        if required:
            ensure_packages(["npm"], what)
        else:
            _note(what, "the live web pages (export-html --single, sites) need npm to fetch their runtime; "
                        f"without it the rest works. To get them: {install_command(['npm'])}, then make run")  # fmt: skip
            return
    try:
        web_runtime.fetch(venv, say=lambda line: _note(what, line))
    except web_runtime.FetchError as exc:
        if required:
            raise Refused(f"{what}: {exc}") from None
        _note(what, f"{exc}; the live web pages need it, the rest works")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m explorer.system", description=__doc__.split("\n\n")[0])
    parser.add_argument("target", choices=sorted(TARGETS), help="what to prepare for")
    parser.add_argument("--venv", default=".venv", help="the virtual environment (default .venv)")
    parser.add_argument("--project", default=".", help="the project folder (default: here)")
    parser.add_argument("--system-only", action="store_true", help="check (and install) system packages only")
    parser.add_argument("--no-project-install", action="store_true", help="stop after the virtual environment")
    args = parser.parse_args(argv)
    what = f"make {args.target}"
    try:
        if sys.version_info < MIN_PYTHON:
            raise Refused(
                f"{what}: needs Python {MIN_PYTHON[0]}.{MIN_PYTHON[1]} or newer, {sys.executable} is "
                f"{sys.version.split()[0]}; run e.g. make {args.target} PYTHON=python3.11"
            )
        venv = Path(args.venv)
        if args.target == "web-runtime":
            ensure_web_runtime(venv, what, required=True)
            return 0
        ensure_packages(NEEDS[args.target], what)
        if args.system_only:
            return 0
        ensure_venv(venv, what)
        if not args.no_project_install:
            ensure_installed(venv, Path(args.project), args.target, what)
            write_bytecode(venv, Path(args.project))
            if args.target != "docs":
                ensure_web_runtime(venv, what, required=args.target == "test")
    except Refused as exc:
        print(exc, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
