"""What a live page runs: the pinned runtime (Pyodide, vtk.js), the page's two scripts, and the project's sources.

A site gets them once, in ``SITE/runtime/`` (:func:`write_folder`), shared by its
pages; a single-file page holds them (:func:`embedded_files`).  The Python it
runs is the project's own source files (:data:`SOURCES`): the solver, the
scene model and session, the picture, and :mod:`explorer.web.live` -- all of
them numpy-, VTK- and Qt-free.  Qt-free.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import re
import zipfile
from functools import lru_cache
from importlib import resources
from pathlib import Path

from ..system import web_runtime
from ..system.files import create


class WebUnavailable(RuntimeError):
    """A page cannot be made here: the web runtime is missing or not the pinned one (one line naming the command
    that fetches it)."""


#: The project's source files a page's Python imports, relative to the folder above the packages
#: (whole packages end with ``/``).  A test checks that explorer.web.live imports nothing else of the project.
SOURCES = (
    "solver/",
    "explorer/__init__.py",
    "explorer/model/",
    "explorer/system/__init__.py",
    "explorer/system/files.py",
    "explorer/system/interrupt.py",
    "explorer/view/__init__.py",
    "explorer/view/bounds.py",
    "explorer/view/catalogue.py",
    "explorer/view/grips.py",
    "explorer/view/label_places.py",
    "explorer/view/local_frame.py",
    "explorer/view/overlay_text.py",
    "explorer/view/palette.py",
    "explorer/view/picture.py",
    "explorer/view/placement.py",
    "explorer/view/plot_words.py",
    "explorer/web/__init__.py",
    "explorer/web/live.py",
)
#: The runtime's files a site's folder holds, by package: (package, file name, name in the folder).
FOLDER_FILES = (
    *((web_runtime.PYODIDE, name, f"pyodide/{name}") for name in
      ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")),
    (web_runtime.VTKJS, "vtk.js", "vtk.js"),
)  # fmt: skip
#: The page's scripts (``explorer/web``) and the name of the sources' archive in a site's runtime folder.
LOADER, RECORDER, APP, SOURCES_ZIP = "runtime-loader.mjs", "recorded.mjs", "live.js", "sources.zip"
#: The page's script modules, each importing only those before it (``APP`` is the one a page runs).
MODULES = (LOADER, RECORDER, APP)
#: The standard library's files a single-file page keeps (one file or package a line; see :func:`trimmed_stdlib`).
STDLIB_KEEP = "stdlib-keep.txt"


def check(page: str = "a live page", packages: tuple = web_runtime.PACKAGES) -> None:
    """Refuse, in one line naming the command that fetches it, when the runtime (of ``packages``) is missing or
    not the pinned one; ``page``: what needs it."""
    problem = web_runtime.problem(packages=packages)
    if problem is not None:
        raise WebUnavailable(f"{page} needs the web runtime ({problem}); fetch it with: {web_runtime.FETCH_COMMAND}")


def check_vtk() -> None:
    """:func:`check` of what a recorded page holds: vtk.js."""
    check("a web page", (web_runtime.VTKJS,))


@lru_cache(maxsize=1)
def vtk_embedded() -> str:
    """vtk.js as a page holds it: gzipped (:func:`gzip_bytes`), in base64 (made once a process)."""
    return base64.b64encode(gzip_bytes(web_runtime.path(web_runtime.VTKJS, "vtk.js").read_bytes())).decode("ascii")


def asset(name: str) -> str:
    """One of the page's own files (``explorer/web``), as text."""
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def source_files() -> list[tuple[str, Path]]:
    """Every file of :data:`SOURCES`: ``(name in the archive, path)``, in name order."""
    root = Path(__file__).resolve().parents[2]
    files = []
    for entry in SOURCES:
        if entry.endswith("/"):
            files += [(file.relative_to(root).as_posix(), file) for file in sorted((root / entry).rglob("*.py"))]
        else:
            files.append((entry, root / entry))
    return sorted(files)


