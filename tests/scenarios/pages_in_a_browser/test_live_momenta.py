"""The momenta in a live page (explorer/web/live.py and live.js), opened offline from a file in headless Chromium as
a student opens it: the arrows switched on, the diagram's total, the table and its CSV against
``sphere-explorer solve --time T`` (downloaded under the scene's title in its own letters), and the centre-of-mass
frame."""

from __future__ import annotations

import csv
import io
import json
import math

import pytest
from browser import Browser, wait_until
from cli_helpers import solved
from frame_helpers import FREE_SCENES, numbers, times_around_an_event, zero_to_rounding
from live_helpers import export, open_scene_file

from explorer.model.derived.analysis import solve
from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.formats.scene_io import load
from explorer.model.words.momenta import bodies_at
from explorer.model.words.values import vector

SCENE = SCENES_DIR / "heavy_light_glancing.json"

pytestmark = pytest.mark.long  # started first (tests/conftest.py)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """The scene's single-file live page, opened as a file, its Python ready; the scene opens without the
    momentum layer so the test switches it on as a student does."""
    folder = tmp_path_factory.mktemp("momenta")
    scene = json.loads(SCENE.read_text())
    scene["view"]["layers"]["momentum"] = False
    scene["title"] = "Βαρύ και ελαφρύ: A/B"  # a class's own language: its downloads keep its letters
    source = folder / "glancing.json"
    source.write_text(json.dumps(scene))
    out = folder / "glancing.html"
    export(str(source), "-o", str(out), "--single")
    with Browser() as chromium:
        tab = chromium.page(("file://", "blob:", "data:"))
        tab.context.set_default_timeout(60000)
        tab.goto(out.as_uri())
        tab.evaluate("window.sphereExplorer.ready")
        tab.source = source
        yield tab
        assert tab.errors == [] and chromium.refused == []
        tab.context.close()


def test_the_momentum_switch_draws_the_arrows_and_the_diagram_gives_the_values_total(page):
    assert page.evaluate("window.sphereExplorer.frame().layers.momentum") is False
    page.check("#momentum-layer")
    wait_until(page, "window.sphereExplorer.frame().layers.momentum === true")
    names = page.evaluate("window.sphereExplorer.frame().shapes.map((s) => s.name)")
    assert {"momentum0", "momentum1", "com"} <= set(names)
    totals = page.locator("#momenta svg text").all_text_contents()
    values = page.inner_text("#values")
    assert any(t.startswith("Σ m v = ") and t.removeprefix("Σ m v = ") in values for t in totals), (totals, values)


def test_the_table_and_its_csv_are_what_solve_time_gives(page, tmp_path):
    page.locator("#time").fill("812")  # the time slider, as a student drags it
    wait_until(page, "window.sphereExplorer.frame().time.t > 0.5")
    t = page.evaluate("window.sphereExplorer.frame().time.t")
    at_t = solved(page.source, "--time", repr(t))
    table = {}  # a block per body: its name, then each quantity under its heading
    for block in page.locator("#bodies tbody").all():
        lines = [row.locator("td").all_inner_texts() for row in block.locator("tr").all()[1:]]
        table[block.locator("th").inner_text()] = dict(lines)
    assert list(table) == ["A", "B", "free bodies"]
    for name, body in zip(table, at_t["bodies_at"]):
        assert table[name]["velocity v"] == vector(body["velocity"])
        assert table[name]["momentum m v"] == vector(body["momentum"])
    with page.expect_download() as download:
        page.click("#save-table")
    assert download.value.suggested_filename == "Βαρύ_και_ελαφρύ_A_B.csv"  # at 4decb2d: _A_B.csv
    path = tmp_path / "table.csv"
    download.value.save_as(path)
    written = list(csv.DictReader(io.StringIO(path.read_text())))
    for row, body in zip(written, at_t["bodies_at"]):
        assert [float(row[k]) for k in ("px", "py", "pz")] == body["momentum"]
        assert [float(row[k]) for k in ("x", "y", "z")] == body["center"]
        assert float(row["kinetic_energy"]) == body["kinetic_energy"]


def test_the_centre_of_mass_frame_switch_turns_the_view(page):
    page.check("#com-frame")
    wait_until(page, "window.sphereExplorer.frame().comFrame && !window.sphereExplorer.frame().turning")
    assert "centre-of-mass frame" in page.inner_text("#verdict")
    page.check("#rest-frame")
    wait_until(page, "window.sphereExplorer.frame().restFrame && !window.sphereExplorer.frame().turning")
    assert not page.is_checked("#com-frame")


def test_in_the_centre_of_mass_frame_the_pages_momenta_add_to_zero_on_every_scene_with_free_bodies(page, tmp_path):
    page.check("#com-frame")
    for stem in FREE_SCENES:
        open_scene_file(page, SCENES_DIR / f"{stem}.json")  # the page's own Open…: the frame stays the reader's
        wait_until(page, "window.sphereExplorer.frame().comFrame && !window.sphereExplorer.frame().turning")
        scene = load(SCENES_DIR / f"{stem}.json")
        solution = solve(scene)
        for wanted in times_around_an_event(scene, solution):
            span = page.evaluate("window.sphereExplorer.frame().time")
            page.locator("#time").fill(str(round(1000 * (wanted - span["lo"]) / (span["hi"] - span["lo"]))))
            wait_until(page, f"Math.abs(window.sphereExplorer.frame().time.t - {wanted}) < 2e-3 * {span['hi']}")
            t = page.evaluate("window.sphereExplorer.frame().time.t")  # the slider's own time, near the one wanted
            parts = [b.momentum for b in bodies_at(scene, solution, t) if b.momentum is not None]
            (total,) = [x for x in page.locator("#momenta svg text").all_text_contents() if x.startswith("Σ m v = ")]
            assert zero_to_rounding(numbers(total), parts), (stem, t, total)
            assert page.inner_text("#bodies-frame").startswith("Numbers in the centre-of-mass frame: it moves at")
            block = page.locator("#bodies tbody").last  # the free bodies' totals, a line a quantity
            lines = dict(row.locator("td").all_inner_texts() for row in block.locator("tr").all()[1:])
            assert block.locator("th").inner_text() == "free bodies", stem
            assert zero_to_rounding(numbers(lines["momentum m v"]), parts), (stem, lines)
            with page.expect_download() as download:
                page.click("#save-table")
            path = tmp_path / f"{stem}.csv"
            download.value.save_as(path)
            rows = [r for r in csv.DictReader(io.StringIO(path.read_text())) if r["mass"]]
            assert {r["frame"] for r in rows} == {"com"} and float(rows[0]["time"]) == t
            summed = [math.fsum(float(r[f"p{k}"]) for r in rows) for k in "xyz"]
            assert zero_to_rounding(summed, parts), (stem, t, summed)
