"""``export-html`` and odd file names and folders: a scene file name that is not UTF-8 makes a page (its title in
printable form, its file name with the bytes replaced), a site publishes only the folder's own scene files (a
link inside the folder is followed, one leading outside is not) and lists on stderr what it skipped, and a site
shows its progress on a terminal."""

from __future__ import annotations

import base64
import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import imageio.v3 as iio
import numpy as np
from cli_helpers import refused

from explorer.cli import main
from explorer.model.formats.gallery import DEFAULT_SCENE, SCENES_DIR
from explorer.web.export import RECORDED_SUFFIX

SCRIPT = Path(sys.executable).with_name("sphere-explorer")


def _untitled(path: Path, title: str | None = None) -> Path:
    """The default scene at ``path`` (str or bytes name), without a title or with ``title``."""
    data = json.loads(DEFAULT_SCENE.read_text(encoding="utf-8"))
    data.pop("title")
    if title:
        data["title"] = title
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(data, handle)
    return path


def _title(page: Path) -> str:
    text = page.read_text(encoding="utf-8")
    return text[text.index("<title>") + 7 : text.index("</title>")]


def test_a_file_name_that_is_not_utf8_makes_a_page_titled_in_printable_form(tmp_path):
    """Through the console script with a strict UTF-8 stdout (as under an en_US.UTF-8 locale): the page is
    written, titled ``caf\\xe9``, and its own non-UTF-8 name printed byte for byte."""
    source = _untitled(os.fsdecode(bytes(tmp_path) + b"/caf\xe9.json"))
    out = bytes(tmp_path) + b"/page-\xe9.html"
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    done = subprocess.run([SCRIPT, "export-html", source, "-o", out], capture_output=True, env=env, timeout=300)
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    assert done.stdout == out + b"\n"
    assert _title(Path(os.fsdecode(out))) == "caf\\xe9"


def test_a_site_of_names_that_are_not_utf8_names_its_pages_in_utf8(tmp_path, capsys):
    folder = tmp_path / "scenes"
    folder.mkdir()
    raw = bytes(folder)
    _untitled(os.fsdecode(raw + b"/caf\xe9.json"))
    _untitled(os.fsdecode(raw + b"/caf\xe8.json"), title="Another caf\u00e9")
    long = b"\xe9" * 250  # 250 bytes: 750 once each byte is U+FFFD, cut to fit 255 with .html
    _untitled(os.fsdecode(raw + b"/" + long + b".json"))
    site = tmp_path / "site"
    assert main(["export-html", str(folder), "-o", str(site)]) == 0
    assert capsys.readouterr().out == f"{site}\n"
    pages = _live_pages(site)
    fitted = "\ufffd" * 80 + ".html"  # 80 * 3 + 5 = 245 bytes, and its recorded twin's 80 * 3 + 14 = 254
    assert pages == sorted(["caf\ufffd.html", "caf\ufffd-2.html", fitted, "index.html"])
    assert {_title(site / name) for name in pages} == {"caf\\xe9", "Another caf\u00e9", "\\xe9" * 250,
                                                      "Moving spheres: the scenes"}  # fmt: skip
    index = (site / "index.html").read_text(encoding="utf-8")
    assert index.count('href="caf%EF%BF%BD') == 2 and f'href="{"%EF%BF%BD" * 80}.html"' in index


def _live_pages(site: Path) -> list[str]:
    """The site's pages but the recorded ones, which must each be beside its live page, with the runtime."""
    names = sorted(p.name for p in site.iterdir())
    live = [name for name in names if not name.endswith(RECORDED_SUFFIX) and name != "runtime"]
    assert "runtime" in names and sorted(live + [n[:-5] + RECORDED_SUFFIX for n in live if n != "index.html"] +
                                         ["runtime"]) == names  # fmt: skip
    return live


def _odd_folder(tmp_path: Path) -> Path:
    """A folder with two scene files (one a link to the other), and every kind of entry a site skips."""
    folder = tmp_path / "scenes"
    (folder / "sub").mkdir(parents=True)
    (folder / "x.json").mkdir()  # a folder named like a scene file
    _untitled(folder / "a.json", title="Inside")
    (folder / "link.json").symlink_to("a.json")
    _untitled(tmp_path / "secret.json", title="Outside the folder")
    (folder / "out.json").symlink_to(tmp_path / "secret.json")
    (folder / "up.json").symlink_to("../secret.json")
    (folder / "zero.json").symlink_to("/dev/zero")
    (folder / "broken.json").symlink_to("nowhere.json")
    os.mkfifo(folder / "pipe.json")
    _untitled(folder / ".hidden.json", title="A hidden scene")
    (folder / "notes.txt").write_text("not a scene")
    (folder / "thumb.png").write_bytes(b"")
    return folder


