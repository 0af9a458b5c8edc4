"""The drawn items (explorer.view.items.ItemSet): a picture hides what it no longer shows and touches nothing else.

A frame of a drag draws the same items again; an actor touched without need (hidden, then shown again) makes VTK
rasterise its text again and check its mapper, a few milliseconds a frame on a software renderer.
"""

from __future__ import annotations

import pytest
import pyvista as pv

from explorer.model.derived.analysis import solve
from explorer.model.formats import scene_io
from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.state.scene import LAYERS
from explorer.view import geometry
from explorer.view.items import ItemSet
from explorer.view.scene_view import SceneView


@pytest.fixture
def plotter():
    plotter = pv.Plotter(off_screen=True, window_size=(400, 300))
    yield plotter
    plotter.close()


def _times(items: ItemSet) -> dict[str, int]:
    """Each actor's and label's VTK modification time, by name."""
    return {
        **{name: item.actor.GetMTime() for name, item in items.items.items()},
        **{"label " + name: actor.GetMTime() for name, (actor, _) in items.labels.items()},
    }


def test_a_picture_hides_what_it_no_longer_shows_and_leaves_the_rest_untouched(plotter):
    items = ItemSet(plotter.renderer, plotter.renderer)
    for name in ("a", "b"):
        items.add(name, None, "red")
    items.add_label("A", "names", 12)
    items.start_picture()
    items.show("a", geometry.sphere, (0.0, 0.0, 0.0), 1.0)
    items.show("b", geometry.sphere, (3.0, 0.0, 0.0), 1.0)
    items.show_label("A", (0.0, 0.0, 0.0), "A")
    items.end_picture()
    assert items.items["a"].actor.GetVisibility() and items.items["b"].actor.GetVisibility()
    before = _times(items)
    items.start_picture()
    items.show("a", geometry.sphere, (0.0, 0.0, 0.0), 1.0)
    items.end_picture()
    assert items.items["a"].actor.GetVisibility() and not items.items["b"].actor.GetVisibility()
    assert not items.labels["A"][0].GetVisibility()
    assert _times(items)["a"] == before["a"]  # shown again as it was: not touched


def test_the_break_drawn_again_as_it_was_touches_no_actor_and_a_layer_switched_off_hides_its_items(plotter):
    scene = scene_io.load(SCENES_DIR / "snooker_break.json")
    solution = solve(scene)
    view = SceneView(plotter, handles=True)
    view.update(scene, solution)
    before = _times(view.items)
    shown = {name for name, item in view.items.items.items() if item.actor.GetVisibility()}
    assert {"paths", "body0", "body15", "contact_point"} <= shown
    view.update(scene, solution)
    assert _times(view.items) == before
    view.update(scene, solution, layers={**LAYERS, "contact": False})
    still = {name for name, item in view.items.items.items() if item.actor.GetVisibility()}
    assert still == shown - {"contact_point", "contact_normal"}


def test_a_tube_moved_with_as_many_segments_keeps_its_cells_and_one_with_more_gets_new_ones(plotter):
    items = ItemSet(plotter.renderer, plotter.renderer)
    items.add("path", None, "red")
    items.show("path", geometry.tube, [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (1.0, 1.0, 0.0)], 0.05)
    polys = items.items["path"].mesh.GetPolys()
    items.show("path", geometry.tube, [(0.0, 0.0, 0.0), (2.0, 0.0, 0.0), (2.0, 1.0, 1.0)], 0.05)
    assert items.items["path"].mesh.GetPolys() is polys  # the same triangles: only the points were written
    first = items.items["path"].mesh.GetPoints().GetPoint(0)  # on the ring at the first segment's new end
    assert first[0] == 2.0 and first[1] ** 2 + first[2] ** 2 == pytest.approx(0.05**2)
    items.show("path", geometry.tube, [(0.0, 0.0, 0.0), (2.0, 0.0, 0.0), (2.0, 1.0, 1.0), (3.0, 1.0, 1.0)], 0.05)
    assert items.items["path"].mesh.GetPolys() is not polys
    assert items.items["path"].mesh.GetNumberOfPolys() == 3 * 2 * 8  # three segments, two triangles a side


def test_a_mesh_built_beforehand_is_shown_and_one_built_before_the_item_changed_is_built_again(plotter):
    """The window builds a drag's meshes in another thread while the previous frame renders (``ItemSet.built``)."""
    items = ItemSet(plotter.renderer, plotter.renderer)
    items.add("path", None, "red")
    short, long = [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0)], [(0.0, 0.0, 0.0), (5.0, 0.0, 0.0)]
    ahead = items.built("path", geometry.tube, long, 0.05)  # a mesh: the item shows nothing yet
    items.show("path", geometry.tube, long, 0.05, built=ahead)
    assert items.items["path"].mesh.GetBounds()[1] == pytest.approx(5.0)
    unchanged = items.built("path", geometry.tube, long, 0.05)
    assert unchanged[1] is None and unchanged[0] is items.items["path"].key  # nothing to build: shown already
    items.show("path", geometry.tube, short, 0.05)  # the item changed after that was worked out ...
    items.show("path", geometry.tube, long, 0.05, built=unchanged)  # ... so its mesh is built now
    assert items.items["path"].mesh.GetBounds()[1] == pytest.approx(5.0)
