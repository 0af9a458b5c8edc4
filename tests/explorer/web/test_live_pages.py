"""Live pages in headless Chromium, as a student meets them: drag A with real mouse (or touch) events and the page
answers as the command line does.

The pages are made by the console script (``export-html`` of the gallery as a site, served from 127.0.0.1, and
``export-html --single`` opened as a file), every request outside them is refused, and after each drag the page's
``solution()`` must equal what ``sphere-explorer solve`` prints for the page's ``scene()``.
"""

from __future__ import annotations

import html
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from browser import Browser, serve

from explorer.model.gallery import SCENES_DIR, gallery

EXE = Path(sys.executable).with_name("sphere-explorer")
#: Scenes whose single-file page is checked too (each file is 7.6 MB): one per mode, a graze, a container.
SINGLE = ("default", "seed001_container", "snooker_break", "tangent_graze")
#: How far the mouse drags A's centre, in CSS pixels, and in how many moves.
DRAG = (40.0, 25.0)
MOVES = 8


def _export(*args: str) -> None:
    done = subprocess.run([str(EXE), "export-html", *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("site") / "site"
    _export(str(SCENES_DIR), "-o", str(folder))
    return folder


@pytest.fixture(scope="module")
def browser():
    chromium = Browser()
    yield chromium
    chromium.close()


def _solve(scenes: list[dict], folder: Path) -> list[dict]:
    """``sphere-explorer solve`` of each scene (written to a file), two at a time."""
    files = []
    for k, scene in enumerate(scenes):
        files.append(folder / f"page-scene-{k}.json")
        files[-1].write_text(json.dumps(scene), encoding="utf-8")

    def solve(file: Path) -> dict:
        done = subprocess.run([str(EXE), "solve", str(file)], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    with ThreadPoolExecutor(2) as pool:
        return list(pool.map(solve, files))


def drag_a(page) -> tuple[dict, dict, dict]:
    """Wait for the page's Python, drag A's centre with the mouse; returns the scene before, and the page's scene
    and solution after."""
    page.evaluate("window.sphereExplorer.ready")
    before = page.evaluate("window.sphereExplorer.scene()")
    name = before["bodies"][0]["name"]
    box = page.locator("#view").bounding_box()
    where = f"window.sphereExplorer.screenPosition({json.dumps(name)})"
    at = page.evaluate(where)
    seen = lambda: 20 < at["x"] < box["width"] - 20 and 20 < at["y"] < box["height"] - 20  # noqa: E731
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for _ in range(30):  # a long shot's camera frames the contact: the mouse wheel turns out until A is in view
        if seen():
            break
        for _ in range(10):
            page.mouse.wheel(0, 1500)
        at = page.evaluate(where)
    x, y = box["x"] + at["x"], box["y"] + at["y"]
    page.mouse.move(x, y)
    page.mouse.down()
    for k in range(1, MOVES + 1):
        page.mouse.move(x + DRAG[0] * k / MOVES, y + DRAG[1] * k / MOVES)
    page.mouse.up()
    return before, page.evaluate("window.sphereExplorer.scene()"), page.evaluate("window.sphereExplorer.solution()")


def _check_against_the_command_line(results: list[tuple[str, dict, dict, dict]], folder: Path) -> None:
    solved = _solve([scene for _, _, scene, _ in results], folder)
    for (name, before, after, solution), expected in zip(results, solved):
        moved = after["bodies"][0]
        assert (moved["center"], moved["velocity"]) != (
            before["bodies"][0]["center"],
            before["bodies"][0]["velocity"],
        ), name
        assert after["bodies"][1:] == before["bodies"][1:], f"{name}: only A moves"
        assert not list(_differences(solution, expected)), (name, list(_differences(solution, expected)))


def _differences(got, expected, where=""):
    """Where two JSON values differ.  Numbers are compared as doubles: a page's numbers come back through the
    browser's bridge as JavaScript writes them (2.0 as 2, -4.731392561261408e+20 as -473139256126140800000), the
    same double in other digits."""
    number = (int, float)
    if isinstance(got, number) and isinstance(expected, number) and not isinstance(got, bool):
        if float(got) != float(expected) or isinstance(expected, bool):
            yield where, got, expected
    elif isinstance(got, dict) and isinstance(expected, dict):
        for key in sorted(set(got) | set(expected)):
            yield from _differences(got.get(key), expected.get(key), f"{where}.{key}")
    elif isinstance(got, list) and isinstance(expected, list) and len(got) == len(expected):
        for k, (a, b) in enumerate(zip(got, expected)):
            yield from _differences(a, b, f"{where}[{k}]")
    elif got != expected:
        yield where, got, expected


def test_dragging_a_on_every_gallery_page_of_a_site_answers_as_the_command_line(site, browser, tmp_path):
    results = []
    with serve(site) as base:
        for scene_file in gallery():
            page = browser.page((base,))
            page.goto(base + scene_file.stem + ".html")
            before, after, solution = drag_a(page)
            assert page.errors == [], (scene_file.stem, page.errors)
            results.append((scene_file.stem, before, after, solution))
            page.context.close()
    assert len(results) == len(gallery()) >= 27
    assert browser.refused == []
    _check_against_the_command_line(results, tmp_path)


def test_a_single_file_page_works_offline_from_a_file_and_answers_as_the_command_line(browser, tmp_path):
    results = []
    for stem in SINGLE:
        out = tmp_path / f"{stem}.html"
        _export(str(SCENES_DIR / f"{stem}.json"), "-o", str(out), "--single")
        assert out.stat().st_size <= 10_000_000
        page = browser.page(("file://", "blob:", "data:"))
        page.goto(out.as_uri())
        before, after, solution = drag_a(page)
        assert page.errors == [], (stem, page.errors)
        results.append((stem, before, after, solution))
        page.context.close()
    assert browser.refused == []
    _check_against_the_command_line(results, tmp_path)


def test_a_site_page_opened_as_a_file_goes_to_its_recorded_twin_which_says_how_to_get_the_live_one(site, browser):
    page = browser.page(("file://", "data:"))
    page.goto((site / "default.html").as_uri())
    page.wait_for_url("**/default.recorded.html")
    page.wait_for_selector("#live-note")
    note = page.inner_text("#live-note")
    assert "default.html" in note and "python3 -m http.server" in note
    page.wait_for_selector("body[data-ready='1']", state="attached")  # the recording plays as before
    page.context.close()


def test_the_live_page_allows_its_own_scripts_and_webassembly_only(site):
    text = (site / "default.html").read_text(encoding="utf-8")
    policy = html.unescape(text.split('http-equiv="Content-Security-Policy" content="', 1)[1].split('"', 1)[0])
    scripts = policy.split("script-src ", 1)[1].split(";", 1)[0].split()
    assert scripts[0] == "'self'" and scripts[-1] == "'wasm-unsafe-eval'"
    assert all(source.startswith("'sha256-") for source in scripts[1:-1]) and len(scripts) == 3
    assert "unsafe-eval'" not in policy.replace("'wasm-unsafe-eval'", "") and "default-src 'none'" in policy


def test_scene_text_stays_text_in_a_live_page(browser, tmp_path):
    hostile = '<img src=x onerror="window.pwned=1">'
    scene = json.loads((SCENES_DIR / "default.json").read_text(encoding="utf-8"))
    scene["title"] = hostile + " title"
    scene["description"] = "</script><script>window.pwned=2</script>"
    scene["bodies"][0]["name"] = "<b onmouseover=x>A</b>"
    folder = tmp_path / "scenes"
    folder.mkdir()
    (folder / "hostile.json").write_text(json.dumps(scene), encoding="utf-8")
    _export(str(folder), "-o", str(tmp_path / "site"))
    with serve(tmp_path / "site") as base:
        page = browser.page((base,))
        page.goto(base + "hostile.html")
        page.evaluate("window.sphereExplorer.ready")
        assert page.evaluate("window.pwned") is None
        assert page.inner_text("#title") == scene["title"]
        assert page.inner_text("#description") == scene["description"]
        assert scene["bodies"][0]["name"] in page.locator("#labels").all_inner_texts()[0]
        assert page.locator("#labels b, #title img, #description script").count() == 0
        page.context.close()


def test_a_phone_drags_a_by_touch(site, browser):
    """390x844, touch: the 3-D view comes first and a finger drags A (touch events through the browser's input)."""
    with serve(site) as base:
        page = browser.page((base,), width=390, height=844, touch=True)
        page.goto(base + "default.html")
        page.evaluate("window.sphereExplorer.ready")
        box = page.locator("#view").bounding_box()
        assert box["width"] <= 390 and box["height"] >= 300 and box["y"] < 200
        before = page.evaluate("window.sphereExplorer.scene()")
        at = page.evaluate("window.sphereExplorer.screenPosition('A')")
        x, y = box["x"] + at["x"], box["y"] + at["y"]
        cdp = page.context.new_cdp_session(page)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        for k in range(1, MOVES + 1):
            cdp.send(
                "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x + 4 * k, "y": y + 3 * k}]}
            )
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        after = page.evaluate("window.sphereExplorer.scene()")
        assert after["bodies"][0]["center"] != before["bodies"][0]["center"]
        assert after["bodies"][1:] == before["bodies"][1:]
        page.context.close()
