"""A slow body's velocity is visible in a live page, in headless Chromium as a class sees it: on heavy_light_glancing
B moves at v = (0, 0.5, -0.3), shorter over the horizon than its radius 0.8 and nearly away from the camera; its
colour shows just beyond its outline in the direction it moves, in the normal mode and asking (Ask first), on a
laptop's screen and a phone's."""

from __future__ import annotations

import numpy as np
import pytest
from browser import Browser, serve, wait_until
from web_helpers import camera, color_matches, hide_text_overlays, pixel_radius, project, screenshot

from explorer.view.palette import BODY_COLORS

pytestmark = pytest.mark.long  # started first (tests/conftest.py)


@pytest.fixture(scope="module")
def browser():
    with Browser() as chromium:
        yield chromium
        assert chromium.refused == []


def _beyond_b(page) -> list[bool]:
    """Whether B's colour shows at points a few pixels apart, from just outside B's outline outwards along the
    direction B moves, as the page's camera (projected here) sees it."""
    scene = page.evaluate("window.sphereExplorer.scene()")
    b = scene["bodies"][1]
    hide_text_overlays(page)  # B's name and the arrow's words are in B's colour too
    cam = camera(page)
    x, y, depth = project(cam, b["center"])
    radius = pixel_radius(cam, b["radius"], depth)
    ahead = project(cam, np.add(b["center"], 0.1 * np.asarray(b["velocity"])))
    way = np.subtract(ahead[:2], (x, y))
    way /= np.linalg.norm(way)
    image = screenshot(page)
    points = [np.add((x, y), (radius + step) * way) for step in np.arange(4.0, 0.6 * radius, 2.0)]
    return [color_matches(image, xy, BODY_COLORS[1], 1) > 0 for xy in points]


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)])
def test_the_light_balls_slow_velocity_shows_outside_it_asked_or_not(site, browser, size):
    with serve(site) as base:
        page = browser.page((base,), *size)
        page.goto(base + "heavy_light_glancing.html")
        page.evaluate("window.sphereExplorer.ready")
        for mode in ("shown", "asking"):
            if mode == "asking":
                page.click("#ask")
                wait_until(page, "window.sphereExplorer.frame().stage === 'asking'")
                page.wait_for_timeout(300)
            shown = _beyond_b(page)
            assert sum(shown) >= 0.8 * len(shown), (mode, size, shown)
            page.evaluate("for (const id of ['labels', 'legend']) document.getElementById(id).style.visibility = ''")
        assert page.errors == []
        page.context.close()
