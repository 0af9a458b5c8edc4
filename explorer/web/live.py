"""The live web page's Python: the window's session, picture and words, run in the browser (Pyodide).

The page's script creates one :class:`LivePage` on the scene it was exported
with and asks it, after every gesture, for a :meth:`LivePage.frame`: the
picture (:func:`explorer.view.picture.describe`: every shape and label, which
the script draws with vtk.js), the verdict line, the note, the colour key, the
values, the decision's trace, the events, the parabola's curve and marks, and
the time slider's span and marks.  A drag is the window's drag
(:mod:`explorer.view.grips`): the script sends the pointer's ray in the page's
frame, Python picks, moves and edits the session (undo, redo and reset
included).  :meth:`LivePage.scene_text` and :meth:`LivePage.solution_text` are
the scene file and the ``sphere-explorer solve`` JSON of what is on screen.

Every point the page draws is in the page's own frame, a local origin and unit
(:mod:`explorer.view.local_frame`; the frame's ``local``), so that a scene far
from the origin, or very small, is drawn true in vtk.js's 32-bit floats.

Everything crosses to JavaScript as JSON text (one string each way, cheaper than
proxies of many small objects).  numpy-, VTK- and Qt-free; the same module runs
natively (the tests compare it with the command line).
"""

from __future__ import annotations

import json
import math

from ..model.actions.asking import first_contact, guess_distance, question_text, score_words, shown_layers, touches
from ..model.actions.session import Session, asked_time_range
from ..model.derived.analysis import to_dict
from ..model.derived.inspection import event_marks
from ..model.derived.stepping import stepped_test
from ..model.formats.lab_table import csv_text, table_blocks, table_rows
from ..model.formats.scene_io import dumps, file_stem, parse
from ..model.state.scene import SceneError, view_settings
from ..model.words.description import full_description, selection_words, short_description
from ..model.words.frames import frame_line
from ..model.words.momenta import bodies_at, diagram_plane, diagrams_now, plane_text
from ..model.words.parabola import parabola
from ..model.words.scene_form import scene_form
from ..model.words.text import exact_numbers, fmt, refusal
from ..model.words.values import event_rows, pair_rows, trace_rows, value_rows
from ..view.bounds import default_pose, framed_box, whole_bounds
from ..view.catalogue import LABEL_LAYERS, LEAST_DOT, LEAST_LINE, LOOKS, layer_shown
from ..view.grips import PlaneDrag, grips, key_scaled, key_step, key_target, pick
from ..view.label_places import label_plan, place
from ..view.local_frame import LocalFrame, frame_for
from ..view.overlay_text import legend_rows, note_text, verdict_line
from ..view.palette import (
    BACKGROUND,
    CONTACT_FILL,
    CURVE_COLOR,
    MINKOWSKI_COLOR,
    MOMENTUM_COLOR,
    VERDICT_COLORS,
    VERDICT_PLAIN,
    colors_by_name,
    text_colors,
)
from ..view.picture import describe, least_marks
from ..view.plot_words import marks, place_words

#: Digits of the numbers sent for drawing (positions well below a pixel; the values panel has its own words).
DRAW_DIGITS = 9
#: The page's f(t) plot in its SVG's units: the whole ``width`` × ``height`` and the margins of its data rectangle
#: (live.js draws it so; the page's data carries it as ``plotBox``).
PLOT_BOX = {"width": 460, "height": 300, "left": 64, "right": 12, "top": 14, "bottom": 34}
#: The plot's text size in the SVG's units (live.css: ``#plot svg``), for words the browser has not measured.
PLOT_FONT = 12


#: A float written to :data:`DRAW_DIGITS` significant digits (``%`` formats a float as ``format`` does, faster).
_DRAW_FORMAT = f"%.{DRAW_DIGITS}g"


