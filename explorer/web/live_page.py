"""A live web page: the explorer itself, its Python (the solver, the session, the picture) run by Pyodide.

The page is HTML text, the scene file's text, the catalogue of looks, and two
scripts: vtk.js (it draws) and ``live.js`` (it loads Python, draws each frame
Python describes, and turns the pointer into rays for Python's drags).  Python
and vtk.js come from the web runtime (:mod:`explorer.web.runtime`): for a site,
a shared folder beside the pages (:func:`site_page`); for one file, inside it
(:func:`single_page`).  The page requests
nothing outside its own files.

Opened where Python cannot start (a site's page as ``file://``: a browser will
not import a module from the file system), the page says how to get the live
one in one line; the site's recorded page of the same scene is beside it.

Everything a scene says reaches the page as text: escaped in the HTML, and as
JSON (``<``, ``>`` and ``&`` escaped) that the script sets with ``textContent``.
Qt-, VTK- and numpy-free (it writes text).
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
from importlib import resources

from ..model.formats.scene_io import MAX_FILE_BYTES, dumps
from ..model.state.scene import Scene
from ..view.bounds import FRAME_ALL_TIP, NEAR_CLIP_TOLERANCE
from ..view.grips import GRIP_PIXELS
from .live import PLOT_BOX, looks

#: While a sphere is dragged, the words (values, trace, events, f(t)) follow at most this often (as in the window).
PANEL_SECONDS = 0.25
#: While a sphere is dragged, the 3-D view is drawn at this fraction of its pixels a side (full at release).
DRAG_SCALE = 0.6
#: Words of the page's controls and states (the scene's own words come from Python).
WORDS = {
    "play": "Play",
    "pause": "Pause",
    "askFirst": "Ask first",
    "askAgain": "Ask again",
    "starting": "Starting Python in this page…",
    "drag": "Drag a sphere or an arrow tip · Shift+drag a sphere: its velocity · drag elsewhere: turn",
    # on a touch screen (no Shift, no hover): what a finger does
    "dragTouch": "Slide a finger on a sphere or an arrow tip to move it · elsewhere to turn · pinch to zoom",
    "stage": "3-D view: drag a sphere or an arrow tip; drag elsewhere to turn; wheel or pinch to zoom",
    # the same with a keyboard (not on a touch screen, where no Shift is): what its keys do
    "stageKeys": "3-D view: drag a sphere or an arrow tip; drag elsewhere to turn; wheel to zoom; Tab selects a body, "
    "arrow keys move it, Shift+arrows its velocity",
    "guessHint": "and, if you like, click in the view where they will touch;",
    "guessHintTouch": "and, if you like, tap the view where they will touch;",
    "failed": "This page could not start its Python ({reason}).",
    "noWebGL": "This browser could not draw the 3-D view (it needs WebGL).",
    "tooLarge": "{name}: file too large ({size} bytes; a scene file is at most {limit} bytes)",  # as the window says
}
#: The frames of reference a page has a switch for (a recorded page: those it was recorded in).
REFERENCES = ("world", "rest", "com")
#: What a page that cannot start says (explorer/web/guard.js): cut short, a runtime file missing, cut or damaged, or
#: its script never ran.  ``{file}``: the file as the page names it (runtime/…); ``{got}``, ``{want}``: its bytes
#: (a page's own: those the browser got, and :data:`PAGE_BYTES`).
GUARD_WORDS = {
    "cutPage": "This page is incomplete: its file was cut short. Download or copy it again, whole.",
    "cutPageBytes": "This page is incomplete: {got} of its {want} bytes. Download or copy it again, whole.",
    "missing": "{file} is missing: copy the whole site folder, its runtime folder included.",
    "cutFile": "{file} is incomplete ({got} of {want} bytes): copy the whole site folder again.",
    "damaged": "{file} is damaged (not the file this page was made with): copy the whole site folder again.",
    "noScript": "This page's script did not run: copy the whole site folder again, or open it in a recent browser.",
    # a site page opened from a file, its recorded twin not beside it
    "fileUrl": "Opened from a file: a browser starts no Python here. Serve the folder (python3 -m http.server) "
    "and open it from there, or use the single-file page (export-html --single).",
}
#: Every this long without Python, a page checks those of its runtime's files that have arrived (a damaged one is
#: named at once; if they are whole, it goes on waiting: a slow machine or network).
CHECK_SECONDS = 6
#: A recorded page's status line: it plays what was recorded; dragging needs the live page.
RECORDED_STATUS = "This recorded page plays the motion; open the live page to drag."
#: The same, of a site's recorded page, which names its live twin beside it (a browser runs that from a server).
RECORDED_TWIN_STATUS = ("This recorded page plays the motion; to drag, open {page} from a web server "
                        "(python3 -m http.server in this folder).")  # fmt: skip
#: A recorded page's words where they differ from a live page's.
RECORDED_WORDS = {"failed": "This page could not read its recording ({reason})."}


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _hash(script: str) -> str:
    """A CSP source allowing the inline script ``script`` by its SHA-256."""
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def script_json(data) -> str:
    """``data`` as JSON that is safe inside ``<script type="application/json">`` (no ``<``, ``>`` or ``&``)."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def page_data(scene: Scene, runtime: dict, recorded: dict | None = None) -> dict:
    """What the page's script starts from: the scene file, the catalogue, the camera rule, the words, and
    where the runtime is (``runtime``: see :func:`explorer.web.runtime.describe`); a recorded page's
    ``recorded``: the id of the element holding its frames (``frames``) and its status line (``status``)."""
    return {
        "recorded": recorded,
        "scene": dumps(scene),
        "looks": json.loads(looks()),
        # the default camera and the scene's own are Python's (LivePage.default_camera, saved_camera); this, the script's
        "camera": {"nearClip": NEAR_CLIP_TOLERANCE},
        "words": WORDS if recorded is None else {**WORDS, **RECORDED_WORDS},
        "checkSeconds": CHECK_SECONDS,
        "gripPixels": GRIP_PIXELS,
        "plotBox": PLOT_BOX,
        "panelSeconds": PANEL_SECONDS,
        "dragScale": DRAG_SCALE,
        "maxSceneBytes": MAX_FILE_BYTES,
        "runtime": runtime,
    }


