"""``sphere-explorer export-html``: refusals are one line, exit 2, before any drawing, with nothing written;
a hostile scene's text stays text in the page (checked in headless Chromium); the File menu's export."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from browser import Browser, foreign_requests, wait_ready
from cli_helpers import refused
from web_helpers import recording

from explorer.cli import main
from explorer.model.formats import scene_io
from explorer.model.formats.gallery import DEFAULT_SCENE
from explorer.web import PAGE_BUDGET
from explorer.web.live_page import guard_script

S = str(DEFAULT_SCENE)


def _scene_file(folder: Path, name: str, **changes) -> Path:
    data = json.loads(DEFAULT_SCENE.read_text(encoding="utf-8"))
    data.update(changes)
    path = folder / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_help_states_the_size_budget(capsys):
    assert main(["export-html", "--help"]) == 0
    assert "at most 3 MB a page" in capsys.readouterr().out and PAGE_BUDGET == 3_000_000
    assert main(["--help"]) == 0
    assert "  export-html " in capsys.readouterr().out


@pytest.mark.parametrize(
    "kind, needle",
    [
        ("suffix", "expected a .html or .htm file"),
        ("folder", "is a folder; give a file name"),
        ("missing", "does not exist"),
        ("site-as-file", "a folder of scenes makes a site"),
        ("site-in-link", "is a symbolic link"),
        ("bad-scene", "bodies[0].radius"),
        ("bad-scene-in-folder", "broken.json: "),
        ("empty-folder", "no scene files"),
    ],
)
def test_bad_input_is_one_line_exit_2_before_drawing_and_nothing_is_written(tmp_path, capsys, no_drawing, kind, needle):
    work = tmp_path / "work"
    work.mkdir()
    scenes = tmp_path / "scenes"
    scenes.mkdir()
    _scene_file(scenes, "a.json")
    bodies = [{"name": "A", "center": [0, 0, 0], "radius": -1.0}, {"name": "B", "center": [5, 0, 0], "radius": 1.0}]
    bad = {"bodies": bodies}
    if kind == "bad-scene-in-folder":
        _scene_file(scenes, "broken.json", **bad)
    if kind == "folder":
        (work / "page.html").mkdir()
    if kind == "site-in-link":
        (tmp_path / "elsewhere").mkdir()
        (work / "site").symlink_to(tmp_path / "elsewhere")
    argv = {
        "suffix": [S, "-o", work / "page.txt"],
        "folder": [S, "-o", work / "page.html"],
        "missing": [S, "-o", work / "nowhere" / "page.html"],
        "site-as-file": [scenes, "-o", work / "site.html"],
        "site-in-link": [scenes, "-o", work / "site"],
        "bad-scene": [_scene_file(tmp_path, "bad.json", **bad), "-o", work / "page.html"],
        "bad-scene-in-folder": [scenes, "-o", work / "site"],
        "empty-folder": [work, "-o", tmp_path / "site"],
    }[kind]
    refused(["export-html", *argv], capsys, needle)
    assert sorted(p.name for p in work.iterdir()) == {"site-in-link": ["site"], "folder": ["page.html"]}.get(kind, [])
    assert not (tmp_path / "site").exists()
    if kind == "site-in-link":
        assert list((tmp_path / "elsewhere").iterdir()) == []


def test_without_vtk_js_it_says_how_to_fetch_it(tmp_path, capsys, no_drawing, monkeypatch):
    from explorer.system import web_runtime

    (tmp_path / "runtime").mkdir()
    monkeypatch.setenv(web_runtime.FOLDER_VARIABLE, str(tmp_path / "runtime"))  # an empty runtime folder
    refused(["export-html", S, "-o", tmp_path / "page.html"], capsys,
            "a web page needs the web runtime (vtk.js@37.3.1's vtk.js is missing); fetch it with: make run")  # fmt: skip
    assert sorted(p.name for p in tmp_path.iterdir()) == ["runtime"]


def test_a_page_is_made_without_trame_vtk_or_drawing_anything(tmp_path, no_drawing, monkeypatch):
    """A recorded page is the live page's frames: no VTK serializer, no off-screen drawing (``no_drawing``)."""
    import sys

    for name in [m for m in sys.modules if m == "trame_vtk" or m.startswith("trame_vtk.")] + ["trame_vtk"]:
        monkeypatch.setitem(sys.modules, name, None)  # as if it were not installed
    assert main(["export-html", S, "-o", str(tmp_path / "page.html")]) == 0
    assert recording((tmp_path / "page.html").read_text(encoding="utf-8"))["frames"]


def test_a_site_that_fails_half_way_leaves_nothing(tmp_path, capsys, monkeypatch):
    import explorer.web.export as export

    scenes = tmp_path / "scenes"
    scenes.mkdir()
    for name in ("a.json", "b.json", "c.json"):
        _scene_file(scenes, name)
    made = []
    real = export.build_page

    def build_then_fail(scene, name, **options):
        if made:
            raise OSError(28, "No space left on device")
        made.append(name)
        return real(scene, name, **options)

    monkeypatch.setattr(export, "build_page", build_then_fail)
    monkeypatch.setattr(export, "SITE_WORKERS", 1)  # the pages made in this process, where build_page is replaced
    refused(["export-html", scenes, "-o", tmp_path / "site"], capsys, "No space left on device")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scenes"]  # no site, no temporary folder


