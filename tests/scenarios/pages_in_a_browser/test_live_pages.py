"""Live pages in headless Chromium, as a student meets them: drag A with real mouse (or touch) events and the page
answers as the command line does.

The pages are made by the console script (``export-html`` of the gallery as a site, served from 127.0.0.1, and
``export-html --single`` opened as a file), every request outside them is refused, and after each drag the page's
``solution()`` must equal what ``sphere-explorer solve`` prints for the page's ``scene()``.

Every gallery scene is dragged by touch in one live page on a phone's screen, each opened with the page's *Open…*
as a reader opens a scene file (one start of the page's Python for all); a sample of the site's own pages is opened
from the index on a laptop's screen and dragged with the mouse, and every one in a full run (``--full``).
"""

from __future__ import annotations

import html
import json

import imageio.v3 as iio
import pytest
import sizes
from browser import Browser, serve, wait_ready, wait_until
from live_helpers import check_against_the_command_line, drag_a, export, open_scene_file
from web_helpers import color_matches

from explorer.model.formats.gallery import SCENES_DIR, gallery
from explorer.model.formats.scene_io import MAX_FILE_BYTES, parse
from explorer.model.state.scene import SceneError
from explorer.view.catalogue import LOOKS

pytestmark = pytest.mark.long(3)  # started first (tests/conftest.py)


@pytest.fixture(scope="module")
def browser():
    chromium = Browser()
    yield chromium
    chromium.close()


def test_on_a_phone_every_gallery_scene_opened_in_a_live_page_and_dragged_by_touch_answers_as_the_command_line(
    site, browser, tmp_path
):
    """390x844, touch: the 3-D view comes first; each scene opened with *Open…* starts a fresh history (Undo off)
    and a finger drags A; at the end Reset goes back to the scene last opened, not to the page's own."""
    results = []
    with serve(site) as base:
        page = browser.page((base,), width=390, height=844, touch=True)
        page.goto(base + "default.html")
        page.evaluate("window.sphereExplorer.ready")
        box = page.locator("#view").bounding_box()
        assert box["width"] <= 390 and box["height"] >= 300 and box["y"] < 200
        for scene_file in gallery():
            open_scene_file(page, scene_file)
            assert page.is_disabled("#undo"), scene_file.stem
            before, after, solution = drag_a(page, touch=True)
            opened = json.loads(scene_file.read_text(encoding="utf-8"))
            assert [b["name"] for b in before["bodies"]] == [b["name"] for b in opened["bodies"]], scene_file.stem
            assert after != before and page.is_enabled("#undo"), scene_file.stem
            results.append((scene_file.stem, before, after, solution))
        page.click("#reset")
        assert page.evaluate("window.sphereExplorer.scene()") == results[-1][1]
        assert page.errors == []
        page.context.close()
    assert len(results) == len(gallery()) >= 27
    assert browser.refused == []
    check_against_the_command_line(results, tmp_path)


def site_pages() -> list[str]:
    """The site's pages (file stems) this run opens from the index: a sample, every one in a full run."""
    return [path.stem for path in sizes.sampled(gallery(), sizes.SITE_PAGE_SAMPLE)]


def test_site_pages_opened_from_the_index_and_dragged_answer_as_the_command_line(site, browser, tmp_path):
    results = []
    with serve(site) as base:
        for stem in site_pages():
            page = browser.page((base,))
            page.goto(base + "index.html")
            with page.expect_navigation():
                page.click(f'a[href="{stem}.html"] >> nth=0')
            before, after, solution = drag_a(page)
            assert page.errors == [], (stem, page.errors)
            results.append((stem, before, after, solution))
            page.context.close()
    assert len(results) == len(site_pages()) >= len(sizes.SITE_PAGE_SAMPLE)
    assert browser.refused == []
    check_against_the_command_line(results, tmp_path)