def body(scene: Scene, title: str, recorded: bool = False, instants: str | None = None,
         references: tuple[str, ...] = REFERENCES) -> str:  # fmt: skip
    """The page's visible HTML: header, the 3-D stage, the side panel and the controls (filled by the script).

    A ``recorded`` page has no control of what needs Python (editing, the Scene panel, opening a file, a click as
    an answer, the table's CSV); ``instants``: what it leaves out, said under its time slider; ``references``: the frames of
    reference it has a switch for (of ``world``, ``rest``, ``com``)."""
    e = html.escape
    live = " hidden" if recorded else ""
    rest, com = ("" if name in references else " hidden" for name in ("rest", "com"))
    note = f'\n<small id="instants">{e(instants[:1].upper() + instants[1:])}.</small>' if instants else ""
    description = f'<p id="description"{"" if scene.description else " hidden"}>{e(scene.description)}</p>'
    return f"""<div id="app">
<header><div id="heading"><h1 id="title">{e(title)}</h1>
<p id="verdict"></p>
<p id="note" hidden></p></div>
<div id="tools" class="editing">
<button id="ask" type="button">{e(WORDS["askFirst"])}</button>
<button id="undo" type="button" disabled{live}>Undo</button>
<button id="redo" type="button" disabled{live}>Redo</button>
<button id="reset" type="button"{live}>Reset</button>
<button id="save" type="button" title="Download the scene as a scene file">Save…</button>
<button id="open" type="button" title="Open a scene file"{live}>Open…</button>
<input id="open-file" type="file" accept=".json,application/json" hidden></div>
<div id="ask-box" hidden><span id="your-answer">Your answer:</span>
<button id="guess-hit" type="button" aria-pressed="false">They touch</button>
<button id="guess-miss" type="button" aria-pressed="false">They miss</button>
<span id="guess-hint"{live}>{e(WORDS["guessHint"])}</span>
<button id="reveal" type="button">Reveal</button></div>
<p id="score" hidden></p></header>
<main>
<section id="stage" aria-label="{e(WORDS["stage"])}">
<div id="view"></div><div id="labels" aria-hidden="true"></div>
<ul id="legend"></ul>
<p id="status">{e(WORDS["starting"])}</p>
<p id="spoken" class="visually-hidden" aria-live="polite"></p>
<p id="toast" hidden></p>
</section>
<aside id="panel">
{description}
<details id="scene-box" open{live}><summary>Scene</summary><p id="form-refusal" role="alert" hidden></p>
<div id="scene-form"></div></details>
<details id="describe"><summary>Describe the scene in words</summary><ul id="describe-all"></ul></details>
<h2 id="plot-title">f(t)</h2><div id="plot"></div>
<h2>Values</h2><table id="values"></table>
<h2>Momenta</h2><div id="momenta"></div>
<p id="bodies-frame"></p>
<table id="bodies"></table>
<p class="row"{live}><button id="save-table" type="button">Save CSV</button>
<label><input id="exact" type="checkbox"> exact numbers</label></p>
<h2>How it was decided</h2><ol id="trace"></ol>
<div id="pairs-box" hidden><h2>Every pair</h2><ul id="pairs"></ul></div>
<div id="events-box" hidden><h2>Events</h2><p>impulse on the first body of the pair; click one to inspect it</p>
<table id="events"></table></div>
</aside>
</main>
<footer id="controls">
<div id="time-row"><button id="play" type="button">{e(WORDS["play"])}</button>
<div id="time-box"><input id="time" type="range" min="0" max="1000" step="1" value="0" aria-label="time">
<div id="time-marks"></div></div>
<output id="time-value" for="time">t = 0</output></div>{note}
<div id="switches">
<label{rest}><input id="rest-frame" type="checkbox"> <span><span id="rest-frame-name">B</span>'s rest frame</span></label>
<label{com}><input id="com-frame" type="checkbox"> centre-of-mass frame</label>
<label><input id="momentum-layer" type="checkbox"> momenta</label>
<button id="reset-camera" type="button">Reset camera</button>
<button id="frame-all" type="button" title="{e(FRAME_ALL_TIP)}">Frame all</button></div>
</footer>
</div>"""


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


