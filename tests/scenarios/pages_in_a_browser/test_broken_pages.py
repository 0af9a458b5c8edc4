"""A page that cannot start says why within 10 s, in words a teacher can act on, and its ``ready`` rejects with them:
a site copied without a runtime file, or with one cut short or damaged, names that file; a page cut short (a site's,
a single file cut anywhere) says it is incomplete; a site page opened as a file without its recorded twin beside it
says how to get the live page.  Served as a site is (``python3 -m http.server``), in headless
Chromium; each broken copy shares the gallery site's files but the one it breaks."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from browser import Browser, serve, wait_until
from live_helpers import export

from explorer.model.formats.gallery import SCENES_DIR
from explorer.web.export import RECORDED_SUFFIX
from explorer.web.live_page import GUARD_WORDS

pytestmark = pytest.mark.long  # started first (tests/conftest.py)

#: The longest a broken page may leave a student waiting.
SAYS_WITHIN = 10.0
#: What the page is asked for once it has failed: its status line, and how its ``ready`` settled.
SETTLED = "window.sphereExplorer.ready.then(() => 'resolved', (error) => 'rejected: ' + error.message)"


@pytest.fixture(scope="module")
def browser():
    with Browser() as chromium:
        yield chromium


def _copy(site: Path, to: Path) -> Path:
    """``site`` copied to ``to`` as links to the same files (a broken file is unlinked before it is written)."""
    shutil.copytree(site, to, copy_function=os.link)
    return to


def _rewrite(path: Path, data: bytes | None) -> None:
    """Replace the file (not the site's copy it is linked to) with ``data``; None removes it."""
    old = path.read_bytes()
    path.unlink()
    if data is not None:
        path.write_bytes(data(old) if callable(data) else data)


def _opened(browser, url: str, base: str) -> tuple[str, str, float]:
    """The page at ``url`` opened as a student opens it: its status line and how its ``ready`` settled once it has
    failed or is ready, and the seconds that took from the request."""
    page = browser.page((base,))
    start = time.monotonic()
    page.goto(url)
    wait_until(page, "window.sphereExplorer && (document.getElementById('status').dataset.failed === '1'"
                     " || document.body.dataset.ready === '1')", timeout=60)  # fmt: skip
    seconds = time.monotonic() - start
    status, settled = page.inner_text("#status"), page.evaluate(SETTLED)
    page.context.close()
    return status, settled, seconds


def _half(data: bytes) -> bytes:
    return data[: len(data) // 2]


def _flipped(data: bytes) -> bytes:
    """The same number of bytes, a run of them in the middle changed."""
    k = len(data) // 2
    return data[:k] + bytes(b ^ 0x5A for b in data[k : k + 64]) + data[k + 64 :]


CASES = [  # (the file of the site, how it is broken, what the page says)
    ("runtime/live.js", None, GUARD_WORDS["missing"].format(file="runtime/live.js")),
    ("runtime/runtime-loader.mjs", _half, "cutFile"),
    ("runtime/vtk.js", None, GUARD_WORDS["missing"].format(file="runtime/vtk.js")),
    ("runtime/pyodide/pyodide.asm.wasm", _half, "cutFile"),
    ("runtime/pyodide/pyodide.asm.wasm", _flipped, GUARD_WORDS["damaged"].format(file="runtime/pyodide/pyodide.asm.wasm")),
    ("runtime/pyodide/python_stdlib.zip", None, GUARD_WORDS["missing"].format(file="runtime/pyodide/python_stdlib.zip")),
    ("runtime/sources.zip", _flipped, GUARD_WORDS["damaged"].format(file="runtime/sources.zip")),
    ("default.html", _half, "cutPageBytes"),
]  # fmt: skip


@pytest.mark.parametrize(
    "name, broken, says", CASES, ids=[f"{n}-{getattr(b, '__name__', 'gone')}" for n, b, _ in CASES]
)
def test_a_site_page_with_a_file_missing_cut_or_damaged_says_which_within_seconds(site, browser, tmp_path, name,
                                                                                   broken, says):  # fmt: skip
    folder = _copy(site, tmp_path / "site")
    size = (folder / name).stat().st_size
    _rewrite(folder / name, broken)
    if says in ("cutFile", "cutPageBytes"):
        says = GUARD_WORDS[says].format(file=name, got=f"{size // 2:,}", want=f"{size:,}")
    with serve(folder) as base:
        status, settled, seconds = _opened(browser, base + "default.html", base)
    assert (status, settled) == (says, "rejected: " + says)
    assert seconds <= SAYS_WITHIN, seconds


def test_the_whole_site_starts_and_says_nothing_of_the_kind(site, browser):
    """The check above is not a page that always fails: the same site, whole, starts."""
    with serve(site) as base:
        status, settled, _ = _opened(browser, base + "default.html", base)
    assert settled == "resolved" and status not in GUARD_WORDS.values()


def test_a_site_page_copied_without_its_recorded_twin_and_opened_as_a_file_says_how_to_get_the_live_page(
    site, browser, tmp_path
):
    """At 4decb2d it went to its twin regardless, and the student saw the browser's "file not found" page."""
    folder = _copy(site, tmp_path / "site")
    _rewrite(folder / f"default{RECORDED_SUFFIX}", None)
    url = (folder / "default.html").as_uri()
    status, settled, seconds = _opened(browser, url, "file://")
    assert (status, settled) == (GUARD_WORDS["fileUrl"], "rejected: " + GUARD_WORDS["fileUrl"])
    assert seconds <= SAYS_WITHIN, seconds


@pytest.mark.parametrize("fraction", [0.1, 0.5, 0.9999])
def test_a_single_file_cut_anywhere_says_it_is_incomplete(browser, tmp_path_factory, fraction):
    single = tmp_path_factory.getbasetemp() / "single-default.html"
    if not single.exists():
        export(str(SCENES_DIR / "default.json"), "-o", str(single), "--single")
    data = single.read_bytes()
    cut = tmp_path_factory.mktemp("cut") / "default.html"
    cut.write_bytes(data[: int(fraction * len(data))])
    url = cut.absolute().as_uri()  # opened as a file, as an e-mail attachment is
    status, settled, seconds = _opened(browser, url, url)
    says = GUARD_WORDS["cutPageBytes"].format(got=f"{int(fraction * len(data)):,}", want=f"{len(data):,}")
    assert (status, settled) == (says, "rejected: " + says)
    assert seconds <= SAYS_WITHIN, seconds