def test_a_file_the_page_refuses_changes_nothing_and_says_why(site, browser, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "sphere-explorer/1", "mode": "pair", "bodies": 3}', encoding="utf-8")
    huge = tmp_path / "huge.json"
    huge.write_bytes(b" " * (MAX_FILE_BYTES + 1))
    with serve(site) as base:
        page = browser.page((base,))
        page.goto(base + "billiards.html")
        page.evaluate("window.sphereExplorer.ready")
        before, title = page.evaluate("window.sphereExplorer.scene()"), page.inner_text("#title")
        with pytest.raises(SceneError) as refusal:
            parse(bad.read_text(encoding="utf-8"))
        for path, words in (
            (bad, f"bad.json: {refusal.value}"),
            (
                huge,
                f"huge.json: file too large ({MAX_FILE_BYTES + 1:,} bytes; a scene file is at most {MAX_FILE_BYTES:,} bytes)",
            ),
        ):
            page.set_input_files("#open-file", str(path))
            wait_until(page, f"document.getElementById('toast').textContent === {json.dumps(words)}")
            assert page.evaluate("window.sphereExplorer.scene()") == before and page.inner_text("#title") == title
        assert page.errors == []
        page.context.close()


def test_a_site_page_opened_as_a_file_goes_to_its_recorded_twin_which_says_how_to_get_the_live_one(site, browser):
    page = browser.page(("file://", "data:"))
    page.goto((site / "default.html").as_uri())
    page.wait_for_url("**/default.recorded.html")
    wait_ready(page)  # the recording plays
    note = page.inner_text("#status")
    assert "default.html" in note and "python3 -m http.server" in note
    page.context.close()


def test_the_live_page_allows_its_own_scripts_and_webassembly_only(site):
    text = (site / "default.html").read_text(encoding="utf-8")
    policy = html.unescape(text.split('http-equiv="Content-Security-Policy" content="', 1)[1].split('"', 1)[0])
    scripts = policy.split("script-src ", 1)[1].split(";", 1)[0].split()
    assert scripts[0] == "'self'" and scripts[-1] == "'wasm-unsafe-eval'"
    # the hash of its one inline script: the guard (what a page that cannot start says, and opened from a file, where
    # it goes: explorer/web/guard.js)
    assert scripts[1].startswith("'sha256-") and len(scripts) == 3
    assert "unsafe-eval'" not in policy.replace("'wasm-unsafe-eval'", "") and "default-src 'none'" in policy
    assert "frame-src 'self'" in policy  # its recorded twin, looked for in a hidden frame when opened from a file


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


def test_frame_all_brings_a_long_shots_a_into_view_and_reset_camera_frames_the_contact_again(site, browser):
    with serve(site) as base:
        page = browser.page((base,))
        page.goto(base + "seed003_long_shot.html")
        page.evaluate("window.sphereExplorer.ready")
        box = page.locator("#view").bounding_box()

        def in_view(name: str) -> bool:
            at = page.evaluate(f"window.sphereExplorer.screenPosition({json.dumps(name)})")
            return 0 < at["x"] < box["width"] and 0 < at["y"] < box["height"]

        assert not in_view("A") and in_view("B")  # the camera frames the contact, 300,000 units from A's start
        page.click("#frame-all")
        assert in_view("A") and in_view("B")
        # a 0.05 ball on a path 500,000 long, less than a pixel each: A's dot and its path are drawn all the same
        image = iio.imread(page.locator("#view").screenshot())[..., :3].astype(int)
        a, b = (page.evaluate(f"window.sphereExplorer.screenPosition({json.dumps(n)})") for n in "AB")
        assert color_matches(image, (a["x"], a["y"]), LOOKS["body0"].color, 2) > 0
        midway = ((a["x"] + b["x"]) / 2, (a["y"] + b["y"]) / 2)
        assert color_matches(image, midway, LOOKS["centre_path"].color, 2) > 0
        page.click("#reset-camera")
        assert not in_view("A") and in_view("B")
        assert page.errors == []
        page.context.close()
