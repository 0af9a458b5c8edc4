"""The scene's picture (explorer.view.scene_view.SceneView): bodies and paths never drawn thinner than a few pixels.

A long shot framed whole (View > Frame all) draws a 0.05 ball on a path 500,000 long: each less than a pixel.  The
least marks (a dot at each body's centre, a line along each path) show them, and hide inside anything drawn wider.
"""

from __future__ import annotations

import numpy as np
import pytest
import pyvista as pv

from explorer.model.derived.analysis import solve
from explorer.model.formats import scene_io
from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.state.scene import LAYERS
from explorer.view.bounds import whole_bounds
from explorer.view.camera import apply_camera, default_camera
from explorer.view.items import rgb
from explorer.view.scene_view import SceneView


@pytest.fixture
def plotter():
    plotter = pv.Plotter(off_screen=True, window_size=(800, 500))
    yield plotter
    plotter.close()


def _drawn(plotter, stem: str, whole: bool = False, **layers):
    """SceneView of gallery scene ``stem`` (``layers`` switched), its camera the default or framing everything."""
    scene = scene_io.load(SCENES_DIR / f"{stem}.json")
    solution = solve(scene)
    view = SceneView(plotter)
    view.update(scene, solution, layers={**LAYERS, **layers})
    if whole:
        default_camera(plotter, scene, solution, 0.0, whole_bounds(scene, solution, 0.0, False))
    else:
        apply_camera(plotter, None, scene, solution, 0.0, None)
    return scene, view


def _pixels_of(image: np.ndarray, color) -> int:
    """Pixels within 30 of ``color`` (a colour name or hex) in each channel."""
    target = np.array(rgb(color)) * 255
    return int(np.all(np.abs(image[..., :3].astype(int) - target) <= 30, axis=2).sum())


def test_a_long_shot_framed_whole_shows_its_balls_and_a_s_path(plotter):
    scene, view = _drawn(plotter, "seed003_long_shot", whole=True, labels=False)
    image = plotter.screenshot(return_img=True)
    a, b = (view.items.items[f"body{k}"].color for k in range(2))
    path = view.items.items["centre_path"].color
    assert _pixels_of(image, tuple(a)) >= 20 and _pixels_of(image, tuple(b)) >= 20  # a dot of each, 7 pixels wide
    assert _pixels_of(image, tuple(path)) >= 300  # A's path across the view


@pytest.mark.parametrize("stem", ["default", "newtons_cradle", "seed001_barely_fits"])
def test_where_bodies_and_paths_are_drawn_wider_the_least_marks_change_no_pixel(plotter, stem):
    _, view = _drawn(plotter, stem)
    shown = plotter.screenshot(return_img=True)
    assert view.items.items["least_dots"].actor.GetVisibility()
    for name in ("least_dots", "least_lines"):
        view.items.items[name].actor.SetVisibility(False)
    assert np.array_equal(plotter.screenshot(return_img=True), shown)


def test_the_container_gets_no_dot_its_balls_do(plotter):
    scene, view = _drawn(plotter, "gas_in_container")
    dots = view.items.items["least_dots"].mesh
    centres = {tuple(np.round(dots.GetPoint(k), 9)) for k in range(dots.GetNumberOfPoints())}
    drawn = view.placement.centers
    container = scene.container
    assert container is not None and tuple(np.round(drawn[container], 9)) not in centres
    assert len(centres) == len(scene.bodies) - 1
