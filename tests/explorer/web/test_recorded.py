"""A recorded page's frames (explorer.web.recorded): the live page's own frames, recorded in CPython in every state a
page can reach without Python, each value kept once; while a scene asks, no frame holds anything of its answer.

Each recorded frame is compared with a fresh :class:`LivePage` driven to the same state as a student drives it (its
switches, its time, Ask first and Reveal); the answer with ``sphere-explorer solve``'s JSON.
"""

from __future__ import annotations

import base64
import gzip
import json

import pytest
from cli_helpers import solved
from model_scenes import gas
from web_helpers import recorded_frame

from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.formats.scene_io import load, parse
from explorer.model.words.text import fmt
from explorer.web import recorded
from explorer.web.live import LivePage
from explorer.web.recorded import (
    ASKED_REFERENCES,
    ASPECTS,
    EVEN_INSTANTS,
    MAX_INSTANTS,
    encode,
    entry_parts,
    instants,
    record,
    thinned,
)

#: What may differ between two scenes' frames while they ask: what is drawn and said of the givens (a radius, here).
GIVENS = {"shapes", "bounds", "radii", "cameras", "spokenAll", "form"}


def _text(stem: str) -> str:
    return (SCENES_DIR / f"{stem}.json").read_text(encoding="utf-8")


def _recorded(scene) -> dict:
    """:func:`record` of ``scene``, its parts read (as a page reads them)."""
    rec = record(scene)
    return {**rec, "texts": rec["parts"], "parts": [json.loads(p) for p in rec["parts"]]}


def _expected(page: LivePage) -> dict:
    """What the live page shows now, as a recorded frame holds it (with its default camera and Frame all's for
    each of the recorded aspects, and where its Python puts f(t)'s words)."""
    cameras = {way: [json.loads(page.default_camera(aspect, whole)) for aspect in ASPECTS]
               for way, whole in (("framed", False), ("whole", True))}  # fmt: skip
    frame = json.loads(page.frame())
    return {**frame, "cameras": cameras, "plotWords": page.plot_word_spots()}


@pytest.fixture(scope="module")
def glancing():
    """The recording of a scene with momenta, two free bodies and a contact."""
    return _recorded(load(SCENES_DIR / "heavy_light_glancing.json"))


@pytest.mark.parametrize(
    "reference, switch, at",
    [("world", False, 0), ("world", True, 30), ("rest", True, 17), ("rest", False, -1), ("com", True, 45)],
)
def test_each_shown_frame_is_the_live_pages_frame_with_the_same_switches_and_time(glancing, reference, switch, at):
    page = LivePage(_text("heavy_light_glancing"))
    if reference == "rest":
        page.set_rest_frame(True)
    if reference == "com":
        page.set_com_frame(True)
    page.turn(10.0)
    page.set_layer("momentum", switch)
    t = glancing["times"][at]
    page.set_time(t)
    frame = recorded_frame(glancing, glancing["states"][reference][str(int(switch))]["shown"][at])
    assert frame == _expected(page)
    assert frame["time"]["t"] == t and frame["restFrame"] == (reference == "rest")


def _evenly_spaced(times: list[float], lo: float, hi: float) -> bool:
    steps = [b - a for a, b in zip(times, times[1:])]
    return times[0] == lo and times[-1] == hi and max(steps) - min(steps) < 1e-12 * (hi - lo)


def test_the_slider_stops_at_even_instants_every_event_and_the_contact():
    page = LivePage(_text("snooker_break"))
    times = instants(page.session)
    solution = page.session.solution
    lo, hi = page.session.time_range()
    marks = {e.time for e in solution.events} | {solution.sweep.toi}
    assert times == sorted(set(times)) and marks <= set(times)
    even = sorted(set(times) - marks)
    assert len(even) == EVEN_INSTANTS and _evenly_spaced(even, lo, hi)
    fewer = instants(page.session, at_events=False)
    assert sorted(set(fewer) - {solution.sweep.toi}) == even and solution.sweep.toi in fewer


def test_a_thousand_events_keep_the_slider_within_its_instants_and_the_contact_in_them():
    """A gas of 15 balls stopped at its 1000th event: the instants stop at MAX_INSTANTS, the first contact kept."""
    page = LivePage(json.dumps(gas(100.0)))
    times = instants(page.session)
    assert len(page.session.solution.events) == 1000 and len(times) == MAX_INSTANTS
    assert page.session.solution.sweep.toi in times