def _rounded(value):
    """``value`` with its floats to :data:`DRAW_DIGITS` significant digits (nested tuples become lists)."""
    if isinstance(value, float):
        return float(_DRAW_FORMAT % value) if math.isfinite(value) else None
    if isinstance(value, (tuple, list)):  # a point's or a path's floats without a call each (a recorded page has 1e6)
        return [(float(_DRAW_FORMAT % v) if math.isfinite(v) else None) if type(v) is float else _rounded(v)
                for v in value]  # fmt: skip
    return value


def looks() -> str:
    """The catalogue as JSON: every item's look by name, every label's layer, and each text colour's readable form
    (:func:`explorer.view.palette.text_colors`); sent once."""
    return json.dumps({"items": {k: v.as_dict() for k, v in LOOKS.items()}, "labels": LABEL_LAYERS,
                       "background": BACKGROUND, "least": {"dot": LEAST_DOT, "line": LEAST_LINE},
                       "readable": text_colors()})  # fmt: skip


def plot_area() -> list[float]:
    """The plot's data rectangle [w, h] in the SVG's units (:data:`PLOT_BOX`)."""
    box = PLOT_BOX
    return [box["width"] - box["left"] - box["right"], box["height"] - box["top"] - box["bottom"]]


def plot_word_size(text: str) -> tuple[float, float]:
    """About how much room ``text`` takes in the plot, [w, h] in the SVG's units, with the margin the page adds to
    a measured word: for a word not measured (not laid out yet, or a recorded page's)."""
    return (0.62 * PLOT_FONT * len(text) + 4, PLOT_FONT + 6)


def _no_guess() -> dict:
    """A student's answer before one is given: touch or miss, the click's ray and the view it was made in."""
    return {"hit": None, "ray": None, "view": None}


