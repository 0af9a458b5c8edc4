"""The page builds each kind of shape as the window does: for every shape of a few gallery scenes' frames (every
layer on, the frame-stepped engine's circles too), the mesh live.js builds has the points of the mesh
explorer/view/geometry.py builds from the same arguments, as many and over the same box.  Every kind of
explorer.view.picture.KINDS is met."""

from __future__ import annotations

import json

import numpy as np
from browser import Browser
from live_helpers import export, open_scene_file

from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.state.scene import LAYERS
from explorer.view.picture import KINDS
from explorer.view.scene_view import BUILDERS

#: Scenes whose frames, all layers on, at the start and half way, hold every kind: a pair (capsules, arrows, ghosts,
#: the rings of the time shown), a container (its circles), the break (paths), bullets through a thin target (the
#: engine's steps), a long shot (a dashed tube hundreds of thousands of radii long), an overlap at the start.
SCENES = ("default", "seed001_container", "snooker_break", "bullet_tunnels", "seed003_long_shot",
          "seed004_sample_overlap")  # fmt: skip


def _python_mesh(kind: str, args: list) -> dict:
    mesh = BUILDERS[kind](*args)
    points = np.asarray(mesh.points, dtype=float).reshape(-1, 3)
    return {"points": len(points), "lo": points.min(axis=0), "hi": points.max(axis=0)}


def _compare(page, stem: str, shape: dict) -> str:
    """The page's mesh of ``shape`` against the window's; its kind."""
    kind, args = shape["kind"], shape["args"]
    built = page.evaluate("([k, a]) => window.sphereExplorer.mesh(k, a)", [kind, args])
    expected = _python_mesh(kind, args)
    where = f"{stem}: {shape['name']} ({kind})"
    assert built["points"] == expected["points"], where
    if expected["points"]:
        size = float(np.max(expected["hi"] - expected["lo"])) or 1.0
        for end in ("lo", "hi"):
            assert np.allclose(built[end], expected[end], rtol=1e-9, atol=1e-9 * size), (where, end)
    return kind


def test_every_kind_of_shape_is_built_with_the_window_s_points(tmp_path):
    out = tmp_path / "default.html"
    export(str(SCENES_DIR / "default.json"), "-o", str(out), "--single")
    kinds = set()
    with Browser() as chromium:
        page = chromium.page(("file://", "blob:", "data:"))
        page.goto(out.as_uri())
        page.evaluate("window.sphereExplorer.ready")
        for stem in SCENES:
            open_scene_file(page, SCENES_DIR / f"{stem}.json")
            for layer in LAYERS:
                page.evaluate(f"window.sphereExplorer.setLayer({json.dumps(layer)}, true)")
            for slider in ("0", "500"):  # the start, and half way (the rings of the time shown)
                page.locator("#time").fill(slider)
                for shape in page.evaluate("window.sphereExplorer.frame().shapes"):
                    kinds.add(_compare(page, stem, shape))
        assert page.errors == [] and chromium.refused == []
        page.context.close()
    assert kinds == set(KINDS), set(KINDS) - kinds
