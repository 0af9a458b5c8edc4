"""Ctrl-C and ``kill`` during ``render``, ``report`` and ``export-html``: one line and 130/143 with nothing left,
or, when the output was already in place, exit 0 with the output whole; never a crash, exit 1, a traceback or
a leftover (issue 36).

Signals are sent to the console script as a user sends them (``signal_helpers``), at moments just after its
handler is installed, while VTK loads, and spread over a whole run, measured once per command; both signals at
each kind of moment.  Then: the handler is installed before anything slow is imported; signals as the command
returns and while the process ends do not change its exit 0.  In this process: the recording discipline
(a signal raises nothing until a safe point), and the safe points of each long phase (a signal is acted on
before the next frame, instant, page or step).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
import signal_helpers as sh

from explorer.system import interrupt

pytestmark = pytest.mark.long  # started first (tests/conftest.py)

#: Seconds after the handler is installed: the first imports, the scene, the first steps of a drawing.
EARLY = (0.0, 0.05, 0.15)
#: Fractions of a whole run's length (after the handler): the drawing, the writing, the end.
SPREAD = (0.35, 0.7, 1.0)
#: Seconds after VTK's import has begun (its first library mapped): within it.
WHILE_VTK_LOADS = (0.05,)
VTK = sh.loading("libvtkCommonCore")


@pytest.fixture(scope="module")
def scenes(tmp_path_factory):
    return sh.scene_folder(tmp_path_factory.mktemp("scenes"))


def _signal(k: int) -> int:
    """SIGINT and SIGTERM in turn."""
    return (signal.SIGINT, signal.SIGTERM)[k % 2]


@pytest.mark.parametrize("name", list(sh.COMMANDS))
def test_a_signal_at_any_moment(name, scenes, tmp_path):
    """A whole run (timed), the early moments beside it, then moments spread over its length; two at a time."""
    command = sh.COMMANDS[name]
    turn = list(sh.COMMANDS).index(name)  # each kind of moment gets both signals over the commands
    with ThreadPoolExecutor(2) as pool:

        def runs(moments, after, first: int) -> list:
            return [pool.submit(sh.run, command, scenes, tmp_path / f"at{first + k}", _signal(turn + first + k),
                                moment, after) for k, moment in enumerate(moments)]  # fmt: skip

        whole = pool.submit(sh.run, command, scenes, tmp_path / "whole")
        stopped = runs(EARLY, sh.handler_installed, 0) + runs(WHILE_VTK_LOADS if command.draws else (), VTK, len(EARLY))
        assert whole.result().verdict == "complete", whole.result()
        spread = runs([f * whole.result().length for f in SPREAD], sh.handler_installed, len(EARLY) + 1)
        stopped, spread = [future.result() for future in stopped], [future.result() for future in spread]
    wrong = [run for run in stopped + spread if run.verdict not in ("interrupted", "complete")]
    assert not wrong, "\n".join(f"{r.verdict}: {signal.Signals(r.signal).name} at {r.moment:.3f} s: {r.details}"
                                for r in wrong)  # fmt: skip
    assert all(run.verdict == "interrupted" for run in stopped), stopped  # stopped, not run to the end


HEAVY = ("numpy", "vtkmodules", "pyvista", "matplotlib", "solver")

FIRST_HEAVY_IMPORT = """
import os, signal, sys
def hook(event, args):
    if event == "import" and args[0].split(".")[0] in {heavy!r}:
        handler = signal.getsignal(signal.SIGTERM)
        print(args[0], getattr(handler, "__module__", handler), file=sys.stderr, flush=True)
        os._exit(0)
