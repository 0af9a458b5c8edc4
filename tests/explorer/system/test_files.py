"""The one safe writer's policy (explorer/system/files.py), tested once for every writer that uses it.

Files replace their target atomically, keep its mode, write through a symbolic
link and say why they cannot write; folders appear only when complete, must be
new or empty, never follow a link; temporaries of killed writes are removed by
the next write in the folder, never those of a live process.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from explorer.model.formats import scene_io
from explorer.model.formats.gallery import DEFAULT_SCENE
from explorer.system import files, interrupt
from explorer.system.files import TEMP_TAG, WriteError

BASE = json.loads(DEFAULT_SCENE.read_text())


@pytest.fixture
def scene():
    return scene_io.parse(json.dumps(BASE))


def _ours(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if TEMP_TAG in p.name]


# -- files ----------------------------------------------------------------------------------------


def test_a_file_keeps_its_mode_and_a_new_one_follows_the_umask(tmp_path, scene):
    path = tmp_path / "s.json"
    path.write_text("{}")
    path.chmod(0o640)
    scene_io.save(scene, path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640 and scene_io.load(path) == scene
    fresh = tmp_path / "new.json"
    umask = os.umask(0o027)
    try:
        scene_io.save(scene, fresh)
    finally:
        os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o640  # 0666 less the umask, not mkstemp's 0600


def test_a_file_is_written_through_a_symbolic_link(tmp_path, scene):
    real = tmp_path / "real" / "scene.json"
    real.parent.mkdir()
    real.write_text("{}")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    scene_io.save(scene, link)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert scene_io.load(real) == scene
    assert sorted(p.name for p in real.parent.iterdir()) == ["scene.json"]


@pytest.mark.parametrize("kind", ["dangling", "loop", "folder", "device", "long name"])
def test_a_file_that_cannot_be_written_is_said_in_one_line(tmp_path, kind):
    path = tmp_path / "s.json"
    if kind == "dangling":
        path.symlink_to(tmp_path / "missing" / "s.json")
        needle = "does not exist"
    elif kind == "loop":
        path.symlink_to(tmp_path / "t.json")
        (tmp_path / "t.json").symlink_to(path)
        needle = "loop"
    elif kind == "folder":
        path.mkdir()
        needle = "a folder"
    elif kind == "device":
        path = Path("/dev/null")
        needle = "a device"
    else:
        path = tmp_path / ("x" * 300)
        needle = "File name too long"
    with pytest.raises(WriteError) as info:
        with files.replacing(path) as (handle, _):
            handle.write("new")
    assert needle in str(info.value) and "\n" not in str(info.value)
    assert _ours(tmp_path) == []


def test_a_failure_inside_the_write_leaves_the_old_file_whole(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text("old")
    with pytest.raises(RuntimeError):
        with files.replacing(path) as (handle, _):
            handle.write("half of the new")
            raise RuntimeError("the writer broke")
    assert path.read_text() == "old" and _ours(tmp_path) == []


# -- folders --------------------------------------------------------------------------------------


def test_a_folder_appears_only_when_complete(tmp_path):
    out = tmp_path / "out"
    with files.new_folder(out) as stage:
        with files.create(stage / "a.txt") as handle:
            handle.write(b"a")
        assert not out.exists() and stat.S_IMODE(stage.stat().st_mode) == 0o700
    assert (out / "a.txt").read_bytes() == b"a" and _ours(tmp_path) == []
    with pytest.raises(KeyError):
        with files.new_folder(tmp_path / "broken") as stage:
            (stage / "b.txt").write_text("b")
            raise KeyError("interrupted")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_an_empty_folder_is_filled_and_a_full_one_refused(tmp_path):
    (tmp_path / "empty").mkdir()
    with files.new_folder(tmp_path / "empty") as stage:
        (stage / "x").write_text("x")
    assert [p.name for p in (tmp_path / "empty").iterdir()] == ["x"]
    with pytest.raises(WriteError, match="exists and is not empty; give the report a new folder"):
        files.check_folder(tmp_path / "empty", "the report")


def test_a_folder_that_is_a_link_or_a_file_or_has_no_parent_is_refused(tmp_path):
    target = tmp_path / "elsewhere"
    target.mkdir()
    (tmp_path / "link").symlink_to(target)
    (tmp_path / "file").write_text("f")
    for path, needle in (
        (tmp_path / "link", "is a symbolic link"),
        (tmp_path / "file", "exists and is not a folder"),
        (tmp_path / "no" / "out", "does not exist"),
        (tmp_path / ("y" * 300), "File name too long"),
    ):
        with pytest.raises(WriteError, match=needle):
            with files.new_folder(path):
                pytest.fail("the block must not run")
    assert list(target.iterdir()) == [] and _ours(tmp_path) == []


def test_create_never_writes_through_a_link(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("precious")
    (tmp_path / "trap").symlink_to(victim)
    with pytest.raises(OSError):
        files.create(tmp_path / "trap")
    assert victim.read_text() == "precious"


# -- temporaries of killed writes ------------------------------------------------------------------


def _temp(folder: Path, pid: int, name="s.json", age=0.0, suffix="") -> Path:
    path = folder / f".{name}{TEMP_TAG}{pid}-abcd1234.tmp{suffix}"
    path.write_text("half")
    if age:
        then = time.time() - age
        os.utime(path, (then, then))
    return path


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_stale_temporaries_are_cleaned_and_live_ones_kept(tmp_path):
    dead = _dead_pid()
    stale = [
        _temp(tmp_path, dead),
        _temp(tmp_path, dead, "p.png", suffix=".png"),
        _temp(tmp_path, os.getpid(), age=7200),
    ]
    report = tmp_path / f".r{TEMP_TAG}{dead}-zz99yy88.tmp"
    report.mkdir()
    (report / "picture.png").write_text("x")
    live = _temp(tmp_path, os.getpid(), "live.json")
    foreign = _temp(tmp_path, dead, "foreign.json")
    if os.geteuid() == 0:  # another user's file: never ours to remove
        os.chown(foreign, 54321, 54321)
    others = [tmp_path / ".s.json.tmp", tmp_path / "notes.sphere-explorer-1-abcd1234.tmp"]
    for path in others:
        path.write_text("not ours")
    removed = files.clean_stale_temps(tmp_path)
    assert sorted(removed) == sorted(stale + [report])
    left = {p.name for p in tmp_path.iterdir()}
    assert live.name in left and all(p.name in left for p in others)
    assert (foreign.name in left) == (os.geteuid() == 0)


_KILLED_SAVE = """
import os, sys, time
from explorer.model.formats import scene_io
scene = scene_io.load(sys.argv[1])
def stall(fd):
    print("writing", flush=True)
    time.sleep(60)
