"""The documentation site as ``make docs`` builds it, warnings as errors: the gallery shows every scene with the
picture ``render`` draws, its verdict and its description; the API reference documents every public name of the
solver; the guide is the README, a page per section; and a browser opening the site fetches nothing outside it.

One build for the file (the gallery's pictures are kept in ``docs/_build/gallery`` between builds, as ``make docs``
keeps them).
"""

from __future__ import annotations

import html
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from docutils.nodes import make_id

import solver
from explorer.model.derived.analysis import solve
from explorer.model.formats.gallery import gallery
from explorer.model.formats.scene_io import load
from explorer.model.words.text import status_text

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "support"))  # the Playwright helper of the web pages' tests
from browser import Browser, serve  # noqa: E402

#: The pictures' size (the gallery's ``render --size``).
PICTURE_SIZE = (640, 400)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site built by Sphinx as ``make docs`` runs it (``-W --keep-going``), into a temporary folder."""
    out = tmp_path_factory.mktemp("docs")
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", "-d", str(out / "doctrees")]
    proc = subprocess.run(
        [*command, str(ROOT / "docs"), str(out / "html")], capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return out / "html"


def text_of(markup: str) -> str:
    """The text of an HTML fragment, tags dropped, entities decoded and white space collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def words(text: str) -> str:
    """The words of ``text`` (letters, digits and ``_``), one space between them: markup and punctuation gone."""
    return " ".join(re.findall(r"\w+", text))


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG file's header."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", head[16:24])


def readme_sections() -> list[str]:
    """The README's ``##`` headings, in order (lines inside fenced code blocks are not headings)."""
    headings, fenced = [], False
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        fenced ^= line.startswith("```")
        if not fenced and line.startswith("## "):
            headings.append(line[3:].strip())
    return headings


def test_the_gallery_shows_every_scene_with_its_picture_verdict_description_and_file(site):
    page = (site / "gallery.html").read_text(encoding="utf-8")
    sections = dict(re.findall(r'<section id="(scene-[^"]+)">(.*?)</section>', page, re.DOTALL))
    scenes = gallery()
    anchors = [make_id(f"scene-{path.stem}") for path in scenes]
    assert len(scenes) >= 27 and list(sections) == anchors  # every scene, the default first
    for path, anchor in zip(scenes, anchors):
        scene, section = load(path), sections[anchor]
        assert text_of(re.search(r"<h2>(.*?)</h2>", section).group(1)).rstrip("¶ ") == scene.title
        (picture,) = re.findall(r'<img [^>]*src="([^"]+)"', section)
        assert png_size(site / picture) == PICTURE_SIZE
        verdict = re.search(r'<p class="scene-verdict">(.*?)</p>', section).group(1)
        assert text_of(verdict) == " ".join(status_text(scene, solve(scene)).split())
        shown = text_of(section)
        assert " ".join(scene.description.split()) in shown
        (download,) = re.findall(r'<a class="reference download internal" download="" href="([^"]+)"', section)
        assert (site / download).read_bytes() == path.read_bytes()
        assert f"sphere-explorer render scenes/{path.name} -o {path.stem}.png --size 640x400" in shown


def test_the_api_reference_documents_every_public_name_of_the_solver(site):
    page = (site / "api" / "solver.html").read_text(encoding="utf-8")
    shown = text_of(page)
    for name in solver.__all__:
        assert f'id="solver.{name}"' in page, name
        summary = getattr(solver, name).__doc__.strip().split("\n\n")[0]
        assert words(re.sub(r":\w+:`~?([^`]+)`", r"\1", summary)) in words(shown), name  # the docstring, rendered
    # numpydoc's sections, laid out (unparsed, they would show their underlines)
    assert all(re.search(rf"{section} ?:", shown) for section in ("Parameters", "Returns", "Raises"))
    assert "-----" not in shown


def test_the_guide_is_the_readme_a_page_per_section(site):
    titles = {}
    for page in sorted((site / "guide").glob("*.html")):
        text = page.read_text(encoding="utf-8")
        titles[text_of(re.search(r"<h1>(.*?)</h1>", text).group(1)).rstrip("¶ ")] = text_of(text)
    index = text_of((site / "index.html").read_text(encoding="utf-8"))
    sections = readme_sections()
    assert sections[0] == "Quick start" and "make docs" in index
    assert sorted(titles) == sorted(sections[1:])
    assert "Logging from a step-based engine" in titles["Audit your engine"]  # its subsection too
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for picture in re.findall(r"!\[[^]]*\]\(docs/([^)]+)\)", readme):
        assert (site / "_images" / picture).is_file(), picture


def test_a_browser_shows_every_picture_and_fetches_nothing_outside_the_site(site):
    browser = Browser()
    try:
        with serve(site) as base:
            for name, pictures in (("gallery.html", len(gallery())), ("index.html", 1), ("guide/audit.html", 1),
                                   ("api/solver.html", 0)):  # fmt: skip
                page = browser.page((base,))
                page.goto(base + name, wait_until="load")  # the pictures loaded, or failed
                shown = page.evaluate("[...document.images].map(i => i.complete && i.naturalWidth > 0)")
                assert shown == [True] * pictures and page.errors == [], name
                page.context.close()
    finally:
        browser.close()
    assert browser.refused == []