sys.addaudithook(hook)
sys.argv = [{exe!r}, *sys.argv[1:]]
from explorer.cli import console
sys.exit(console())
"""


def test_the_handler_is_installed_before_anything_slow_is_imported(scenes, tmp_path):
    """A signal in the first moments is recorded too: by the first import of numpy, VTK, matplotlib or the
    solver, every command's handler is there (the console script's own start-up before it takes some 30 ms)."""
    script = FIRST_HEAVY_IMPORT.format(heavy=set(HEAVY), exe=str(sh.EXE))
    for name, command in sh.COMMANDS.items():
        argv = command.argv(scenes, tmp_path)[1:]
        proc = subprocess.run([sys.executable, "-c", script, *argv], capture_output=True, text=True, timeout=120,
                              env=sh.environment(), cwd=tmp_path)  # fmt: skip
        module, handler = proc.stderr.splitlines()[0].split()
        assert handler == interrupt.__name__, f"{name}: {module} was imported before the handler was installed"


def test_signals_after_the_output_is_printed_leave_exit_0(scenes, tmp_path):
    """The output is in place and said: Ctrl-C pressed again and again while the process ends (the
    interpreter's shutdown, VTK's teardown) changes nothing; it once ended killed by SIGINT."""
    command = sh.COMMANDS["render png"]
    proc = sh.start(command, scenes, tmp_path)
    printed = proc.stdout.readline()
    sent = 0
    while proc.poll() is None:
        sent += 1
        sh.send(proc, signal.SIGINT)
        time.sleep(0.001)
    out, err = proc.communicate(timeout=60)
    judged = sh.verdict(command, tmp_path, signal.SIGINT, proc.returncode, printed + out, err, None)
    assert judged[0] == "complete" and sent > 0, judged


SIGNAL_AS_THE_COMMAND_RETURNS = """
import os, signal, sys
from explorer import cli

command = cli.main

def main():
    code = command()
    os.kill(os.getpid(), signal.SIGINT)  # the output is printed: a Ctrl-C now is too late to stop anything
    return code

cli.main = main
sys.argv = [sys.argv[0], "solve", sys.argv[1]]
sys.exit(cli.console())
"""


def test_a_signal_as_the_command_returns_changes_nothing(tmp_path):
    """The console script records signals from its first line to its last, not only while the command runs
    (after it, Python's own handler would raise KeyboardInterrupt with a traceback)."""
    proc = subprocess.run([sys.executable, "-c", SIGNAL_AS_THE_COMMAND_RETURNS, str(sh.SCENES / "default.json")],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)  # fmt: skip
    assert (proc.returncode, proc.stderr) == (0, "") and '"hit"' in proc.stdout


# -- the recording discipline, in this process -------------------------------------------------


def _signalled(signum: int = signal.SIGTERM) -> None:
    """Send ``signum`` to this process and let its (recording) handler run."""
    os.kill(os.getpid(), signum)
    time.sleep(0.05)


def test_a_recording_block_never_raises_at_the_signal_only_at_check():
    before = signal.getsignal(signal.SIGTERM)
    with interrupt.catching(raising=False):
        try:
            _signalled(signal.SIGTERM)
        except KeyboardInterrupt:
            pytest.fail("raised at the signal, as it would be inside an import or a VTK observer")
        assert interrupt.received() == signal.SIGTERM
        with pytest.raises(KeyboardInterrupt):
            interrupt.check()
        assert interrupt.exit_code() == 143
    assert interrupt.received() is None and signal.getsignal(signal.SIGTERM) is before


def test_a_raising_block_inside_a_recording_one_raises_at_once():
    """The audit inside the command line: it raises for a signal recorded before it began, and at the signal."""
    with interrupt.catching(raising=False):
        _signalled(signal.SIGINT)
        with pytest.raises(KeyboardInterrupt):
            with interrupt.catching():
                pytest.fail("the block ran after a recorded signal")
    with interrupt.catching(raising=False):
        with pytest.raises(KeyboardInterrupt):
            with interrupt.catching():
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.5)
                pytest.fail("no KeyboardInterrupt at the signal")
        _signalled(signal.SIGINT)  # recording again once the raising block is over
        assert interrupt.received() == signal.SIGINT


@pytest.fixture
def handlers_at_start():
    """Set SIGINT and SIGTERM as the process found them, then put back what the test run had: a test run started
    as a shell's background job (``&``) inherits SIGINT ignored, which Python then keeps."""
    kept = {signum: signal.getsignal(signum) for signum in interrupt.SIGNALS}

    def start_with(sigint) -> None:
        signal.signal(signal.SIGINT, sigint)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)

    yield start_with
    for signum, handler in kept.items():
        signal.signal(signum, handler)


