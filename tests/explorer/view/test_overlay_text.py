"""The colour key (explorer/view/overlay_text.py): a row for each layer on screen, none for a hidden one."""

from __future__ import annotations

from explorer.model.formats import scene_io
from explorer.model.formats.gallery import SCENES_DIR
from explorer.view.overlay_text import LEGEND_MOMENTUM, LEGEND_ROWS, legend_rows


def test_the_key_leaves_out_the_rows_of_hidden_layers_and_adds_the_momenta_when_shown():
    scene = scene_io.load(SCENES_DIR / "billiards.json")
    full = legend_rows(scene)
    assert full == list(LEGEND_ROWS)  # every default layer on, the momenta off
    texts = [t for _, t in legend_rows(scene, None, {"roots": False, "capsules": False, "momentum": True})]
    assert not any("root" in t or "capsule" in t for t in texts)
    assert "contact point and normal" in texts and texts[-2:] == [t for _, t in LEGEND_MOMENTUM]
    opened = [t for _, t in legend_rows(*(lambda s: (s, None, s.layers))(scene_io.load(
        SCENES_DIR / "head_on_equal_masses.json")))]  # fmt: skip
    assert "expanded sphere rA + rB" not in opened and "centre of mass of the free bodies, and its path" in opened