def sources_zip() -> bytes:
    """The project's sources a page imports, as a zip (fixed dates: the same bytes for the same sources)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, file in source_files():
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, file.read_bytes())
    return buffer.getvalue()


#: An import of one of the page's modules by another (``import { a, b } from "./name";``).
_IMPORT = re.compile(r'^import \{[^}]*\} from "\./([\w.-]+)";\n', re.MULTILINE)


def app_module() -> str:
    """The page's application as one module: :data:`MODULES` one after the other, their imports of each other
    dropped (a page held in one file cannot import its own modules)."""
    parts = []
    for k, name in enumerate(MODULES):
        text = asset(name)
        wrong = [m for m in _IMPORT.findall(text) if m not in MODULES[:k]]
        if wrong:  # pragma: no cover - the files are written together
            raise WebUnavailable(f"{name} imports {wrong[0]}, which is not one of the modules before it")
        parts.append(_IMPORT.sub("", text))
    return "\n".join(parts)


def folder_files() -> list[tuple[str, bytes]]:
    """What a site's runtime folder holds: ``(name in the folder, bytes)``, the page's own modules first."""
    check()
    files = [(name, asset(name).encode("utf-8")) for name in MODULES]
    files += [(target, web_runtime.path(package, name).read_bytes()) for package, name, target in FOLDER_FILES]
    return files + [(SOURCES_ZIP, sources_zip())]


def write_folder(site: Path) -> Path:
    """Write the runtime folder of a site being written (the staging folder of
    :func:`explorer.system.files.new_folder`), ``site/runtime``; returns it.  Its files' manifest becomes this
    process's :func:`folder_manifest` (the site's pages name the files it holds; its workers are handed it)."""
    global _manifest
    folder = site / "runtime"
    (folder / "pyodide").mkdir(parents=True)
    files = folder_files()
    for target, data in files:
        with create(folder / target) as handle:
            handle.write(data)
    _manifest = manifest_of(files)
    return folder


#: :func:`folder_manifest`, once made or handed in (:func:`use_folder_manifest`).
_manifest: dict[str, dict] | None = None


def folder_manifest() -> dict[str, dict]:
    """``{name in the folder: {"bytes", "sha256"}}`` of every file of a site's runtime folder: what a page checks
    when it cannot start (explorer/web/guard.js names the file that is missing, cut short or damaged).  Made once a
    process: the files of the last :func:`write_folder` here, or handed in by the command whose worker this is."""
    global _manifest
    if _manifest is None:
        _manifest = manifest_of(folder_files())
    return _manifest


def manifest_of(files: list[tuple[str, bytes]]) -> dict[str, dict]:
    """:func:`folder_manifest` of ``files`` (:func:`folder_files`)."""
    return {name: {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()} for name, data in files}


def use_folder_manifest(manifest: dict[str, dict]) -> None:
    """Take ``manifest`` as :func:`folder_manifest` (a site's worker: the command read and hashed the 16 MB once,
    for the folder it wrote, rather than each worker again)."""
    global _manifest
    _manifest = manifest


def folder_runtime(prefix: str = "runtime/") -> dict:
    """A site page's ``runtime`` entry of its data: where its shared folder is, and what each of its files is."""
    return {"kind": "folder", "base": prefix, "sources": SOURCES_ZIP, "files": folder_manifest(),
            "checkFirst": [SOURCES_ZIP]}  # fmt: skip  # small, read last: checked while Python starts


def gzip_bytes(data: bytes) -> bytes:
    """``data`` gzipped at the highest level, with no file name or time in the header (the same bytes every time)."""
    return gzip.compress(data, compresslevel=9, mtime=0)


def embedded_files() -> dict[str, bytes]:
    """What a single-file page holds, each gzipped: Pyodide's two modules, its WebAssembly, the standard
    library (only the modules the page's Python imports: :func:`trimmed_stdlib`), the project's sources and vtk.js."""
    check()
    pyodide = {name: web_runtime.path(web_runtime.PYODIDE, name).read_bytes()
               for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")}  # fmt: skip
    pyodide["python_stdlib.zip"] = trimmed_stdlib()
    pyodide["sources.zip"] = sources_zip()
    pyodide["vtk.js"] = web_runtime.path(web_runtime.VTKJS, "vtk.js").read_bytes()
    return {name: gzip_bytes(data) for name, data in pyodide.items()}


def embedded_runtime(names: list[str]) -> dict:
    """A single-file page's ``runtime`` entry: the files it holds, and Pyodide's lock file without packages
    (the page loads none; the full lock names a CDN for each)."""
    lock = json.loads(web_runtime.path(web_runtime.PYODIDE, "pyodide-lock.json").read_text(encoding="utf-8"))
    return {"kind": "embedded", "files": names, "lock": json.dumps({"info": lock["info"], "packages": {}})}


def trimmed_stdlib() -> bytes:
    """Pyodide's standard library with only what a page's Python imports (:data:`STDLIB_KEEP`), as a zip."""
    full = web_runtime.path(web_runtime.PYODIDE, "python_stdlib.zip").read_bytes()
    keep = [line.strip() for line in asset(STDLIB_KEEP).splitlines() if line.strip() and not line.startswith("#")]
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(full)) as source, zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
        for info in source.infolist():
            if any(info.filename == k or info.filename.startswith(k.rstrip("/") + "/") for k in keep):
                out.writestr(info, source.read(info))
    return buffer.getvalue()