class LivePage:
    """One page's session: the exported scene, edited by the reader's drags.

    Parameters
    ----------
    scene_text : str
        The scene file's text.
    """

    def __init__(self, scene_text: str) -> None:
        self.original = parse(scene_text)
        self.session = Session(self.original)
        self._drag: PlaneDrag | None = None
        self._labels: list = []  # the last frame's labels
        self._plot_now = None  # the last frame's parabola (its marks' words are placed for it)
        self._spots: tuple | None = None  # plot_word_spots's last answer: (the parabola, its marks, the spots)
        self.refusal: str | None = None
        self._guess: dict = _no_guess()  # a student's answer in question mode
        self.exact = False  # the page's *exact numbers* switch: every number to its last digit
        self._curve: tuple | None = None  # the last plot: (solution, focus, all of it but its time)
        self._key_scale = 1.0  # an arrow key's step multiplier (+ and -)
        self._key_words: str | None = None  # what the last key selected or moved, said once
        self._local: LocalFrame | None = None  # the frame the last frame was drawn in (explorer.view.local_frame)

    # -- what the page shows ----------------------------------------------------------------------
    def _placement(self):
        """Where the bodies are drawn now (:class:`explorer.view.placement.Placement`)."""
        session = self.session
        view = session.view
        return describe(session.scene, session.solution, view.time, view.reference, com=view.com,
                        ask=session.asking.hides_answers).placement  # fmt: skip

    def drawing_frame(self) -> LocalFrame:
        """The frame the page draws in (:mod:`explorer.view.local_frame`): that of the last frame sent (the page's
        camera and rays are in it), or before any, of what the picture frames now."""
        if self._local is None:
            self._local = frame_for(self._placement().bounds)
        return self._local

    def frame(self) -> str:
        """Everything the page shows now, as JSON (see the module docstring); its numbers rounded to what they
        mean, or every digit of them with the *exact numbers* switch on (:meth:`set_exact`)."""
        return json.dumps(self.frame_data(), ensure_ascii=False, allow_nan=False)

    def set_exact(self, on: bool) -> None:
        """The *exact numbers* switch: the values, the table and the diagrams' totals to their last digit."""
        self.exact = bool(on)

    def frame_data(self) -> dict:
        """:meth:`frame` before it is written as JSON (what a recorded page records, :mod:`explorer.web.recorded`)."""
        with exact_numbers(self.exact):
            return self._frame_data()

    def _frame_data(self) -> dict:
        session = self.session
        scene, solution, view = session.scene, session.solution, session.view
        focus = session.inspection.focus(solution, view.time)
        asking = session.asking.hides_answers  # nothing of the answer reaches the page's text
        layers = shown_layers(view.layers, view.stage)
        picture = describe(scene, solution, view.time, view.reference, layers, view.steps, focus, handles=True,
                           com=view.com, ask=asking)  # fmt: skip
        self._labels = picture.labels
        at = picture.placement
        lo, hi = asked_time_range(scene) if asking else session.time_range()
        fractions, marked = ([], None) if asking else event_marks(solution.events, (lo, hi))
        steps = stepped_test(solution, view.steps) if view.layers.get("steps") else None
        frame = session.frame  # the frame every number is in: the one the switches name, at the time shown
        bodies = bodies_at(scene, solution, view.time, frame)  # the table and the diagram at the time shown
        # every point drawn is in the page's own frame, every length in its unit: one around what the picture frames
        local = self._local = frame_for(at.bounds)
        data = {
            "shapes": [
                {
                    "name": s.name,
                    "kind": s.kind,
                    "args": _rounded(local.args(s.kind, s.args)),
                    "color": s.color,
                    "opacity": s.opacity,
                    "visible": layer_shown(LOOKS[s.name].layer, layers),
                }  # the stage's layers, as the window draws
                for s in picture.shapes
            ],  # fmt: skip
            # drawn at least a few pixels wide: a dot at each opaque body, a line along each path (picture.least_marks)
            "least": self._least(local, least_marks(picture.shapes, layers)),
            "labels": [
                {
                    "name": x.name,
                    "anchor": _rounded(local.point(x.anchor)),
                    "text": x.text,
                    "color": x.color,
                    "offset": list(x.offset),
                }
                for x in picture.labels
                if layers.get("labels", True) and layers.get(LABEL_LAYERS[x.name], True)  # only the labels shown
            ],  # fmt: skip
            "layers": view.layers,
            "local": local.as_dict(),
            "bounds": _rounded([local.point(p) for p in at.bounds]),
            "radii": _rounded([local.length(r) for r in at.radii]),
            "centers": _rounded([local.point(c) for c in at.centers]),
            "names": [body.name for body in scene.bodies],
            "arrows": [
                None if a is None else _rounded([local.point(p) for p in a])
                for a in picture.velocity_arrows(len(scene.bodies))
            ],  # (start, end) or null, by body
            "verdict": question_text(scene) if asking else verdict_line(scene, solution, at, focus),
            "verdictColor": VERDICT_PLAIN if asking else VERDICT_COLORS.get(solution.sweep.status.name, VERDICT_PLAIN),
            "note": None if asking else note_text(scene, solution, at, picture.note, layers.get("conserved", False)),
            "legend": legend_rows(scene, focus, layers),
            "values": [] if asking else value_rows(scene, solution, steps, focus, view.time, frame),
            "trace": [] if asking else trace_rows(solution, focus),
            "pairs": [] if asking else pair_rows(scene, solution),
            "events": [] if asking else event_rows(scene, solution, limit=None),
            "inspected": session.inspection.event,
            "plot": self._plot(focus) if view.stage in ("roots", "shown") else self._no_plot(),
            "stage": view.stage,
            # what the page does with the stage, decided here: the question is open; the answer is all shown
            "asking": view.stage == "asking",
            "answered": view.stage == "shown",
            "question": question_text(scene),
            # for a screen reader: said after each change (not while a drag goes on), and all of it on request
            "spoken": None if session.dragging else short_description(scene, solution, asking, question_text(scene)),
            "spokenAll": full_description(scene, solution, asking, question_text(scene)),
            "form": scene_form(scene),  # the Scene panel's fields and their accessible names
            "guess": {"hit": self._guess["hit"], "placed": self._guess["ray"] is not None},
            "score": self.score(self._guess) if view.stage == "shown" and self._guess["hit"] is not None else None,
            "time": {
                "t": view.time,
                "label": fmt(view.time),
                "lo": lo,
                "hi": hi,
                "marks": fractions,
                "marked": marked,
                "playing": view.playing,
            },  # fmt: skip
            "momenta": self._momenta(bodies, frame),
            "momentumColor": MOMENTUM_COLOR,
            "exact": self.exact,
            # a block per body (every number fits a phone's width), under the line naming the frame they are in
            "table": {"blocks": table_blocks(table_rows(bodies)), "frame": frame_line(scene, frame)},
            "restFrame": view.rest_frame,
            "comFrame": view.com_frame,
            "turning": session.reference.turning,
            # the rest frame's body: while asking, the second body as given (the one A meets first is the answer)
            "other": scene.bodies[1 if asking else solution.other].name,
            "title": scene.title,
            "fileName": file_stem(scene.title),  # what a download is called (+ .json, .csv)
            "description": scene.description,
            "canUndo": session.history.can_undo,
            "canRedo": session.history.can_redo,
            "dragging": session.dragging,
            "refusal": self.refusal,
            "keyWords": self._key_words,  # said once, by the page's live region
        }
        self.refusal = None
        self._key_words = None
        return data

    @staticmethod
    def _least(local: LocalFrame, marks: tuple[list, list]) -> dict:
        """The least marks (:func:`explorer.view.picture.least_marks`) in the page's frame: ``dots`` [[point,
        colour], ...] and ``lines`` [[[point, ...], colour], ...]."""
        dots, lines = marks
        return {"dots": [[_rounded(local.point(p)), color] for p, color in dots],
                "lines": [[[_rounded(local.point(p)) for p in path], color] for path, color in lines]}  # fmt: skip

    def _momenta(self, bodies: list, frame) -> dict:
        """The momenta diagrams (:func:`explorer.model.words.momenta.diagrams_now`; ``bodies`` at the time shown,
        in ``frame``, the frame at that time) in their plane's two coordinates, the plane named in ``caption``:
        ``{"plane": "xy", "caption", "diagrams": [{"title", "links": [[name, color, [x0, y0], [x1, y1]], ...],
        "total"}]}``."""
        session = self.session
        scene = session.scene
        diagrams = diagrams_now(scene, session.solution, session.view.time, session.inspection.event, bodies, frame)
        i, j = diagram_plane([chain for _, chain in diagrams])
        colors = colors_by_name(scene)
        flat = lambda p: [p[i], p[j]]  # noqa: E731
        return {
            "plane": "xyz"[i] + "xyz"[j],
            "caption": plane_text((i, j)),
            "diagrams": [
                {
                    "title": title,
                    "total": chain.total_text,
                    "links": [[name, colors[name], flat(tail), flat(tip)] for name, tail, tip in chain.links],
                }
                for title, chain in diagrams
            ],  # fmt: skip
        }

    def table_csv(self) -> str:
        """The data table as CSV at the time shown, in the frame the switches name (what *Save CSV* downloads)."""
        session = self.session
        return csv_text(session.scene, session.solution, session.view.time, session.reference.kind)

    # -- question mode ----------------------------------------------------------------------------
    def ask(self, on: bool) -> None:
        """Ask the scene's question (the answer hidden; the student's last guess forgotten), or show the answer."""
        self._guess = _no_guess()
        self.session.ask(bool(on))

    def reveal(self) -> None:
        """Start the reveal; :meth:`advance_reveal` runs it."""
        self.session.reveal()

    def advance_reveal(self, seconds: float) -> bool:
        """Run the reveal on by ``seconds`` of wall time; True while it still runs."""
        self.session.advance_reveal(float(seconds))
        return self.session.asking.revealing

    def guess(self, hit, ray: str | None = None, view_direction: str | None = None) -> None:
        """The student's answer while asking: ``hit`` (true: they touch, false: they miss, null: not said), and
        optionally where (a click: the pointer's ray ``[origin, direction]``, in the page's frame, and the view
        direction, JSON)."""
        if not self.session.asking.asking:
            return
        self._guess["hit"] = None if hit is None else bool(hit)
        if ray is not None:
            self._guess["ray"], self._guess["view"] = self._ray(ray), json.loads(view_direction)

    def score(self, guess: dict) -> dict:
        """A student's answer ``guess`` (``hit``: true or false; ``ray`` and ``view``: where they clicked, or None)
        against the truth: ``right`` (the verdict), ``truth`` (they touch), ``distance`` (from the clicked point to
        the first contact, in A's radii; null without both) and the ``words`` the page shows."""
        scene, solution = self.session.scene, self.session.solution
        truth = touches(scene, solution)
        contact = first_contact(scene, solution)
        distance = None
        if contact is not None and guess.get("ray") is not None:
            origin, direction = guess["ray"]
            distance = guess_distance(tuple(origin), tuple(direction), tuple(guess["view"]), contact,
                                      scene.bodies[0].radius)  # fmt: skip
        return {"right": guess["hit"] == truth, "truth": truth, "distance": distance,
                "words": score_words(guess["hit"], truth, distance)}  # fmt: skip

    def set_layer(self, name: str, on: bool) -> None:
        """Show or hide a layer (the page's switches: the momenta)."""
        self.session.set_layer(str(name), bool(on))

    def _plot(self, focus) -> dict:
        """The parabola f(t) of the described pair: the curve, its marks with their words and colours
        (:func:`explorer.view.plot_words.marks`), the ticks, the ranges (the page maps them to SVG; where the words go
        it asks :meth:`place_plot_words`); all but the time marked on it made once for a solution and pair (playing,
        or recording a page, moves only that)."""
        solution = self.session.solution
        known = self._curve
        if known is None or known[0] is not solution or known[1] is not focus:
            plot = parabola(solution, 0.0, focus)
            known = self._curve = (solution, focus, plot, self._curve_data(plot))
        self._plot_now = known[2]
        return {**known[3], "now": self.session.view.time}

    def _curve_data(self, plot) -> dict:
        """:meth:`_plot` but its ``now``."""
        lo, hi = plot.t_range
        return {
            "t": _rounded(plot.t),
            "f": _rounded(plot.f),
            "range": list(plot.t_range),
            "fRange": list(plot.f_range()),
            "marks": [
                {"name": m.name, "t": m.t, "f": m.f, "text": m.text, "color": m.color, "root": m.name != "vertex"}
                for m in marks(plot)
            ],  # fmt: skip
            "ticks": [[t, f"{float(f'{t:.3g}'):g}"] for t in (lo, (lo + hi) / 2.0, hi)],
            "horizon": plot.horizon,
            "spans": plot.contact_spans(),
            "title": plot.title(),
            "colors": {"curve": CURVE_COLOR, "contact": CONTACT_FILL, "vertex": MINKOWSKI_COLOR},
        }

    def _no_plot(self) -> None:
        """No plot in this frame (it waits for the reveal's roots): none to place words in."""
        self._plot_now = None

    def place_plot_words(self, screen: str) -> str:
        """Where the words of the parabola's marks go in the page's plot (the rule of the window's and the pictures',
        :func:`explorer.view.plot_words.place_words`): ``screen`` (JSON) has each word's measured ``sizes``
        {name: [w, h]} and the plot's data rectangle ``area`` [w, h], in the SVG's units; returns
        {name: [t, f] or null} for the plot last described."""
        data = json.loads(screen)
        return json.dumps(self._word_spots(data["sizes"], data["area"]))

    def plot_word_spots(self) -> dict:
        """:meth:`place_plot_words` for the plot last described, each word's size estimated (a recorded page's,
        which has no Python to measure with): {name: [t, f] or None}."""
        plot = self._plot_now
        if plot is None:
            return {}
        shown = marks(plot)  # a parabola's marks change only with their words' digits (exact numbers)
        if self._spots is None or self._spots[0] is not plot or self._spots[1] != shown:  # not at each instant
            self._spots = (plot, shown, self._word_spots({m.name: None for m in shown}, plot_area()))
        return dict(self._spots[2])

    def _word_spots(self, measured: dict, area) -> dict:
        """Where the words of the last plot's marks named in ``measured`` ({name: [w, h], or None: not measured,
        estimated}) go in its data rectangle ``area`` [w, h]: {name: [t, f] or None}, JSON-ready."""
        plot = self._plot_now
        if plot is None:
            return {}
        shown = [m for m in marks(plot) if m.name in measured]
        sizes = {m.name: tuple(measured[m.name] or plot_word_size(m.text)) for m in shown}
        spots = place_words(shown, sizes, tuple(area), plot.t_range, plot.f_range())
        return {name: None if spot is None else list(spot) for name, spot in spots.items()}

    def whole_box(self) -> str:
        """What *Frame all* frames now (:func:`explorer.view.bounds.whole_bounds`), as JSON [[x, y, z], [x, y, z]]:
        asked for when the button is pressed, not at every frame."""
        session = self.session
        box = whole_bounds(session.scene, session.solution, session.view.reference, session.asking.hides_answers)
        return json.dumps(_rounded(box))

    def default_camera(self, aspect: float, whole: bool = False) -> str:
        """The default camera for a view ``aspect`` wide (width / height; 0: unknown) framing what the picture frames
        now, or with ``whole`` every body over the whole motion (*Frame all*): :func:`explorer.view.bounds.default_pose`
        as JSON, the window's rule, in full precision, in the page's frame (:meth:`drawing_frame`)."""
        session = self.session
        scene, solution, view = session.scene, session.solution, session.view
        box = (whole_bounds(scene, solution, view.reference, session.asking.hides_answers) if whole
               else framed_box(scene, solution, view.rest_frame, view.stage == "asking"))  # fmt: skip
        return json.dumps(self.drawing_frame().pose(default_pose(box, float(aspect))))

    def saved_camera(self) -> str:
        """The scene's own camera (the window's, exported with it) in the page's frame as JSON (``position``,
        ``focal_point``, ``up``), or ``null``."""
        saved = view_settings(self.session.scene.view)["camera"]
        return json.dumps(None if saved is None else self.drawing_frame().pose(saved))

    def place_labels(self, screen: str) -> str:
        """Where the labels go (the window's rule, :mod:`explorer.view.label_places`), from what the page
        measured: ``screen`` (JSON) has the bodies' ``discs`` [[x, y, r], ...], each shown label's ``labels``
        {name: [[x, y] or null, [w, h]]} (its anchor, null behind the camera, and its size), the ``fixed`` boxes [[x0, y0, x1, y1], ...] it keeps
        clear of, the ``viewport`` [w, h] and each body's velocity ``arrows`` [[x0, y0, x1, y1] or null, ...],
        in pixels with y up; returns {name: [dx, dy] or null}."""
        data = json.loads(screen)
        session = self.session
        focus = session.inspection.focus(session.solution, session.view.time)
        at = self._placement()
        plan = label_plan(session.scene, session.solution, at, focus)
        bases = {x.name: x.offset for x in self._labels}
        labels = {name: (None if anchor is None else tuple(anchor), tuple(size), bases.get(name, (0.0, 0.0)))
                  for name, (anchor, size) in data["labels"].items()}  # fmt: skip
        arrows = [None if a is None else tuple(a) for a in data.get("arrows") or []]
        spots = place(plan, [tuple(d) for d in data["discs"]], labels, [tuple(b) for b in data["fixed"]],
                      tuple(data["viewport"]), arrows)  # fmt: skip
        return json.dumps(spots)

    def scene_text(self) -> str:
        """The scene now, as a scene file's text (what *Save…* downloads, and the window opens)."""
        return dumps(self.session.saved_scene())

    def solution_text(self) -> str:
        """What ``sphere-explorer solve`` prints for the scene now (JSON); while the answer is hidden, only that it
        is asked, and the question (a student's console gets nothing of the answer)."""
        session = self.session
        if session.asking.hides_answers:
            return json.dumps({"asking": True, "question": question_text(session.scene)}, ensure_ascii=False)
        return json.dumps(to_dict(session.solution), indent=2, allow_nan=False, ensure_ascii=False)

    # -- gestures ---------------------------------------------------------------------------------
    def press(self, ray: str, view_direction: str, shift: bool = False, slack: float = 0.0) -> bool:
        """A press with the pointer's ray ``[origin, direction]`` (JSON, in the page's frame, unit direction):
        True when it grabbed a sphere or an arrow tip (Shift on a sphere: its velocity), and the drag begins.
        ``slack``: the angle of a few pixels, which every grip spans at least (see :func:`.grips.pick`)."""
        origin, direction = self._ray(ray)
        session = self.session
        at = self._placement()
        picked = pick(grips(session.scene, at), tuple(origin), tuple(direction), float(slack))
        if picked is None:
            return False
        grip, _ = picked
        kind, position = ("center", grip.position) if grip.kind == "center" else ("velocity", grip.position)
        if shift and grip.kind == "center":
            kind, position = "velocity", at.tips[grip.body]
        self._drag = PlaneDrag(position, json.loads(view_direction), origin, direction)
        session.begin_drag(grip.body, kind, position)
        return True

    def move(self, ray: str) -> bool:
        """Move the grabbed grip with the pointer's ray (JSON); True when the scene changed."""
        if self._drag is None:
            return False
        origin, direction = self._ray(ray)
        point = self._drag.moved(origin, direction)
        if point is None:
            return False
        try:
            self.session.drag_to(point)
        except SceneError as exc:
            self.refusal = f"{exc} — the drag stops here"
            return False
        return True

    def _ray(self, ray: str) -> tuple:
        """A ray from the page (JSON ``[origin, direction]``, origin in the page's frame) in world coordinates."""
        origin, direction = json.loads(ray)
        return self.drawing_frame().world(origin), tuple(direction)

    def release(self) -> None:
        """End the drag: it becomes one undoable edit."""
        if self._drag is not None:
            self._drag = None
            self.session.end_drag()

    # -- the keyboard (the window's keys: explorer/qt/keyboard.py) ---------------------------------------
    def select_body(self, direction: int) -> bool:
        """Tab (+1) and Shift+Tab (−1) in the 3-D view: select the next or previous body, and say it (0: say the
        one selected). False past either end: the focus leaves the view, as everywhere else."""
        session = self.session
        k = session.selection.selected + int(direction)
        if not 0 <= k < len(session.scene.bodies):
            return False
        session.select(k)
        self._say_selection()
        return True

    def key_move(self, across: int, upward: int, velocity: bool, fine: bool, camera: str) -> None:
        """An arrow key (``across``: +1 right, −1 left; ``upward``: +1 up, −1 down) moves the selected body's centre
        (Shift, ``velocity``: its arrow tip) one step in the plane a drag would move it in, along the screen's right
        and up; ``camera`` (JSON) {"sight", "up"}: where the view looks and its up; ``fine``: a tenth of a step.
        One undoable edit; a refused one is said and nothing changes."""
        session = self.session
        view = json.loads(camera)
        k = session.selection.selected
        at = self._placement()
        start = at.tips[k] if velocity else at.centers[k]
        step = key_step(at.marker, self._key_scale, fine)
        end = key_target(start, view["sight"], view["up"], int(across), int(upward), step)
        try:
            session.nudge(k, "velocity" if velocity else "center", start, end)
        except SceneError as exc:
            self.refusal = str(exc)
            return
        self._say_selection()

    def key_scale(self, smaller: bool) -> None:
        """``-`` (``smaller``) halves an arrow key's step, ``+`` doubles it."""
        self._key_scale = key_scaled(self._key_scale, bool(smaller))
        self._say_selection()

    def _say_selection(self) -> None:
        """Say the body selected, where it is and the step now (the marker moves with the scene's extent)."""
        session = self.session
        step = key_step(self._placement().marker, self._key_scale)
        self._key_words = selection_words(session.scene.bodies[session.selection.selected], step)

    def open_text(self, text: str) -> str:
        """Open a scene file's ``text`` (the reader's *Open scene…*) as the page's scene, as the window opens a
        file: a fresh undo history, the file's layers and question, time 0; *Reset* goes back to it.

        Returns ``""``, or why the file was refused, in one line (then nothing changed)."""
        try:
            scene = parse(text)
            self.session.open_scene(scene, None)
        except SceneError as exc:
            return str(exc)
        self.original = scene
        self._drag = None
        self._guess = _no_guess()
        return ""

    def reset(self) -> None:
        """Back to the scene the page opened with, or last opened (undoable)."""
        self.session.revert_to(self.original, "reset to the scene as opened")

    def undo(self) -> None:
        self.session.undo()

    def redo(self) -> None:
        self.session.redo()

    def set_time(self, t: float) -> None:
        self.session.set_time(float(t))

    def advance(self, seconds: float) -> None:
        """Playback: move the time on by ``seconds`` of wall-clock time (stops at the end)."""
        self.session.advance(float(seconds))

    def set_playing(self, on: bool) -> None:
        self.session.set_playing(bool(on))

    def set_rest_frame(self, on: bool) -> None:
        self.session.set_rest_frame(bool(on))

    def set_com_frame(self, on: bool) -> None:
        self.session.set_com_frame(bool(on))

    def turn(self, seconds: float) -> bool:
        """Animate the turn to or from B's rest frame (or the centre of mass's) by ``seconds``; True while it
        still turns."""
        self.session.turn(float(seconds))
        return self.session.reference.turning

    def inspect(self, event: int | None) -> None:
        """Inspect event ``event`` (an index into the events; None: describe A and its partner again)."""
        self._refusing(self.session.inspect, None if event is None else int(event))

    def step_event(self, direction: int) -> None:
        """Inspect the next (+1) or previous (−1) event; at either end, the next frame says there is none."""
        self._refusing(self.session.step_event, int(direction))

    # -- the Scene panel (explorer.model.words.scene_form) ----------------------------------------------------------
    def edit(self, body: int, field: str, text: str) -> str:
        """Type ``text`` into ``field`` of body ``body`` (a scene field ignores it): the session's own edit.

        Returns ``""``, or the window's one line naming the field (then nothing changed)."""
        return self._edit(self.session.edit_field, int(body), str(field), str(text))

    def set_fixed(self, body: int, on: bool) -> str:
        """Make body ``body`` immovable (infinite mass), or give it mass 1; ``""`` or the refusal."""
        return self._edit(self.session.set_fixed, int(body), bool(on))

    def set_mode(self, mode: str) -> str:
        """Switch the scene's mode; ``""`` or the refusal."""
        return self._edit(self.session.set_mode, None, str(mode))

    def add_body(self) -> str:
        """Add a body clear of the others; ``""`` or the refusal."""
        return self._edit(self.session.add_body, None)

    def remove_body(self, body: int) -> str:
        """Remove body ``body``; ``""`` or the refusal."""
        return self._edit(self.session.remove_body, int(body))

    def _edit(self, action, body: int | None, *args) -> str:
        """Run a Scene panel's ``action`` on body ``body`` (selected first: the session edits the selected one)."""
        try:
            if body is not None:
                self.session.select(body)
            action(*args)
        except SceneError as exc:
            self.refusal = refusal(str(exc))
            return self.refusal
        return ""

    def _refusing(self, action, *args) -> None:
        """Run ``action``; a SceneError becomes the next frame's ``refusal`` (the page shows it a moment)."""
        try:
            action(*args)
        except SceneError as exc:
            self.refusal = str(exc)
