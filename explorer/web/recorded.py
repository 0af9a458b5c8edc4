"""A recorded page's frames: the live page's own frames, described at export by its own Python.

A recorded page is the live page's drawer (``live.js``) with no Python behind
it (a page opened where Python cannot start, or one file to hand out).  Here, in
CPython, a :class:`~explorer.web.live.LivePage` is put in every state that page
can reach without solving anything, and its :meth:`~explorer.web.live.LivePage.frame_data`
is recorded in each (with ``cameras``, the default camera and *Frame all*'s there, for :data:`ASPECTS`):

- **shown**: at each instant of the time slider (:func:`instants`), in each frame
  of reference (:data:`REFERENCES`), the momentum switch off and on;
- **asking** (question mode), at t = 0, in the frames of :data:`ASKED_REFERENCES`
  (B's rest frame would name the body A meets first), the switch off and on;
- **the reveal** from there, as the reveal's clock runs
  (:data:`~explorer.model.actions.asking.REVEAL_STAGES`): samples of its run to
  the first contact with the answer still hidden, then its marks and its roots,
  each from the second it starts; it ends shown at the instant of the contact.

Every scene gets them all, as every live page has *Ask first*.  The script
(``recorded.mjs``) keeps the state (stage, instant, frame, switch, clocks) and
hands the drawer the frame recorded for it; what is drawn and said is Python's.

Frames differ little from one another, so each distinct value is kept once
(:func:`encode`): a frame's entries, and each shape and label of its picture.
Qt-, VTK- and numpy-free.
"""

from __future__ import annotations

import base64
import json
import math
import pickle

from ..model.actions.asking import REVEAL_STAGES, reveal_target
from ..model.actions.session import HORIZON_PLAY_SECONDS, Session
from ..model.formats.scene_io import dumps
from ..model.state.scene import Scene
from ..system import interrupt
from ..view.bounds import WIDE_ASPECT
from .live import LivePage
from .live_page import REFERENCES
from .runtime import gzip_bytes

#: Evenly spaced instants over the time slider's range.
EVEN_INSTANTS = 61
#: At most this many instants in all (events beyond it are left to the even ones).
MAX_INSTANTS = 240
#: Samples of the reveal's run to the first contact (the bodies move; the answer still hidden).
RUN_SAMPLES = 12
#: Those recorded while the scene asks: not B's rest frame, whose body is the one A meets first (an answer).
ASKED_REFERENCES = ("world", "com")
#: The entries of a frame kept item by item (a picture changes a few of its items from one instant to the next),
#: and those kept so by their keys' lists (the least marks: the bodies' dots move, the paths' lines stay).
LISTS = ("shapes", "labels")
GROUPS = ("least",)
#: The entries made here once for several frames and never changed (the cameras, by what they depend on): each
#: known by its identity, not written out again at every frame.
OWN = ("cameras",)
#: The views' aspects (width / height) a recorded page has the default camera for, from a phone held upright to
#: WIDE_ASPECT, beyond which the rule gives one camera; the page takes the nearest (no Python to work it out).
ASPECTS = tuple(round(0.3 + 0.05 * k, 2) for k in range(1 + round((WIDE_ASPECT - 0.3) / 0.05)))


def instants(session: Session, at_events: bool = True) -> list[float]:
    """The times the recorded page's slider stops at, increasing, from the start of its range.

    :data:`EVEN_INSTANTS` evenly spaced over :meth:`~explorer.model.actions.session.Session.time_range` (the
    live page's slider), the first contact and where the reveal ends (:func:`reveal_target`), and every event
    (unless ``at_events`` is false: a page kept within its budget), up to :data:`MAX_INSTANTS` in all.
    """
    lo, hi = session.time_range()
    scene, solution = session.scene, session.solution
    within = lambda times: {t for t in times if lo <= t <= hi}  # noqa: E731
    kept = {lo + (hi - lo) * k / (EVEN_INSTANTS - 1) for k in range(EVEN_INSTANTS)}
    kept |= within([reveal_target(scene, solution), *([] if solution.sweep.toi is None else [solution.sweep.toi])])
    events = sorted(within(e.time for e in solution.events) - kept) if at_events else []
    return sorted(kept | set(events[: max(MAX_INSTANTS - len(kept), 0)]))


def reveal_samples() -> list[float]:
    """Seconds of the reveal's clock at which it is recorded: :data:`RUN_SAMPLES` over its first stage (the run
    to the contact), then the start of each later stage."""
    (_, run), *later = REVEAL_STAGES
    samples = [run * k / RUN_SAMPLES for k in range(RUN_SAMPLES)]
    start = run
    for _, seconds in later:
        samples.append(start)
        start += seconds
    return samples


