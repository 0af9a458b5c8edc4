"""Recorded pages (the live page's drawer playing frames Python described at export) opened as files in headless
Chromium, as a student opens one: a scene that asks opens asking and nothing of its answer is on the page until
Reveal; two pages that differ only in the answer read the same until then; the momenta switch and the time slider
change the drawing; nothing can be dragged, and the page says so in one line.  (The gallery's recorded pages, their
spheres, slider, rest frame, Frame all and play: test_gallery_pages.)"""

from __future__ import annotations

import json

import numpy as np
import pytest
from browser import Browser, foreign_requests, wait_ready, wait_until
from cli_helpers import solved
from live_helpers import export
from web_helpers import (
    PLOT_TEXTS,
    camera,
    color_matches,
    drawn_centers,
    hide_text_overlays,
    overlap,
    pixel_radius,
    project,
    screenshot,
)

from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.words.text import fmt
from explorer.view.palette import MOMENTUM_COLOR, VERDICT_COLORS, VERDICT_PLAIN
from explorer.web.export import RECORDED_SUFFIX

pytestmark = pytest.mark.long  # started first (tests/conftest.py)

#: What may differ between two pages' frames while they ask: what is drawn and said of the givens (a radius, here).
GIVENS = {"shapes", "bounds", "radii", "cameras", "spokenAll", "form"}
#: The page's text: what is visible, and all of the page's text (hidden elements too), and its title.
TEXTS = """[document.body.innerText, document.getElementById('app').textContent, document.title]"""


@pytest.fixture(scope="module")
def browser():
    with Browser() as chromium:
        yield chromium
        assert chromium.refused == []


def _open(browser, path, size=(1366, 768)):
    page = browser.open_file(path, size)
    wait_ready(page)
    return page


def _rgb(color: str) -> str:
    return "rgb({}, {}, {})".format(*(int(color[k : k + 2], 16) for k in (1, 3, 5)))


def _reveal(page) -> None:
    page.click("#reveal")
    wait_until(page, "window.sphereExplorer.frame().stage === 'shown'")


def test_an_asking_scene_opens_asking_and_shows_its_answer_only_after_reveal(site, browser):
    """predict_first's recorded page (the site's): the question, and no verdict, time of contact, root, contact,
    value or event in its text, the verdict line not in a verdict's colour, no rest frame, for the console only
    that it asks; the answer after Reveal, with the score of the student's answer, and solve's JSON."""
    truth = solved(SCENES_DIR / "predict_first.json")
    page = _open(browser, site / f"predict_first{RECORDED_SUFFIX}")
    assert page.evaluate("window.sphereExplorer.recorded") is True
    frame = page.evaluate("window.sphereExplorer.frame()")
    assert frame["stage"] == "asking" and frame["values"] == [] and frame["events"] == []
    answer = ["HIT", "MISS", "t₀", "t₁", "discriminant", "contact", "toi", fmt(truth["toi"]),
              *(fmt(r) for r in truth["roots"])]  # fmt: skip
    for text in page.evaluate(TEXTS):
        assert [w for w in answer if w in text] == []
    assert "Will they touch before t = 1" in page.inner_text("#verdict")
    assert page.evaluate("getComputedStyle(document.getElementById('verdict')).color") == _rgb(VERDICT_PLAIN)
    question = json.loads((SCENES_DIR / "predict_first.json").read_text(encoding="utf-8"))["question"]
    assert page.evaluate("window.sphereExplorer.solution()") == {"asking": True, "question": question}
    assert page.is_disabled("#time") and page.is_disabled("#rest-frame") and page.is_visible("#reveal")
    page.click("#guess-miss")
    _reveal(page)
    verdict = page.inner_text("#verdict")
    assert verdict.startswith("A–B: HIT at t₀ = " + fmt(truth["toi"]))
    assert page.evaluate("getComputedStyle(document.getElementById('verdict')).color") == _rgb(VERDICT_COLORS["HIT"])
    assert page.inner_text("#score").startswith("You said miss: wrong")
    assert fmt(truth["toi"]) in page.inner_text("#values") and page.is_enabled("#rest-frame")
    assert page.evaluate("window.sphereExplorer.solution()") == truth
    assert page.evaluate("window.sphereExplorer.frame().time.t") == truth["toi"]  # the reveal ran to the contact
    plot = page.evaluate(PLOT_TEXTS)  # t₀, the vertex and t₁ within 0.05 of each other: placed apart by Python
    assert len(plot["words"]) == 3
    for k, (text, box) in enumerate(plot["words"]):
        assert [
            other for j, (other, b) in enumerate(plot["words"] + plot["others"]) if j != k and overlap(box, b)
        ] == [], text
    assert page.errors == [] and foreign_requests(page) == []
    page.context.close()


