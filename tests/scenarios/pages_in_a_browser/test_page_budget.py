"""``export-html``'s page budget (3 MB, stated in ``--help``) is kept: a long motion's page fits, by drawing each
body's path with a corner only where it turns and, if still over, by a time slider that stops at fewer instants
(said on the page and on stderr); a page that still cannot fit is refused in one line naming its size."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from browser import Browser, wait_ready, wait_until
from cli_helpers import refused
from model_scenes import gas
from web_helpers import recorded_frame, recording

import explorer.web.page as page_module
from explorer.cli import main
from explorer.model.derived.analysis import centres_at_events, solve
from explorer.model.formats.gallery import DEFAULT_SCENE, SCENES_DIR
from explorer.model.formats.scene_io import load
from explorer.web import PAGE_BUDGET
from explorer.web.page import build_page

SCRIPT = Path(sys.executable).with_name("sphere-explorer")


@pytest.fixture(scope="module")
def gas_page(tmp_path_factory):
    """The 76-event scene's file, and the size of its page with a slider stop at each event."""
    path = tmp_path_factory.mktemp("gas") / "gas.json"
    path.write_text(json.dumps(gas(4.0)), encoding="utf-8")
    page = build_page(load(path), "gas")
    events = {e.time for e in solve(load(path)).events}
    assert page.note is None and len(events) == 76 and events <= set(recording(page.html)["times"])
    return path, len(page.html.encode("utf-8"))


def test_a_thousand_event_motion_exports_within_the_budget_and_says_what_it_left_out(tmp_path):
    """The attack's page (7.8 MB at first): its slider stops at the even instants and the contact, and B's rest
    frame and the centre of mass's, which redraw a thousand events' paths at each instant, are left out; said on
    stderr and under the slider, their switches hidden; every event is still listed."""
    source, out = tmp_path / "gas.json", tmp_path / "gas.html"
    source.write_text(json.dumps(gas(100.0)), encoding="utf-8")
    done = subprocess.run([SCRIPT, "export-html", source, "-o", out], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and done.stdout == f"{out}\n", done.stderr
    assert 0 < out.stat().st_size <= PAGE_BUDGET
    text = out.read_text(encoding="utf-8")
    recorded = recording(text)
    assert len(recorded_frame(recorded, recorded["states"]["world"]["0"]["shown"][0])["events"]) == 1000
    assert set(recorded["states"]) == {"world"} and len(recorded["times"]) < 70
    note = (f"the time slider does not stop at each of the motion's 1000 events (only at {len(recorded['times'])} "
            "instants) and the page has no rest frame and no centre-of-mass frame, to keep the page within 3 MB")  # fmt: skip
    assert done.stderr == f"sphere-explorer: {out}: {note}\n"
    assert html.escape(f"{note[0].upper()}{note[1:]}.") in text
    assert '<label hidden><input id="rest-frame"' in text and '<label hidden><input id="com-frame"' in text


def test_each_path_keeps_its_turns_and_drops_only_corners_on_a_straight_line():
    """A body's polyline: its start, each corner where its velocity changes, and its end; every corner left
    out lies on the straight piece between the kept ones (the picture is the same line)."""
    from explorer.model.derived.analysis import path_polylines

    path = solve(load(SCENES_DIR / "gas_in_container.json")).path
    corners = np.array(centres_at_events(path))  # (segments + 1, bodies, 3)
    velocities = np.array([seg.velocities for seg in path.segments])
    lines = path_polylines(path)
    assert len(lines) == corners.shape[1]
    assert sum(map(len, lines)) < 0.5 * corners.shape[0] * corners.shape[1]  # most corners are on a straight line
    for body, line in enumerate(lines):
        turns = [0, *(k for k in range(1, len(corners) - 1) if np.any(velocities[k, body] != velocities[k - 1, body]))]
        assert np.array_equal(np.array(line), corners[[*turns, len(corners) - 1], body])
        for k, point in enumerate(corners[:, body]):
            piece = np.searchsorted(turns, k, side="right") - 1
            start, end = np.array(line[piece]), np.array(line[min(piece + 1, len(line) - 1)])
            along = end - start
            off = point - start - along * (np.dot(point - start, along) / max(np.dot(along, along), 1e-300))
            assert np.linalg.norm(off) <= 1e-9 * (1 + np.abs(point).max())


def test_over_the_budget_the_slider_stops_at_fewer_instants_said_on_the_page_and_on_stderr(
    gas_page, tmp_path, capsys, monkeypatch
):
    """Over the budget by 50 kB: the page keeps its frames at 61 even instants and the contact (the 76 events'
    stops cost more), says so under its slider and on stderr, and still draws and plays."""
    path, whole = gas_page
    budget = whole - 50_000
    monkeypatch.setattr(page_module, "PAGE_BUDGET", budget)
    out = tmp_path / "gas.html"
    assert main(["export-html", str(path), "-o", str(out)]) == 0
    printed, err = capsys.readouterr()
    text = out.read_text(encoding="utf-8")
    times = recording(text)["times"]
    note = (f"the time slider does not stop at each of the motion's 76 events (only at {len(times)} instants), "
            f"to keep the page within {budget / 1e6:g} MB")  # fmt: skip
    assert printed == f"{out}\n" and err == f"sphere-explorer: {out}: {note}\n"
    assert 0 < len(text.encode("utf-8")) <= budget and len(times) in (62, 63)  # the contact, the reveal's end
    with Browser() as browser:
        page = browser.open_file(out)
        wait_ready(page)
        assert page.errors == []
        assert page.evaluate("document.getElementById('instants').textContent") == note[0].upper() + note[1:] + "."
        page.evaluate("document.getElementById('play').click()")
        wait_until(page, "window.sphereExplorer.frame().time.t > 0", 30)


def test_a_page_that_cannot_fit_is_refused_naming_its_size(tmp_path, capsys, monkeypatch):
    """With a budget of 0.9 MB no page fits (vtk.js and the page's script in each are 0.94 MB): one line naming the
    size, nothing written; in a site, naming the scene file (the first to be refused: its worker process was given
    the budget)."""
    monkeypatch.setattr(page_module, "PAGE_BUDGET", 900_000)
    refused(["export-html", DEFAULT_SCENE, "-o", tmp_path / "page.html"], capsys,
            "sphere-explorer: default.json: the page would be ")  # fmt: skip
    err = refused(["export-html", SCENES_DIR, "-o", tmp_path / "site"], capsys, ".json: the page would be ")
    assert re.fullmatch(r"sphere-explorer: \w+\.json: the page would be \d\.\d\d MB \([\d,]+ bytes\), over the "
                        r"budget of 0.9 MB \(900,000 bytes\) a page\n", err)  # fmt: skip
    assert list(tmp_path.iterdir()) == []
