"""Recorded web pages in a real browser (Debian's headless Chromium): a gallery scene's page (a sample of them; every
one in a full run, ``--full``) draws its spheres where the solver puts them, shows its text, moves with the slider,
turns to B's rest frame, frames the whole motion, plays, and asks nothing of the network.

One site of the whole gallery is exported per test session (``sphere-explorer export-html scenes/ -o SITE``);
each test opens pages of it, each as a file in a tab of its own, in one headless Chromium (Playwright, see
web/browser.py), with every request the page makes recorded and all but the page's own file refused.
"""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest
import sizes
from browser import Browser, foreign_requests, wait_ready, wait_until
from web_helpers import (
    camera,
    color_matches,
    drag,
    drawn_centers,
    element_box,
    hide_text_overlays,
    occluded,
    pixel_radius,
    project,
    recording,
    screen_axes,
    screenshot,
    sphere_shows,
)

from explorer.model.derived.analysis import solve
from explorer.model.formats.gallery import DEFAULT_SCENE, SCENES_DIR, gallery
from explorer.model.formats.scene_io import load
from explorer.model.words.text import fmt
from explorer.view.palette import BODY_COLORS, OVERLAP_COLOR
from explorer.web import PAGE_BUDGET
from explorer.web.export import INDEX, RECORDED_SUFFIX
from solver import Status

pytestmark = pytest.mark.long  # started first (tests/conftest.py)

#: Of the 9 points sampled on a sphere's disc (see web_helpers.sphere_shows), at least this many show its colour.
MIN_POINTS = 6
#: Spheres smaller than this on screen (pixels from centre to rim) are not checked.
MIN_PIXELS = 6.0


@pytest.fixture(scope="module")
def browser():
    with Browser() as chromium:
        yield chromium


@pytest.fixture
def open_page(browser):
    pages = []

    def open_(path, ready=True):
        page = browser.open_file(path)
        pages.append(page)
        if ready:
            wait_ready(page)
        return page

    yield open_
    for page in pages:
        page.context.close()


def _checkable_bodies(scene, centres, cam) -> list[tuple[int, tuple[float, float], float]]:
    """Bodies drawn opaque, on screen, large enough and not behind another body: (index, pixel, radius in pixels)."""
    solid = [i for i, b in enumerate(scene.bodies) if not b.container and not (scene.mode == "inside" and i == 1)]
    left, top, width, height = cam["box"]
    out = []
    for i in solid:
        x, y, depth = project(cam, centres[i])
        r = pixel_radius(cam, scene.bodies[i].radius, depth) if depth > 0 else 0.0
        if r < MIN_PIXELS or not (left + r < x < left + width - r and top + r < y < top + height - r):
            continue
        others = [(centres[j], scene.bodies[j].radius) for j in solid if j != i]
        if not occluded(cam, centres[i], others):
            out.append((i, (x, y), r))
    return out


@pytest.mark.parametrize("path", sizes.sampled(gallery(), sizes.RECORDED_PAGE_SAMPLE), ids=lambda p: p.stem)
def test_a_gallery_page_draws_its_spheres_offline_within_budget(site, open_page, path):
    file = site / f"{path.stem}{RECORDED_SUFFIX}"
    assert file.stat().st_size <= PAGE_BUDGET
    scene = load(path)
    page = open_page(file)
    assert foreign_requests(page) == []
    assert page.errors == []
    hide_text_overlays(page)
    cam = camera(page)
    image = screenshot(page)
    solution = solve(scene)
    centres = np.array(solution.path.positions(0.0))
    checked = _checkable_bodies(scene, centres, cam)
    assert checked, "no sphere of the scene is on screen"
    glowing = {0, solution.other} if solution.sweep.status is Status.OVERLAPPING else set()  # seen through red
    for i, xy, r in checked:
        towards = OVERLAP_COLOR if i in glowing else None
        assert sphere_shows(image, xy, r, BODY_COLORS[i], towards) >= MIN_POINTS, (scene.bodies[i].name, xy)
    # the check tells colours apart: the first sphere is not the colour of a body far from its own
    i, xy, r = checked[0]
    other = next(c for c in BODY_COLORS if np.linalg.norm(_rgb(c) - _rgb(BODY_COLORS[i])) > 150)
    assert sphere_shows(image, xy, r, other) < MIN_POINTS


def test_every_gallery_scenes_recorded_page_is_made_within_the_budget(site):
    """Every scene's page (the pixels of a sample of them are checked above; of every one in a full run)."""
    pages = sorted(site.glob(f"*{RECORDED_SUFFIX}"))
    assert [p.name.removesuffix(RECORDED_SUFFIX) for p in pages] == sorted(p.stem for p in gallery())
    assert [p.name for p in pages if p.stat().st_size > PAGE_BUDGET] == []


