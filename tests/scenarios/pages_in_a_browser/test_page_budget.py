"""``export-html``'s page budget (3 MB, stated in ``--help``) is kept: a long motion's page fits, by drawing each
body's path with a corner only where it turns and, if still over, by a time slider that stops at fewer instants
(said on the page and on stderr); a page that still cannot fit is refused in one line naming its size."""

from __future__ import annotations

import itertools
import json
import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from browser import Browser, wait_ready, wait_until
from cli_helpers import refused
from web_helpers import page_data

import explorer.web.page as page_module
from explorer.cli import main
from explorer.model.derived.analysis import centres_at_events, solve
from explorer.model.formats.gallery import DEFAULT_SCENE, SCENES_DIR
from explorer.model.formats.scene_io import load
from explorer.web import PAGE_BUDGET
from explorer.web.page import build_page

SCRIPT = Path(sys.executable).with_name("sphere-explorer")


def _gas(horizon: float) -> dict:
    """Fifteen balls in a container (the most bodies a scene has): over a horizon of 100 the motion stops at its
    1000th event (the attack's page: 7.8 MB); over 8 it has 161."""
    corners = list(itertools.product((-1.6, 0.0, 1.6), repeat=3))[:15]
    bodies = [
        {"name": chr(65 + i), "center": list(c), "radius": 0.4,
         "velocity": [3 * math.sin(1.3 * i), 3 * math.cos(2.1 * i), 3 * math.sin(0.7 * i + 1)]}
        for i, c in enumerate(corners)
    ]  # fmt: skip
    bodies.append({"name": "W", "center": [0, 0, 0], "velocity": [0, 0, 0], "radius": 3.5, "fixed": True,
                   "container": True})  # fmt: skip
    return {"format": "sphere-explorer/1", "mode": "all", "horizon": horizon, "restitution": 1.0, "bodies": bodies}


@pytest.fixture(scope="module")
def gas(tmp_path_factory):
    """The 161-event scene's file, and the size of its page with a slider stop at each event (the first 179)."""
    path = tmp_path_factory.mktemp("gas") / "gas.json"
    path.write_text(json.dumps(_gas(8.0)), encoding="utf-8")
    page = build_page(load(path), "gas")
    assert page.note is None and len(page_data(page.html)["times"]) == 61 + 161 + 1
    return path, len(page.html.encode("utf-8"))


def test_a_thousand_event_motion_exports_within_the_budget(tmp_path):
    source, out = tmp_path / "gas.json", tmp_path / "gas.html"
    source.write_text(json.dumps(_gas(100.0)), encoding="utf-8")
    done = subprocess.run([SCRIPT, "export-html", source, "-o", out], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout == f"{out}\n", done.stderr
    assert 0 < out.stat().st_size <= PAGE_BUDGET
    text = out.read_text(encoding="utf-8")
    assert re.search(r'<table id="events">(.*?)</table>', text).group(1).count("</tr>") == 1000  # every event
    assert len(page_data(text)["times"]) > 200  # and the slider still stops at the first ones


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
    gas, tmp_path, capsys, monkeypatch
):
    """Over the budget by 0.1 MB: the page is recorded again at 61 even instants and the contact (the 161
    events' stops cost about 0.23 MB), says so under its slider and on stderr, and still draws and plays."""
    path, whole = gas
    budget = whole - 100_000
    monkeypatch.setattr(page_module, "PAGE_BUDGET", budget)
    out = tmp_path / "gas.html"
    assert main(["export-html", str(path), "-o", str(out)]) == 0
    printed, err = capsys.readouterr()
    note = f"the time slider does not stop at each of the motion's 161 events (only at 62 instants), to keep the page within {budget / 1e6:g} MB"
    assert printed == f"{out}\n" and err == f"sphere-explorer: {out}: {note}\n"
    text = out.read_text(encoding="utf-8")
    assert 0 < len(text.encode("utf-8")) <= budget and len(page_data(text)["times"]) == 62
    assert '<input id="time" type="range" min="0" max="61"' in text
    with Browser() as browser:
        page = browser.open_file(out)
        wait_ready(page)
        assert page.errors == []
        assert page.evaluate("document.getElementById('instants').textContent") == note[0].upper() + note[1:] + "."
        page.evaluate("document.getElementById('play').click()")
        wait_until(page, "document.getElementById('time').value > 0", 30)


def test_a_page_that_cannot_fit_is_refused_naming_its_size(tmp_path, capsys, monkeypatch):
    """With a budget of 1 MB no page fits (the viewer alone is 1 MB): one line naming the size, nothing written;
    in a site, naming the scene file (the first to be refused: its worker process was given the budget)."""
    monkeypatch.setattr(page_module, "PAGE_BUDGET", 1_000_000)
    refused(["export-html", DEFAULT_SCENE, "-o", tmp_path / "page.html"], capsys,
            "sphere-explorer: default.json: the page would be ")  # fmt: skip
    err = refused(["export-html", SCENES_DIR, "-o", tmp_path / "site"], capsys, ".json: the page would be ")
    assert re.fullmatch(r"sphere-explorer: \w+\.json: the page would be 1\.\d\d MB \([\d,]+ bytes\), over the "
                        r"budget of 1 MB \(1,000,000 bytes\) a page\n", err)  # fmt: skip
    assert list(tmp_path.iterdir()) == []