def test_a_site_goes_into_a_new_or_empty_folder_only(tmp_path, capsys):
    """The one safe writer's folder rule: a folder holding the user's files is refused and left as it was."""
    scenes = tmp_path / "scenes"
    scenes.mkdir()
    _scene_file(scenes, "index.json")  # its page must not replace the index
    site = tmp_path / "site"
    site.mkdir()
    (site / "notes.txt").write_text("mine")
    assert main(["export-html", str(scenes), "-o", str(site)]) == 2
    assert "exists and is not empty; give the site a new folder" in capsys.readouterr().err
    assert [p.name for p in site.iterdir()] == ["notes.txt"]
    (site / "notes.txt").unlink()
    assert main(["export-html", str(scenes), "-o", str(site)]) == 0
    assert capsys.readouterr().out.strip() == str(site)
    assert sorted(p.name for p in site.iterdir()) == ["index-2.html", "index-2.recorded.html", "index.html", "runtime"]
    assert 'href="index-2.html"' in (site / "index.html").read_text(encoding="utf-8")


# -- a hostile scene in a real browser ----------------------------------------------------------

HOSTILE = {
    "title": "</script><script>window.pwned = 1</script><b>bold</b> & 'quotes' \"too\"",
    "description": '<img src=x onerror="window.pwned = 2"> </style><style>body{display:none}</style> \u2028 line',
    "names": ['"><svg onload=window.pwned=3>', "</script><script>pwned=4//"],
}


def test_a_hostile_scene_shows_its_text_as_text_and_runs_nothing(tmp_path, capsys):
    data = json.loads(DEFAULT_SCENE.read_text(encoding="utf-8"))
    data["title"], data["description"] = HOSTILE["title"], HOSTILE["description"]
    for body, name in zip(data["bodies"], HOSTILE["names"]):
        body["name"] = name
    source = tmp_path / "hostile.json"
    source.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "hostile.html"
    assert main(["export-html", str(source), "-o", str(out)]) == 0
    assert len(recording(out.read_text(encoding="utf-8"))["frames"]) >= 2  # the data parses
    with Browser() as browser:
        page = browser.open_file(out)
        wait_ready(page)
        assert page.evaluate("typeof window.pwned") == "undefined"
        assert page.evaluate("document.title") == HOSTILE["title"]
        for selector, text in (("#title", HOSTILE["title"]), ("#description", HOSTILE["description"])):
            assert page.evaluate(f"document.querySelector('{selector}').textContent") == text
            assert page.evaluate(f"document.querySelector('{selector}').children.length") == 0
        labels = page.evaluate("[...document.querySelectorAll('#labels .label')].map(e => e.textContent)")
        assert set(HOSTILE["names"]) <= set(labels)
        # the guard (what a page that cannot start says), the page's data, vtk.js and its recording (data), its
        # script, and vtk.js as the page ran it
        assert page.evaluate("document.querySelectorAll('script').length") == 6
        assert page.evaluate("[...document.querySelectorAll('script:not([type])')].map((s) => s.src.slice(0, 5))") == [
            "",
            "blob:",
        ]
        guard = page.evaluate("document.querySelector('script:not([type])').textContent")
        assert guard == guard_script()  # the inline one is the guard, as Python wrote it
        injected = "img, b, #app svg:not(#plot svg, #momenta svg), [onload], [onerror]"
        assert page.evaluate(f"document.querySelectorAll('{injected}').length") == 0
        styles = "[...document.querySelectorAll('body style')].filter(e => !e.closest('#plot')).length"
        assert page.evaluate(styles) == 0
        assert page.evaluate("getComputedStyle(document.body).display") == "block"
        assert foreign_requests(page) == []


# -- the window's File menu ------------------------------------------------------------------------


def test_file_menu_exports_the_window_scene_as_a_web_page(make_window, tmp_path):
    window = make_window("default")
    titles = [a.text() for a in window.menuBar().actions()[0].menu().actions()]
    assert "Export &web page…" in titles
    out = window.documents.export_web_page(tmp_path / "lesson.html")
    assert out == tmp_path / "lesson.html"
    text = out.read_text(encoding="utf-8")
    assert 0 < len(text.encode("utf-8")) <= PAGE_BUDGET
    assert scene_io.load(DEFAULT_SCENE).title in text
    problems = []
    window.documents.error_dialog = lambda title, message: problems.append(message)
    assert window.documents.export_web_page("/proc/lesson.html") is None
    assert len(problems) == 1 and "/proc/lesson.html" in problems[0]
    assert window.isVisible()
    assert sorted(os.listdir(tmp_path)) == ["lesson.html"]
