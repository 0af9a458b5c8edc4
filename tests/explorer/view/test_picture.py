"""The picture in question mode (explorer/view/picture.py, placement, bounds): the bodies and their velocities,
framed without looking at the answer, and nothing the solver decided; ``render --ask`` draws it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import imageio.v3 as iio
import numpy as np

from explorer.model.derived.analysis import solve
from explorer.model.formats import scene_io
from explorer.model.formats.gallery import SCENES_DIR, gallery
from explorer.view.bounds import ask_bounds, view_bounds
from explorer.view.catalogue import LABEL_LAYERS, LOOKS
from explorer.view.palette import CONTACT_COLOR, ENTER_COLOR
from explorer.view.picture import describe

EXE = Path(sys.executable).with_name("sphere-explorer")
ALWAYS = {None, "capsules", "labels", "axes"}  # the layers of the bodies, their arrows, capsules, names, floor


def test_an_asked_picture_holds_only_the_bodies_velocities_capsules_names_and_floor_on_every_gallery_scene():
    for path in gallery():
        scene = scene_io.load(path)
        solution = solve(scene)
        picture = describe(scene, solution, 0.0, layers={"momentum": True, "steps": True}, ask=True)
        layers = {LOOKS[s.name].layer for s in picture.shapes}
        assert layers <= ALWAYS, (path.stem, layers - ALWAYS)
        assert {LABEL_LAYERS[x.name] for x in picture.labels} <= {"labels"}, path.stem
        assert picture.note is None and picture.placement.bounds == ask_bounds(scene)


def test_a_long_shot_is_framed_around_its_target_not_around_where_it_hits():
    scene = scene_io.load(SCENES_DIR / "seed003_bullet.json")  # a small fast bullet: a close-up of the contact
    solution = solve(scene)
    contact = np.asarray(solution.sweep.contact.point)
    asked = np.asarray(describe(scene, solution, ask=True).placement.bounds)
    normal = np.asarray(view_bounds(scene, solution))
    assert np.all(normal[0] <= contact) and np.all(contact <= normal[1])  # the normal view frames the contact
    b = np.asarray(scene.bodies[1].center)
    assert np.allclose((asked[0] + asked[1]) / 2, b)  # asked: around B whatever A does


def _pixels(image: np.ndarray, color: str) -> int:
    rgb = np.array([int(color[k : k + 2], 16) for k in (1, 3, 5)])
    return int((np.abs(image[..., :3].astype(int) - rgb).sum(axis=2) < 40).sum())


def test_render_ask_draws_the_question_and_no_contact_or_root_mark(tmp_path):
    scene = SCENES_DIR / "default.json"
    asked, shown = tmp_path / "asked.png", tmp_path / "shown.png"
    for out, extra in ((asked, ["--ask"]), (shown, [])):
        done = subprocess.run([str(EXE), "render", str(scene), "-o", str(out), "--size", "640x400", *extra],
                              capture_output=True, text=True, timeout=300)  # fmt: skip
        assert done.returncode == 0, done.stderr
    a, s = iio.imread(asked), iio.imread(shown)
    assert _pixels(s, CONTACT_COLOR) > 20 and _pixels(s, ENTER_COLOR) > 20  # the normal picture has them
    assert _pixels(a, CONTACT_COLOR) == 0 and _pixels(a, ENTER_COLOR) == 0
    refused = subprocess.run([str(EXE), "render", str(scene), "-o", str(tmp_path / "x.png"), "--ask", "--event", "1"],
                             capture_output=True, text=True, timeout=300)  # fmt: skip
    assert refused.returncode == 2 and refused.stderr.startswith("sphere-explorer: --event: --ask")
    assert not (tmp_path / "x.png").exists()
