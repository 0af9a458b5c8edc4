"""Single-file live pages (``export-html SCENE --single``) opened as files, offline, in headless Chromium: A is
dragged with the mouse on every gallery scene's page and the page answers as ``sphere-explorer solve`` does.

Apart from test_live_pages.py (a site's pages), so that the two run side by side on two test workers.
"""

from __future__ import annotations

import pytest
from browser import Browser
from live_helpers import check_against_the_command_line, drag_a, export

from explorer.model.formats.gallery import gallery
from explorer.web import SINGLE_BUDGET


@pytest.fixture(scope="module")
def browser():
    chromium = Browser()
    yield chromium
    chromium.close()


def test_a_single_file_page_works_offline_from_a_file_and_answers_as_the_command_line(browser, tmp_path):
    results = []
    for path in gallery():
        stem = path.stem
        out = tmp_path / f"{stem}.html"
        export(str(path), "-o", str(out), "--single")
        assert out.stat().st_size <= SINGLE_BUDGET
        page = browser.page(("file://", "blob:", "data:"))
        page.goto(out.as_uri())
        before, after, solution = drag_a(page)
        assert page.errors == [], (stem, page.errors)
        results.append((stem, before, after, solution))
        page.context.close()
    assert browser.refused == []
    assert len(results) == len(gallery())
    check_against_the_command_line(results, tmp_path)
