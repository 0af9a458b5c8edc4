"""Outputs that cannot be written: names over 255 bytes, a full disk, a read-only place.

Every command that writes (render to PNG and GIF, report, audit) is run as a
user runs it, the installed console script in its own process, and must refuse
in one line on stderr with exit 2, leaving nothing behind in the place it was
given.  Before: ``report`` failed with an UnboundLocalError, ``render`` and
``audit`` with exit 1 "unexpected error" on a long name; on a full disk the
audit's scene writer escaped as an unexpected error and a GIF export printed a
16-line traceback from the image encoder's destructor.

The full disk is a real 2 MB tmpfs filled up to a few kilobytes, the
read-only place a tmpfs mounted read-only (the tests run as root, as CI does,
so file permissions alone would not stop a write).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from explorer.audit.log.columns import GEOMETRY
from explorer.model.formats.gallery import DEFAULT_SCENE, SCENES_DIR

EXE = Path(sys.executable).with_name("sphere-explorer")
LONG = "x" * 300  # a file name over the 255-byte limit of Linux file systems


def _mount(where: Path, *options: str) -> None:
    where.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", ",".join(("size=2m", *options)), "tmpfs", str(where)], check=True)


@pytest.fixture
def full_disk(tmp_path):
    """A 2 MB file system with 8 KB left."""
    disk = tmp_path / "full"
    _mount(disk)
    try:
        filler = disk / "filler"
        with open(filler, "wb") as handle:
            try:
                handle.write(b"\0" * (2 << 20))
            except OSError:
                pass
        filler.write_bytes(b"\0" * (filler.stat().st_size - 8192))
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


@pytest.fixture
def read_only(tmp_path):
    place = tmp_path / "ro"
    _mount(place, "ro")
    try:
        yield place
    finally:
        subprocess.run(["umount", "-l", str(place)], check=False)


@pytest.fixture(scope="module")
def log(tmp_path_factory) -> Path:
    """A small engine log with a few wrong answers (so the audit writes case files too)."""
    rng = np.random.default_rng(4)
    n = 2000
    columns = {name: rng.uniform(-3, 3, n) for name in GEOMETRY}
    for radius in ("a_r", "b_r"):
        columns[radius] = rng.uniform(0.5, 1.5, n)
    columns["engine_hit"] = rng.integers(0, 2, n).astype(float)
    path = tmp_path_factory.mktemp("log") / "log.npz"
    np.savez(path, **columns)
    return path


def _commands(place: Path, name: str, log: Path) -> dict[str, list[str]]:
    gif_scene = str(SCENES_DIR / "seed002_both_moving.json")
    return {
        "render png": ["render", str(DEFAULT_SCENE), "-o", str(place / f"{name}.png"), "--size", "1600x1200"],
        "render gif": ["render", gif_scene, "-o", str(place / f"{name}.gif"), "--size", "400x300", "--frames", "12"],
        "report": ["report", str(DEFAULT_SCENE), "-o", str(place / name), "--size", "1600x1200"],
        "audit": ["audit", str(log), "-o", str(place / name), "-q"],
    }


def _refused_in_one_line(args: list[str], place: Path, before: list[str]) -> str:
    proc = subprocess.run([str(EXE), *args], capture_output=True, text=True, timeout=600)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, proc.stderr
    assert len(lines) == 1 and lines[0].startswith("sphere-explorer"), proc.stderr
    assert "Traceback" not in proc.stderr and "unexpected error" not in proc.stderr
    assert proc.stdout == ""
    assert sorted(p.name for p in place.iterdir()) == before, "something was left behind"
    return lines[0]


@pytest.mark.parametrize("command", ["render png", "render gif", "report", "audit"])
def test_a_name_over_255_bytes(command, log, tmp_path):
    line = _refused_in_one_line(
        _commands(tmp_path, LONG, log)[command], tmp_path, sorted(p.name for p in tmp_path.iterdir())
    )
    assert "too long" in line, line


@pytest.mark.parametrize("command", ["render png", "render gif", "report", "audit"])
def test_a_full_disk(command, log, full_disk):
    line = _refused_in_one_line(_commands(full_disk, "out", log)[command], full_disk, ["filler"])
    assert "No space left on device" in line, line


@pytest.mark.parametrize("command", ["render png", "render gif", "report", "audit"])
def test_a_read_only_place(command, log, read_only):
    line = _refused_in_one_line(_commands(read_only, "out", log)[command], read_only, [])
    assert "Read-only file system" in line, line


def test_the_full_disk_is_real(full_disk):
    """The fixture leaves too little room for any of the outputs above (else those tests prove nothing)."""
    with pytest.raises(OSError, match="No space left"):
        (full_disk / "probe").write_bytes(b"\0" * 65536)
