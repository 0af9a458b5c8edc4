"""Single-file live pages (``export-html SCENE --single``) opened as files, offline, in headless Chromium: A is
dragged with the mouse and the page answers as ``sphere-explorer solve`` does.

A normal run drags the single-file page of a sample of the gallery (:data:`sizes.SINGLE_FILE_SAMPLE`: a single file
runs the same page as a site's, which test_live_pages.py drags on every scene); a full run (``--full``) every scene's.
Apart from test_live_pages.py so that the two run side by side on two test workers.
"""

from __future__ import annotations

import pytest
import sizes
from browser import Browser
from live_helpers import check_against_the_command_line, drag_a, export

from explorer.model.formats.gallery import gallery
from explorer.web import SINGLE_BUDGET

pytestmark = pytest.mark.long  # started first (tests/conftest.py)


@pytest.fixture(scope="module")
def browser():
    chromium = Browser()
    yield chromium
    chromium.close()


def scenes() -> list:
    """The gallery scene files whose single-file pages this run drags."""
    return sizes.sampled(gallery(), sizes.SINGLE_FILE_SAMPLE)


def test_the_sample_names_gallery_scenes():
    assert len(scenes()) >= len(sizes.SINGLE_FILE_SAMPLE)


def test_a_single_file_page_works_offline_from_a_file_and_answers_as_the_command_line(browser, tmp_path):
    results = []
    for path in scenes():
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
    assert len(results) == len(scenes())
    check_against_the_command_line(results, tmp_path)
