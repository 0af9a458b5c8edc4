"""The live page's Scene panel, typed into as a student types: gallery scenes opened in one page (a site's page on a
laptop, the single file on a phone; a sample in a normal run, every scene in a full run, ``make test-full``), then a new mass, radius and velocity component typed into the fields found
by their accessible names, the restitution slider moved with the arrow keys, a body added and one removed; after each
the page's ``solution()`` is what ``sphere-explorer solve`` gives for its ``scene()`` (the same Python, run here).
Hostile values are refused with the field named, and ``scene()`` stays as it was."""

from __future__ import annotations

import json

import pytest
import sizes
from browser import Browser, serve, wait_until
from live_helpers import differences, export, open_scene_file

from explorer.model.derived.analysis import solve, to_dict
from explorer.model.formats.gallery import SCENES_DIR, gallery
from explorer.model.formats.scene_io import parse

pytestmark = pytest.mark.long(2)  # started first (tests/conftest.py)

#: Typed values a field must refuse (each with the field's name in the page's one line), by field; a velocity may
#: be negative.
HOSTILE = {
    "A mass": ["abc", "-1", "1e400", "", "NaN"],
    "A radius": ["abc", "-1", "1e400", "", "NaN"],
    "A velocity x": ["abc", "1e400", "", "NaN"],
    "horizon": ["abc", "-1", "1e400", "", "NaN"],
    "restitution": ["abc", "-1", "1e400", "", "NaN"],
}


@pytest.fixture(scope="module")
def browser():
    chromium = Browser()
    yield chromium
    chromium.close()


def _scene(page) -> dict:
    return page.evaluate("window.sphereExplorer.scene()")


def _answers(page, what: str) -> None:
    """The page's solution is the command line's for the page's scene (run with the same Python here)."""
    scene = _scene(page)
    expected = to_dict(solve(parse(json.dumps(scene))))
    got = page.evaluate("window.sphereExplorer.solution()")
    assert not list(differences(got, expected)), (what, list(differences(got, expected)))


def _type(page, label: str, text: str) -> str:
    """Type ``text`` into the field named ``label`` and press Enter; the page's refusal line, or ``""``."""
    field = page.get_by_label(label, exact=True)
    field.fill(text)
    field.press("Enter")
    refusal = page.locator("#form-refusal")
    return refusal.inner_text() if refusal.is_visible() else ""


def _edit_every_way(page, stem: str) -> None:
    """A new mass, radius and velocity component typed, the restitution slider moved, a body added and removed."""
    scene = _scene(page)
    a = scene["bodies"][0]
    if a.get("mass") is not None and not a.get("fixed"):
        assert _type(page, "A mass", "2.5") == "", stem
        assert _scene(page)["bodies"][0]["mass"] == 2.5, stem
        _answers(page, f"{stem}: mass")
    assert _type(page, "A radius", repr(a["radius"] * 0.9)) == "", stem
    _answers(page, f"{stem}: radius")
    assert _type(page, "A velocity x", repr(a["velocity"][0] + 1.0)) == "", stem
    assert _scene(page)["bodies"][0]["velocity"][0] == a["velocity"][0] + 1.0, stem
    _answers(page, f"{stem}: velocity")
    slider = page.get_by_label("elasticity, slider", exact=True)
    slider.focus()
    for _ in range(5):
        page.keyboard.press("ArrowLeft")  # a student's keyboard on the slider: 0.01 a press
    wait_until(page, f"window.sphereExplorer.scene().restitution < {scene['restitution']} - 0.04")
    _answers(page, f"{stem}: restitution")
    add = page.get_by_role("button", name="add body", exact=True)
    if add.count():
        names = [b["name"] for b in _scene(page)["bodies"]]
        add.click()
        new = [b["name"] for b in _scene(page)["bodies"] if b["name"] not in names]
        assert len(new) == 1, stem
        _answers(page, f"{stem}: added {new[0]}")
        page.get_by_role("button", name=f"remove {new[0]}", exact=True).click()
        assert [b["name"] for b in _scene(page)["bodies"]] == names, stem
        _answers(page, f"{stem}: removed {new[0]}")


def _hostile(page) -> None:
    for label, texts in HOSTILE.items():
        for text in texts:
            before = _scene(page)
            refusal = _type(page, label, text)
            field = label.replace("A ", "A.").replace("velocity x", "velocity")  # the session's field names
            assert refusal.startswith("Refused: ") and field.split(".")[-1] in refusal, (label, text, refusal)
            assert _scene(page) == before, (label, text)
            assert page.get_by_label(label, exact=True).get_attribute("aria-invalid") == "true", (label, text)


def _every_scene(page, scenes) -> None:
    for scene_file in scenes:
        open_scene_file(page, scene_file)
        _edit_every_way(page, scene_file.stem)


def test_a_site_page_on_a_laptop_takes_typed_values_sliders_and_bodies(site, browser):
    """A sample of the gallery covering every mode in a normal run, every scene in a full run."""
    with serve(site) as base:
        page = browser.page((base,), width=1366, height=768)
        page.goto(base + "default.html")
        page.evaluate("window.sphereExplorer.ready")
        _hostile(page)
        _every_scene(page, sizes.sampled(gallery(), sizes.SCENE_PANEL_SAMPLE))
        assert page.errors == [] and browser.refused == []
        page.context.close()


def test_the_single_file_on_a_phone_takes_typed_values_sliders_and_bodies(browser, tmp_path):
    """A sample of the gallery in a normal run (a single file differs from a site's page only in how it holds its
    runtime), every scene in a full run."""
    out = tmp_path / "default.html"
    export(str(SCENES_DIR / "default.json"), "-o", str(out), "--single")
    page = browser.page(("file://", "blob:", "data:"), width=390, height=844, touch=True)
    page.goto(out.as_uri())
    page.evaluate("window.sphereExplorer.ready")
    _hostile(page)
    _every_scene(page, sizes.sampled(gallery(), sizes.SINGLE_FILE_SAMPLE))
    assert page.errors == [] and browser.refused == []
    page.context.close()