def _rgb(color: str) -> np.ndarray:
    return np.array([int(color[k : k + 2], 16) for k in (1, 3, 5)], dtype=float)


def _text(page, selector: str) -> str:
    return page.evaluate(f"document.querySelector({json.dumps(selector)}).textContent")


@pytest.mark.parametrize("stem", ["default", "seed001_container", "snooker_break"])
def test_the_page_shows_the_scene_text_and_the_values(site, open_page, stem):
    scene = load(SCENES_DIR / f"{stem}.json")
    solution = solve(scene)
    page = open_page(site / f"{stem}{RECORDED_SUFFIX}")
    assert _text(page, "#title") == scene.title
    assert _text(page, "#description") == scene.description
    assert page.evaluate("document.title") == scene.title
    labels = page.evaluate(
        "[...document.querySelectorAll('#labels .label')].filter(e => !e.hidden).map(e => e.textContent)"
    )
    assert {b.name for b in scene.bodies} <= set(labels)
    rows = dict(
        page.evaluate("[...document.querySelectorAll('#values tr')].map(r => [...r.cells].map(c => c.textContent))")
    )
    s = solution.sweep
    assert math.isclose(float(rows["toi"]), s.toi, rel_tol=1e-5)
    roots = [float(rows[k].split()[0]) for k in ("t₀", "t₁")]
    assert np.allclose(roots, s.roots, rtol=1e-5)
    if stem == "default":  # A glances off the fixed B: the contact, normal, reflection and ricochet are listed
        point = [float(x) for x in re.findall(r"-?[\d.]+(?:e-?\d+)?", rows["contact point"])]
        assert np.allclose(point, s.contact.point, rtol=1e-5, atol=1e-6)
        normal = [float(x) for x in re.findall(r"-?[\d.]+(?:e-?\d+)?", rows["contact normal"])]
        assert np.allclose(normal, s.contact.normal, rtol=1e-5, atol=1e-6)
        v = np.array(scene.bodies[0].velocity)
        n = np.array(s.contact.normal)
        reflected = [float(x) for x in re.findall(r"-?[\d.]+(?:e-?\d+)?", rows["reflected velocity"])]
        assert np.allclose(reflected, v - 2 * (v @ n) * n, rtol=1e-5)  # the mirror image in the tangent plane
        angle = math.degrees(math.asin(abs(v @ n) / np.linalg.norm(v)))  # to the tangent plane
        assert math.isclose(float(rows["ricochet angle"].split("°")[0]), angle, rel_tol=1e-5)
    legend = page.evaluate("[...document.querySelectorAll('#legend li')].map(e => e.textContent)")
    assert len(legend) == 7 and all(legend)
    assert _text(page, "#plot-title").startswith("f(t) = ")
    assert page.evaluate("document.querySelectorAll('#plot svg .curve, #plot svg .horizon').length") == 2


def _a_on_screen(cam, scene, centre) -> tuple[tuple[float, float], float]:
    x, y, depth = project(cam, centre)
    return (x, y), pixel_radius(cam, scene.bodies[0].radius, depth)


def test_the_slider_moves_a_sphere_along_its_path(site, open_page):
    """Drag the slider with the mouse: A leaves its start and is drawn where the solver says it is now."""
    scene = load(SCENES_DIR / "default.json")
    path = solve(scene).path
    page = open_page(site / ("default" + RECORDED_SUFFIX))
    hide_text_overlays(page)
    cam = camera(page)
    start, r = _a_on_screen(cam, scene, path.positions(0.0)[0])
    assert sphere_shows(screenshot(page), start, r, BODY_COLORS[0]) >= MIN_POINTS
    box = element_box(page, "time")
    y = box[1] + box[3] / 2
    drag(page, (box[0] + 4, y), (box[0] + 0.3 * box[2], y))
    t = page.evaluate("sphereExplorer.frame().time.t")
    assert t in recording((site / ("default" + RECORDED_SUFFIX)).read_text(encoding="utf-8"))["times"]
    assert 0.2 < t < 0.4, t  # about 30% of the slider's range [0, 1.05]
    assert _text(page, "#time-value") == f"t = {fmt(t)}"
    image = screenshot(page)
    now, r_now = _a_on_screen(cam, scene, path.positions(t)[0])
    assert np.hypot(now[0] - start[0], now[1] - start[1]) > 2 * r  # a clear move
    assert sphere_shows(image, now, r_now, BODY_COLORS[0]) >= MIN_POINTS
    assert sphere_shows(image, start, r, BODY_COLORS[0]) < MIN_POINTS  # and no longer at its start


