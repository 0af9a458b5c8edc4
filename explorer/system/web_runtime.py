"""The live web pages' runtime: Pyodide (Python in the browser) and vtk.js, pinned and checked.

Both come from the npm registry as the exact versions below, fetched by the
project's own set-up (``make run`` and ``make test`` call :func:`ensure`, which
runs ``npm pack``), never from a CDN when a page is opened.  Every file a page
uses is checked against its SHA-256 here, when fetched and again when a page is
exported (:func:`problem`).  They are kept in the virtual environment:
``<venv>/share/sphere-explorer/web-runtime/``.

Standard library only (it runs before ``.venv`` exists).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Package:
    """One npm package at one version, and the SHA-256 of each file of it the pages use."""

    name: str
    version: str
    files: dict[str, str]

    @property
    def spec(self) -> str:
        return f"{self.name}@{self.version}"

    @property
    def folder(self) -> str:
        return f"{self.name}-{self.version}"


PYODIDE = Package("pyodide", "314.0.7", {
    "pyodide.mjs": "6f1d60f7bf529beb300f0f47983c921d3982363640ba20af0e38efdddbc66109",
    "pyodide.asm.mjs": "f7cdc8ece80678ceb712f8e65ebe6d3a83203a180c399865f49612a051693635",
    "pyodide.asm.wasm": "cc36e3cab04fdfc9a63ff13eb52eae2b911bf46c025cc7b281f394bd3de1d5e6",
    "python_stdlib.zip": "fa1957e5777068fc4f7437f96d860ae2fbe9c19732ba06c84e004ec16dd7dd7a",
    "pyodide-lock.json": "5dc2fc119108bc148c7457dc86e7675b5c87e1cafd420b9c34c1eaef7b36c010",
    "package.json": "",
})  # fmt: skip
VTKJS = Package("vtk.js", "37.3.1", {
    "vtk.js": "e1dff3a8a3ebe078c259c496357766e086871267089bbf61f8c262d878308ba7",
    "package.json": "",
})  # fmt: skip
PACKAGES = (PYODIDE, VTKJS)
#: The command that fetches them (what a refusal names).
FETCH_COMMAND = "make run (or: python3 -m explorer.system --venv .venv web-runtime)"


#: Environment variable naming another folder to take the runtime from (tests hide it with an empty one).
FOLDER_VARIABLE = "SPHERE_EXPLORER_WEB_RUNTIME"


def folder(prefix: str | os.PathLike[str] | None = None) -> Path:
    """Where the runtime is kept: under the virtual environment ``prefix`` (default: this Python's, or
    ``$SPHERE_EXPLORER_WEB_RUNTIME`` when set and not empty)."""
    if prefix is None and os.environ.get(FOLDER_VARIABLE):
        return Path(os.environ[FOLDER_VARIABLE])
    return Path(sys.prefix if prefix is None else prefix) / "share" / "sphere-explorer" / "web-runtime"


def path(package: Package, name: str, prefix=None) -> Path:
    """The file ``name`` of ``package``."""
    return folder(prefix) / package.folder / name


def _sha256(file: Path) -> str:
    digest = hashlib.sha256()
    with open(file, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def problem(prefix=None, packages: tuple[Package, ...] = PACKAGES) -> str | None:
    """Why the runtime (``packages`` of it) cannot be used (a file missing or not the pinned one), in words; None
    when it can."""
    for package in packages:
        for name, expected in package.files.items():
            file = path(package, name, prefix)
            if not file.is_file():
                return f"{package.spec}'s {name} is missing"
            if expected and _sha256(file) != expected:
                return f"{package.spec}'s {name} is not the pinned file (its SHA-256 differs)"
    return None


class FetchError(Exception):
    """The runtime could not be fetched; the message is one line."""


def fetch(prefix=None, say=print) -> None:
    """Fetch every package with ``npm pack``, check each file, and put them in place (whole or not at all)."""
    npm = shutil.which("npm")
    if npm is None:
        raise FetchError("the live web pages' runtime needs npm to fetch it: sudo apt-get install -y npm")
    target = folder(prefix)
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".web-runtime-", dir=target.parent) as work:
        stage = Path(work) / "stage"
        for package in PACKAGES:
            say(f"fetching {package.spec} with npm pack")
            done = subprocess.run([npm, "pack", "--silent", package.spec, "--pack-destination", work],
                                  capture_output=True, text=True)  # fmt: skip
            names = done.stdout.split()
            if done.returncode != 0 or not names:
                reason = (done.stderr.strip().splitlines() or ["no message"])[-1]
                raise FetchError(f"npm pack {package.spec} failed: {reason}")
            _unpack(Path(work) / names[-1], package, stage / package.folder)
        if target.exists():
            shutil.rmtree(target)
        os.replace(stage, target)
    found = problem(prefix)
    if found is not None:  # pragma: no cover - checked file by file while unpacking
        raise FetchError(found)


def _unpack(tarball: Path, package: Package, into: Path) -> None:
    """Take ``package``'s files out of its npm tarball into ``into``, checking each one's SHA-256."""
    into.mkdir(parents=True)
    with tarfile.open(tarball) as archive:
        for name, expected in package.files.items():
            try:
                member = archive.extractfile(f"package/{name}")
            except KeyError:
                member = None
            if member is None:
                raise FetchError(f"{package.spec} has no {name}")
            data = member.read()
            if expected and hashlib.sha256(data).hexdigest() != expected:
                raise FetchError(f"{package.spec}'s {name} is not the pinned file (its SHA-256 differs)")
            (into / name).write_bytes(data)


def ensure(prefix=None, say=print) -> None:
    """Fetch the runtime unless it is in place and checked."""
    if problem(prefix) is not None:
        fetch(prefix, say)