SKIPPED = (
    ".hidden.json (hidden), broken.json (a broken link), out.json (a link outside the folder), "
    "pipe.json (a named pipe (FIFO)), sub (a folder), up.json (a link outside the folder), x.json (a folder), "
    "zero.json (a link outside the folder), 2 files not named *.json"
)


def test_a_site_publishes_the_folders_own_scenes_and_lists_what_it_skips(tmp_path, capsys):
    folder = _odd_folder(tmp_path)
    site = tmp_path / "site"
    assert main(["export-html", str(folder), "-o", str(site)]) == 0
    out, err = capsys.readouterr()
    assert out == f"{site}\n"
    assert err == f"sphere-explorer: {folder}: skipped {SKIPPED}\n"
    assert _live_pages(site) == ["a.html", "index.html", "link.html"]
    published = " ".join(p.read_text(encoding="utf-8") for p in site.iterdir() if p.is_file())
    assert "Inside" in published and "Outside the folder" not in published and "A hidden scene" not in published


def test_a_folder_of_nothing_to_publish_is_refused_naming_what_was_skipped(tmp_path, capsys, no_drawing):
    folder = _odd_folder(tmp_path)
    for name in ("a.json", "link.json"):
        (folder / name).unlink()
    refused(["export-html", folder, "-o", tmp_path / "site"], capsys,
            f"{folder}: no scene files (*.json) in this folder; skipped {SKIPPED}")  # fmt: skip
    assert not (tmp_path / "site").exists()


def test_a_site_shows_its_progress_on_a_terminal_only(tmp_path, capsys, monkeypatch, terminal):
    folder = tmp_path / "scenes"
    folder.mkdir()
    for name in ("a", "b", "c"):
        _untitled(folder / f"{name}.json")
    stream = terminal()
    monkeypatch.setattr(sys, "stderr", stream)
    assert main(["export-html", str(folder), "-o", str(tmp_path / "shown")]) == 0
    drawn = stream.getvalue().split("\r")
    assert drawn[0] == "" and len(drawn) == 5  # each page as it is done (by either worker), then the full bar
    assert all(line.startswith("export-html [") and " pages  " in line and "pages/s" in line for line in drawn[1:])
    assert [line.split("]")[1].split()[1] for line in drawn[1:]] == ["1/3", "2/3", "3/3", "3/3"]
    assert sorted(line.split()[-1] for line in drawn[1:4]) == ["a.html", "b.html", "c.html"]  # the page done
    assert drawn[-1].startswith("export-html [" + "#" * 30 + "] 100.0%  3/3 pages  ") and drawn[-1].endswith("\n")
    monkeypatch.undo()
    assert main(["export-html", str(folder), "-o", str(tmp_path / "piped")]) == 0
    assert capsys.readouterr().err == ""  # stderr is no terminal here


def test_help_states_what_a_site_publishes_and_skips(capsys):
    assert main(["export-html", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for words in ("a symbolic link is followed only to a file inside the folder", "Skipped, and listed on stderr",
                  "links leading outside the folder", "hidden entries", "two worker processes (one per usable core)", "a progress bar (pages done, the last one's name) is drawn on a terminal",
                  "bytes that are not UTF-8 replaced"):  # fmt: skip
        assert words in text


def test_a_scene_that_asks_has_a_card_that_asks_with_a_picture_of_the_question(tmp_path, capsys):
    """The index is the first page a class opens: predict_first's card gives its question and a picture without the
    answer; the same scene not asking gives the verdict and a picture with it (the ghosts, the contact)."""
    folder = tmp_path / "scenes"
    folder.mkdir()
    scene = json.loads((SCENES_DIR / "predict_first.json").read_text(encoding="utf-8"))
    (folder / "asks.json").write_text(json.dumps(scene), encoding="utf-8")
    scene["view"] = {"ask": False}
    (folder / "tells.json").write_text(json.dumps(scene), encoding="utf-8")
    assert main(["export-html", str(folder), "-o", str(tmp_path / "site")]) == 0
    capsys.readouterr()
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    cards = re.findall(r'<img src="data:image/png;base64,([^"]+)".*?<p class="verdict">([^<]*)</p>', index, re.DOTALL)
    (asked, question), (told, verdict) = cards
    assert question == html.escape(scene["question"]) and verdict.startswith("A–B: HIT at t₀ = ")
    pictures = [iio.imread(base64.b64decode(picture)).astype(int) for picture in (asked, told)]
    assert np.abs(pictures[0] - pictures[1]).sum(axis=2).astype(bool).mean() > 0.01  # the answer drawn in one only
