"""A site's pages made by two worker processes (issue 38): the same site, byte for byte, as one core makes in
one process; the index in the folder's order; a refusal still one line naming the scene file, with nothing
written and no worker left; on one usable core no worker at all."""

from __future__ import annotations

import errno
import os
import re
import shutil
import signal
import subprocess
from pathlib import Path

from cli_helpers import EXE, refused
from signal_helpers import SCENES, alive, watched, workers_of

import explorer.web.page as page_module
from explorer.system import workers
from explorer.web.export import RECORDED_SUFFIX, load_folder, write_site

#: Quick and slow pages, one and many bodies (the most bodies are handed out first).
FOLDER = ("caged_ball.json", "default.json", "gas_in_container.json", "newtons_cradle.json", "snooker_break.json")


def _folder(where: Path) -> Path:
    where.mkdir()
    for name in FOLDER:
        shutil.copyfile(SCENES / name, where / name)
    return where


def _export(folder: Path, site: Path, *before: str) -> set[int]:
    """``[BEFORE...] sphere-explorer export-html FOLDER -o SITE`` (exit 0, the site's path said, nothing on
    stderr); the worker processes it had, each asserted gone when it ended."""
    proc = subprocess.Popen([*before, str(EXE), "export-html", str(folder), "-o", str(site)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)  # fmt: skip
    seen = watched(proc)
    out, err = proc.communicate(timeout=300)
    assert (proc.returncode, out, err) == (0, f"{site}\n", ""), err
    assert not [pid for pid in seen if alive(pid)], "a worker outlived the command"
    return seen


def _files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def test_two_workers_make_the_site_one_core_makes_byte_for_byte(tmp_path):
    folder = _folder(tmp_path / "scenes")
    workers = _export(folder, tmp_path / "two")
    alone = _export(folder, tmp_path / "one", "taskset", "-c", "0")  # one usable core: the pages made in-process
    assert len(workers) == 2 and alone == set()
    two, one = _files(tmp_path / "two"), _files(tmp_path / "one")
    assert sorted(two) == sorted(one)
    assert [name for name in two if two[name] != one[name]] == []
    index = two["index.html"].decode("utf-8")
    assert re.findall(r'<li><a href="([^"]+)\.html"', index) == [Path(name).stem for name in FOLDER]
    assert sum(name.endswith(RECORDED_SUFFIX) for name in two) == len(FOLDER)


def test_a_page_refused_in_a_worker_is_one_line_naming_its_scene_file(tmp_path, capsys, monkeypatch):
    """No page fits in 0.9 MB (vtk.js and the page's script in each are 0.94 MB): the budget reaches the workers;
    the first page refused is named, nothing is written, and no worker is left."""
    folder = _folder(tmp_path / "scenes")
    monkeypatch.setattr(page_module, "PAGE_BUDGET", 900_000)
    err = refused(["export-html", folder, "-o", tmp_path / "site"], capsys, ": the page would be ")
    named = re.fullmatch(r"sphere-explorer: (\w+\.json): the page would be \d\.\d\d MB \([\d,]+ bytes\), over the "
                         r"budget of 0.9 MB \(900,000 bytes\) a page\n", err)  # fmt: skip
    assert named and named.group(1) in FOLDER, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scenes"]
    assert workers_of(os.getpid()) == set()


def test_a_worker_killed_from_outside_is_one_line_and_nothing_is_written(tmp_path):
    """A worker killed (the system out of memory, say) while the site is made: the command says so in one line,
    leaves no site and no other worker."""
    folder = _folder(tmp_path / "scenes")
    proc = subprocess.Popen([str(EXE), "export-html", str(folder), "-o", str(tmp_path / "site")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    seen = watched(proc, until=lambda pids: len(pids) == 2)
    os.kill(min(seen), signal.SIGKILL)
    out, err = proc.communicate(timeout=120)
    assert (proc.returncode, out) == (2, ""), err
    assert err == "sphere-explorer: a worker process ended without answering (exit -9); nothing was written\n"
    assert not (tmp_path / "site").exists() and not [pid for pid in seen if alive(pid)]


def test_when_no_worker_can_be_started_this_process_makes_the_same_site(tmp_path, monkeypatch):
    folder = _folder(tmp_path / "scenes")
    write_site(load_folder(folder), tmp_path / "one", workers=1)

    class Refusing:  # the system refuses a new process (EAGAIN: too many processes)
        DEVNULL = subprocess.DEVNULL

        @staticmethod
        def Popen(*args, **kwargs):
            raise OSError(errno.EAGAIN, os.strerror(errno.EAGAIN))

    monkeypatch.setattr(workers, "subprocess", Refusing)
    write_site(load_folder(folder), tmp_path / "two", workers=2)
    assert _files(tmp_path / "two") == _files(tmp_path / "one")
    assert workers_of(os.getpid()) == set()