@pytest.fixture(scope="module")
def hit_and_miss(tmp_path_factory):
    """predict_first as two recorded pages (``export-html SCENE -o PAGE.html``) alike but for B's radius: 1, they
    touch; 0.9, they miss (A's centre passes 1.95 from B's)."""
    folder = tmp_path_factory.mktemp("hit-and-miss")
    pages = []
    for name, radius in (("hit", 1.0), ("miss", 0.9)):
        scene = json.loads((SCENES_DIR / "predict_first.json").read_text(encoding="utf-8"))
        scene["bodies"][1]["radius"] = radius
        source = folder / f"{name}.json"
        source.write_text(json.dumps(scene), encoding="utf-8")
        export(str(source), "-o", str(folder / f"{name}.html"))
        pages.append(folder / f"{name}.html")
    return pages


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)], ids=["laptop", "phone"])
def test_two_pages_that_differ_only_in_the_answer_read_the_same_until_reveal(hit_and_miss, browser, size):
    """Their visible text is the same; all their text differs only where it gives B's radius (the description for a
    screen reader, in words); the frames they draw, only in what is drawn of B and said of it."""
    pages = [_open(browser, path, size) for path in hit_and_miss]
    visible, text, title = zip(*(page.evaluate(TEXTS) for page in pages))
    assert visible[0] == visible[1] and title[0] == title[1]
    b = "B: centre (0, 0, 0), velocity (0, 0, 0), radius {},"
    assert b.format(1) in text[0] and text[0].replace(b.format(1), b.format(0.9)) == text[1]
    frames = [page.evaluate("window.sphereExplorer.frame()") for page in pages]
    assert {k for k in frames[0] if frames[0][k] != frames[1][k]} == GIVENS
    for page in pages:
        _reveal(page)
    shown = [page.inner_text("#verdict") for page in pages]
    assert "HIT" in shown[0] and "MISS" in shown[1]
    assert pages[0].inner_text("body") != pages[1].inner_text("body")
    for page in pages:
        assert page.errors == []
        page.context.close()


def _a_on_screen(page, radius: float) -> tuple[tuple[float, float], float]:
    """Where A's centre is drawn (the page's own frame: its centre now), and its radius on screen, in page pixels,
    from the page's camera by the textbook projection (web_helpers.project)."""
    cam = camera(page)
    x, y, depth = project(cam, drawn_centers(page)[0])
    return (x, y), pixel_radius(cam, radius, depth)


def test_the_momenta_switch_and_the_time_slider_change_the_drawing_and_nothing_is_dragged(site, browser):
    """heavy_light_glancing's recorded page opens with its momentum arrows (the scene's layer): switched off, their
    colour leaves the view; on again, it is back.  A click on the time slider moves A to where solve puts it then
    (Frame all: test_gallery_pages); a drag on A turns the camera and moves nothing, as the page's one line says."""
    scene = json.loads((SCENES_DIR / "heavy_light_glancing.json").read_text(encoding="utf-8"))
    page = _open(browser, site / f"heavy_light_glancing{RECORDED_SUFFIX}")
    assert page.inner_text("#status") == (
        "This recorded page plays the motion; to drag, open heavy_light_glancing.html from a web server "
        "(python3 -m http.server in this folder)."
    )
    hide_text_overlays(page)
    box = page.locator("#view").bounding_box()
    view = (slice(int(box["y"]), int(box["y"] + box["height"])), slice(int(box["x"]), int(box["x"] + box["width"])))

    def momentum_pixels() -> int:
        image = screenshot(page)[view]
        return color_matches(image, (image.shape[1] / 2, image.shape[0] / 2), MOMENTUM_COLOR, radius=4000)

    assert page.is_checked("#momentum-layer") and momentum_pixels() > 200
    page.uncheck("#momentum-layer")
    assert momentum_pixels() < 10
    page.check("#momentum-layer")
    assert momentum_pixels() > 200

    start, r = _a_on_screen(page, scene["bodies"][0]["radius"])
    slider = page.locator("#time").bounding_box()
    y = slider["y"] + slider["height"] / 2
    page.mouse.click(slider["x"] + 0.6 * slider["width"], y)
    wait_until(page, "window.sphereExplorer.frame().time.t > 0")
    t = page.evaluate("window.sphereExplorer.frame().time.t")
    at_t = solved(SCENES_DIR / "heavy_light_glancing.json", "--time", repr(t))
    assert list(drawn_centers(page)[0]) == pytest.approx(at_t["bodies_at"][0]["center"], rel=1e-8, abs=1e-8)
    now, _ = _a_on_screen(page, scene["bodies"][0]["radius"])
    assert np.hypot(now[0] - start[0], now[1] - start[1]) > 2 * r  # A was drawn elsewhere

    scene_before = page.evaluate("window.sphereExplorer.scene()")
    page.mouse.move(*now)
    page.mouse.down()
    page.mouse.move(now[0] + 60, now[1] + 30, steps=6)
    page.mouse.up()
    assert page.evaluate("window.sphereExplorer.scene()") == scene_before
    assert page.is_hidden("#undo") and page.is_hidden("#open")
    assert page.errors == []
    page.context.close()


def test_a_scene_saved_with_a_camera_opens_through_it_and_reset_camera_frames_the_scene(tmp_path, browser):
    """File > Export web page writes the window's camera into the scene: the page opens looking through it."""
    scene = json.loads((SCENES_DIR / "default.json").read_text(encoding="utf-8"))
    scene["view"] = {"camera": {"position": [2.0, -30.0, 4.0], "focal_point": [2.5, 0.5, 0.0], "up": [0, 0, 1]}}
    source = tmp_path / "camera.json"
    source.write_text(json.dumps(scene), encoding="utf-8")
    export(str(source), "-o", str(tmp_path / "camera.html"))
    page = _open(browser, tmp_path / "camera.html")
    cam = camera(page)
    saved = scene["view"]["camera"]
    assert cam["position"] == pytest.approx(saved["position"]) and cam["focal"] == pytest.approx(saved["focal_point"])
    page.click("#reset-camera")
    assert camera(page)["position"] != pytest.approx(saved["position"], abs=0.5)
    assert page.errors == []
    page.context.close()
