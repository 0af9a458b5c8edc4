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


def _picture(plotter) -> np.ndarray:
    """The plotter's picture rendered now, ``(h, w, 3) uint8`` (a screenshot alone gives back the last render's)."""
    plotter.render()
    return plotter.screenshot(return_img=True)


def _pixels_of(image: np.ndarray, color) -> int:
    """Pixels within 30 of ``color`` (a colour name or hex) in each channel."""
    target = np.array(rgb(color)) * 255
    return int(np.all(np.abs(image[..., :3].astype(int) - target) <= 30, axis=2).sum())


def test_a_long_shot_framed_whole_shows_its_balls_and_a_s_path(plotter):
    scene, view = _drawn(plotter, "seed003_long_shot", whole=True, labels=False)
    image = _picture(plotter)
    a, b = (view.items.items[f"body{k}"].color for k in range(2))
    path = view.items.items["centre_path"].color
    assert _pixels_of(image, tuple(a)) >= 20 and _pixels_of(image, tuple(b)) >= 20  # a dot of each, 7 pixels wide
    assert _pixels_of(image, tuple(path)) >= 300  # A's path across the view


@pytest.mark.parametrize(
    "stem, marks",
    [
        ("default", ("least_dots", "least_lines")),
        ("seed001_barely_fits", ("least_dots", "least_lines")),
        # E's path runs away from the camera and narrows below the line's 2 pixels: there the line shows it
        ("newtons_cradle", ("least_dots",)),
    ],
)
def test_where_bodies_and_paths_are_drawn_wider_the_least_marks_change_no_pixel(plotter, stem, marks):
    _, view = _drawn(plotter, stem)
    shown = _picture(plotter)
    assert all(view.items.items[name].actor.GetVisibility() for name in marks)
    for name in marks:
        view.items.items[name].actor.SetVisibility(False)
    assert np.array_equal(_picture(plotter), shown)


def test_the_container_gets_no_dot_its_balls_do(plotter):
    scene, view = _drawn(plotter, "gas_in_container")
    dots = view.items.items["least_dots"].mesh
    centres = {tuple(np.round(dots.GetPoint(k), 9)) for k in range(dots.GetNumberOfPoints())}
    drawn = view.placement.centers
    container = scene.container
    assert container is not None and tuple(np.round(drawn[container], 9)) not in centres
    assert len(centres) == len(scene.bodies) - 1


def _modified(view: SceneView) -> int:
    """The newest VTK modification time of every actor, mesh and label of ``view``."""
    items = view.items
    return max(
        [max(item.actor.GetMTime(), item.mesh.GetMTime()) for item in items.items.values()]
        + [actor.GetMTime() for actor, _ in items.labels.values()]
    )


def test_a_picture_prepared_beforehand_touches_no_vtk_object_and_draws_what_update_draws_alone(plotter):
    """The window prepares a drag's next picture in another thread while the previous frame renders."""
    scene = scene_io.load(SCENES_DIR / "snooker_break.json")
    x, y, z = scene.bodies[0].center
    moved = scene.with_body(0, center=(x, y + 0.4, z))
    solution, moved_solution = solve(scene), solve(moved)
    view = SceneView(plotter, handles=True)
    view.update(scene, solution, 0.5)
    apply_camera(plotter, None, scene, solution, 0.0, None)
    plotter.render()
    touched = _modified(view)
    prepared = view.prepare(moved, moved_solution, 0.5)
    assert _modified(view) == touched  # nothing drawn changed: safe beside a render
    assert sum(mesh is not None for _, mesh in prepared.meshes) >= 3  # A's capsule, arrow and the paths at least
    view.update(moved, moved_solution, 0.5, prepared=prepared)
    drawn = _picture(plotter)
    stale = view.prepare(scene, solution, 0.5)  # prepared for another time: not used
    view.update(scene, solution, 0.0, prepared=stale)
    at_zero = _picture(plotter)

    alone = pv.Plotter(off_screen=True, window_size=(800, 500))
    try:
        fresh = SceneView(alone, handles=True)
        fresh.update(scene, solution, 0.5)
        apply_camera(alone, None, scene, solution, 0.0, None)
        fresh.update(moved, moved_solution, 0.5)
        assert np.array_equal(_picture(alone), drawn)
        fresh.update(scene, solution, 0.0)
        assert np.array_equal(_picture(alone), at_zero)
    finally:
        alone.close()
    assert not np.array_equal(drawn, at_zero)


@pytest.mark.parametrize("stem", ["default", "snooker_break", "seed001_container"])
def test_at_every_stage_of_the_reveal_the_page_draws_exactly_the_items_the_window_draws(plotter, stem):
    """The page (explorer/web/live.py) and the window (SceneView) at each stage of a question's reveal: the same
    items drawn, the same least marks.  At 4decb2d the page drew by the reader's layers, not the stage's: during
    the reveal's marks stage it showed the bounce path the window hides."""
    import json

    from explorer.model.actions.session import Session
    from explorer.web.live import LivePage

    page = LivePage((SCENES_DIR / f"{stem}.json").read_text(encoding="utf-8"))
    page.ask(True)
    window = SceneView(plotter, handles=True)  # the window's view has grips, as the page's has
    seen = []
    for k in range(200):
        session: Session = page.session
        view = session.view
        focus = session.inspection.focus(session.solution, view.time)
        window.update(session.scene, session.solution, view.time, view.reference, view.layers, view.steps, focus,
                      view.com, view.stage)  # fmt: skip
        frame = json.loads(page.frame())
        drawn = {name for name, item in window.items.items.items() if item.actor.GetVisibility()}
        shown = {s["name"] for s in frame["shapes"] if s["visible"]}
        assert shown == drawn - {"least_dots", "least_lines"}, (view.stage, shown ^ drawn)
        dots = window.items.items["least_dots"]
        assert len(frame["least"]["dots"]) == dots.mesh.GetNumberOfPoints() * dots.actor.GetVisibility(), view.stage
        seen.append(view.stage)
        if view.stage == "shown":
            break
        page.reveal() if k == 0 else page.advance_reveal(0.1)
    assert {"asking", "running", "marks", "roots", "shown"} <= set(seen)
