"""Labels stay with their items in a live page, in headless Chromium as a class sees it: after Reveal, Play, the
switch to B's rest frame, a turn of the camera and a zoom, every label shown lies within a few pixels of its item
(a body's sphere, a root's ghost of A) as the page's camera projects it (computed here, not by the page), over none
of the texts on the view; the label of an item out of view is hidden.  On a laptop's screen and a phone's."""

from __future__ import annotations

import time

import numpy as np
import pytest
from browser import Browser, serve, wait_until
from web_helpers import PLOT_TEXTS, camera, element_box, in_world, overlap, pixel_radius, project

from explorer.view.label_places import NEAR

pytestmark = pytest.mark.long(4)  # started first (tests/conftest.py)

#: Where the page's labels are, with their texts and whether they are shown, in page pixels.
SPANS = """[...document.querySelectorAll('#labels span')].map((s) => ({text: s.textContent,
  shown: !s.hidden && s.offsetWidth > 0, box: ((r) => [r.left, r.top, r.right, r.bottom])(s.getBoundingClientRect())}))"""


@pytest.fixture(scope="module")
def browser():
    with Browser() as chromium:
        yield chromium
        assert chromium.refused == []


def _gap(box, disc) -> float:
    """Pixels between a box (x0, y0, x1, y1) and a disc (x, y, r)'s outline, 0 where they meet."""
    x, y = min(max(disc[0], box[0]), box[2]), min(max(disc[1], box[1]), box[3])
    return max(0.0, float(np.hypot(x - disc[0], y - disc[1])) - disc[2])


def _items(page) -> dict:
    """Each label's item as drawn now, by the label's text: (centre (3,), radius) of a body, or of A's ghost at a
    root (its label sits just outside it, within half a marker: 1.5 radii of A is room enough)."""
    frame = page.evaluate("window.sphereExplorer.frame()")
    scene = page.evaluate("window.sphereExplorer.scene()")
    roots = page.evaluate("window.sphereExplorer.solution()")["roots"] or []
    a, other = scene["bodies"][0], next(b for b in scene["bodies"] if b["name"] == frame["other"])
    shift = np.asarray(other["velocity"]) if frame["restFrame"] else np.zeros(3)
    items = {}
    for label in frame["labels"]:
        kind, k = label["name"][:-1], int(label["name"][-1:]) if label["name"][-1:].isdigit() else None
        if kind == "name":
            local = frame["local"]  # the page's numbers, in world coordinates
            items[label["text"]] = (in_world(local, frame["centers"][k]), local["unit"] * frame["radii"][k])
        elif kind == "root":
            ghost = np.asarray(a["center"]) + (np.asarray(a["velocity"]) - shift) * roots[k]
            items[label["text"]] = (ghost, 1.5 * a["radius"])
    return items


def _settled(page, timeout: float = 20.0) -> None:
    """Wait until the labels have stayed where they are for 300 ms (they are placed again after a change)."""
    end = time.monotonic() + timeout
    last = None
    while time.monotonic() < end:
        now = (page.evaluate(SPANS), page.evaluate("window.sphereExplorer.frameCount()"))
        if now == last:
            return
        last = now
        page.wait_for_timeout(300)
    raise AssertionError("the labels never came to rest")


