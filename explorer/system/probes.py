"""What the explorer needs from the operating system, and checks that say so in one line: the set-up probes.

Standard library only: ``make run`` and ``make test`` run :mod:`explorer.system` with the system Python *before*
``.venv`` exists (``python3 -m explorer.system test``, see :mod:`explorer.system.__main__`), and the program itself
uses these checks at start-up: the window checks the X display and Qt's xcb libraries before Qt can abort,
``render`` checks EGL before VTK can crash.

Where to look can be redirected for tests: ``SPHERE_EXPLORER_SYSTEM_ROOT`` names
a folder that stands for ``/`` (libraries under its ``usr/lib/...``, programs
under its copy of each ``PATH`` entry), so a piece can be hidden without
uninstalling anything.  Outside the module, nothing is Debian-specific but the
package names in the messages.
"""

from __future__ import annotations

import ctypes
import glob
import os
import shlex
import shutil
import subprocess
import sys
import threading
from pathlib import Path

from . import interrupt

#: Environment variable naming a folder that stands for ``/`` (tests hide pieces with it).
ROOT_VARIABLE = "SPHERE_EXPLORER_SYSTEM_ROOT"

#: Debian/Ubuntu package -> (kind, what shows it is installed): a shared library
#: (looked up like the dynamic loader does), a file under a library folder, or a program on PATH.
PACKAGES: dict[str, tuple[str, str]] = {
    "xvfb": ("program", "Xvfb"),
    "xauth": ("program", "xauth"),
    "chromium": ("program", "chromium"),
    "npm": ("program", "npm"),
    "libgl1": ("library", "libGL.so.1"),
    "libegl1": ("library", "libEGL.so.1"),
    "libegl-mesa0": ("library", "libEGL_mesa.so.0"),
    "libgl1-mesa-dri": ("library", "dri/swrast_dri.so"),
    "libglib2.0-0": ("library", "libglib-2.0.so.0"),
    "libfontconfig1": ("library", "libfontconfig.so.1"),
    "libdbus-1-3": ("library", "libdbus-1.so.3"),
    "libxkbcommon0": ("library", "libxkbcommon.so.0"),
    "libxkbcommon-x11-0": ("library", "libxkbcommon-x11.so.0"),
    "libxcb-cursor0": ("library", "libxcb-cursor.so.0"),
    "libxcb-icccm4": ("library", "libxcb-icccm.so.4"),
    "libxcb-image0": ("library", "libxcb-image.so.0"),
    "libxcb-keysyms1": ("library", "libxcb-keysyms.so.1"),
    "libxcb-render0": ("library", "libxcb-render.so.0"),
    "libxcb-render-util0": ("library", "libxcb-render-util.so.0"),
    "libxcb-shape0": ("library", "libxcb-shape.so.0"),
    "libxcb-util1": ("library", "libxcb-util.so.1"),
    "libxcb-xkb1": ("library", "libxcb-xkb.so.1"),
}

#: Software OpenGL for VTK: on screen (GLX) and off screen (EGL, Mesa's llvmpipe).
GL = ("libgl1", "libegl1", "libegl-mesa0", "libgl1-mesa-dri")
#: What Qt's xcb platform plugin loads besides its own libraries (PySide6 wheels).
QT_XCB = (
    "libglib2.0-0", "libfontconfig1", "libdbus-1-3", "libxkbcommon0", "libxkbcommon-x11-0", "libxcb-cursor0",
    "libxcb-icccm4", "libxcb-image0", "libxcb-keysyms1", "libxcb-render0", "libxcb-render-util0", "libxcb-shape0",
    "libxcb-util1", "libxcb-xkb1",
)  # fmt: skip
#: What each use needs: ``render`` (no display), the window (``make run``), the documentation site
#: (``make docs``: the gallery's pictures are drawn as ``render`` draws them), the tests (under Xvfb, the
#: exported web pages drawn by a real browser, and npm to fetch the live pages' runtime).
NEEDS: dict[str, tuple[str, ...]] = {
    "render": GL,
    "run": GL + QT_XCB,
    "docs": GL,
    "test": GL + QT_XCB + ("xvfb", "xauth", "chromium", "npm"),
}


def system_root() -> Path:
    """The folder standing for ``/`` (``$SPHERE_EXPLORER_SYSTEM_ROOT``, normally ``/`` itself)."""
    return Path(os.environ.get(ROOT_VARIABLE) or "/")


def _under(root: Path, path: str) -> Path:
    return root / path.lstrip("/")


