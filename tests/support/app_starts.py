"""Starting the app as a user does, in a process of its own: a fresh Xvfb screen, the installed console script, and
the app's start-up report (``SPHERE_EXPLORER_STARTUP_REPORT``) to know when it is up."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

#: The console script a user runs (installed beside this Python).
CONSOLE_SCRIPT = Path(sys.executable).with_name("sphere-explorer")


def free_display() -> int:
    """An X display number no server uses."""
    for number in range(150, 400):
        if not Path(f"/tmp/.X11-unix/X{number}").exists() and not Path(f"/tmp/.X{number}-lock").exists():
            return number
    raise RuntimeError("no free X display number")


def wait_for(predicate, timeout: float, what: str) -> None:
    """Wait until ``predicate()`` is true, at most ``timeout`` seconds (then fail naming ``what``)."""
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


@contextmanager
def screen(width: int, height: int, home: Path):
    """A fresh Xvfb of ``width`` x ``height``; yields an environment for programs on it (Qt's settings in ``home``)."""
    number = free_display()
    xvfb = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        wait_for(lambda: Path(f"/tmp/.X11-unix/X{number}").exists(), 20, "Xvfb")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("QT_", "PYTEST", "SPHERE_EXPLORER"))}
        env.update(DISPLAY=f":{number}", XDG_CONFIG_HOME=str(home / "config"))
        yield env
    finally:
        xvfb.terminate()
        xvfb.wait(10)


def start(env: dict, report: Path, *args: str, started: bool = False, cwd: Path | None = None):
    """Run the console script with ``args`` on ``env``'s screen until its first 3-D frame (``started``: until every
    panel is built and the compiled motion loop's background loading has ended).

    Returns
    -------
    (subprocess.Popen, dict)
        The running app (stdout and stderr piped, text) and its start-up report.
    """
    report.unlink(missing_ok=True)
    app = subprocess.Popen([str(CONSOLE_SCRIPT), *args], env={**env, "SPHERE_EXPLORER_STARTUP_REPORT": str(report)},
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd)  # fmt: skip

    def up() -> bool:
        if app.poll() is not None:
            return True
        try:
            data = json.loads(report.read_text())
        except (OSError, ValueError):
            return False
        return not started or "started" in data

    try:
        wait_for(up, 120, "the window's start-up")
    except AssertionError:
        app.kill()
        raise
    assert app.poll() is None, app.communicate()[1]
    return app, json.loads(report.read_text())


def close(app: subprocess.Popen) -> tuple[str, str]:
    """End the app as a desktop's close does (SIGTERM); its stdout and stderr."""
    app.send_signal(signal.SIGTERM)
    out, err = app.communicate(timeout=30)
    return out, err