def document(
    scene: Scene,
    title: str,
    runtime: dict,
    scripts: str,
    script_sources: str,
    head: str = "",
    recorded: dict | None = None,
    instants: str | None = None,
    references: tuple[str, ...] = REFERENCES,
    frames: bool = False,
) -> str:
    """The whole page: head with its Content Security Policy, the body, the data and ``scripts`` (HTML tags).

    ``script_sources``: the CSP's script sources beyond ``'wasm-unsafe-eval'`` (WebAssembly), e.g. a site's
    ``'self'`` (the shared runtime's files) or the hashes of inline scripts and ``blob:`` (the runtime's
    modules a single file unpacks).  ``head``: elements for the end of the head (data no text of the page
    holds).  ``recorded``, ``instants``, ``references``: a recorded page's (see :func:`page_data`,
    :func:`body`); it connects nowhere and runs no WebAssembly.  ``frames``: the page may frame its own files (a
    site page opened from a file looks for its recorded twin so, ``guard.js``).
    """
    style = _asset("page.css") + _asset("live.css")
    wasm, connect = ("", "'none'") if recorded else (" 'wasm-unsafe-eval'", "'self' data: blob:")
    guard = guard_script()
    policy = (
        f"default-src 'none'; script-src {script_sources} {_hash(guard)}{wasm}; style-src 'unsafe-inline'; "
        f"img-src data: blob:; connect-src {connect}; base-uri 'none'; form-action 'none'"
        + ("; frame-src 'self'" if frames else "")
    )
    data = script_json(page_data(scene, runtime, recorded))
    return _with_length(f"""{document_head(html.escape(policy), html.escape(title))}
{PAGE_BYTES.format(0)}
<script>{guard}</script>
<style>
{style}</style>{head}
</head>
<body>
{body(scene, title, recorded is not None, instants, references)}
<script type="application/json" id="page-data">{data}</script>
{scripts}
<p id="page-end" hidden></p>
</body>
</html>
""")