def _check(page, when: str) -> list[str]:
    """Every label shown is near its item and off the view's texts; a label whose item is out of view is hidden.
    Returns the texts of the labels shown."""
    _settled(page)  # placed again once the camera rests (later on a loaded machine)
    cam = camera(page)
    left, top, width, height = cam["box"]
    items = _items(page)
    hint, legend = (element_box(page, name) for name in ("status", "legend"))
    texts = [[x, y, x + w, y + h] for x, y, w, h in (hint, legend) if w and h]
    shown = []
    for span in page.evaluate(SPANS):
        if span["text"] not in items:
            assert not span["shown"], (when, span["text"], "shown, but in no label of the frame")
            continue
        centre, radius = items[span["text"]]
        x, y, depth = project(cam, centre)
        seen = depth > 0 and left <= x <= left + width and top <= y <= top + height
        if not seen:
            assert not span["shown"], (when, span["text"], "shown while its item is out of view", (x, y))
            continue
        if span["shown"]:
            disc = (x, y, pixel_radius(cam, radius, depth))
            assert _gap(span["box"], disc) <= NEAR + 1.0, (when, span["text"], span["box"], disc)
            assert not [t for t in texts if overlap(span["box"], t)], (when, span["text"], "over the view's texts")
            shown.append(span["text"])
    return shown


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)])
def test_labels_stay_with_their_items_after_reveal_play_a_frame_switch_a_turn_and_a_zoom(site, browser, size):
    with serve(site) as base:
        page = browser.page((base,), *size)
        page.goto(base + "seed004_ricochet.html")  # t₁ = 1.05942 after h: its ghost on the right, faded
        page.evaluate("window.sphereExplorer.ready")
        page.click("#ask")
        page.click("text=Reveal")
        wait_until(page, "window.sphereExplorer.frame().stage === 'shown'")
        shown = _check(page, "revealed")
        assert "A" in shown and any(text.startswith("t₀") for text in shown), shown
        if size[0] > 1000:  # room for it on a laptop: beside its ghost, not across the view
            assert any(text.startswith("t₁") for text in shown), shown

        page.click("#play")
        wait_until(page, "!window.sphereExplorer.frame().time.playing")
        assert _check(page, "played")

        page.click("#rest-frame")
        wait_until(page, "!window.sphereExplorer.frame().turning")
        assert _check(page, "in B's rest frame")
        page.click("#rest-frame")
        wait_until(page, "!window.sphereExplorer.frame().turning")

        view = element_box(page, "view")
        corner = (view[0] + 0.1 * view[2], view[1] + 0.85 * view[3])  # empty space: the camera turns
        page.mouse.move(*corner)
        page.mouse.down()
        page.mouse.move(corner[0] + 0.3 * view[2], corner[1] - 0.1 * view[3], steps=8)
        page.mouse.up()
        assert _check(page, "turned")

        b = page.evaluate("window.sphereExplorer.screenPosition('B')")
        page.mouse.move(view[0] + b["x"], view[1] + b["y"])
        for _ in range(12):  # zoom in on B until A is out of view
            page.mouse.wheel(0, -400)
            page.wait_for_timeout(60)
        a = page.evaluate("window.sphereExplorer.screenPosition('A')")
        assert not (0 <= a["x"] <= view[2] and 0 <= a["y"] <= view[3]), a
        shown = _check(page, "zoomed in on B")
        assert "A" not in shown
        assert page.errors == []
        page.context.close()


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)])
def test_on_every_gallery_scene_the_pages_parabola_words_cover_no_other_word_or_tick(site, browser, size):
    """Every gallery scene opened with the page's Open… in one live page: the words of f(t)'s marks (the break's
    t₀, t₁, vertex t_min and its tick 0.5 overlapped) lie inside the plot and cover neither each other nor a tick."""
    from live_helpers import open_scene_file

    from explorer.model.formats.gallery import gallery

    with serve(site) as base:
        page = browser.page((base,), *size)
        page.goto(base + "default.html")
        page.evaluate("window.sphereExplorer.ready")
        words_seen = 0
        for path in gallery():
            open_scene_file(page, path)
            if page.evaluate("window.sphereExplorer.frame().plot") is None:
                continue  # an asking scene: the plot waits for Reveal
            page.locator("#plot").scroll_into_view_if_needed()
            plot = page.evaluate(PLOT_TEXTS)
            area = plot["area"]
            for k, (text, box) in enumerate(plot["words"]):
                assert area[0] - 1 <= box[0] and box[2] <= area[2] + 1, (path.stem, text, box, area)
                assert area[1] - 1 <= box[1] and box[3] <= area[3] + 1, (path.stem, text, box, area)
                for j, (other, box2) in enumerate(plot["words"] + plot["others"]):
                    assert j == k or not overlap(box, box2), (path.stem, size, text, other)
            words_seen += len(plot["words"])
        assert words_seen >= 2 * len(gallery())  # not clear by leaving the words out
        assert page.errors == []
        page.context.close()