def test_a_scene_that_asks_is_recorded_asking_then_revealed_in_the_live_pages_stages():
    """predict_first opens asking: its recorded asking frame is the live page's as it opens; the reveal's frames run
    the time from 0 towards the contact with the answer hidden, then show its marks and its roots, and end at the
    contact, where the verdict is solve's."""
    rec = _recorded(load(SCENES_DIR / "predict_first.json"))
    truth = solved(SCENES_DIR / "predict_first.json")
    assert rec["opensAsking"] is True
    page = LivePage(_text("predict_first"))
    states = rec["states"]["world"]["0"]
    assert recorded_frame(rec, states["asking"]) == _expected(page)
    reveal = [(at, recorded_frame(rec, k)) for at, k in states["reveal"]]
    stages = [frame["stage"] for _, frame in reveal]
    assert stages == ["running"] * (len(reveal) - 2) + ["marks", "roots"]
    run = [frame["time"]["t"] for _, frame in reveal if frame["stage"] == "running"]
    assert run[0] == 0.0 and run == sorted(run) and run[-1] < truth["toi"]
    assert all(frame["values"] == [] and frame["events"] == [] for _, frame in reveal[:-2])
    page.reveal()
    page.advance_reveal(reveal[5][0])
    assert reveal[5][1] == _expected(page)  # the sample is the live page at that second of its reveal
    end = recorded_frame(rec, states["shown"][rec["revealEnd"]])
    assert rec["times"][rec["revealEnd"]] == truth["toi"] and end["verdict"].startswith("A–B: HIT")
    assert json.loads(rec["solution"]) == truth
    assert json.loads(rec["askedSolution"]) == {
        "asking": True,
        "question": load(SCENES_DIR / "predict_first.json").question,
    }
    assert rec["scores"]["miss"]["words"].startswith("You said miss: wrong") and rec["scores"]["hit"]["right"]


def _pair(radius: float) -> dict:
    """predict_first with B's radius ``radius``: 1 they touch, 0.9 they miss (closest approach 1.95)."""
    scene = json.loads(_text("predict_first"))
    scene["bodies"][1]["radius"] = radius
    return _recorded(parse(json.dumps(scene)))


#: What the reveal's run may show of the answer: the bodies run to the contact (or on to the horizon); its words wait.
RUN = GIVENS | {"centers", "labels", "time", "table", "momenta", "least"}


def test_while_asking_two_scenes_that_differ_only_in_the_answer_have_the_same_frames_but_what_is_drawn():
    """A hit and a miss with the same givens but B's radius: every frame they show while asking is the same but for
    what is drawn of B; once Reveal is pressed, the bodies run to the contact, or on, with its words still hidden,
    and from the reveal's marks on the verdicts differ."""
    hit, miss = _pair(1.0), _pair(0.9)
    for reference in ASKED_REFERENCES:
        for switch in ("0", "1"):
            a, b = hit["states"][reference][switch], miss["states"][reference][switch]
            asking = recorded_frame(hit, a["asking"]), recorded_frame(miss, b["asking"])
            assert {key for key in asking[0] if asking[0][key] != asking[1][key]} <= GIVENS, (reference, switch)
            assert fmt(asking[0]["radii"][1]) != fmt(asking[1]["radii"][1])
            for (_, j), (_, k) in zip(a["reveal"], b["reveal"]):
                one, other = recorded_frame(hit, j), recorded_frame(miss, k)
                if one["stage"] == "running":
                    assert {key for key in one if one[key] != other[key]} <= RUN, (reference, switch)
                else:
                    assert one["verdict"] != other["verdict"]  # the reveal's marks: the answer is out
    shown = [recorded_frame(rec, rec["states"]["world"]["0"]["shown"][rec["revealEnd"]]) for rec in (hit, miss)]
    assert "HIT" in shown[0]["verdict"] and "MISS" in shown[1]["verdict"]


def test_the_page_holds_each_value_once_and_reads_back_as_recorded(glancing):
    texts = glancing.pop("texts")
    assert len(set(texts)) == len(texts)
    assert len({json.dumps(f) for f in glancing["frames"]}) == len(glancing["frames"])
    back = json.loads(gzip.decompress(base64.b64decode(encode({**glancing, "parts": texts}))))
    assert back == glancing


def _shown(rec: dict) -> dict:
    """Every frame a recording shows, by state (reference, switch, what), whole."""
    out = {}
    for reference, switches in rec["states"].items():
        for switch, state in switches.items():
            out[reference, switch, "shown"] = [recorded_frame(rec, k) for k in state["shown"]]
            if "asking" in state:
                out[reference, switch, "asking"] = recorded_frame(rec, state["asking"])
                out[reference, switch, "reveal"] = [(at, recorded_frame(rec, k)) for at, k in state["reveal"]]
    return out


def test_a_page_kept_within_its_budget_shows_what_a_recording_of_fewer_instants_and_frames_shows(monkeypatch):
    """Thinned to the even instants and the contact, in the world and B's rest frame only: the same frames as
    recorded at those instants in the first place (those of the centre of mass's left out), none kept unused."""
    scene = load(SCENES_DIR / "caged_ball.json")
    whole = _recorded(scene)
    fewer = instants(LivePage(_text("caged_ball")).session, at_events=False)
    thin = thinned({**whole, "parts": whole.pop("texts")}, fewer, ("world", "rest"))
    thin = {**thin, "parts": [json.loads(p) for p in thin["parts"]]}
    assert thin["times"] == fewer and len(fewer) < len(whole["times"])
    monkeypatch.setattr(recorded, "instants", lambda session, at_events=True: fewer)  # recorded there at first
    expected = {key: value for key, value in _shown(_recorded(scene)).items() if key[0] != "com"}
    assert _shown(thin) == expected
    assert thin["times"][thin["revealEnd"]] == whole["times"][whole["revealEnd"]]
    used = {p for f in thin["frames"] for e in f for p in entry_parts(e)}
    assert used == set(range(len(thin["parts"])))