class _Frames:
    """The recorded frames, each distinct value once: ``parts`` (JSON texts) and ``frames`` (each a list, in the
    order of ``keys``, of a part's index; for :data:`LISTS` a list of parts' indices; for :data:`GROUPS`, by key,
    lists of parts' indices)."""

    def __init__(self) -> None:
        self.keys: list[str] | None = None
        self.parts: list[str] = []
        self._part: dict[str, int] = {}
        self._seen: dict[bytes, int] = {}  # a value's pickle -> its part: a value seen before is not written again
        self._own: dict[int, tuple] = {}  # id -> (an entry of OWN, its part)
        self.frames: list[list] = []
        self._frame: dict[bytes, int] = {}
        self._cameras: dict[tuple, dict] = {}  # the default cameras, by what they depend on

    def part(self, value) -> int:
        """The index of ``value``'s part (its JSON text), added if new.

        Most values repeat from frame to frame: a value is known first by its pickle, which is exact (types, the
        sign of a zero, keys in order) and several times cheaper to make than JSON (no float is written in
        decimal); its JSON text is made only when that pickle is new.  Two values that pickle differently but
        read the same in JSON (keys in another order, a tuple for a list) still share one part."""
        seen = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
        k = self._seen.get(seen)
        if k is None:
            text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"), sort_keys=True)
            k = self._part.get(text)
            if k is None:
                k = self._part[text] = len(self.parts)
                self.parts.append(text)
            self._seen[seen] = k
        return k

    def entry(self, key: str, value):
        """``value`` of the frame's entry ``key`` as its parts' indices (see the class docstring)."""
        if key in LISTS:
            return [self.part(v) for v in value]
        if key in GROUPS:
            return {k: [self.part(v) for v in items] for k, items in value.items()}
        if key in OWN:
            known = self._own.get(id(value))
            if known is None or known[0] is not value:  # held here: its id is not another's while it is
                known = self._own[id(value)] = (value, self.part(value))
            return known[1]
        return self.part(value)

    def add(self, page: LivePage) -> int:
        """Record what ``page`` shows now; the frame's index."""
        interrupt.check()  # a long motion's frames take seconds: a signal is acted on between them
        data = page.frame_data()
        view = page.session.view
        local = data["local"]  # the frame the camera is in, too
        key = (view.reference, view.com, view.rest_frame, view.stage == "asking", page.session.asking.hides_answers,
               tuple(local["origin"]), local["unit"])  # fmt: skip
        if key not in self._cameras:  # what the camera depends on (LivePage.default_camera, in the page's frame)
            self._cameras[key] = {
                way: [json.loads(page.default_camera(aspect, whole)) for aspect in ASPECTS]
                for way, whole in (("framed", False), ("whole", True))
            }  # fmt: skip
        data["cameras"] = self._cameras[key]
        data["plotWords"] = page.plot_word_spots()  # f(t)'s words placed as the live page's Python places them
        if self.keys is None:
            self.keys = list(data)
        entries = [self.entry(k, data[k]) for k in self.keys]
        key = pickle.dumps(entries, pickle.HIGHEST_PROTOCOL)  # parts' indices: equal frames pickle alike
        if key not in self._frame:
            self._frame[key] = len(self.frames)
            self.frames.append(entries)
        return self._frame[key]


def _turn_to(page: LivePage, reference: str) -> None:
    """Put ``page`` in the frame ``reference`` (one of :data:`REFERENCES`), the turn done."""
    page.set_rest_frame(reference == "rest")
    page.set_com_frame(reference == "com")
    while page.turn(math.inf):
        pass