def library_folders(root: Path | None = None) -> list[Path]:
    """Where the dynamic loader looks: ``LD_LIBRARY_PATH``, ``/etc/ld.so.conf`` (with its
    includes), the multiarch and default folders; each under ``root``."""
    root = system_root() if root is None else root
    folders: list[str] = [p for p in os.environ.get("LD_LIBRARY_PATH", "").split(":") if p]

    def read_conf(path: Path, depth: int = 0) -> None:
        try:
            rows = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return
        for row in rows:
            row = row.split("#", 1)[0].strip()
            if row.startswith("include") and depth < 4:
                for pattern in row.split()[1:]:
                    for name in sorted(glob.glob(str(_under(root, pattern)))):
                        read_conf(Path(name), depth + 1)
            elif row:
                folders.append(row)

    read_conf(_under(root, "/etc/ld.so.conf"))
    for base in ("/lib", "/usr/lib"):
        folders += [
            str(Path(p).relative_to(root).as_posix()) for p in sorted(glob.glob(str(_under(root, base) / "*-linux-*")))
        ]
    folders += ["/lib", "/usr/lib", "/lib64", "/usr/lib64", "/usr/local/lib"]
    out: list[Path] = []
    for folder in folders:
        path = _under(root, "/" + folder.lstrip("/"))
        if path not in out:
            out.append(path)
    return out


def has_library(name: str, root: Path | None = None) -> bool:
    """True when the shared library (or file under a library folder) ``name`` is installed."""
    root = system_root() if root is None else root
    if any((folder / name).exists() for folder in library_folders(root)):
        return True
    if root == Path("/") and "/" not in name:  # an unusual layout: ask the dynamic loader itself
        try:
            ctypes.CDLL(name)
            return True
        except OSError:
            return False
    return False


def has_program(name: str, root: Path | None = None) -> bool:
    """True when the program ``name`` is on ``PATH`` (under ``root``)."""
    root = system_root() if root is None else root
    if root == Path("/"):
        return shutil.which(name) is not None
    folders = [str(_under(root, p)) for p in os.environ.get("PATH", os.defpath).split(os.pathsep) if p]
    return shutil.which(name, path=os.pathsep.join(folders)) is not None


def is_installed(package: str, root: Path | None = None) -> bool:
    """True when the Debian package's file (see :data:`PACKAGES`) is there."""
    kind, name = PACKAGES[package]
    return has_program(name, root) if kind == "program" else has_library(name, root)


def missing(packages: tuple[str, ...] | list[str], root: Path | None = None) -> list[str]:
    """The packages of ``packages`` that are not installed, in order."""
    if not sys.platform.startswith("linux"):
        return []  # macOS and Windows: the wheels bring what they need
    return [p for p in packages if not is_installed(p, root)]


def is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def install_command(packages: list[str] | tuple[str, ...]) -> str:
    """The exact command that installs ``packages`` (with ``sudo`` unless running as root)."""
    command = "apt-get install -y --no-install-recommends " + " ".join(shlex.quote(p) for p in packages)
    return command if is_root() else "sudo " + command


def describe(packages: list[str] | tuple[str, ...]) -> str:
    """``"libxcb-cursor0 (libxcb-cursor.so.0), xvfb (Xvfb)"``: each package and the file it gives."""
    return ", ".join(f"{p} ({PACKAGES[p][1]})" if p in PACKAGES else p for p in packages)


def missing_message(packages: list[str] | tuple[str, ...], what: str) -> str:
    """One line: what is missing for ``what`` and the exact command that installs it."""
    if shutil.which("apt-get") is None:
        files = ", ".join(PACKAGES[p][1] if p in PACKAGES else p for p in packages)
        return (
            f"{what} needs {files} (Debian/Ubuntu: {install_command(packages)}); install them with your package manager"
        )
    return f"{what} needs {describe(packages)}; install with: {install_command(packages)}"


# -- the display ------------------------------------------------------------------------


