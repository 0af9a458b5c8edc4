"""One scene as one offline web page: the 3-D view (vtk.js), the verdict, the values, f(t), and time.

The page is built from the same session, drawing code and words as the window:
the scene is drawn by :class:`~explorer.view.scene_view.SceneView` (once in the
world frame, once in B's rest frame) and exported as vtk.js actors
(:mod:`explorer.web.vtkjs`); the slider's instants are that same drawing
recorded over time (:mod:`explorer.web.timeline`); the verdict, values, trace
and events are :mod:`explorer.model.words.text` and :mod:`explorer.model.words.values`; the
colour key is :func:`~explorer.view.overlay.legend_rows`; f(t) is the
picture ``render --plot`` draws (:mod:`explorer.web.parabola_svg`).

Everything a scene file says (title, description, body names) reaches the page
as text: escaped in the HTML, and in the page's data (JSON, with ``<``, ``>``
and ``&`` escaped) set with ``textContent`` only.  The page's Content Security
Policy allows no connection and only its own scripts (by hash), so neither a
request nor an injected script could run.  Qt-free.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
from dataclasses import dataclass
from importlib import resources

import numpy as np

from ..model.actions.session import HORIZON_PLAY_SECONDS, Session
from ..model.derived.stepping import stepped_test
from ..model.state.scene import Scene
from ..model.words.text import fmt, status_text
from ..model.words.values import event_rows, pair_rows, trace_rows, value_rows
from ..system import interrupt
from ..system.files import show_path
from ..view.bounds import FRAME_ALL_TIP, whole_bounds
from ..view.overlay_text import legend_rows
from ..view.palette import VERDICT_COLORS, VERDICT_PLAIN
from ..view.scene_view import SceneView
from . import PAGE_BUDGET
from .parabola_svg import PLOT_SIZE, parabola_svg
from .timeline import instants, record, shown_actors
from .vtkjs import StableIds, scene_archive, viewer_script

#: Size of the drawing the page's scene is exported from: its camera frames the scene for this aspect (a
#: narrower view, e.g. a phone held upright, steps back to keep the width in view); the thumbnails' size.
VIEW_SIZE = (960, 768)
#: What a site's recorded page says of its live twin (a browser starts no Python in a page opened from a file).
LIVE_NOTE = ("A recording: its live page, where the spheres can be dragged, is {page} beside it; a browser runs it "
             "from a web server (python3 -m http.server in this folder), not from a file.")  # fmt: skip
#: The page gives up waiting for its 3-D view after this long (and says so).
LOAD_SECONDS = 60
#: Words of the page's controls (the scene's own words come from the model).
WORDS = {
    "play": "Play",
    "pause": "Pause",
    "loading": "Drawing the 3-D view…",
    "failed": "This browser could not draw the 3-D view (it needs WebGL); the values and f(t) are below.",
}


@dataclass(frozen=True)
class Page:
    """An exported page.

    Attributes
    ----------
    html : str
        The whole page, one self-contained file.
    thumbnail : (H, W, 3) uint8
        The world-frame view at t = 0, as the drawing code renders it.
    title : str
    verdict : str
    note : str or None
        What was left out to keep the page within its budget (also written on the page), or None.
    """

    html: str
    thumbnail: np.ndarray
    title: str
    verdict: str
    note: str | None = None


class PageTooLarge(ValueError):
    """A page over its budget even with the fewest instants; ``str()`` is one line naming its size."""


def build_page(scene: Scene, name: str = "scene", budget: int | None = None, live: str | None = None) -> Page:
    """The web page of ``scene`` (``name``, a file's stem: its title when the scene has none, shown printable).

    ``live``: the file name of the same scene's live page beside it (a site's), which this one names.

    A page over ``budget`` bytes (default :data:`~explorer.web.PAGE_BUDGET`), a
    long motion's, is recorded again with its slider's instants evenly spaced,
    not at each event, and says so (:attr:`Page.note`); a page still over it is
    refused.

    Raises
    ------
    SceneError
        The solver refuses the scene.
    PageTooLarge
        The page cannot be kept within ``budget``.
    RenderUnavailable
        Nothing can be drawn off-screen here.
    WebUnavailable
        The vtk.js exporter is missing.
    """
    from ..view.render import check_offscreen, draw_offscreen

    budget = PAGE_BUDGET if budget is None else budget
    check_offscreen()
    viewer = viewer_script()
    session = Session(scene)
    solution, layers, steps = session.solution, session.view.layers, session.view.steps
    title = scene.title or show_path(name)
    verdict = status_text(scene, solution)
    svg, axes = parabola_svg(solution)
    plotter, _, world = draw_offscreen(scene, VIEW_SIZE, 0.0, None, 0.0, solution)
    try:
        interrupt.check()  # the safe points of a page: here, before the picture is taken, and between instants
        plotter.renderer.hide_axes()  # vtk.js would not turn the axes with the camera
        for text in (world.text.verdict, world.text.note, *world.text.legend):  # the page writes these as text
            text.SetVisibility(False)
        thumbnail = plotter.screenshot(return_img=True)[..., :3]
        relative = SceneView(plotter)
        relative.update(scene, solution, 0.0, 1.0, layers, steps)
        plotter.renderer.hide_axes()
        plotter.render()
        views = {"world": (world, 0.0), "relative": (relative, 1.0)}
        whole_boxes = {
            key: [list(corner) for corner in whole_bounds(scene, solution, at)] for key, (_, at) in views.items()
        }
        ids = StableIds()  # the objects' names in the page, the same in any process
        archive = scene_archive(plotter.render_window, ids)
        actors = {key: shown_actors(view, ids) for key, (view, _) in views.items()}  # what the archive holds

        def document(times: np.ndarray, note: str | None) -> str:
            """The whole page with the slider at ``times``, the views recorded there."""
            frames = {key: record(session, view, at, times, actors[key]) for key, (view, at) in views.items()}
            data = {
                "scene": archive,
                "frames": frames,
                "times": [float(t) for t in times],
                "timeLabels": [fmt(t) for t in times],
                "playRate": scene.horizon / HORIZON_PLAY_SECONDS,
                "plotAxes": axes,
                "plotSize": list(PLOT_SIZE),
                "viewAspect": VIEW_SIZE[0] / VIEW_SIZE[1],
                "whole": whole_boxes,  # Frame all, in each frame: every body over the whole motion
                "loadSeconds": LOAD_SECONDS,
                "words": WORDS,
            }
            body = _body(session, title, verdict, svg, len(times), frames["world"]["notes"][0][1], note, live)
            return _document(title, body, data, viewer)

        times, note = instants(session), None
        whole = document(times, note)
        fewer = instants(session, at_events=False)
        if _bytes(whole) > budget and len(fewer) < len(times):  # a long motion: its events' instants go
            note = (f"the time slider does not stop at each of the motion's {len(solution.events)} events "
                    f"(only at {len(fewer)} instants), to keep the page within {budget / 1e6:g} MB")  # fmt: skip
            whole = document(fewer, note)
    finally:
        plotter.close()
    size = _bytes(whole)
    if size > budget:
        raise PageTooLarge(f"the page would be {size / 1e6:.2f} MB ({size:,} bytes), over the budget of "
                           f"{budget / 1e6:g} MB ({budget:,} bytes) a page")  # fmt: skip
    return Page(whole, thumbnail, title, verdict, note)


def _bytes(text: str) -> int:
    """The size of ``text`` written as UTF-8, in bytes."""
    return len(text.encode("utf-8"))


def _body(
    session: Session,
    title: str,
    verdict: str,
    svg: str,
    count: int,
    note: str | None,
    instants_note: str | None,
    live: str | None = None,
) -> str:
    """The page's visible HTML: header, 3-D stage with its colour key, the side panel, the controls."""
    scene, solution = session.scene, session.solution
    e = html.escape
    color = VERDICT_COLORS.get(solution.sweep.status.name, VERDICT_PLAIN)
    legend = "".join(
        f'<li style="color:{e(c)}">{e(text)}<span class="swatch" style="background:{e(c)}"></span></li>'
        for c, text in legend_rows(scene, None, scene.layers)
    )
    other = scene.bodies[solution.other].name
    return f"""<div id="app">
<header><h1 id="title">{e(title)}</h1>
<p id="verdict" style="color:{color}">{e(verdict)}</p>
<p id="note"{"" if note else " hidden"}>{e(note or "")}</p>
{f'<p id="live-note">{e(LIVE_NOTE.format(page=live))}</p>' if live else ""}</header>
<main>
<section id="stage" aria-label="3-D view: drag to turn, wheel or pinch to zoom">
<div id="view"></div><div id="labels" aria-hidden="true"></div>
<ul id="legend">{legend}</ul>
<p id="loading">{e(WORDS["loading"])}</p>
</section>
<aside id="panel">
{_panel(session, svg)}
</aside>
</main>
<footer id="controls">
<button id="play" type="button">{e(WORDS["play"])}</button>
<input id="time" type="range" min="0" max="{count - 1}" step="1" value="0" aria-label="time">
<output id="time-value" for="time">t = 0</output>
{f'<small id="instants">{e(instants_note[:1].upper() + instants_note[1:])}.</small>' if instants_note else ""}
<label><input id="rest-frame" type="checkbox"> {e(other)}'s rest frame</label>
<button id="reset-camera" type="button">Reset camera</button>
<button id="frame-all" type="button" title="{e(FRAME_ALL_TIP)}">Frame all</button>
</footer>
</div>"""