def test_the_view_turns_and_zooms_with_the_mouse_and_the_camera_resets(site, open_page):
    page = open_page(site / ("seed004_ricochet" + RECORDED_SUFFIX))
    start = camera(page)
    left, top, width, height = start["box"]
    centre = (left + width / 2, top + height / 2)
    drag(page, centre, (centre[0] + 150, centre[1] + 40))
    turned = camera(page)
    sight = [np.subtract(c["focal"], c["position"]) for c in (start, turned)]
    cosine = sight[0] @ sight[1] / np.linalg.norm(sight[0]) / np.linalg.norm(sight[1])
    assert cosine < math.cos(math.radians(10))  # the line of sight turned by more than 10 degrees
    page.mouse.move(*centre)
    page.mouse.wheel(0, -500)
    page.wait_for_timeout(300)
    zoomed = camera(page)
    distance = [np.linalg.norm(np.subtract(c["focal"], c["position"])) for c in (turned, zoomed)]
    assert distance[1] < 0.97 * distance[0]  # closer in
    page.evaluate("document.getElementById('reset-camera').click()")
    back = camera(page)
    for key in ("position", "focal", "up"):
        assert np.allclose(back[key], start[key], rtol=1e-9, atol=1e-9), key


def test_frame_all_brings_a_long_shots_a_into_view_in_either_frame(site, open_page):
    """The long shot's recorded camera frames the contact, 300,000 units from A's start; Frame all shows A and B,
    and in B's rest frame the start of A's ray."""
    page = open_page(site / ("seed003_long_shot" + RECORDED_SUFFIX))
    a, b = load(SCENES_DIR / "seed003_long_shot.json").bodies

    def in_view(point) -> bool:
        cam = camera(page)
        x, y, depth = project(cam, point)
        left, top, width, height = cam["box"]
        return depth > 0 and left <= x <= left + width and top <= y <= top + height

    assert not in_view(a.center) and in_view(b.center)
    page.click("#frame-all")
    assert in_view(a.center) and in_view(b.center)
    page.click("#reset-camera")
    assert not in_view(a.center)
    page.click("#rest-frame")
    page.click("#frame-all")
    assert in_view(a.center) and in_view(b.center)  # at t = 0 both frames agree
    assert page.errors == []


def test_the_plot_marks_the_slider_time_on_its_time_axis(site, open_page):
    """The red line on f(t) stands where the plot's own tick labels put the slider's time."""
    page = open_page(site / ("default" + RECORDED_SUFFIX))
    page.evaluate("document.getElementById('time').focus()")
    page.keyboard.press("PageUp")  # the keyboard moves the slider too: a tenth of its range
    page.keyboard.press("PageUp")
    t = page.evaluate("sphereExplorer.frame().time.t")
    assert 0.15 < t < 0.25, t
    labels = page.evaluate(
        "[...document.querySelectorAll('#plot svg text')].map(e => (r => [e.textContent, r.left + r.width / 2, r.top])"
        "(e.getBoundingClientRect()))"
    )
    numbers = [(float(text.replace("−", "-")), x, round(top)) for text, x, top in labels if _is_number(text)]
    axis_row = max(top for _, _, top in numbers)  # the time axis's labels are the lowest row of numbers
    ticks = [(value, x) for value, x, top in numbers if top == axis_row]
    assert len(ticks) >= 3
    slope, offset = np.polyfit([v for v, _ in ticks], [x for _, x in ticks], 1)
    line = page.evaluate("(r => [r.left, r.top, r.width, r.height])(document.querySelector('#plot svg .now')"
                         ".getBoundingClientRect())")  # fmt: skip
    assert abs(line[0] + line[2] / 2 - (slope * t + offset)) < 3.0, (t, line)


def _is_number(text: str) -> bool:
    try:
        float(text.replace("−", "-"))
    except ValueError:
        return False
    return True


def test_an_all_bodies_page_lists_every_event_and_plays_the_motion(site, open_page):
    scene = load(SCENES_DIR / "snooker_break.json")
    solution = solve(scene)
    page = open_page(site / ("snooker_break" + RECORDED_SUFFIX))
    rows = page.evaluate("[...document.querySelectorAll('#events tr')].map(r => r.cells[0].textContent)")
    assert np.allclose([float(row.split("=")[1]) for row in rows], [e.time for e in solution.events], rtol=1e-5)
    data = recording((site / ("snooker_break" + RECORDED_SUFFIX)).read_text(encoding="utf-8"))
    assert {e.time for e in solution.events} <= set(data["times"])  # each event is an instant of the slider
    page.evaluate("document.getElementById('play').click()")
    wait_until(page, f"sphereExplorer.frame().time.t === {data['times'][-1]!r}", timeout=30)
    wait_until(page, "!sphereExplorer.frame().time.playing")
    assert _text(page, "#play") == "Play"  # it stopped at the end
    hide_text_overlays(page)
    cam = camera(page)
    image = screenshot(page)
    end = data["times"][-1]  # past the horizon, each ball goes on along its last segment (as in the window)
    last = solution.path.segments[-1]
    centres = np.array(last.centers) + (end - last.t_start) * np.array(last.velocities)
    starts = np.array([b.center for b in scene.bodies])
    moved = {i for i in range(len(scene.bodies)) if np.linalg.norm(centres[i] - starts[i]) > 2 * scene.bodies[i].radius}
    checked = [(i, xy, r) for i, xy, r in _checkable_bodies(scene, centres, cam) if i in moved]
    assert len(checked) >= 3, checked
    for i, xy, r in checked:
        assert sphere_shows(image, xy, r, BODY_COLORS[i]) >= MIN_POINTS, scene.bodies[i].name


def test_the_rest_frame_toggle_shrinks_a_to_a_point(site, open_page):
    """In B's rest frame A is a point on a ray: a spot on A's sphere, off the ray, is no longer A's colour, and B has
    grown by A's radius (each frame seen through its own camera: the switch frames the view again)."""
    scene = load(SCENES_DIR / "default.json")
    page = open_page(site / ("default" + RECORDED_SUFFIX))
    hide_text_overlays(page)
    a, b = scene.bodies[0], scene.bodies[1]

    def spots():
        """Page pixels on A's disc off its ray, and off B inside rA + rB, where they are drawn now."""
        cam = camera(page)
        _, up = screen_axes(cam)
        centres = drawn_centers(page)
        return (project(cam, np.add(centres[0], 0.6 * a.radius * up))[:2],
                project(cam, np.add(centres[1], (b.radius + 0.5 * a.radius) * up))[:2])  # fmt: skip

    above, beyond = spots()
    world = screenshot(page)
    assert color_matches(world, above, BODY_COLORS[0]) >= 40 and color_matches(world, beyond, BODY_COLORS[1]) == 0
    page.evaluate("document.getElementById('rest-frame').click()")
    wait_until(page, "sphereExplorer.frame().restFrame")
    above, beyond = spots()
    relative = screenshot(page)
    assert color_matches(relative, above, BODY_COLORS[0]) == 0
    assert color_matches(relative, beyond, BODY_COLORS[1]) >= 30
    page.evaluate("document.getElementById('rest-frame').click()")
    wait_until(page, "!sphereExplorer.frame().restFrame")
    above, _ = spots()
    assert color_matches(screenshot(page), above, BODY_COLORS[0]) >= 40


def test_a_page_asks_nothing_of_the_network_even_later(site, open_page):
    """Browsers fetch some things late (a page's icons come a second or two after it loads): two pages playing
    side by side (a pair, and a gas whose motion has many instants), wait, then look at each."""
    pages = [open_page(site / f"{stem}{RECORDED_SUFFIX}") for stem in ("default", "gas_in_container")]
    for page in pages:
        page.evaluate("document.getElementById('play').click()")
    pages[0].wait_for_timeout(4000)
    for page in pages:
        assert page.requests[0] == page.url and foreign_requests(page) == [], page.url


def test_the_index_links_every_scene_with_a_thumbnail_and_asks_nothing_of_the_network(site, open_page):
    names = sorted(p.name for p in site.iterdir())
    pages = [f"{p.stem}{end}" for p in gallery() for end in (".html", RECORDED_SUFFIX)]  # live and recorded
    assert names == sorted([INDEX, "runtime", *pages])
    text = (site / INDEX).read_text(encoding="utf-8")
    links = re.findall(r'<a href="([^"]+)">', text)
    assert sorted(links) == sorted(f"{p.stem}.html" for p in gallery())
    page = open_page(site / INDEX, ready=False)
    assert foreign_requests(page) == []
    sizes = page.evaluate("[...document.images].map(i => [i.complete, i.naturalWidth, i.naturalHeight])")
    assert len(sizes) == len(gallery()) and all(size == [True, 320, 256] for size in sizes)
    titles = page.evaluate("[...document.querySelectorAll('#scenes h2')].map(e => e.textContent)")
    assert set(titles) == {load(p).title for p in gallery()}
    cards = dict(page.evaluate("[...document.querySelectorAll('#scenes li')].map(e => [e.querySelector('h2')"
                               ".textContent, e.querySelector('.verdict').textContent])"))  # fmt: skip
    asking = load(SCENES_DIR / "predict_first.json")
    assert cards[asking.title] == asking.question  # a scene that asks: its card asks too
    assert cards[load(DEFAULT_SCENE).title].startswith("A–B: HIT at t₀ = ")
