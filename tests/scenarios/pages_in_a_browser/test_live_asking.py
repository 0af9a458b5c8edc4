"""Question mode in a live page, opened offline from a file in headless Chromium as a student opens it: a scene that
says ``"ask": true`` opens asking and no answer is in the page's text; the student answers (They touch / They
miss, and a click where), presses Reveal, and the score is the truth of ``sphere-explorer solve``."""

from __future__ import annotations

import json

import pytest
from browser import Browser, wait_until
from cli_helpers import solved
from live_helpers import export

from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.words.description import said
from explorer.model.words.text import fmt

pytestmark = pytest.mark.long  # started first (tests/conftest.py)

QUESTION = "Where will A first touch B, if it does before t = 1?"


@pytest.fixture(scope="module")
def asked(tmp_path_factory):
    """The default scene with its own question, opening asking, as a single-file page; and what solve says."""
    folder = tmp_path_factory.mktemp("asking")
    scene = json.loads((SCENES_DIR / "default.json").read_text())
    scene["question"] = QUESTION
    scene["view"] = {"ask": True}
    source = folder / "asked.json"
    source.write_text(json.dumps(scene))
    out = folder / "asked.html"
    export(str(source), "-o", str(out), "--single")
    truth = solved(source)
    with Browser() as chromium:
        yield chromium, out, truth
        assert chromium.refused == []


def _open(chromium, out):
    page = chromium.page(("file://", "blob:", "data:"))
    page.goto(out.as_uri())
    page.evaluate("window.sphereExplorer.ready")
    wait_until(page, SETTLED)  # the answer bar shown: the view resized to its room
    return page


#: The 3-D view's canvas fills the view's box (after a change of the header's height).
SETTLED = (
    "(([c, v]) => c.height === v.height)([...['#view canvas', '#view']].map((s) => "
    "document.querySelector(s).getBoundingClientRect()))"
)


def _answer_and_reveal(page, button: str, point, offset=(0.0, 0.0)) -> dict:
    """A student's answer: ``button`` (They touch / They miss), a click ``offset`` CSS pixels from where ``point``
    is seen, then Reveal; the page's score once the answer is shown."""
    page.click(button)
    box = page.locator("#view").bounding_box()
    at = page.evaluate(f"window.sphereExplorer.project({json.dumps(point)})")
    page.mouse.click(box["x"] + at["x"] + offset[0], box["y"] + at["y"] + offset[1])
    page.click("text=Reveal")
    wait_until(page, "window.sphereExplorer.frame().stage === 'shown'")
    return page.evaluate("window.sphereExplorer.frame().score")


def test_a_student_asked_answers_wrong_then_asked_again_answers_right(asked):
    """A student's two tries in one page: it opens asking with no answer in its text; miss, clicked away from the
    contact, scores wrong and how far; Ask again; touch, clicked at the contact, scores right and close."""
    chromium, out, answer = asked
    page = _open(chromium, out)
    assert page.evaluate("window.sphereExplorer.frame().stage") == "asking"
    text = page.inner_text("body")
    assert QUESTION in page.inner_text("#verdict")
    words = ["HIT", "MISS", "t₀ =", "discriminant", "contact point", fmt(answer["toi"]),
             *(fmt(r) for r in answer["roots"])]  # fmt: skip
    assert not [w for w in words if w in text], [w for w in words if w in text]
    assert page.is_disabled("#time") and page.is_visible("text=Reveal")

    score = _answer_and_reveal(page, "#guess-miss", answer["contact"]["point"], (60.0, -40.0))
    assert score["right"] is False and score["distance"] > 0.5
    assert page.inner_text("#score").startswith("You said miss: wrong")
    page.click("text=Ask again")
    wait_until(page, "window.sphereExplorer.frame().stage === 'asking'")
    assert page.evaluate("window.sphereExplorer.frame().score") is None and "HIT" not in page.inner_text("body")

    score = _answer_and_reveal(page, "#guess-hit", answer["contact"]["point"])
    assert answer["status"] == "hit" and score["truth"] is True and score["right"] is True
    assert score["distance"] < 0.1  # a click lands within a pixel or two of the projected contact
    assert "right" in page.inner_text("#score") and fmt(answer["toi"]) in page.inner_text("#verdict")
    assert page.evaluate("window.sphereExplorer.frame().time.t") == answer["toi"]  # the time ran to the contact
    assert page.errors == []
    page.context.close()


def test_the_live_region_says_the_scene_and_the_question_while_asking_and_the_answer_once_revealed(asked):
    """What a screen reader says (the page's ``aria-live`` region): while asking the bodies and the question and
    nothing of the answer; after Reveal, who touches whom and when."""
    chromium, out, answer = asked
    page = _open(chromium, out)
    spoken = page.locator("#spoken")
    assert spoken.get_attribute("aria-live") == "polite"
    asking = spoken.text_content()
    assert asking == "A moves at 9.06 per frame towards +x and B is fixed. " + QUESTION  # default.json: v = (9, 1, 0)
    page.click("text=Reveal")
    wait_until(page, "window.sphereExplorer.frame().stage === 'shown'")
    revealed = spoken.text_content()
    assert revealed.startswith("A moves at 9.06 per frame towards +x and B is fixed. A touches B at t = ")
    assert f"t = {said(answer['toi'])}," in revealed and QUESTION not in revealed
    page.context.close()