def _panel(session: Session, svg: str) -> str:
    """Description, f(t), values, the decision's trace, every pair and the events, as escaped HTML."""
    scene, solution, view = session.scene, session.solution, session.view
    e = html.escape
    steps = stepped_test(solution, view.steps) if view.layers.get("steps", False) else None
    parts = []
    if scene.description:
        parts.append(f'<p id="description">{e(scene.description)}</p>')
    parts.append(f'<h2>f(t) = |p + v t|² − R²</h2><div id="plot">{svg}<div id="now-line" hidden></div></div>')
    values = value_rows(scene, solution, steps)
    rows = "".join(f'<tr><td class="name">{e(k)}</td><td>{e(v)}</td></tr>' for k, v in values)
    parts.append(f'<h2>Values</h2><table id="values">{rows}</table>')
    trace = "".join(
        f"<li>{e(question)} <i>{e(quantity)}</i> = {e(value)}<br>→ {e(answer)}</li>"
        for question, quantity, value, answer in trace_rows(solution)
    )
    parts.append(f'<h2>How it was decided</h2><ol id="trace">{trace}</ol>')
    pairs = pair_rows(scene, solution)
    if pairs:
        parts.append("<h2>Every pair</h2><ul>" + "".join(f"<li>{e(row)}</li>" for row in pairs) + "</ul>")
    events = event_rows(scene, solution, limit=None)
    if events:
        rows = "".join(f"<tr><td>{e(t)}</td><td>{e(pair)}</td><td>{e(push)}</td></tr>" for t, pair, push in events)
        parts.append(f'<h2>Events</h2><p>impulse on the first body of the pair</p><table id="events">{rows}</table>')
    return "\n".join(parts)


