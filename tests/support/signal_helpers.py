"""A signal sent to the console script at a chosen moment, and the verdict on what the command left.

Shared by ``tests/scenarios/signals/`` and ``benchmarks/attack_signals.py``.  A command
stopped by SIGINT or SIGTERM must end in one of two ways (issue 36):

``interrupted``
    exit 130 (SIGINT) or 143 (SIGTERM), exactly one line on stderr, nothing on
    stdout, no output and no temporary left;
``complete``
    exit 0, the output's path on stdout, nothing on stderr, the output whole (a
    PNG or GIF that decodes, a report folder with its three files, a page or a
    site complete), no temporary left, and the output put in place before the
    signal was sent (its change time, set by the rename, not later).

A process the signal killed before the command's handler existed (the
interpreter starting; nothing written, no line, 130/143 to a shell) is ``killed
before handler``.  Everything else is wrong, and its verdict says how
(``segfault``, ``exit 1``, ``traceback``, ``leftover``, ``completed after the
signal``, ``killed after its output``...).

SIGINT goes to the command's process group, as a terminal's Ctrl-C does (the
EGL probe it starts gets it too); SIGTERM to the command alone, as ``kill`` does.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

import imageio.v3 as iio
from web_helpers import page_data, recording

from explorer.web.export import RECORDED_SUFFIX
from explorer.web.runtime import FOLDER_FILES, MODULES, SOURCES_ZIP

#: What a site's runtime folder holds, whole.
RUNTIME_FILES = sorted([target for _, _, target in FOLDER_FILES] + [*MODULES, SOURCES_ZIP])

EXE = Path(sys.executable).with_name("sphere-explorer")
#: The scenes the commands draw, and the site's folder of scenes (a quick one, one with 12 events).
SCENES = Path(__file__).resolve().parents[2] / "scenes"
SITE_SCENES = ("default.json", "caged_ball.json")
#: An output changed later than this after the signal was sent was put in place after it (file times
#: come from a coarse clock, never ahead of the real time; the margin is for the last bytecodes before
#: a rename, after the last check).
AFTER_SIGNAL = 0.005
#: What a stopped command says after its name.
INTERRUPTED = "interrupted; nothing was written"
#: A SIGTERM handler appears in /proc/PID/status's SigCgt mask when the command's own is installed.
_CAUGHT_TERM = 1 << (signal.SIGTERM - 1)


@dataclass(frozen=True)
class Command:
    """One command line to stop: its arguments for a working folder, and what a whole output is there."""

    name: str
    arguments: Callable[[Path, Path], list[str]]  # (scenes, folder) -> arguments after the program
    output: str  # its name in the folder
    problem: Callable[[Path], str | None]  # what is wrong with a complete output, or None
    draws: bool = True  # it loads VTK (a recorded page does not: it is the live page's frames; a site's thumbnails
    # are drawn by its worker processes)

    def argv(self, scenes: Path, folder: Path) -> list[str]:
        return [str(EXE), *map(str, self.arguments(scenes, folder))]


def _png_problem(path: Path, size: tuple[int, int] | None = None) -> str | None:
    image = iio.imread(path)
    if size is not None and image.shape[:2] != (size[1], size[0]):
        return f"{path.name}: {image.shape} pixels, expected {size}"
    return None


def _gif_problem(path: Path, frames: int) -> str | None:
    count = len(iio.imread(path, index=None))
    return None if count == frames else f"{path.name}: {count} frames, expected {frames}"


def _report_problem(folder: Path) -> str | None:
    names = sorted(p.name for p in folder.iterdir())
    if names != ["picture.png", "scene.json", "solution.json"]:
        return f"the report holds {names}"
    for name in ("scene.json", "solution.json"):
        json.loads((folder / name).read_text(encoding="utf-8"))
    return _png_problem(folder / "picture.png")


def _page_problem(path: Path) -> str | None:
    text = path.read_text(encoding="utf-8")
    if not text.rstrip().endswith("</html>"):
        return f"{path.name} is cut short"
    data = page_data(text)
    return None if data.get("scene") and recording(text)["frames"] else f"{path.name} has no scene"


def _site_problem(folder: Path) -> str | None:
    names = sorted(p.name for p in folder.iterdir())
    live = [Path(name).with_suffix(".html").name for name in SITE_SCENES]
    recorded = [Path(name).with_suffix(RECORDED_SUFFIX).name for name in SITE_SCENES]
    if names != sorted(["index.html", "runtime", *live, *recorded]):
        return f"the site holds {names}"
    index = (folder / "index.html").read_text(encoding="utf-8")
    for name in live:
        if f'href="{name}"' not in index:
            return f"the index does not link {name}"
        if not (folder / name).read_text(encoding="utf-8").rstrip().endswith("</html>"):
            return f"{name} is cut short"
    runtime = sorted(
        p.relative_to(folder / "runtime").as_posix() for p in (folder / "runtime").rglob("*") if p.is_file()
    )
    if runtime != RUNTIME_FILES:
        return f"the runtime folder holds {runtime}"
    return next((p for p in (_page_problem(folder / name) for name in recorded) if p), None)


def _size(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"


def _command(name: str, sub: str, scene: str, output: str, problem, *options: str) -> Command:
    """``sphere-explorer SUB SCENES/SCENE -o FOLDER/OUTPUT OPTIONS...``."""
    return Command(name, lambda scenes, out: [sub, scenes / scene, "-o", out / output, *options], output, problem)


PNG_SIZE, GIF_SIZE, GIF_FRAMES, REPORT_SIZE = (640, 400), (200, 125), 12, (480, 300)
COMMANDS = {
    command.name: command
    for command in (
        _command("render png", "render", "default.json", "out.png", lambda p: _png_problem(p, PNG_SIZE),
                 "--size", _size(PNG_SIZE)),
        _command("render gif", "render", "caged_ball.json", "out.gif", lambda p: _gif_problem(p, GIF_FRAMES),
                 "--size", _size(GIF_SIZE), "--frames", str(GIF_FRAMES)),
        _command("report", "report", "default.json", "out", _report_problem, "--size", _size(REPORT_SIZE)),
        replace(_command("export-html page", "export-html", "default.json", "out.html", _page_problem), draws=False),
        replace(_command("export-html site", "export-html", "site", "out", _site_problem), draws=False),
    )
}  # fmt: skip


def scene_folder(where: Path) -> Path:
    """``where`` with the commands' scenes: ``default.json``, ``caged_ball.json`` and ``site/`` (both)."""
    (where / "site").mkdir(parents=True)
    for name in SITE_SCENES:
        text = (SCENES / name).read_text(encoding="utf-8")
        (where / "site" / name).write_text(text, encoding="utf-8")
        (where / name).write_text(text, encoding="utf-8")
    return where


