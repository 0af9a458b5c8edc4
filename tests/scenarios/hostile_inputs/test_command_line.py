"""Hostile arguments, output paths and environments: one line on stderr, exit 2, found before any
drawing starts, and no file (or temporary file) left behind; never a traceback, a crash or a hang."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import refused

from explorer import cli
from explorer.cli import SUBCOMMANDS, main
from explorer.model.formats import scene_io
from explorer.model.formats.gallery import DEFAULT_SCENE, SCENES_DIR

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = Path(sys.executable).with_name("sphere-explorer")
S = str(DEFAULT_SCENE)


def _run(*args, env=None, stdout=subprocess.PIPE, timeout=120, cwd=ROOT):
    return subprocess.run(
        [str(SCRIPT), *map(str, args)],
        cwd=cwd,
        env=env,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=timeout,
    )


def test_a_time_before_the_motion_starts_is_refused_by_solve(capsys):
    """At 4decb2d ``solve --time -1`` printed ``"time": -1`` with the bodies where they are at t = 0."""
    refused(["solve", S, "--time", "-1"], capsys, "--time: expected a finite time from 0 to 1e+06, got '-1'")
    refused(["solve", S, "--time=-1e-300"], capsys, "got '-1e-300'")


@pytest.mark.parametrize(
    "extra, needle",
    [
        (["--fps", "0"], "--fps: expected 1 to 100 frames per second, got '0'"),
        (["--fps", "-1"], "--fps: expected 1 to 100"),
        (["--fps", "fast"], "--fps: expected a whole number"),
        (["--frames", "1"], "--frames: expected 2 to 1000 frames"),
        (["--frames", "100000"], "--frames: expected 2 to 1000"),
        (["--frames", "1000", "--size", "8192x8192"], "more than the memory budget"),
        (["--size", "0x0"], "size must be between 16 and 8192"),
        (["--size", "99999x16"], "size must be between"),
        (["--size", "wide"], "expected WIDTHxHEIGHT"),
        (["--time", "nan"], "--time: expected a finite time"),
        (["--time", "1e400"], "--time: expected a finite time"),
        (["--time", "-1"], "--time: expected a finite time from 0 to 1e+06, got '-1'"),
        (["--plot"], "--plot: only for a .png"),
        (["--frame", "sideways"], "--frame: invalid choice"),
    ],
)
def test_bad_animation_arguments_are_one_line_before_any_work(tmp_path, capsys, no_drawing, extra, needle):
    refused(["render", S, "-o", tmp_path / "a.gif", *extra], capsys, needle)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "option, text, what",
    [
        ("--event", "1_0", "a whole number of events"),  # int() reads it as 10
        ("--event", "\u0663", "a whole number of events"),  # Arabic-Indic three
        ("--event", "\uff15", "a whole number of events"),  # fullwidth five
        ("--event", " 5", "a whole number of events"),
        ("--event", "+5", "a whole number of events"),
        ("--event", "5\n", "a whole number of events"),
        ("--frames", "4_0", "a whole number of frames"),
        ("--fps", "\uff12\uff10", "a whole number of frames per second"),
        ("--size", "1_280x800", "WIDTHxHEIGHT"),
        ("--size", "\uff16\uff14x64", "WIDTHxHEIGHT"),
        ("--size", "+64x64", "WIDTHxHEIGHT"),
        ("--time", "1_0", "a number"),
        ("--time", "\u0663", "a number"),
        ("--time", " 1", "a number"),
    ],
)
def test_numbers_are_written_in_ascii_digits_only(tmp_path, capsys, no_drawing, option, text, what):
    """Python's int() and float() also take underscores, other scripts' digits and spaces around:
    an argument is a plain number or refused, naming the option and the text."""
    out = tmp_path / ("a.gif" if option in ("--frames", "--fps") else "a.png")
    refused(["render", SCENES_DIR / "snooker_break.json", "-o", out, option, text], capsys,
            f"{option}: expected {what}")  # fmt: skip
    assert list(tmp_path.iterdir()) == []


def _named(tmp_path, names: list[str]) -> Path:
    """The snooker break with its first bodies renamed ``names``."""
    data = json.loads((SCENES_DIR / "snooker_break.json").read_text(encoding="utf-8"))
    for body, name in zip(data["bodies"], names):
        body["name"] = name
    path = tmp_path / "named.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "names, pair, needle",
    [
        (["x,y", "B", "C"], "x,y,x,y", "--pair: expected two different body names"),
        (["x,y", "B", "C"], "x,y,Z", "--pair: expected two different body names"),
        (["x,y", "B", "C"], "x,Z", "--pair: no body named 'x'"),
        (["a", "b,c", "a,b", "c"], "a,b,c", "--pair: 'a,b,c' reads as 'a' and 'b,c' or as 'a,b' and 'c'"),
    ],
)
def test_pair_names_with_commas_refused_when_they_do_not_read_as_one_pair(tmp_path, capsys, no_drawing, names,
                                                                          pair, needle):  # fmt: skip
    refused(["render", _named(tmp_path, names), "-o", tmp_path / "a.png", "--pair", pair], capsys, needle)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["named.json"]


def test_pair_finds_a_body_whose_name_holds_a_comma(tmp_path, capsys):
    from explorer.cli import _inspected, _parser_render
    from explorer.model.state.scene import SceneError

    scene = scene_io.load(_named(tmp_path, ["x,y", "B", "C,D"]))
    for pair, expected in (("x,y,B", (0, 1)), ("B,x,y", (1, 0)), ("C,D,x,y", (2, 0)), ("B,Q", None)):
        args = _parser_render().parse_args([S, "-o", "a.png", "--pair", pair])
        if expected is None:
            with pytest.raises(SceneError, match="no body named 'Q'"):
                _inspected(scene, args)
        else:
            assert _inspected(scene, args)[2] == expected
    out = tmp_path / "pair.png"
    assert (
        main(["render", str(_named(tmp_path, ["x,y", "B"])), "-o", str(out), "--pair", "x,y,B", "--size", "64x64"]) == 0
    )
    assert capsys.readouterr().out == f"{out}\n" and out.stat().st_size > 0


@pytest.mark.parametrize(
    "extra, needle",
    [
        (["--size", "8192x8192", "--plot"], "with the plot needs about"),
        (["--size", "8192x8192"], "more than the memory budget of 4.0 GiB"),
    ],
)
def test_pictures_over_the_memory_budget_arerefused(tmp_path, capsys, no_drawing, extra, needle):
    refused(["render", S, "-o", tmp_path / "a.png", *extra], capsys, needle)
    assert list(tmp_path.iterdir()) == []


def test_the_memory_budget_can_be_raised_and_is_stated_in_help(monkeypatch, capsys):
    from explorer.view.render import check_memory

    with pytest.raises(ValueError):
        check_memory((8192, 8192), plot=True)
    monkeypatch.setenv("SPHERE_EXPLORER_MEMORY_MB", str(32 << 10))
    check_memory((8192, 8192), plot=True)
    monkeypatch.setenv("SPHERE_EXPLORER_MEMORY_MB", "lots")  # nonsense: the default
    with pytest.raises(ValueError, match="4.0 GiB"):
        check_memory((8192, 8192), plot=True)
    for argv in (["--help"], ["render", "--help"], ["report", "--help"]):
        assert main(argv) == 0
        assert "memory budget of 4 GiB" in capsys.readouterr().out


@pytest.mark.parametrize("kind", ["folder", "proc", "missing", "suffix", "device"])
def test_unusable_output_paths_are_refused_before_any_work(tmp_path, capsys, no_drawing, kind):
    out = {
        "folder": tmp_path / "DIR.png",
        "proc": Path("/proc/x.png"),
        "missing": tmp_path / "nowhere" / "x.png",
        "suffix": tmp_path / "x.txt",
        "device": tmp_path / "null.png",
    }[kind]
    if kind == "folder":
        out.mkdir()
    if kind == "device":
        out.symlink_to("/dev/null")
    needle = {"folder": "is a folder", "proc": "cannot write there", "missing": "does not exist",
              "suffix": "expected a .png, .gif or .mp4", "device": "cannot write over a device"}[kind]  # fmt: skip
    refused(["render", S, "-o", out, "--size", "64x64"], capsys, needle)
    assert [p.name for p in tmp_path.iterdir()] == ([out.name] if kind in ("folder", "device") else [])


def test_mp4_without_its_extra_names_the_extra(tmp_path, capsys, no_drawing, monkeypatch):
    import explorer.view.animation as animation

    monkeypatch.setattr(animation, "mp4_available", lambda: False)
    refused(["render", S, "-o", tmp_path / "a.mp4"], capsys, "pip install -e '.[mp4]'")


def test_refused_scene_files_exit_2_in_one_line(tmp_path, capsys, no_drawing):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    refused(["solve", "/dev/zero"], capsys, "a device")
    refused(["solve", fifo], capsys, "named pipe")
    refused(["solve", tmp_path], capsys, "a folder")
    mass = tmp_path / "mass.json"
    data = json.loads(DEFAULT_SCENE.read_text())
    data["bodies"][0]["mass"] = 5e-324
    mass.write_text(json.dumps(data))
    for command in (
        ["solve", mass],
        ["render", mass, "-o", tmp_path / "m.png"],
        ["report", mass, "-o", tmp_path / "r"],
    ):
        refused(command, capsys, "bodies[0].mass: must be in")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mass.json", "pipe.json"]


def test_report_does_not_follow_symbolic_links(tmp_path, capsys):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    link = tmp_path / "linked"
    link.symlink_to(elsewhere)
    refused(["report", S, "-o", link], capsys, "is a symbolic link")
    assert list(elsewhere.iterdir()) == []
    folder = tmp_path / "report"  # a folder holding links to a file: not empty, so refused, nothing touched
    folder.mkdir()
    (folder / "picture.png").symlink_to(victim)
    (folder / "scene.json").symlink_to(victim)
    refused(["report", S, "-o", folder], capsys, "exists and is not empty")
    assert victim.read_text() == "precious"
    assert sorted(p.name for p in folder.iterdir()) == ["picture.png", "scene.json"]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["report", S, "-o", str(empty), "--size", "160x100"]) == 0
    assert sorted(p.name for p in empty.iterdir()) == ["picture.png", "scene.json", "solution.json"]
    assert scene_io.load(empty / "scene.json") == scene_io.load(DEFAULT_SCENE)
    assert [p.name for p in tmp_path.iterdir() if scene_io.TEMP_TAG in p.name] == []


def test_a_failed_report_leaves_no_half_written_folder(tmp_path, capsys, monkeypatch):
    import explorer.view.render as render

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(render, "render_png", full_disk)
    refused(["report", S, "-o", tmp_path / "report", "--size", "160x100"], capsys, "No space left on device")
    assert list(tmp_path.iterdir()) == []


def test_a_failed_picture_leaves_no_file(tmp_path, capsys, monkeypatch):
    import imageio.v3 as iio
    from PIL import Image

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(iio, "imwrite", full_disk)  # a PNG
    monkeypatch.setattr(Image.Image, "save", full_disk)  # a GIF, encoded frame by frame by Pillow
    refused(["render", S, "-o", tmp_path / "a.png", "--size", "64x64"], capsys, "No space left on device")
    refused(["render", S, "-o", tmp_path / "a.gif", "--size", "64x64", "--frames", "2"], capsys, "No space left")
    assert list(tmp_path.iterdir()) == []


def test_an_unexpected_error_is_one_line_exit_1(capsys, monkeypatch):
    def broken(args):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(cli, "cmd_solve", broken)
    code = main(["solve", S])
    err = capsys.readouterr().err
    assert code == cli.EXIT_BUG and err.count("\n") == 1 and "RuntimeError: boom second line" in err


def test_help_lists_every_subcommand_and_the_mp4_extra(capsys):
    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    assert set(SUBCOMMANDS) >= {"audit", "render", "solve", "report"}
    for name, make in SUBCOMMANDS.items():
        assert f"  {name} " in text and make().description in text
    assert "pip install -e '.[mp4]'" in text
    assert main(["render", "--help"]) == 0
    assert ".[mp4]" in capsys.readouterr().out


# -- as a process: the output stream, the environment -------------------------------------------


def test_solve_into_a_full_device_is_one_line():
    with open("/dev/full", "w") as full:
        proc = _run("solve", S, stdout=full)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "No space left on device" in proc.stderr


def test_solve_on_an_ascii_only_stdout_still_writes_json(tmp_path):
    data = json.loads(DEFAULT_SCENE.read_text())
    data["bodies"][0]["name"] = "Ä"
    path = tmp_path / "umlaut.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    proc = _run("solve", path, env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["hit"] is True


def _no_display_env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    return {**env, **extra}


@pytest.mark.parametrize("display", [None, ":59321"])
def test_no_or_a_dead_display_is_one_line_naming_the_real_command(display):
    env = _no_display_env(**({"DISPLAY": display} if display else {}))
    proc = _run(env=env, timeout=60)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert "no display available" in proc.stderr
    assert ("DISPLAY=:59321" in proc.stderr) == bool(display)
    assert "'.venv/bin/sphere-explorer render SCENE -o OUT.png'" in proc.stderr  # run from the project folder


def test_render_without_egl_is_one_line_instead_of_a_crash(tmp_path):
    env = _no_display_env(__EGL_VENDOR_LIBRARY_DIRS=str(tmp_path / "no-vendors"))  # Mesa's EGL driver hidden
    proc = _run("render", S, "-o", tmp_path / "a.png", "--size", "64x64", env=env)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "cannot draw without a display" in proc.stderr
    assert "apt-get install -y --no-install-recommends" in proc.stderr and "libegl" in proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_render_with_a_dead_display_falls_back_to_egl(tmp_path):
    out = tmp_path / "a.png"
    proc = _run(
        "render",
        SCENES_DIR / "seed000_moving_vs_static.json",
        "-o",
        out,
        "--size",
        "64x48",
        env=_no_display_env(DISPLAY=":59321"),
    )
    assert proc.returncode == 0, proc.stderr
    import imageio.v3 as iio

    assert iio.imread(out).shape[:2] == (48, 64)
    assert proc.stderr == ""
