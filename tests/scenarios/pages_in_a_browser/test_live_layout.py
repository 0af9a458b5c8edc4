"""The live page's layout as a student meets it, on a laptop (1366x768, a mouse) and on a phone (390x844, a finger),
in headless Chromium on the gallery's site: every number of the tables in view (none behind a scrollbar or cut), the
time slider along the bottom as wide as it can be, one control per action, targets a finger can hit (44 x 44 CSS
pixels at least, WCAG 2.5.5) and hints that speak of fingers, numbers rounded to what they mean (``0``, not
``-2.22045e-16``) with the exact value one switch away.
"""

from __future__ import annotations

import json
import math
import re

import pytest
from browser import Browser, serve, wait_until
from cli_helpers import solved
from live_helpers import open_scene_file

from explorer.model.formats.gallery import SCENES_DIR, gallery

pytestmark = pytest.mark.long(2)  # started first (tests/conftest.py)

PHONE = (390, 844)
LAPTOP = (1366, 768)
#: The least a finger's target measures, either way, in CSS pixels.
TARGET = 44

#: What the reader can press, tick, slide or click, and its box: a control inside its label is hit through the label.
TARGETS = """() => [...document.querySelectorAll('button, input, select, textarea, summary, a[href], #events tr')].flatMap((e) => {
  const target = e.closest('label') || e, r = target.getBoundingClientRect();
  if (r.width === 0 || r.height === 0 || getComputedStyle(e).visibility === 'hidden') return [];
  return [[e.id || e.textContent.trim().slice(0, 40), Math.round(r.width), Math.round(r.height)]];
})"""

#: Cells of the side panel's tables that are not wholly in view: out of the panel's visible width, or their text wider
#: than the cell; a table wider than its box; the page wider than the screen.
CLIPPED = """() => {
  const out = [], html = document.documentElement;
  if (html.scrollWidth > html.clientWidth) out.push(['page', html.scrollWidth, html.clientWidth]);
  for (const id of ['bodies', 'values', 'events']) {
    const table = document.getElementById(id), panel = table.closest('aside');
    const left = panel.getBoundingClientRect().left + panel.clientLeft, right = left + panel.clientWidth;
    if (table.scrollWidth > table.clientWidth + 1) out.push([id, 'scrolls', table.scrollWidth, table.clientWidth]);
    for (const cell of table.querySelectorAll('td, th')) {
      const r = cell.getBoundingClientRect();
      if (r.width === 0) continue;
      if (r.left < left - 0.5 || r.right > right + 0.5 || cell.scrollWidth > cell.clientWidth + 1)
        out.push([id, cell.textContent, Math.round(r.left), Math.round(r.right), Math.round(right)]);
    }
  }
  return out;
}"""

#: A number in the page's words that is a float's rounding, not a quantity (1e-10 and below).
NOISE = re.compile(r"\d(?:\.\d+)?e-(?:1\d|[2-9]\d|\d{3})")


def visible_text(page) -> str:
    """The page's text a reader sees, without the decision's trace: *How it was decided* lists the exact quantities
    the solver's decision read (the sign of a tiny one is the lesson of the precision scenes)."""
    return page.evaluate("document.body.innerText.replace(document.getElementById('trace').innerText, '')")


def small_targets(page) -> list:
    return [t for t in page.evaluate(TARGETS) if t[1] < TARGET or t[2] < TARGET]


def hints(page) -> str:
    """Every hint the page gives: its visible text, and its controls' titles and accessible labels."""
    extra = page.evaluate(
        "[...document.querySelectorAll('[title], [aria-label]')].map((e) => (e.title || '') + ' ' + "
        "(e.getAttribute('aria-label') || '')).join(' ')"
    )
    return page.inner_text("body") + " " + extra


def answer_controls(page) -> list[str]:
    """The visible buttons that show the answer."""
    buttons = page.evaluate(
        "[...document.querySelectorAll('button')].filter((b) => b.getClientRects().length).map((b) => b.textContent)"
    )
    return [b for b in buttons if re.search("reveal|answer", b, re.IGNORECASE)]


def frame(page) -> dict:
    return page.evaluate("window.sphereExplorer.frame()")


@pytest.fixture(scope="module")
def browser():
    chromium = Browser()
    yield chromium
    chromium.close()