def x_display_problem(display: str | None = None, timeout: float = 5.0) -> str | None:
    """Why no X connection can be made to ``display`` (``$DISPLAY``), in a few words; None when it can.

    Connects with libxcb (what Qt's xcb plugin uses) in a thread, so an X server
    that does not answer is reported after ``timeout`` seconds instead of hanging.
    """
    display = os.environ.get("DISPLAY", "") if display is None else display
    if not display:
        return "DISPLAY is not set"
    if not has_library("libxcb.so.1"):
        return "libxcb.so.1 is missing (Debian package libxcb1)"
    try:
        xcb = ctypes.CDLL("libxcb.so.1")
    except OSError:
        return "libxcb.so.1 cannot be loaded (Debian package libxcb1)"
    xcb.xcb_connect.restype = ctypes.c_void_p
    xcb.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    xcb.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
    xcb.xcb_disconnect.argtypes = [ctypes.c_void_p]
    result: list[int] = []

    def connect() -> None:
        connection = xcb.xcb_connect(display.encode("utf-8", "surrogateescape"), None)
        result.append(xcb.xcb_connection_has_error(connection) if connection else -1)
        if connection:
            xcb.xcb_disconnect(connection)

    worker = threading.Thread(target=connect, daemon=True)
    worker.start()
    worker.join(timeout)
    if not result:
        return f"the X server at DISPLAY={display} does not answer"
    if result[0]:
        return f"no X server accepts a connection at DISPLAY={display}"
    return None


_EGL_PROBE = r"""
import ctypes, sys
try:
    egl = ctypes.CDLL("libEGL.so.1")
except OSError:
    print("libEGL.so.1 is missing"); sys.exit(3)
p, i = ctypes.c_void_p, ctypes.c_int
egl.eglGetProcAddress.restype = p; egl.eglGetProcAddress.argtypes = [ctypes.c_char_p]
egl.eglGetDisplay.restype = p; egl.eglGetDisplay.argtypes = [p]
egl.eglInitialize.argtypes = [p, ctypes.POINTER(i), ctypes.POINTER(i)]
egl.eglTerminate.argtypes = [p]
displays = []
query, platform = egl.eglGetProcAddress(b"eglQueryDevicesEXT"), egl.eglGetProcAddress(b"eglGetPlatformDisplayEXT")
if query and platform:
    devices, n = (p * 16)(), i(0)
    if ctypes.CFUNCTYPE(ctypes.c_uint, i, ctypes.POINTER(p), ctypes.POINTER(i))(query)(16, devices, ctypes.byref(n)):
        get = ctypes.CFUNCTYPE(p, ctypes.c_uint, p, p)(platform)
        displays += [get(0x313F, devices[k], None) for k in range(n.value)]  # EGL_PLATFORM_DEVICE_EXT
displays.append(egl.eglGetDisplay(None))
major, minor = i(0), i(0)
for d in displays:
    if d and egl.eglInitialize(d, ctypes.byref(major), ctypes.byref(minor)):
        egl.eglTerminate(d); sys.exit(0)
print("no EGL display can be initialised (no EGL driver)"); sys.exit(3)
"""


def egl_problem(timeout: float = 30.0) -> str | None:
    """Why OpenGL through EGL (off-screen, no display) will not work here; None when it will.

    Probed in a separate process, so a broken driver cannot crash the caller.
    """
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    try:
        probe = subprocess.run(
            [sys.executable, "-I", "-S", "-c", _EGL_PROBE], env=env, capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return "the EGL driver does not answer"
    except OSError as exc:
        from .files import os_reason

        return f"cannot start the EGL probe ({os_reason(exc)})"
    interrupt.check()  # a Ctrl-C reaches the probe too (the terminal's whole process group): not a failed probe
    if probe.returncode == 0:
        return None
    reason = (probe.stdout.strip().splitlines() or [f"the EGL probe failed (exit {probe.returncode})"])[-1]
    return reason


# -- how the user runs the program ----------------------------------------------------------


def command_name(argv0: str | None = None) -> str:
    """How to run ``sphere-explorer`` from here, e.g. ``.venv/bin/sphere-explorer`` (for messages).

    ``sphere-explorer`` when the running script is the one on ``PATH``; otherwise
    its path, relative to the current folder when it is below it.
    """
    argv0 = sys.argv[0] if argv0 is None else argv0
    if Path(argv0).name == "sphere-explorer":
        found = shutil.which("sphere-explorer")
        try:
            if found and os.path.samefile(found, argv0):
                return "sphere-explorer"
        except OSError:
            pass
        return _relative(argv0)
    venv_script = Path(sys.executable).with_name("sphere-explorer")
    if venv_script.exists():
        return _relative(str(venv_script))
    return f"{_relative(sys.executable)} -m explorer.cli"


def _relative(path: str) -> str:
    absolute = os.path.abspath(path)
    try:
        rel = os.path.relpath(absolute)
    except ValueError:
        return absolute
    if rel.startswith("..") or os.path.dirname(os.getcwd()) == os.getcwd():  # not below here, or here is /
        return absolute
    return rel if os.sep in rel else os.path.join(".", rel)
