"""The default camera's rule (explorer/view/bounds.py: default_pose), against VTK's own fit of a box: where a VTK
renderer's ResetCamera puts a camera looking from the default direction, zoomed as the default zooms, on a wide
and a tall view, for a scene near the origin, the break and a long shot.  The window, pictures and the page all
take the rule's pose."""

from __future__ import annotations

import numpy as np
import pytest
import pyvista as pv

from explorer.model.derived.analysis import solve
from explorer.model.formats import scene_io
from explorer.model.formats.gallery import SCENES_DIR
from explorer.view.bounds import DEFAULT_ZOOM, VIEW_ANGLE, VIEW_DIRECTION, WIDE_ASPECT, default_pose, view_bounds


def _vtk_fit(box, size: tuple[int, int]) -> dict:
    """VTK's fit: a camera looking from the default direction at the box, reset to the box, zoomed."""
    lo, hi = (np.asarray(x, dtype=float) for x in box)
    plotter = pv.Plotter(off_screen=True, window_size=size)
    try:
        camera = plotter.camera
        camera.focal_point = tuple((lo + hi) / 2)
        camera.position = tuple((lo + hi) / 2 + np.asarray(VIEW_DIRECTION))
        camera.up = (0.0, 0.0, 1.0)
        camera.view_angle = VIEW_ANGLE
        plotter.renderer.ResetCamera(*np.ravel(np.column_stack([lo, hi])))
        camera.zoom(DEFAULT_ZOOM * min(1.0, size[0] / size[1] / WIDE_ASPECT))
        return {"position": camera.position, "focal_point": camera.focal_point, "up": camera.up,
                "view_angle": camera.view_angle}  # fmt: skip
    finally:
        plotter.close()


@pytest.mark.parametrize("stem", ["default", "snooker_break", "seed003_long_shot"])
@pytest.mark.parametrize("size", [(1366, 700), (390, 520)], ids=["wide", "tall"])
def test_the_default_pose_is_where_vtk_fits_the_box(stem, size):
    scene = scene_io.load(SCENES_DIR / f"{stem}.json")
    box = view_bounds(scene, solve(scene))
    pose, fit = default_pose(box, size[0] / size[1]), _vtk_fit(box, size)
    scale = np.linalg.norm(np.subtract(fit["position"], fit["focal_point"]))
    for key in ("position", "focal_point", "up"):
        assert np.allclose(pose[key], fit[key], rtol=1e-12, atol=1e-12 * scale), key
    assert pose["view_angle"] == pytest.approx(fit["view_angle"], rel=1e-12)
