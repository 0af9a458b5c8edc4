"""An automated accessibility audit of every kind of page the project exports: axe-core's WCAG 2.0, 2.1 and 2.2
A and AA rules and its best practices report no violation on the site's index, a site's live page served over http,
a single-file live page opened as a file, and a recorded page, in the states a student meets (a question asked, a
guess, the answer revealed; the description, momenta and exact numbers switched on) and on a phone's screen.

axe-core is the one in the test extra's ``axe-playwright-python`` (its ``axe.min.js``, read from the installed
package: nothing is fetched); ``page.evaluate`` runs it through the DevTools protocol, outside the pages' Content
Security Policy, which would refuse it as a script of the page.

The 3-D view is a WebGL canvas whose pixels axe cannot read: words over it (the labels, the colour key, the hint)
would be left "to review", their contrast unchecked.  The audit hides the canvas while axe runs, so those words are
measured against the stage's white, the colour the view is drawn on (``palette.BACKGROUND``), and what they stand
on is opaque (the labels' and the key's own white).  axe does not judge a word of one character (a body's name):
:func:`short_words` checks those with the same formula.  No rule of axe is turned off.
"""

from __future__ import annotations

from importlib.resources import files

import pytest
from browser import Browser, serve, wait_ready, wait_until
from live_helpers import export

from explorer.model.formats.gallery import SCENES_DIR
from explorer.view.palette import BACKGROUND
from explorer.web.export import RECORDED_SUFFIX

pytestmark = pytest.mark.long  # started first (tests/conftest.py)

#: axe-core, as the test extra installs it (axe-playwright-python bundles its axe.min.js).
AXE = (files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")
#: The rules run: WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices (landmarks, headings, ...).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
#: The least contrast of text with its background, WCAG 1.4.3 (normal size).
CONTRAST = 4.5
PHONE = (390, 844)
#: An asking scene of the gallery (``"view": {"ask": true}``), and one with many bodies and events.
ASKING, MANY = "predict_first", "snooker_break"

#: The WebGL canvas hidden (or shown again) while axe runs: see the module's docstring.
CANVAS = "(shown) => { for (const c of document.querySelectorAll('#view canvas')) c.style.visibility = shown ? '' : 'hidden'; }"


@pytest.fixture(scope="module")
def browser():
    with Browser() as chromium:
        yield chromium
        assert chromium.refused == []


@pytest.fixture(scope="module")
def single(tmp_path_factory):
    """The asking scene as a single-file live page."""
    out = tmp_path_factory.mktemp("axe-single") / f"{ASKING}.html"
    export(str(SCENES_DIR / f"{ASKING}.json"), "-o", str(out), "--single")
    return out


def describe(violations: list[dict]) -> str:
    """axe's violations, readable: each rule's id, impact and help, then each element it found (its CSS target)
    and what to fix there."""
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} [{v['helpUrl']}]")
        for node in v["nodes"]:
            summary = " ".join(node.get("failureSummary", "").split())
            lines.append(f"    {node['target']}: {summary}")
    return "\n".join(lines)


def audit(page, where: str) -> None:
    """axe on the page as it is now: no violation (the message lists them); then the short words axe skips."""
    assert BACKGROUND == "white"  # what the words over the hidden canvas are measured against
    page.evaluate(CANVAS, False)
    try:
        page.evaluate(AXE)
        result = page.evaluate(
            "(options) => axe.run(document, options)",
            {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]},
        )
        short = short_words(page)
    finally:
        page.evaluate(CANVAS, True)
    violations = result["violations"]
    assert violations == [], f"{where}: {len(violations)} axe violations\n{describe(violations)}"
    assert short == [], f"{where}: words of one character below {CONTRAST}:1 on white: {short}"


#: Words of one character shown (axe leaves them "to review"): each with its colour and its background's.
SHORT = """() => [...document.querySelectorAll('#labels .label, #momenta text, #plot text')]
  .filter((e) => e.textContent.trim().length === 1 && e.getClientRects().length)
  .map((e) => { const s = getComputedStyle(e); return [e.textContent, e.tagName === 'text' ? s.fill : s.color, s.backgroundColor]; })"""


def short_words(page) -> list:
    """The one-character words over the view, the momenta and f(t) whose contrast with white (their opaque
    background, or the white under them) is below :data:`CONTRAST`."""
    out = []
    for text, color, background in page.evaluate(SHORT):
        assert background in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)"), (text, background)
        ratio = 1.05 / (luminance(color) + 0.05)
        if ratio < CONTRAST:
            out.append((text, color, round(ratio, 2)))
    return out