def environment(tree: str | None = None) -> dict[str, str]:
    """The command's environment: this one without a display (drawing through EGL, whose probe is a child
    process a Ctrl-C reaches too), and ``PYTHONPATH=tree`` when given (another checkout's code)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    if tree is not None:
        env["PYTHONPATH"] = tree
    return env


def start(command: Command, scenes: Path, folder: Path, env: dict[str, str] | None = None) -> subprocess.Popen:
    """Start ``command`` writing into ``folder`` (in a process group of its own, as a shell's job)."""
    return subprocess.Popen(command.argv(scenes, folder), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=environment() if env is None else env, start_new_session=True)  # fmt: skip


def handler_installed(proc: subprocess.Popen) -> bool:
    """Whether the command catches SIGTERM yet (Python itself never does: the command's handler is there)."""
    try:
        with open(f"/proc/{proc.pid}/status", encoding="ascii") as status:
            mask = next(int(row.split()[1], 16) for row in status if row.startswith("SigCgt:"))
    except (OSError, StopIteration):
        return False
    return bool(mask & _CAUGHT_TERM)


def wait_for_handler(proc: subprocess.Popen, timeout: float = 60.0) -> float:
    """Wait until the command's handler is installed (or it ended); return the seconds waited."""
    begin = time.perf_counter()
    while not handler_installed(proc) and proc.poll() is None and time.perf_counter() - begin < timeout:
        time.sleep(0.001)
    return time.perf_counter() - begin


def send(proc: subprocess.Popen, signum: int) -> float:
    """Send ``signum`` as a user does (SIGINT to the process group, SIGTERM to the process); return the
    wall-clock time it was sent (for :func:`verdict`)."""
    sent = time.time()
    try:
        if signum == signal.SIGINT:
            os.killpg(proc.pid, signum)
        else:
            proc.send_signal(signum)
    except ProcessLookupError:  # it had ended
        pass
    return sent


@dataclass(frozen=True)
class Run:
    """What one run of a command did: its verdict (:func:`verdict`) and its times, in seconds."""

    command: str
    signal: int | None
    moment: float  # when the signal was to be sent (see :func:`run`)
    verdict: str
    details: str
    handler: float | None  # when the command's handler was seen installed, after the start
    length: float  # from the start to the exit
    reaction: float | None  # from the signal to the exit


def loading(library: str) -> Callable[[subprocess.Popen], bool]:
    """A condition for :func:`run`: the command has begun loading a shared library whose path contains ``library``
    (``libvtkCommonCore``: VTK's import has begun)."""

    def mapped(proc: subprocess.Popen) -> bool:
        try:
            with open(f"/proc/{proc.pid}/maps", encoding="utf-8", errors="replace") as maps:
                return any(library in row for row in maps)
        except OSError:
            return False

    return mapped


def run(command: Command, scenes: Path, folder: Path, signum: int | None = None, moment: float = 0.0,
        after: Callable[[subprocess.Popen], bool] | None = None, env: dict[str, str] | None = None) -> Run:  # fmt: skip
    """Run ``command`` in the new folder ``folder``; send ``signum`` (None: none) ``moment`` seconds after its
    start, or after the condition ``after`` (e.g. :func:`handler_installed`) first held; judge what it left."""
    folder.mkdir()
    begin = time.perf_counter()
    proc = start(command, scenes, folder, env)
    handler = held = sent = sent_at = None
    while proc.poll() is None:
        now = time.perf_counter() - begin
        if handler is None and handler_installed(proc):
            handler = now
        if after is not None and held is None and signum is not None and after(proc):
            held = now
        due = moment if after is None else None if held is None else held + moment
        if signum is not None and sent is None and due is not None and now >= due:
            sent, sent_at = send(proc, signum), time.perf_counter()
        if handler is not None and (signum is None or sent is not None):
            break
        time.sleep(0.001)
    out, err = proc.communicate(timeout=600)
    ended = time.perf_counter()
    judged, details = verdict(command, folder, signum or 0, proc.returncode, out, err, sent)
    reaction = None if sent_at is None else ended - sent_at
    return Run(command.name, signum, moment, judged, details, handler, ended - begin, reaction)


def verdict(command: Command, folder: Path, signum: int, returncode: int, out: str, err: str,
            sent: float | None) -> tuple[str, str]:  # fmt: skip
    """What a run left: ``("interrupted" | "complete" | "killed before handler" | what went wrong, details)``.

    ``sent``: when the signal was sent (``time.time()``), None for a run that was sent none.
    """
    output = folder / command.output
    others = sorted(p.name for p in folder.iterdir() if p.name != command.output)
    details = f"exit {returncode}, stdout {out[-200:]!r}, stderr {err[-600:]!r}, left {others}"
    lines = err.splitlines()
    if returncode in (-signal.SIGSEGV, 128 + signal.SIGSEGV):
        return "segfault", details
    if "Traceback (most recent call last)" in err or "KeyboardInterrupt" in err:
        return "traceback", details
    if returncode == 1:
        return "exit 1", details
    if others:
        return "leftover", details
    killed = signum != 0 and returncode == -signum
    if killed and not out and not err and not output.exists():
        return "killed before handler", details
    if killed and out.strip() == str(output):
        return "killed after its output", details  # a completed command's exit status lost
    if returncode == 128 + signum:
        if len(lines) != 1 or not lines[0].endswith(INTERRUPTED) or out:
            return "not one line", details
        return ("interrupted", details) if not output.exists() else ("output left", details)
    if returncode == 0:
        if err or out.strip() != str(output) or not output.exists():
            return "output not said", details
        try:
            problem = command.problem(output)
        except Exception as exc:  # noqa: BLE001 - a broken output, in any way
            problem = f"{type(exc).__name__}: {exc}"
        if problem:
            return "broken output", f"{problem}; {details}"
        placed = output.stat().st_ctime
        if sent is not None and placed > sent + AFTER_SIGNAL:
            return "completed after the signal", f"in place {placed - sent:.3f} s after it; {details}"
        return "complete", details
    return "other", details


#: What marks a command's worker process (explorer.system.workers) in its command line.
WORKER_MARK = b"explorer.system.workers"


def workers_of(pid: int) -> set[int]:
    """The worker processes (:mod:`explorer.system.workers`) that process ``pid`` has now (from /proc)."""
    found = set()
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as children:
                kids = children.read().split()
        except OSError:
            continue
        for kid in kids:
            try:
                with open(f"/proc/{kid}/cmdline", "rb") as cmdline:
                    if WORKER_MARK in cmdline.read():
                        found.add(int(kid))
            except OSError:
                continue
    return found


def alive(pid: int) -> bool:
    """Whether process ``pid`` is still there (not ended, nor a zombie waiting to be reaped)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def watched(proc: subprocess.Popen, until: Callable[[set[int]], bool] | None = None) -> set[int]:
    """The worker processes ``proc`` has had, watched every 10 ms until it ends or ``until(seen)`` holds."""
    seen: set[int] = set()
    while proc.poll() is None and not (until is not None and until(seen)):
        seen |= workers_of(proc.pid)
        time.sleep(0.01)
    return seen