def test_on_a_phone_every_gallery_scene_fits_a_finger_and_reads_rounded(site, browser):
    """390x844 with a finger: each gallery scene opened with *Open…* in one live page, at t = 0 and at each of its
    events stepped with ]: every table cell in view, every target at least 44 px either way, hints without Shift,
    no float's rounding among the numbers; an asking scene has one control that shows the answer, Reveal."""
    with serve(site) as base:
        page = browser.page((base,), *PHONE, mobile=True)
        page.goto(base + "default.html")
        page.evaluate("window.sphereExplorer.ready")
        seen = 0
        for scene_file in gallery():
            open_scene_file(page, scene_file)
            stem = scene_file.stem
            assert "shift" not in hints(page).lower(), stem  # no Shift key under a finger
            assert "finger" in page.inner_text("#status"), stem
            if frame(page)["stage"] == "asking":
                assert answer_controls(page) == ["Reveal"], stem
                assert "tap the view" in page.inner_text("#ask-box"), stem
            for step in range(len(frame(page)["events"]) + 1):
                assert page.evaluate(CLIPPED) == [], (stem, step)
                assert small_targets(page) == [], (stem, step)
                noise = NOISE.findall(visible_text(page))
                assert noise == [], (stem, step, noise)
                page.keyboard.press("]")  # the next event, inspected
                seen += 1
        assert page.errors == []
        page.context.close()
    assert seen > 2 * len(gallery()) and browser.refused == []


def test_on_a_laptop_the_time_slider_runs_along_the_bottom_and_every_number_is_in_view(site, browser):
    """1366x768 with a mouse: the controls under the view in one row, the time slider the widest of them; the break's
    table at its third event, every cell in view; the mouse's hint names Shift (the phone's must not)."""
    with serve(site) as base:
        page = browser.page((base,), *LAPTOP)
        page.goto(base + "snooker_break.html")
        page.evaluate("window.sphereExplorer.ready")
        assert "Shift+drag" in page.inner_text("#status")
        for _ in range(3):
            page.keyboard.press("]")
        assert frame(page)["inspected"] == 2
        assert page.evaluate(CLIPPED) == []
        footer = page.locator("footer").bounding_box()
        slider = page.locator("#time").bounding_box()
        assert footer["height"] < 60, footer  # one row
        assert slider["width"] >= 400, slider
        widths = page.evaluate(
            "[...document.querySelectorAll('footer button, footer label')].map((e) => e.offsetWidth)"
        )
        assert slider["width"] > max(widths)
        assert page.errors == []
        page.context.close()
    assert browser.refused == []


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_question_has_one_control_that_shows_the_answer(site, browser, size):
    """An asking scene: Reveal is the only way to the answer while asking; once shown, Ask again is the only one back."""
    with serve(site) as base:
        page = browser.page((base,), *size, mobile=size == PHONE)
        page.goto(base + "predict_first.html")
        page.evaluate("window.sphereExplorer.ready")
        assert frame(page)["stage"] == "asking"
        assert answer_controls(page) == ["Reveal"]
        page.click("#guess-hit")
        page.click("#reveal")
        wait_until(page, "window.sphereExplorer.frame().stage === 'shown'")
        assert answer_controls(page) == []
        buttons = page.evaluate("[...document.querySelectorAll('button')].filter((b) => b.getClientRects().length)"
                                ".map((b) => b.textContent)")  # fmt: skip
        assert "Ask again" in buttons and "Ask first" not in buttons
        assert page.errors == []
        page.context.close()


def test_a_sum_that_is_rounding_reads_0_and_its_exact_value_is_one_switch_away(site, browser, tmp_path):
    """The break just after its third event: the free bodies' Σ m v is (24, 0, 0) in the diagram, the table and the
    values, though its y component as float64 is a few ulps off 0; *exact numbers* shows that float exactly (the
    sum of the momenta ``solve --time`` gives), and switched off, 0 again."""
    with serve(site) as base:
        page = browser.page((base,), *PHONE, mobile=True)
        page.goto(base + "snooker_break.html")
        page.evaluate("window.sphereExplorer.ready")
        for _ in range(3):
            page.keyboard.press("]")
        t = frame(page)["time"]["t"]
        bodies = solved(SCENES_DIR / "snooker_break.json", "--time", repr(t))["bodies_at"]
        total = [math.fsum(b["momentum"][k] for b in bodies if b["momentum"] is not None) for k in range(3)]
        assert 0 < abs(total[1]) < 1e-12 * abs(total[0])  # the scene still shows the case: a y that is rounding
        rounded = "(24, 0, 0)"
        assert rounded in page.inner_text("#momenta") and rounded in page.inner_text("#bodies")
        assert re.search(r"momentum Σ m v\s+\(24, 0, 0\)\s+\|p\| = 24\n", page.inner_text("#values"))  # the same words
        page.check("#exact")
        exact = "(" + ", ".join(json.dumps(x).removesuffix(".0") for x in total) + ")"
        assert exact in page.inner_text("#momenta") and exact in page.inner_text("#bodies"), exact
        page.uncheck("#exact")
        assert rounded in page.inner_text("#momenta") and exact not in page.inner_text("body")
        assert page.errors == []
        page.context.close()
