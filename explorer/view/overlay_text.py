"""The words drawn over the scene: the colour key, the verdict line and the note under it.

The window and ``render`` draw them with VTK (:mod:`.overlay`), the web page as
HTML text.  numpy-, VTK- and Qt-free.
"""

from __future__ import annotations

from ..model.derived.analysis import Solution
from ..model.derived.inspection import Focus
from ..model.state.scene import LAYERS, Scene
from ..model.words.frames import frame_notes
from ..model.words.text import fmt, status_text
from ..model.words.values import conserved_line
from .palette import (
    BODY_COLORS,
    COM_COLOR,
    CONTACT_COLOR,
    ENTER_COLOR,
    EXIT_COLOR,
    FADED_COLOR,
    HALO_COLOR,
    MINKOWSKI_COLOR,
    MOMENTUM_COLOR,
    PATH_COLOR,
    REFLECT_COLOR,
)
from .placement import Placement

#: The colour key: (colour, meaning).
LEGEND_ROWS = (
    (MINKOWSKI_COLOR, "expanded sphere rA + rB"),
    (BODY_COLORS[0], "swept capsule over [0, h]"),
    (ENTER_COLOR, "first root t₀: contact starts"),
    (EXIT_COLOR, "second root t₁: contact ends"),
    (FADED_COLOR, "root outside [0, h]"),
    (CONTACT_COLOR, "contact point and normal"),
    (REFLECT_COLOR, "path after the bounce"),
)
#: The layer that draws what a row of :data:`LEGEND_ROWS` names: a hidden layer's row leaves the key.
LEGEND_LAYER = {
    "expanded sphere rA + rB": "minkowski",
    "swept capsule over [0, h]": "capsules",
    "first root t₀: contact starts": "roots",
    "second root t₁: contact ends": "roots",
    "root outside [0, h]": "roots",
    "contact point and normal": "contact",
    "path after the bounce": "reflection",
}
#: The same key for a ball in a container, where the larger root is the contact.
LEGEND_INSIDE = {
    "expanded sphere rA + rB": "shrunken container rC − rA",
    "first root t₀: contact starts": "first root t₀: in the past",
    "second root t₁: contact ends": "second root t₁: reaches the wall",
}
#: ``all`` mode, where bodies turn at their events: no second root or red bounce path is drawn,
#: but faint arrows and every body's path are (meaning -> (meaning, colour)).
LEGEND_ALL = {
    "swept capsule over [0, h]": ("swept capsule up to the first event", BODY_COLORS[0]),
    "second root t₁: contact ends": ("faint arrow: the flight a body never makes", FADED_COLOR),
    "path after the bounce": ("each body's path through its events", PATH_COLOR),
}
#: The inspector describing another pair (:mod:`.inspection`): its marks replace the primary pair's
#: expanded sphere and roots (meaning -> (meaning, colour); None: the row is left out).
LEGEND_FOCUS = {
    "expanded sphere rA + rB": ("halo: the pair described", HALO_COLOR),
    "first root t₀: contact starts": ("at an event: velocity before (faint), after", PATH_COLOR),
    "second root t₁: contact ends": None,  # (``all`` mode's row in its place stays)
    "root outside [0, h]": None,
}


#: The momentum layer's rows of the key (shown while it is on).
LEGEND_MOMENTUM = (
    (MOMENTUM_COLOR, "momentum m v, to one scale (a fixed body has none)"),
    (COM_COLOR, "centre of mass of the free bodies, and its path"),
)


def legend_rows(
    scene: Scene, focus: Focus | None = None, layers: dict[str, bool] | None = None
) -> list[tuple[str, str]]:
    """The colour key of ``scene``'s picture: ``[(colour, meaning), ...]`` (a container's and ``all`` mode's own
    words, and the inspector's while it describes a pair other than the primary one), without the rows of the
    layers ``layers`` hides (default: :data:`explorer.model.state.scene.LAYERS`)."""
    shown = {**LAYERS, **(layers or {})}
    rows = []
    for color, text in LEGEND_ROWS:
        if not shown.get(LEGEND_LAYER[text], True) and not (scene.mode == "all" and text in LEGEND_ALL):
            continue
        if (
            focus is not None
            and not focus.primary
            and text in LEGEND_FOCUS
            and not (scene.mode == "all" and text in LEGEND_ALL)
        ):
            if LEGEND_FOCUS[text] is not None:
                rows.append(LEGEND_FOCUS[text][::-1])
            continue
        if scene.mode == "inside":
            text = LEGEND_INSIDE.get(text, text)
        elif scene.mode == "all":
            text, color = LEGEND_ALL.get(text, (text, color))
        rows.append((color, text))
    return rows + (list(LEGEND_MOMENTUM) if shown.get("momentum") else [])


def verdict_line(scene: Scene, solution: Solution, at: Placement, focus: Focus | None = None,
                 subscripts: bool = True) -> str:  # fmt: skip
    """The verdict at the top left, with the time and frame when not the defaults (the inspected pair's when
    ``focus`` describes another than the primary pair)."""
    line = status_text(scene, solution, subscripts, focus)
    if at.time != 0.0:
        line += f"   ·   t = {fmt(at.time)}"
    if at.reference >= 0.5:
        line += f"   ·   {scene.bodies[solution.other].name}'s rest frame"
    if at.com_frame:
        line += "   ·   centre-of-mass frame"
    return line


def note_text(scene: Scene, solution: Solution, at: Placement, note: str | None, conserved: bool = False) -> str | None:
    """The note under the verdict: why the motion stops early (when the time shown is past it), else ``note``
    (the frame-stepped engine's verdict); with ``conserved``, the free bodies' momentum and energy after it (in
    the frame drawn); then, once the view has turned to a moving frame, what a student could misread there (a
    fixed body that only appears to move, where the frame changed: :func:`.frames.frame_notes`)."""
    path = solution.path
    if path.stopped and at.time >= path.end:
        note = f"the motion is known to t = {fmt(path.end)}: {path.stopped}"
    turned = at.blend >= 0.5
    if conserved:
        line = conserved_line(scene, solution, at.time, at.frame if turned else None)
        note = "\n".join(part for part in (note, line) if part)
    if turned:
        note = "\n".join([*([note] if note else []), *frame_notes(scene, at.frame)]) or None
    return note


def wrapped(text: str, width_px: float, font_px: float) -> str:
    """``text`` broken into lines at spaces so that each fits ``width_px`` pixels in a font of ``font_px``
    (a character taken as 0.56 of the font size, about a sans-serif's average)."""
    import textwrap

    columns = max(12, int(width_px / (0.56 * font_px)))
    return "\n".join(textwrap.wrap(text, columns)) or text
