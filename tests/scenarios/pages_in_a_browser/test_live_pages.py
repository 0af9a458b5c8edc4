"""Live pages in headless Chromium, as a student meets them: drag A with real mouse (or touch) events and the page
answers as the command line does.

The pages are made by the console script (``export-html`` of the gallery as a site, served from 127.0.0.1, and
``export-html --single`` opened as a file), every request outside them is refused, and after each drag the page's
``solution()`` must equal what ``sphere-explorer solve`` prints for the page's ``scene()``.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest
from browser import Browser, serve, wait_ready
from live_helpers import MOVES, check_against_the_command_line, drag_a, export

from explorer.model.formats.gallery import SCENES_DIR, gallery

pytestmark = pytest.mark.long(3)  # started first (tests/conftest.py)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("site") / "site"
    export(str(SCENES_DIR), "-o", str(folder))
    return folder


@pytest.fixture(scope="module")
def browser():
    chromium = Browser()
    yield chromium
    chromium.close()


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
    check_against_the_command_line(results, tmp_path)


def test_a_site_page_opened_as_a_file_goes_to_its_recorded_twin_which_says_how_to_get_the_live_one(site, browser):
    page = browser.page(("file://", "data:"))
    page.goto((site / "default.html").as_uri())
    page.wait_for_url("**/default.recorded.html")
    page.wait_for_selector("#live-note")
    note = page.inner_text("#live-note")
    assert "default.html" in note and "python3 -m http.server" in note
    wait_ready(page)  # the recording plays as before
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
    export(str(folder), "-o", str(tmp_path / "site"))
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
