"""The live page by keyboard alone, as a student who cannot use a mouse works it: Tab through the page to the 3-D
view (A is selected and said), arrow keys move A in the plane facing the camera, Shift+arrows change its velocity,
Tab selects B; each key is one edit, said in the page's live region, and the page's ``solution()`` is then what
``sphere-explorer solve`` gives for its ``scene()``.  Real key events in headless Chromium, the site page served."""

from __future__ import annotations

import json

import pytest
from browser import Browser, serve
from live_helpers import differences

from explorer.model.derived.analysis import solve, to_dict
from explorer.model.formats.scene_io import parse

pytestmark = pytest.mark.long  # started first (tests/conftest.py)


@pytest.fixture(scope="module")
def browser():
    with Browser() as chromium:
        yield chromium


def _body(page, k: int) -> dict:
    return page.evaluate("window.sphereExplorer.scene()")["bodies"][k]


def _answers(page) -> None:
    expected = to_dict(solve(parse(json.dumps(page.evaluate("window.sphereExplorer.scene()")))))
    got = page.evaluate("window.sphereExplorer.solution()")
    assert not list(differences(got, expected)), list(differences(got, expected))


def test_tab_to_a_then_arrows_move_it_and_shift_arrows_its_velocity(site, browser):
    with serve(site) as base:
        page = browser.page((base,))
        page.goto(base + "default.html")
        page.evaluate("window.sphereExplorer.ready")
        assert "Tab selects a body, arrow keys move it" in page.get_attribute("#stage", "aria-label")  # said on entry
        for _ in range(40):  # Tab, as a keyboard user does, until the 3-D view has the focus
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.id") == "stage":
                break
        assert page.evaluate("document.activeElement.id") == "stage"
        assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"  # a visible focus
        assert page.inner_text("#spoken").startswith("A selected: centre (")
        a, b = _body(page, 0), _body(page, 1)

        for _ in range(3):
            page.keyboard.press("ArrowRight")
        moved = _body(page, 0)
        assert moved["velocity"] == a["velocity"] and _body(page, 1) == b
        changed = [k for k in range(3) if moved["center"][k] != a["center"][k]]
        assert len(changed) == 1  # one coordinate at a time, as a drag in its plane
        assert page.inner_text("#spoken").startswith("A selected: centre (")
        _answers(page)

        page.keyboard.press("Shift+ArrowUp")
        turned = _body(page, 0)
        assert turned["center"] == moved["center"] and turned["velocity"] != a["velocity"]
        _answers(page)

        page.keyboard.press("Tab")  # the next body
        assert page.evaluate("document.activeElement.id") == "stage"
        assert page.inner_text("#spoken").startswith("B selected: centre (")
        page.keyboard.press("Control+ArrowLeft")  # a tenth of a step
        assert _body(page, 1)["center"] != b["center"] and _body(page, 0) == turned
        _answers(page)

        page.keyboard.press("Control+z")  # each key was one edit
        assert _body(page, 1) == b
        assert page.errors == []
        page.context.close()


def test_an_event_is_inspected_by_keyboard_and_the_focus_stays_on_it(site, browser):
    """The break's events, each a button in its row: Tab reaches the first, Enter inspects it (the time goes to it,
    it is marked pressed), Tab and Space the next; the focus stays on the event pressed as the rows are made again."""
    with serve(site) as base:
        page = browser.page((base,), width=1366, height=768)
        page.goto(base + "snooker_break.html")
        page.evaluate("window.sphereExplorer.ready")
        page.locator("#events-box h2").scroll_into_view_if_needed()
        page.evaluate("document.querySelector('#events-box h2').setAttribute('tabindex', '-1')")
        page.focus("#events-box h2")  # as a reader arrives at the heading, then moves on by Tab
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.dataset.event") == "0"
        page.keyboard.press("Enter")
        assert page.evaluate("window.sphereExplorer.frame().inspected") == 0
        assert page.evaluate("document.activeElement.dataset.event") == "0"  # the rows were made again: still here
        assert page.get_attribute('[data-event="0"]', "aria-pressed") == "true"
        solution = page.evaluate("window.sphereExplorer.solution()")
        assert page.evaluate("window.sphereExplorer.frame().time.t") == solution["path"]["events"][0]["time"]
        page.keyboard.press("Tab")
        page.keyboard.press("Space")
        assert page.evaluate("window.sphereExplorer.frame().inspected") == 1
        assert page.get_attribute('[data-event="0"]', "aria-pressed") == "false"
        assert page.errors == []
        page.context.close()
