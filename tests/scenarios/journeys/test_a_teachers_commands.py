"""A teacher's commands one after another, each in a fresh process, sharing one cache that starts empty: the window
(started as a user starts it and left until its background compile is done), a site, a single page, a picture, the
numbers and an audit on two workers; then the same commands in reverse order on another empty cache.  Every command
succeeds and prints no traceback.

At 4decb2d the window's background compile wrote numba's cache under a module only the window had
(``solver._compiled``), and the site's workers that loaded it failed: ``unexpected error at workers.py:184:
ModuleNotFoundError: No module named 'solver._compiled'``, exit 1.

Each order runs on a copy of the project's packages and scenes (``explorer``, ``solver``, ``scenes``) imported
through ``PYTHONPATH`` by the installed console script, so its numba cache (``solver/__pycache__``) is its own and
empty, as on a fresh clone.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import app_starts
import planted
import pytest
import sizes

import explorer
from explorer.model.formats.gallery import SCENES_DIR

pytestmark = pytest.mark.long(1.5)

#: The scenes of the class's site: a plain pair, the 16-ball break (the motion's loop), a question.
SITE_SCENES = ("heavy_light_glancing", "snooker_break", "predict_first")
#: The commands after the window, in the teacher's order (each a list of arguments; ``{}`` names the folder).
COMMANDS = {
    "site": ["export-html", "{}/scenes", "-o", "{}/site"],
    "single": ["export-html", "{}/scenes/snooker_break.json", "--single", "-o", "{}/break.html"],
    "render": ["render", "{}/scenes/snooker_break.json", "-o", "{}/break.png"],
    "solve": ["solve", "{}/scenes/snooker_break.json"],
    "audit": ["audit", "{}/log.npz", "--workers", "2", "-o", "{}/audit"],
}
#: The teacher's order.
STEPS = ("window", *COMMANDS)


@pytest.fixture
def project(tmp_path) -> Path:
    """A fresh copy of the project's packages (no cache) and a few scenes, and a small engine log."""
    source = Path(explorer.__file__).resolve().parent.parent
    for package in ("explorer", "solver"):
        shutil.copytree(source / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "scenes").mkdir()
    for stem in SITE_SCENES:
        shutil.copy(SCENES_DIR / f"{stem}.json", tmp_path / "scenes")
    planted.write_log(tmp_path / "log.npz", planted.random_columns(2000))
    return tmp_path


def window(env: dict, folder: Path) -> None:
    """The window on the glancing pair, until its panels are built and its background compile has ended; closed."""
    app, report = app_starts.start(env, folder / "startup.json", str(folder / "scenes" / "heavy_light_glancing.json"),
                                   started=True, cwd=folder)  # fmt: skip
    _, err = app_starts.close(app)
    assert report["started"] == {"plot": True, "motion_loop": True}, report
    assert "Traceback" not in err, err


def command(env: dict, folder: Path, name: str) -> None:
    """One command of :data:`COMMANDS` as a user types it; exit 0, no traceback."""
    args = [arg.replace("{}", str(folder)) for arg in COMMANDS[name]]
    done = subprocess.run([str(app_starts.CONSOLE_SCRIPT), *args], env=env, cwd=folder, capture_output=True,
                          text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0 and "Traceback" not in done.stderr, f"{name}: exit {done.returncode}\n{done.stderr}"


def journey(folder: Path, steps) -> None:
    """Each of ``steps`` (``"window"`` or a name of :data:`COMMANDS`) in turn, in fresh processes, on one screen."""
    with app_starts.screen(1366, 768, folder) as env:
        env = {**env, "PYTHONPATH": str(folder)}
        for step in steps:
            window(env, folder) if step == "window" else command(env, folder, step)


#: The journeys from an empty cache: the teacher's order, then in reverse on the cache it left (each process loads
#: what the others wrote); a full run also goes in reverse from an empty cache (a second compile of everything).
JOURNEYS = [(STEPS, STEPS[::-1])] + ([(STEPS[::-1],)] if sizes.FULL else [])


@pytest.mark.parametrize("journeys", JOURNEYS, ids=["window-first-then-last", "window-last"][: len(JOURNEYS)])
def test_every_command_succeeds_after_every_other_on_a_cache_that_starts_empty(project, journeys):
    pycache = project / "solver" / "__pycache__"
    assert not list(pycache.glob("*.nb*"))  # an empty cache, as on a fresh clone
    for steps in journeys:
        for made in ("site", "audit"):  # each journey writes its outputs anew
            shutil.rmtree(project / made, ignore_errors=True)
        journey(project, steps)
        assert (project / "site" / "index.html").exists() and (project / "break.png").stat().st_size > 0
        assert (project / "audit" / "summary.json").exists()
    assert list(pycache.glob("solver._compiled.*.nbi")) and list(pycache.glob("_events.*.nbi"))  # both wrote