def luminance(css: str) -> float:
    """WCAG's relative luminance of a CSS ``rgb(r, g, b)`` colour."""
    r, g, b = (int(v) / 255 for v in css[css.index("(") + 1 : css.index(")")].split(",")[:3])
    linear = lambda c: c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4  # noqa: E731
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def test_luminance_and_contrast_as_wcag_defines_them():
    assert luminance("rgb(255, 255, 255)") == 1.0 and luminance("rgb(0, 0, 0)") == 0.0
    assert round(1.05 / (luminance("rgb(118, 118, 118)") + 0.05), 2) == 4.54  # #767676: the least grey that passes


def _ready(page) -> None:
    page.evaluate("window.sphereExplorer.ready")
    wait_ready(page)


def _question_and_answer(page, where: str) -> None:
    """The asking scene's page: asking, with a guess, and revealed (the score), each audited."""
    assert page.evaluate("window.sphereExplorer.frame().stage") == "asking"
    audit(page, f"{where}, asking")
    page.click("#guess-hit")
    audit(page, f"{where}, asking, They touch pressed")
    page.click("#reveal")
    wait_until(page, "window.sphereExplorer.frame().stage === 'shown'")
    audit(page, f"{where}, revealed")


def _everything_open(page, where: str) -> None:
    """The description in words open, the momenta and exact numbers on, an event inspected (if any)."""
    page.click("#describe summary")
    page.check("#momentum-layer")
    if page.is_visible("#exact"):
        page.check("#exact")
    if page.is_visible("#events-box"):
        page.locator("#events tr").first.click()
    audit(page, f"{where}, described, momenta, exact, an event")


def test_the_site_index_passes_the_audit(site, browser):
    with serve(site) as base:
        page = browser.page((base,))
        page.goto(base + "index.html")
        audit(page, "index.html")
        assert page.errors == []
        page.context.close()


def test_a_site_live_page_over_http_passes_the_audit_asking_answered_and_with_everything_open(site, browser):
    with serve(site) as base:
        page = browser.page((base,))
        page.goto(base + f"{ASKING}.html")
        _ready(page)
        _question_and_answer(page, f"{ASKING}.html")
        _everything_open(page, f"{ASKING}.html")
        page.context.close()

        page = browser.page((base,))
        page.goto(base + f"{MANY}.html")
        _ready(page)
        audit(page, f"{MANY}.html")
        _everything_open(page, f"{MANY}.html")
        assert page.errors == []
        page.context.close()


def test_a_site_live_page_on_a_phone_passes_the_audit(site, browser):
    with serve(site) as base:
        page = browser.page((base,), *PHONE, mobile=True)
        page.goto(base + f"{ASKING}.html")
        _ready(page)
        _question_and_answer(page, f"{ASKING}.html on a phone")
        assert page.errors == []
        page.context.close()


def test_a_single_file_live_page_opened_as_a_file_passes_the_audit(single, browser):
    page = browser.page(("file://", "blob:", "data:"))
    page.goto(single.as_uri())
    _ready(page)
    _question_and_answer(page, single.name)
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("stem", [ASKING, MANY])
def test_a_recorded_page_opened_as_a_file_passes_the_audit(site, browser, stem):
    name = f"{stem}{RECORDED_SUFFIX}"
    page = browser.open_file(site / name, (1366, 768))
    wait_ready(page)
    assert page.evaluate("window.sphereExplorer.recorded") is True
    if stem == ASKING:
        _question_and_answer(page, name)
    else:
        audit(page, name)
    _everything_open(page, name)
    assert page.errors == []
    page.context.close()


def test_the_audit_finds_what_it_is_for(browser, tmp_path):
    """axe as run here reports a control with no name, text too pale to read and a one-letter label axe skips."""
    path = tmp_path / "bad.html"
    path.write_text(
        '<!doctype html><html lang="en"><head><title>bad</title></head><body><main><h1>bad</h1>'
        '<button type="button"></button><p style="color: #aaa">pale words</p>'
        '<div id="labels"><span class="label" style="color: #e3872d; background: #fff">B</span></div>'
        "</main></body></html>",
        encoding="utf-8",
    )
    page = browser.open_file(path)
    with pytest.raises(AssertionError) as found:
        audit(page, "bad.html")
    assert "button-name (critical)" in str(found.value) and "color-contrast (serious)" in str(found.value)
    assert short_words(page) == [("B", "rgb(227, 135, 45)", 2.7)]
    page.context.close()
