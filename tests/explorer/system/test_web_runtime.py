"""The live pages' runtime: pinned files checked by SHA-256, fetched whole or not at all, and an export without it
refused in one line that names the command fetching it."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from explorer.model.formats.gallery import SCENES_DIR
from explorer.system import web_runtime

EXE = Path(sys.executable).with_name("sphere-explorer")


@pytest.fixture()
def copied(tmp_path) -> Path:
    """A copy of the installed runtime under a stand-in prefix."""
    assert web_runtime.problem() is None, "the set-up fetches the runtime (make test)"
    target = web_runtime.folder(tmp_path)
    shutil.copytree(web_runtime.folder(), target)
    return tmp_path


def test_the_installed_runtime_is_the_pinned_one_and_a_changed_or_missing_file_is_named(copied):
    assert web_runtime.problem(copied) is None
    vtk_js = web_runtime.path(web_runtime.VTKJS, "vtk.js", copied)
    data = bytearray(vtk_js.read_bytes())
    data[1000] ^= 1
    vtk_js.write_bytes(bytes(data))
    assert web_runtime.problem(copied) == "vtk.js@37.3.1's vtk.js is not the pinned file (its SHA-256 differs)"
    web_runtime.path(web_runtime.PYODIDE, "pyodide.asm.wasm", copied).unlink()
    assert web_runtime.problem(copied) == "pyodide@314.0.7's pyodide.asm.wasm is missing"


def _fake_npm(folder: Path, tarballs: dict[str, bytes], fail: str | None = None) -> dict:
    """A ``npm`` on PATH that writes the given tarball for each package (or fails with ``fail`` on stderr)."""
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    store = folder / "store"
    store.mkdir()
    for name, data in tarballs.items():
        (store / f"{name}.tgz").write_bytes(data)
    script = f"""#!{sys.executable}
import shutil, sys
args = sys.argv[1:]
if {fail!r} is not None:
    sys.stderr.write({fail!r} + "\\n")
    sys.exit(1)
spec, destination = args[2], args[4]
name = spec.rsplit("@", 1)[0]
shutil.copy({str(store)!r} + "/" + name + ".tgz", destination + "/" + name + ".tgz")
print(name + ".tgz")
"""
    (bin_dir / "npm").write_text(script)
    (bin_dir / "npm").chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}


def _tarball(package: web_runtime.Package, change: str | None = None) -> bytes:
    """The package as npm packs it, from the installed files (``change``: one file's bytes altered)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name in package.files:
            data = web_runtime.path(package, name).read_bytes()
            if name == change:
                data = data + b" "
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def test_fetch_checks_every_file_and_leaves_nothing_when_one_differs(tmp_path, monkeypatch):
    env = _fake_npm(tmp_path, {"pyodide": _tarball(web_runtime.PYODIDE), "vtk.js": _tarball(web_runtime.VTKJS)})
    monkeypatch.setenv("PATH", env["PATH"])
    prefix = tmp_path / "venv"
    said = []
    web_runtime.fetch(prefix, said.append)
    assert web_runtime.problem(prefix) is None
    assert said == ["fetching pyodide@314.0.7 with npm pack", "fetching vtk.js@37.3.1 with npm pack"]
    other = tmp_path / "other"
    other.mkdir()
    env = _fake_npm(other, {"pyodide": _tarball(web_runtime.PYODIDE, "pyodide.asm.wasm"),
                            "vtk.js": _tarball(web_runtime.VTKJS)})  # fmt: skip
    monkeypatch.setenv("PATH", env["PATH"])
    with pytest.raises(web_runtime.FetchError, match=r"^pyodide@314.0.7's pyodide.asm.wasm is not the pinned file"):
        web_runtime.fetch(tmp_path / "venv2", said.append)
    assert not web_runtime.folder(tmp_path / "venv2").exists()
    assert [p.name for p in web_runtime.folder(tmp_path / "venv2").parent.iterdir()] == []


def test_a_failing_npm_is_named_in_one_line(tmp_path, monkeypatch):
    env = _fake_npm(tmp_path, {}, fail="npm ERR! network request failed")
    monkeypatch.setenv("PATH", env["PATH"])
    with pytest.raises(web_runtime.FetchError) as refused:
        web_runtime.fetch(tmp_path / "venv", lambda line: None)
    assert str(refused.value) == "npm pack pyodide@314.0.7 failed: npm ERR! network request failed"


@pytest.mark.parametrize("single", [True, False])
def test_a_live_export_without_the_runtime_is_refused_naming_the_command(tmp_path, single):
    env = {**os.environ, web_runtime.FOLDER_VARIABLE: str(tmp_path / "nothing-here")}
    out = tmp_path / ("page.html" if single else "site")
    source = SCENES_DIR / "default.json" if single else SCENES_DIR
    args = [str(EXE), "export-html", str(source), "-o", str(out), *(["--single"] if single else [])]
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert lines[0] == (
        "sphere-explorer: a live page needs the web runtime (pyodide@314.0.7's pyodide.mjs is missing); "
        f"fetch it with: {web_runtime.FETCH_COMMAND}"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == []
