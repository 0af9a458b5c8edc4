"""A live page draws every scene the solver takes where it is, and a press grabs the body under the pointer: A at
1e11 − 5 beside B at 1e11, the same at 1e8, spheres of radius 1e-8, and a horizon of 1e6 (at 4decb2d the page drew
the first with A and B at one point and a press on A grabbed B, the second with its capsules gone, the third as
labels alone, and a drag on the fourth's A changed nothing; ``sphere-explorer render`` drew them all right).

Each scene is exported as a single file (``export-html --single``) and opened in Chromium at 1366x768: both
spheres show their colours at the pixels where the page's camera sees their true centres, A's swept capsule tints
the view beside its path, a real mouse drag on A moves A alone, and the page's ``solution()`` is then
``sphere-explorer solve`` of its ``scene()``."""

from __future__ import annotations

import json

import numpy as np
import pytest
from browser import Browser
from live_helpers import check_against_the_command_line, export
from web_helpers import camera, drag, pixel_radius, project, screenshot, sphere_shows

from explorer.view.palette import BODY_COLORS


def _pair(title: str, a_center, b_center, radius: float, velocity, horizon: float = 1.0, b_fixed: bool = False) -> dict:
    return {
        "format": "sphere-explorer/1",
        "title": title,
        "mode": "pair",
        "horizon": horizon,
        "restitution": 1.0,
        "bodies": [
            {"name": "A", "center": list(a_center), "velocity": list(velocity), "radius": radius, "mass": 1.0},
            {"name": "B", "center": list(b_center), "velocity": [0.0, 0.0, 0.0], "radius": radius}
            | ({"fixed": True} if b_fixed else {"mass": 1.0}),
        ],
    }


SCENES = {
    "far_1e11": _pair("far out 1e11", (1e11 - 5.0, 0.0, 0.0), (1e11, 0.0, 0.0), 1.0, (10.0, 0.3, 0.0)),
    "far_1e8": _pair("far out 1e8", (1e8 - 5.0, 1e8, 1e8), (1e8, 1e8, 1e8), 1.0, (10.0, 0.5, 0.0), b_fixed=True),
    "small_1e-8": _pair("small 1e-8", (-5e-8, 1e-8, 0.0), (0.0, 0.0, 0.0), 1e-8, (1e-7, 0.0, 0.0), b_fixed=True),
    "long_horizon": _pair("long horizon", (-5.0, 0.0, 0.0), (0.0, 0.0, 0.0), 1.0, (1.0, 0.01, 0.0), horizon=1e6),
}
#: Of the 9 points sampled on a sphere's disc (web_helpers.sphere_shows), at least this many show its colour.
MIN_POINTS = 6
#: A sphere this many pixels from centre to rim at least (each scene's is framed far larger).
MIN_PIXELS = 8.0
#: A's swept capsule (the catalogue's capsule0: its colour at 0.16 opacity) tints white this much bluer than red.
CAPSULE_TINT = 8.0


def _capsule_tint(image: np.ndarray, xy) -> float:
    """How much bluer than red the 5 x 5 pixels around ``xy`` are (0 on the white background)."""
    x, y = int(round(xy[0])), int(round(xy[1]))
    patch = image[y - 2 : y + 3, x - 2 : x + 3, :3].astype(float)
    return float(np.mean(patch[..., 2] - patch[..., 0]))


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("scales")
    out = {}
    for name, scene in SCENES.items():
        source = folder / f"{name}.json"
        source.write_text(json.dumps(scene), encoding="utf-8")
        out[name] = folder / f"{name}.html"
        export(str(source), "-o", str(out[name]), "--single")
    return out


@pytest.mark.parametrize("name", list(SCENES))
def test_a_scene_at_any_scale_is_drawn_where_it_is_and_a_press_grabs_the_body_under_it(pages, name, tmp_path):
    scene = SCENES[name]
    centres = [np.array(body["center"]) for body in scene["bodies"]]
    with Browser() as chromium:
        page = chromium.page(("file://", "blob:", "data:"), width=1366, height=768)
        page.goto(pages[name].as_uri())
        page.evaluate("window.sphereExplorer.ready")
        cam = camera(page)  # in world coordinates (web_helpers.camera)
        image = screenshot(page)
        seen = []
        for i, centre in enumerate(centres):
            x, y, depth = project(cam, centre)
            r = pixel_radius(cam, scene["bodies"][i]["radius"], depth)
            assert r >= MIN_PIXELS, (name, i, r)
            assert sphere_shows(image, (x, y), r, BODY_COLORS[i]) >= MIN_POINTS, (name, scene["bodies"][i]["name"])
            seen.append((x, y, r))
        (ax, ay, ar), (bx, by, br) = seen
        assert np.hypot(ax - bx, ay - by) > ar + br  # two spheres apart, as they are
        # A's swept capsule, between A and where it is at the contact (3 radii on): 1.5 radii on, 0.6 below its axis
        a = scene["bodies"][0]
        along = np.array(a["velocity"]) / np.linalg.norm(a["velocity"])
        side = centres[0] + a["radius"] * (1.5 * along - np.array([0.0, 0.0, 0.6]))
        assert _capsule_tint(image, project(cam, side)[:2]) > CAPSULE_TINT, name
        before = page.evaluate("window.sphereExplorer.scene()")
        drag(page, (ax, ay), (ax + 40.0, ay + 25.0), steps=4)  # a real mouse on A's drawn centre
        after = page.evaluate("window.sphereExplorer.scene()")
        solution = page.evaluate("window.sphereExplorer.solution()")
        check_against_the_command_line([(name, before, after, solution)], tmp_path)  # A moved, B did not
        assert page.errors == [] and chromium.refused == []
        page.context.close()


def test_when_an_edit_moves_the_frame_the_page_draws_in_its_camera_stays_where_it_was(pages):
    """The page's frame follows what the picture frames, in steps (explorer.view.local_frame); a student who types a
    centre far off sees the view kept, not thrown to a new place: the camera is the same in world coordinates."""
    with Browser() as chromium:
        page = chromium.page(("file://", "blob:", "data:"), width=1366, height=768)
        page.goto(pages["far_1e11"].as_uri())
        page.evaluate("window.sphereExplorer.ready")
        before, local = camera(page), page.evaluate("window.sphereExplorer.frame().local")
        field = page.get_by_label("A center x", exact=True)
        field.fill("99999999900")  # 100 from B, not 5: the picture frames a box 20 times as wide
        field.press("Enter")
        assert page.evaluate("window.sphereExplorer.scene()")["bodies"][0]["center"][0] == 99999999900.0
        assert page.evaluate("window.sphereExplorer.frame().local") != local
        after = camera(page)
        for key in ("position", "focal"):
            assert np.allclose(after[key], before[key], rtol=0.0, atol=1e-4), (
                key,
                before[key],
                after[key],
            )  # 1e11 ± 1e-4
        assert page.errors == []
        page.context.close()