def record(scene: Scene, at_events: bool = True) -> dict:
    """Every frame a recorded page of ``scene`` plays (see the module docstring), JSON-ready.

    Returns
    -------
    dict
        ``parts``, ``keys``, ``frames`` (see :func:`encode`); ``states``: for each reference, ``"0"`` and
        ``"1"`` (the momentum switch off, on), the frames' indices: ``shown`` (one per instant), and where
        recorded ``asking`` and ``reveal`` (``[[seconds of the reveal's clock, frame], ...]``); ``times``, the
        instants; ``opensAsking``: whether it opens asking; ``momentum``: the switch as the scene opens;
        ``revealSeconds`` (the reveal's length) and ``revealEnd`` (the instant it ends at); ``playRate`` (time
        per second of playing); ``events`` (their times, where a click on one goes); ``scores`` (the words of
        an answer, ``hit`` or ``miss``, once shown); ``askedSolution`` (:meth:`LivePage.solution_text` while
        asking); ``aspects`` (:data:`ASPECTS`, those of each frame's
        ``cameras``: ``framed`` and ``whole``, a pose each); ``solution`` (what ``sphere-explorer solve`` prints);
        ``savedCamera`` (:meth:`LivePage.saved_camera`).
    """
    page = LivePage(dumps(scene))
    session = page.session
    opens = session.view.stage
    momentum = bool(session.view.layers.get("momentum", False))
    times = instants(session, at_events)
    frames = _Frames()
    states: dict[str, dict[str, dict]] = {ref: {"0": {}, "1": {}} for ref in REFERENCES}
    page.ask(False)
    for reference in REFERENCES:
        _turn_to(page, reference)
        for switch in (False, True):
            page.set_layer("momentum", switch)
            shown = []
            for t in times:
                page.set_time(t)
                shown.append(frames.add(page))
            states[reference][str(int(switch))]["shown"] = shown
    samples = reveal_samples()
    for reference in ASKED_REFERENCES:
        for switch in (False, True):
            page.ask(False)
            _turn_to(page, reference)
            page.set_layer("momentum", switch)
            page.ask(True)
            recorded = states[reference][str(int(switch))]
            recorded["asking"] = frames.add(page)
            asked = page.solution_text()  # what the console gets while asking: that it asks, and the question
            recorded["reveal"] = []
            for at in samples:  # each from the start of the reveal: its clock at exactly ``at``
                page.ask(True)
                page.reveal()
                page.advance_reveal(at)
                recorded["reveal"].append([at, frames.add(page)])
    reveal_seconds = sum(seconds for _, seconds in REVEAL_STAGES)
    page.ask(True)
    page.reveal()
    page.advance_reveal(reveal_seconds)
    end = min(range(len(times)), key=lambda k: abs(times[k] - session.view.time))
    return {
        "parts": frames.parts,
        "keys": frames.keys,
        "frames": frames.frames,
        "states": states,
        "times": times,
        "opensAsking": opens == "asking",  # the stage it opens in, decided here
        "momentum": momentum,
        "revealSeconds": reveal_seconds,
        "revealEnd": end,
        "playRate": scene.horizon / HORIZON_PLAY_SECONDS,
        "events": [e.time for e in session.solution.events],
        "scores": {"hit": page.score({"hit": True}), "miss": page.score({"hit": False})},
        "aspects": list(ASPECTS),
        "solution": page.solution_text(),
        "askedSolution": asked,
        "savedCamera": page.saved_camera(),
    }


def thinned(recording: dict, times: list[float] | None = None, references: tuple[str, ...] = REFERENCES) -> dict:
    """``recording`` (:func:`record`) with its slider stopping at ``times`` only (some of its instants; None:
    all) and in the frames of ``references`` only (a page kept within its budget), without the frames and parts
    no longer shown."""
    keep = set(recording["times"] if times is None else times)
    kept = [k for k, t in enumerate(recording["times"]) if t in keep]
    states = {ref: {switch: {**state, "shown": [state["shown"][k] for k in kept]} for switch, state in switches.items()}
              for ref, switches in recording["states"].items() if ref in references}  # fmt: skip
    used = sorted({k for switches in states.values() for state in switches.values()
                   for k in [*state["shown"], *([state["asking"]] if "asking" in state else []),
                             *(k for _, k in state.get("reveal", []))]})  # fmt: skip
    frame_index = {k: j for j, k in enumerate(used)}
    frames = [recording["frames"][k] for k in used]
    parts = sorted({p for frame in frames for entry in frame for p in entry_parts(entry)})
    part_index = {p: j for j, p in enumerate(parts)}
    frames = [[renamed(e, part_index) for e in f] for f in frames]
    for switches in states.values():
        for state in switches.values():
            state["shown"] = [frame_index[k] for k in state["shown"]]
            if "asking" in state:
                state["asking"] = frame_index[state["asking"]]
                state["reveal"] = [[at, frame_index[k]] for at, k in state["reveal"]]
    end = recording["times"][recording["revealEnd"]]
    thin = [recording["times"][k] for k in kept]
    return {**recording, "parts": [recording["parts"][p] for p in parts], "frames": frames, "states": states,
            "times": thin, "revealEnd": thin.index(end)}  # fmt: skip


def entry_parts(entry) -> list[int]:
    """The parts' indices an entry of a recorded frame holds (see :class:`_Frames`)."""
    if isinstance(entry, list):
        return entry
    if isinstance(entry, dict):
        return [p for items in entry.values() for p in items]
    return [entry]


def renamed(entry, index: dict[int, int]):
    """An entry of a recorded frame with each part's index ``p`` made ``index[p]``."""
    if isinstance(entry, list):
        return [index[p] for p in entry]
    if isinstance(entry, dict):
        return {k: [index[p] for p in items] for k, items in entry.items()}
    return index[entry]


def encode(recording: dict) -> str:
    """``recording`` (:func:`record`) as the page holds it: JSON, gzipped, in base64 (``parts`` written as
    they were recorded, once each)."""
    rest = {k: v for k, v in recording.items() if k != "parts"}
    text = '{"parts":[' + ",".join(recording["parts"]) + "]," + json.dumps(rest, ensure_ascii=False,
                                                                           allow_nan=False)[1:]  # fmt: skip
    return base64.b64encode(gzip_bytes(text.encode("utf-8"))).decode("ascii")