def test_released_gives_the_usual_handlers_back_after_a_recorded_signal_stops_it(handlers_at_start):
    """The window: Qt's event loop keeps the usual effect of Ctrl-C; one recorded before it starts stops it."""
    handlers_at_start(signal.default_int_handler)
    with interrupt.catching(raising=False):
        with interrupt.released():
            assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        assert signal.getsignal(signal.SIGINT) is not signal.default_int_handler
        _signalled(signal.SIGTERM)
        with pytest.raises(KeyboardInterrupt):
            with interrupt.released():
                pytest.fail("the window opened after a recorded signal")


def test_released_keeps_ctrl_c_ignored_when_the_shell_started_the_window_ignoring_it(handlers_at_start):
    """``sphere-explorer &`` from a script: the shell starts it with SIGINT ignored, and the window keeps that."""
    handlers_at_start(signal.SIG_IGN)
    with interrupt.catching(raising=False):
        with interrupt.released():
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        assert signal.getsignal(signal.SIGINT) is not signal.SIG_IGN  # recorded again after
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN


# -- a long phase reacts: a signal is acted on between its steps ------------------------------


def _signal_at_update(monkeypatch, at: int) -> list:
    """Count the drawing's updates (the scene drawn, then one per frame or instant); a signal comes during
    update number ``at``."""
    from explorer.view.scene_view import SceneView

    original = SceneView.update
    calls = []

    def update(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == at:
            _signalled()
        return original(self, *args, **kwargs)

    monkeypatch.setattr(SceneView, "update", update)
    return calls


@pytest.fixture
def updates(monkeypatch):
    """The drawing's updates, counted; a signal comes during the third."""
    return _signal_at_update(monkeypatch, 3)


def test_an_animation_stops_between_frames(updates, tmp_path):
    """Hundreds of frames take minutes: the next frame is not drawn after a signal (nor the file written)."""
    from explorer.model.formats.scene_io import load
    from explorer.view.animation import render_animation

    with interrupt.catching(raising=False):
        with pytest.raises(KeyboardInterrupt):
            render_animation(load(sh.SCENES / "default.json"), tmp_path / "a.gif", (64, 40), frames=40)
    assert len(updates) == 3 and list(tmp_path.iterdir()) == []


def test_a_page_stops_between_the_frames_it_records(monkeypatch):
    """A long motion's page records hundreds of frames (seconds): after a signal the next is not described."""
    from explorer.model.formats.scene_io import load
    from explorer.web.live import LivePage
    from explorer.web.page import build_page

    original, described = LivePage.frame_data, []

    def frame_data(self):
        described.append(1)
        if len(described) == 3:
            _signalled()
        return original(self)

    monkeypatch.setattr(LivePage, "frame_data", frame_data)
    with interrupt.catching(raising=False):
        with pytest.raises(KeyboardInterrupt):
            build_page(load(sh.SCENES / "caged_ball.json"))
    assert len(described) == 3


def test_the_gif_encoder_stops_between_frames(monkeypatch):
    """Encoding hundreds of frames takes seconds: after a signal the encoder is given no further frame."""
    from PIL import Image

    from explorer.view import animation

    original, given = Image.fromarray, []

    def fromarray(*args, **kwargs):
        given.append(1)
        if len(given) == 3:
            _signalled()
        return original(*args, **kwargs)

    monkeypatch.setattr(Image, "fromarray", fromarray)
    frames = [np.full((8, 8, 3), k, np.uint8) for k in range(20)]
    with interrupt.catching(raising=False):
        with pytest.raises(KeyboardInterrupt):
            animation._gif_bytes(frames, 10)
    assert len(given) == 3


def test_a_site_stops_between_pages(monkeypatch, tmp_path):
    """Pages made in this process (one core): after a signal during the first page no other is drawn, and no
    folder is left."""
    from explorer.model.formats.scene_io import load
    from explorer.web import export
    from explorer.web.page import Page

    drawn = []

    def build_page(scene, name, **options):
        drawn.append(name)
        _signalled(signal.SIGINT)
        return Page("<html></html>", name, "no contact")

    monkeypatch.setattr(export, "build_page", build_page)
    scenes = [(sh.SCENES / name, load(sh.SCENES / name)) for name in ("default.json", "caged_ball.json")]
    with interrupt.catching(raising=False):
        with pytest.raises(KeyboardInterrupt):
            export.write_site(scenes, tmp_path / "site", workers=1)
    assert drawn == ["default"] and list(tmp_path.iterdir()) == []


def test_a_ctrl_c_that_stopped_the_egl_probe_stops_the_command(monkeypatch):
    """A terminal's Ctrl-C reaches the whole process group: the probe dies of it, and the command stops in
    its one line, instead of refusing with 'the EGL probe failed (exit -2)'."""
    from explorer.system import probes as system

    monkeypatch.setattr(system, "_EGL_PROBE", "import os, signal\nos.kill(os.getppid(), signal.SIGINT)\n"
                                              "os.kill(os.getpid(), signal.SIGINT)")  # fmt: skip
    with interrupt.catching(raising=False):
        with pytest.raises(KeyboardInterrupt):
            system.egl_problem()
        assert interrupt.received() == signal.SIGINT


def _render_png(scene, folder):
    from explorer.view.render import render_png

    render_png(scene, folder / "a.png", (64, 40))


def _thumbnail(scene, folder):
    from explorer.web.export import thumbnail

    thumbnail(scene)


@pytest.mark.parametrize("draw", [_render_png, _thumbnail], ids=["render_png", "site_thumbnail"])
def test_a_picture_stops_before_it_is_taken(draw, monkeypatch, tmp_path):
    """A signal while the scene is being drawn: the picture (a render of seconds at large sizes) is not taken."""
    import pyvista

    from explorer.model.formats.scene_io import load

    taken = []
    _signal_at_update(monkeypatch, 1)
    monkeypatch.setattr(pyvista.Plotter, "screenshot", lambda *args, **kwargs: taken.append(1))
    with interrupt.catching(raising=False):
        with pytest.raises(KeyboardInterrupt):
            draw(load(sh.SCENES / "default.json"), tmp_path)
    assert taken == [] and list(tmp_path.iterdir()) == []


def test_a_signal_during_the_imports_stops_before_vtk_draws(monkeypatch, tmp_path):
    """pyvista and VTK take a second to import: a signal then is acted on before a plotter is made."""
    import pyvista

    from explorer.model.formats.scene_io import load

    made = []
    monkeypatch.setattr(pyvista, "Plotter", lambda *args, **kwargs: made.append(1))
    with interrupt.catching(raising=False):
        _signalled(signal.SIGINT)
        with pytest.raises(KeyboardInterrupt):
            _render_png(load(sh.SCENES / "default.json"), tmp_path)
    assert made == []


def test_solve_stopped_while_solving_prints_nothing(monkeypatch, capsys):
    from explorer.cli import main
    from explorer.model.derived import analysis

    original = analysis.solve

    def solve(scene):
        _signalled()
        return original(scene)

    monkeypatch.setattr(analysis, "solve", solve)
    assert main(["solve", str(sh.SCENES / "default.json")]) == 143
    assert capsys.readouterr() == ("", f"sphere-explorer solve: {sh.INTERRUPTED}\n")


def test_the_plot_is_not_drawn_after_a_signal_while_the_picture_is_taken(monkeypatch, tmp_path):
    """``render --plot``: matplotlib's import and plot take most of a second more; after a signal, not begun."""
    import pyvista

    from explorer.model.formats.scene_io import load
    from explorer.view import plot_image
    from explorer.view.render import render_png

    original, plotted = pyvista.Plotter.screenshot, []

    def screenshot(self, *args, **kwargs):
        _signalled()
        return original(self, *args, **kwargs)

    monkeypatch.setattr(pyvista.Plotter, "screenshot", screenshot)
    monkeypatch.setattr(plot_image, "compose_png", lambda *args, **kwargs: plotted.append(1))
    with interrupt.catching(raising=False):
        with pytest.raises(KeyboardInterrupt):
            render_png(load(sh.SCENES / "default.json"), tmp_path / "a.png", (64, 40), with_plot=True)
    assert plotted == [] and list(tmp_path.iterdir()) == []


class _SignalAtThird(list):
    """Frames whose iteration sends a signal as the third is taken, and counts those taken."""

    taken = 0

    def __iter__(self):
        for k, frame in enumerate(super().__iter__()):
            if k == 2:
                _signalled()
            self.taken += 1
            yield frame


def test_an_mp4_stops_between_frames(tmp_path):
    from explorer.view import animation

    if not animation.mp4_available():
        pytest.skip("MP4 needs imageio-ffmpeg (the mp4 extra)")
    frames = _SignalAtThird(np.full((16, 16, 3), k, np.uint8) for k in range(30))
    with interrupt.catching(raising=False):
        with pytest.raises(KeyboardInterrupt):
            animation._write_frames(tmp_path / "a.mp4", frames, 10)
    assert frames.taken == 3 and list(tmp_path.iterdir()) == []  # and ffmpeg does not write the file again


def test_a_signal_while_the_arguments_are_read_stops_before_the_command(monkeypatch, capsys):
    """``render``'s and ``report``'s help texts import the drawing code (numpy, the solver): a signal then
    is acted on before the command starts."""
    from explorer import cli

    ran, parser = [], cli._parser_solve

    def reading():
        _signalled(signal.SIGINT)
        return parser()

    monkeypatch.setattr(cli, "cmd_solve", lambda args: ran.append(1) or 0)
    monkeypatch.setitem(cli.SUBCOMMANDS, "solve", reading)
    try:
        code = cli.main(["solve", str(sh.SCENES / "default.json")])
    except KeyboardInterrupt:
        pytest.fail("a KeyboardInterrupt came out of the command (a traceback)")
    assert code == 130 and ran == [] and capsys.readouterr() == ("", f"sphere-explorer solve: {sh.INTERRUPTED}\n")


def test_a_ctrl_c_that_stopped_ffmpeg_s_trial_stops_the_command(monkeypatch):
    """Finding ffmpeg runs it once: a Ctrl-C then stops the command rather than 'MP4 needs imageio-ffmpeg'."""
    imageio_ffmpeg = pytest.importorskip("imageio_ffmpeg")
    from explorer.view import animation

    def tried():
        _signalled(signal.SIGINT)
        raise RuntimeError("no ffmpeg exe could be found")  # what its killed trial leads to

    monkeypatch.setattr(imageio_ffmpeg, "get_ffmpeg_exe", tried)
    with interrupt.catching(raising=False):
        with pytest.raises(KeyboardInterrupt):
            animation.mp4_available()


#: Seconds both of a site's worker processes have been there before the signal: importing, drawing a page.
WORKERS_BUSY = (0.3, 1.5)


@pytest.mark.parametrize("after", WORKERS_BUSY)
def test_a_signal_while_the_workers_make_pages_leaves_no_process(scenes, tmp_path, after):
    """A site's two worker processes are busy (starting, or drawing a page): Ctrl-C (the process group) and
    ``kill`` (the command alone) stop it in one line with nothing left, the workers ended with it."""
    command = sh.COMMANDS["export-html site"]

    def stopped(signum: int) -> tuple:
        folder = tmp_path / f"{signal.Signals(signum).name}-{after}"
        folder.mkdir()
        proc = sh.start(command, scenes, folder)
        began: list[float] = []

        def busy(seen: set[int]) -> bool:
            if len(seen) == 2 and not began:
                began.append(time.perf_counter())
            return bool(began) and time.perf_counter() - began[0] >= after

        seen = sh.watched(proc, busy)
        sent = sh.send(proc, signum)
        out, err = proc.communicate(timeout=120)
        left = [pid for pid in seen if sh.alive(pid)]
        return sh.verdict(command, folder, signum, proc.returncode, out, err, sent), len(seen), left

    with ThreadPoolExecutor(2) as pool:
        runs = list(pool.map(stopped, (signal.SIGINT, signal.SIGTERM)))
    for (judged, details), workers, left in runs:
        assert (judged, workers, left) == ("interrupted", 2, []), details