os.fsync = stall
scene_io.save(scene, sys.argv[2])
"""


def test_a_killed_write_leaves_one_temporary_that_the_next_write_removes(tmp_path, scene):
    target = tmp_path / "scene.json"
    scene_io.save(scene, target)
    before = target.read_bytes()
    for _ in range(3):
        proc = subprocess.Popen(
            [sys.executable, "-c", _KILLED_SAVE, str(DEFAULT_SCENE), str(target)], stdout=subprocess.PIPE, text=True
        )
        assert proc.stdout.readline() == "writing\n"
        proc.kill()
        proc.wait()
        # each save first removes what the killed one before it left: never more than one
        assert len(_ours(tmp_path)) == 1
    assert target.read_bytes() == before  # the file itself was never touched
    scene_io.save(scene.with_changes(horizon=2.0), target)
    assert [p.name for p in tmp_path.iterdir()] == ["scene.json"]
    assert scene_io.load(target).horizon == 2.0


@pytest.mark.parametrize("which", [1, 2])  # the writability probe's folder, the private folder
def test_a_signal_just_after_a_folder_is_made_leaves_nothing(tmp_path, monkeypatch, which):
    """SIGTERM arriving the moment a temporary folder exists (inside mkdtemp, before the block that removes
    it begins): held back until that block, then raised there; the folder is removed, OUTDIR never made."""
    import signal as signals
    import tempfile

    from explorer.system import interrupt

    real = tempfile.mkdtemp

    made = []

    def made_then_signalled(*args, **kwargs):
        made.append(real(*args, **kwargs))
        if len(made) == which:
            os.kill(os.getpid(), signals.SIGTERM)
        return made[-1]

    monkeypatch.setattr(tempfile, "mkdtemp", made_then_signalled)
    with interrupt.catching():
        with pytest.raises(KeyboardInterrupt):
            with files.new_folder(tmp_path / "out") as stage:
                (stage / "never.txt").write_text("x")
        assert interrupt.received() == signals.SIGTERM
    assert len(made) == which and list(tmp_path.iterdir()) == []


def _signalled(signum: int) -> None:
    """Send ``signum`` to this process and let its handler run."""
    os.kill(os.getpid(), signum)
    time.sleep(0.05)


def test_a_signal_recorded_while_a_file_is_written_stops_it_before_the_rename(tmp_path):
    """A command records a signal and goes on (never raising inside VTK or an import); the writer is its last
    safe point: the temporary goes, the old file stays as it was (before: the new file was put in place)."""
    target = tmp_path / "picture.png"
    target.write_bytes(b"old")
    with interrupt.catching(raising=False):
        with pytest.raises(KeyboardInterrupt):
            with files.replacing(target, binary=True) as (handle, _):
                handle.write(b"new")
                _signalled(signal.SIGTERM)
    assert [p.name for p in tmp_path.iterdir()] == ["picture.png"] and target.read_bytes() == b"old"


def test_a_signal_recorded_while_a_folder_is_written_stops_it_before_the_rename(tmp_path):
    with interrupt.catching(raising=False):
        with pytest.raises(KeyboardInterrupt):
            with files.new_folder(tmp_path / "report") as stage:
                (stage / "scene.json").write_text("{}")
                _signalled(signal.SIGINT)
    assert list(tmp_path.iterdir()) == []
