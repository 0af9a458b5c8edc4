"""The live page's default camera is the window's: on a laptop and on a phone, in the world and in B's rest frame,
vtk.js looks from where the window's rule looks for the view's aspect (explorer.view.bounds.default_pose; at
4decb2d live.js had a rule of its own, which framed the world's box in B's rest frame)."""

from __future__ import annotations

import numpy as np
import pytest
from browser import Browser, wait_until
from live_helpers import export
from web_helpers import camera

from explorer.model.derived.analysis import solve
from explorer.model.formats import scene_io
from explorer.model.formats.gallery import SCENES_DIR
from explorer.view.bounds import default_pose, view_bounds

SCENE = SCENES_DIR / "heavy_light_glancing.json"


@pytest.fixture(scope="module")
def page_file(tmp_path_factory):
    out = tmp_path_factory.mktemp("camera") / "glancing.html"
    export(str(SCENE), "-o", str(out), "--single")
    return out


def _window_camera(aspect: float, rest_frame: bool) -> dict:
    """Where the window looks from for a view ``aspect`` wide: the motion's box in the world or in B's rest frame
    (view_bounds), fitted by the rule (default_pose; checked against VTK's own fit in tests/explorer/view/test_bounds.py)."""
    scene = scene_io.load(SCENE)
    pose = default_pose(view_bounds(scene, solve(scene), 1.0 if rest_frame else 0.0), aspect)
    return {"position": pose["position"], "focal": pose["focal_point"], "up": pose["up"], "angle": pose["view_angle"]}


def _same(page_cam: dict, window_cam: dict) -> None:
    scale = np.linalg.norm(np.subtract(window_cam["position"], window_cam["focal"]))
    for key in ("position", "focal", "up"):
        assert np.allclose(page_cam[key], window_cam[key], rtol=0, atol=1e-9 * scale), (key, page_cam, window_cam)
    assert page_cam["angle"] == pytest.approx(window_cam["angle"], rel=1e-12)


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)], ids=["laptop", "phone"])
def test_the_page_looks_from_where_the_window_looks_in_the_world_and_in_b_s_rest_frame(page_file, size):
    with Browser() as chromium:
        page = chromium.page(("file://", "blob:", "data:"), width=size[0], height=size[1], touch=size[0] < 500)
        page.goto(page_file.as_uri())
        page.evaluate("window.sphereExplorer.ready")
        seen = camera(page)
        aspect = seen["box"][2] / seen["box"][3]
        _same(seen, _window_camera(aspect, False))
        page.check("#rest-frame")
        wait_until(page, "window.sphereExplorer.frame().restFrame && !window.sphereExplorer.frame().turning")
        _same(camera(page), _window_camera(aspect, True))
        assert page.errors == [] and chromium.refused == []
        page.context.close()
