"""One scene as one recorded web page: the live page's drawer playing the frames its Python described at export.

A recorded page needs no Python in the browser (it is the fallback where none can
start, e.g. a site's page opened as a file, and the one file ``export-html SCENE
-o PAGE.html`` writes): the live page's own :class:`~explorer.web.live.LivePage`
describes, here, every frame the page can show without solving
(:mod:`explorer.web.recorded`: each instant of the time slider, each frame of
reference, the momentum switch, question mode and its reveal), and the live
page's script draws them (:func:`explorer.web.live_page.recorded_page`).  So
both pages show the same things the same way, and a scene that asks opens asking
in both, with nothing of the answer on the page until Reveal.

Everything a scene file says (title, description, body names) reaches the page
as text: escaped in the HTML, and in the page's data set with ``textContent``
only.  The page's Content Security Policy allows no connection and only its own
scripts (by hash, and vtk.js, which it holds, from a ``blob:`` URL).  Qt- and
VTK-free.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.actions.asking import question_text
from ..model.actions.session import Session
from ..model.state.scene import Scene
from ..model.words.text import status_text
from ..system.files import show_path
from . import PAGE_BUDGET
from .live_page import REFERENCES, recorded_page
from .recorded import encode, instants, record, thinned


@dataclass(frozen=True)
class Page:
    """An exported page.

    Attributes
    ----------
    html : str
        The whole page, one self-contained file.
    title : str
    verdict : str
        What the site's index says of it: the verdict, or while the scene asks, its question.
    asks : bool
        The scene opens asking (question mode).
    note : str or None
        What was left out to keep the page within its budget (also written on the page), or None.
    """

    html: str
    title: str
    verdict: str
    asks: bool = False
    note: str | None = None


class PageTooLarge(ValueError):
    """A page over its budget even with the fewest instants; ``str()`` is one line naming its size."""


def build_page(scene: Scene, name: str = "scene", budget: int | None = None, live: str | None = None) -> Page:
    """The recorded web page of ``scene`` (``name``, a file's stem: its title when the scene has none, shown
    printable).

    ``live``: the file name of the same scene's live page beside it (a site's), which this one names.

    A page over ``budget`` bytes (default :data:`~explorer.web.PAGE_BUDGET`), a
    long motion's, keeps fewer of its frames: its slider's instants evenly
    spaced, not at each event; then without the centre-of-mass frame, then
    without B's rest frame (:func:`_smaller`); it says so (:attr:`Page.note`).
    A page still over it is refused.

    Raises
    ------
    SceneError
        The solver refuses the scene.
    PageTooLarge
        The page cannot be kept within ``budget``.
    WebUnavailable
        vtk.js of the web runtime is missing.
    """
    from .runtime import check_vtk

    budget = PAGE_BUDGET if budget is None else budget
    check_vtk()
    session = Session(scene)
    asks = session.asking.asking
    title = scene.title or show_path(name)
    verdict = question_text(scene) if asks else status_text(scene, session.solution)
    recording = record(scene)
    whole, note = recorded_page(scene, title, encode(recording), live), None
    for times, references in _smaller(session):  # a long motion: what goes, in turn, until the page fits
        if _bytes(whole) <= budget:
            break
        kept = thinned(recording, times, references)
        note = _left_out(session, recording, kept, budget)
        whole = recorded_page(scene, title, encode(kept), live, note, references)
    size = _bytes(whole)
    if size > budget:
        raise PageTooLarge(f"the page would be {size / 1e6:.2f} MB ({size:,} bytes), over the budget of "
                           f"{budget / 1e6:g} MB ({budget:,} bytes) a page")  # fmt: skip
    return Page(whole, title, verdict, asks, note)


#: What a page too large leaves out, in turn: the frames of reference it keeps (B's rest frame and the centre of
#: mass's redraw a long motion's paths at each instant; the world's draws them once).
FEWER_REFERENCES = (REFERENCES, REFERENCES[:2], REFERENCES[:1])
#: How the page names each frame of reference it leaves out.
REFERENCE_WORDS = {"rest": "no rest frame", "com": "no centre-of-mass frame"}


def _smaller(session: Session) -> list[tuple[list[float] | None, tuple[str, ...]]]:
    """The ways to keep a page within its budget, smaller and smaller: ``(instants or None for all, references)``:
    a slider that stops at the even instants and the contact, not at each event; then fewer frames of reference."""
    fewer = instants(session, at_events=False) if session.solution.events else None
    return [(fewer, references) for references in FEWER_REFERENCES if fewer is not None or references != REFERENCES]


def _left_out(session: Session, recording: dict, kept: dict, budget: int) -> str:
    """What a page kept within ``budget`` leaves out of ``recording`` (``kept`` is what it holds), in words."""
    parts = []
    if len(kept["times"]) < len(recording["times"]):
        parts.append(f"the time slider does not stop at each of the motion's {len(session.solution.events)} events "
                     f"(only at {len(kept['times'])} instants)")  # fmt: skip
    frames = [REFERENCE_WORDS[r] for r in REFERENCES if r not in kept["states"]]
    if frames:
        parts.append(f"the page has {' and '.join(frames)}")
    return f"{' and '.join(parts)}, to keep the page within {budget / 1e6:g} MB"


def _bytes(text: str) -> int:
    """The size of ``text`` written as UTF-8, in bytes."""
    return len(text.encode("utf-8"))