def script_json(data) -> str:
    """``data`` as JSON that is safe inside ``<script type="application/json">`` (no ``<``, ``>`` or ``&``)."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _hash(script: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii") + "'"


def document_head(policy: str, title: str) -> str:
    """The start of every page this package writes, up to its ``<title>``: the content security
    ``policy`` and ``title``, both already escaped for HTML."""
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Sphere Sweep Explorer">
<title>{title}</title>"""


def _document(title: str, body: str, data: dict, viewer: str) -> str:
    """The whole file: head with its Content Security Policy, the body, the data and the two scripts."""
    page_script = resources.files(__package__).joinpath("page.js").read_text(encoding="utf-8")
    style = resources.files(__package__).joinpath("page.css").read_text(encoding="utf-8")
    policy = (
        f"default-src 'none'; script-src {_hash(page_script)} {_hash(viewer)}; style-src 'unsafe-inline'; "
        "img-src data:; font-src data:; connect-src data:; base-uri 'none'; form-action 'none'"
    )
    return f"""{document_head(html.escape(policy), html.escape(title))}
<style>
{style}</style>
</head>
<body>
{body}
<script type="application/json" id="page-data">{script_json(data)}</script>
<script>{page_script}</script>
<script type="module">{viewer}</script>
</body>
</html>
"""