#: A page's length in bytes, in its head before the guard (what a page cut short says it should have had); padded
#: to a fixed width, so that writing the length in does not change it.
PAGE_BYTES = '<meta name="page-bytes" content="{:012d}">'


def _with_length(text: str) -> str:
    """``text``, a page whose head holds :data:`PAGE_BYTES` of 0, with its length in UTF-8 written there."""
    blank = PAGE_BYTES.format(0)
    return text.replace(blank, PAGE_BYTES.format(len(text.encode("utf-8"))), 1)


def guard_script() -> str:
    """The classic script at the top of every page that says why it cannot start (``guard.js``, its words
    :data:`GUARD_WORDS`)."""
    return _asset("guard.js").replace("const WORDS = GUARD_WORDS;", f"const WORDS = {script_json(GUARD_WORDS)};", 1)


def site_page(scene: Scene, title: str, recorded: str) -> str:
    """A site's live page of ``scene``: its scripts in the shared ``runtime/`` folder; opened from a file, it
    goes to the recorded page ``recorded`` beside it (a relative URL), which says how to get this one, or where that
    is missing says so itself (``guard.js``)."""
    from .runtime import APP, folder_runtime

    e = html.escape
    scripts = (
        f'<a id="recorded" href="{e(recorded)}" hidden>recorded page</a>\n'
        '<script src="runtime/vtk.js"></script>\n'
        f'<script type="module" src="runtime/{APP}"></script>'
    )
    return document(scene, title, folder_runtime(), scripts, "'self'", frames=True)


def single_page(scene: Scene, title: str) -> str:
    """``scene``'s live page as one file that works offline from anywhere (file:// too): the runtime, the
    project's sources and both scripts inside it (see :func:`explorer.web.runtime.embedded_files`)."""
    from .runtime import app_module, embedded_files, embedded_runtime

    files = embedded_files()
    app = app_module()
    blobs = "\n".join(
        f'<script type="application/octet-stream" id="runtime-{name}">{base64.b64encode(data).decode("ascii")}</script>'
        for name, data in files.items()
    )
    scripts = f'{blobs}\n<script type="module">{app}</script>'
    return document(scene, title, embedded_runtime(list(files)), scripts, f"{_hash(app)} blob:")


#: The id of the element holding a recorded page's frames.
RECORDING = "recording"


def recorded_page(
    scene: Scene,
    title: str,
    frames: str,
    live: str | None = None,
    instants: str | None = None,
    references: tuple[str, ...] = REFERENCES,
) -> str:
    """``scene``'s recorded page: the live page's drawer playing ``frames`` (:func:`explorer.web.recorded.encode`),
    with vtk.js inside it, one file that works offline from anywhere and runs no Python.

    ``live``: the file name of its live twin beside it (a site's), which its status line names; ``instants``:
    what it leaves out (to keep within its budget), said under its slider; ``references``: the frames of
    reference it was recorded in, which it has a switch for.  The frames and vtk.js
    (gzip, base64) are in the head, outside every text of the page.
    """
    from .runtime import app_module, vtk_embedded

    app = app_module()
    head = (f'\n<script type="application/octet-stream" id="runtime-vtk.js">{vtk_embedded()}</script>'
            f'\n<script type="application/octet-stream" id="{RECORDING}">{frames}</script>')  # fmt: skip
    status = RECORDED_STATUS if live is None else RECORDED_TWIN_STATUS.format(page=live)
    runtime = {"kind": "embedded", "files": ["vtk.js"]}
    return document(scene, title, runtime, f'<script type="module">{app}</script>', f"{_hash(app)} blob:", head,
                    {"frames": RECORDING, "status": status}, instants, references)  # fmt: skip
