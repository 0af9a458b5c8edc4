"""Words and numbers as the views show them: number format, root names, the verdict line.

Qt-free and VTK-free, shared by the drawing code and the panels.
"""

from __future__ import annotations

import contextlib
from contextvars import ContextVar
from typing import TYPE_CHECKING, Iterator

from solver import Status, Sweep

from ..derived.analysis import SceneEvent, Solution
from ..state.scene import Scene

if TYPE_CHECKING:
    from ..derived.inspection import Focus


#: How the status bar starts a refusal; an accepted change takes the refusal away.
REFUSED = "Refused: "


def refusal(reason: object) -> str:
    """The status-bar line for a refused action."""
    return f"{REFUSED}{reason}"


def panel_failed(what: str, error: BaseException) -> str:
    """What a panel that could not be built says in its place: what, and the error's first line."""
    reason = (str(error).strip().splitlines() or [""])[0] or type(error).__name__
    return f"{what[:1].upper()}{what[1:]} could not be shown here: {reason}"


#: A number no larger than this fraction of the numbers it was worked out from is their float64 rounding
#: (momenta that cancel, 0.3 - 0.1 - 0.2): it means 0, and people read 0.  About 4,500 units in the last place
#: of the largest of them, far below the 6 significant digits shown, far above any sum's rounding here.
NOISE = 1e-12

_EXACT: ContextVar[bool] = ContextVar("exact_numbers", default=False)


@contextlib.contextmanager
def exact_numbers(on: bool = True) -> Iterator[None]:
    """While the block runs, :func:`fmt` gives every number exactly (the page's *exact numbers* switch, the
    window's tooltips): what a student clicks to see behind a rounded one."""
    token = _EXACT.set(bool(on))
    try:
        yield
    finally:
        _EXACT.reset(token)


def exact(x: float) -> str:
    """``x`` to its last digit: the shortest text that reads back to the same float64 (``-2.220446049250313e-16``,
    ``0.1``, ``24``; a negative zero as 0)."""
    text = repr(float(x) + 0.0)
    return text.removesuffix(".0")


def fmt(x: float, scale: float | None = None) -> str:
    """A number as people read it: 6 significant digits, a negative zero as 0, and 0 for rounding noise.

    ``scale``: the size of the numbers ``x`` was worked out from (the largest momentum of a sum of momenta, the
    largest component of a vector); ``x`` no larger than :data:`NOISE` times it is their rounding and reads 0.
    Inside :func:`exact_numbers`, every digit (:func:`exact`) whatever the scale.
    """
    if _EXACT.get():
        return exact(x)
    if scale is not None and abs(x) <= NOISE * abs(scale):
        return "0"
    return f"{x + 0.0:.6g}"


def vector(v, scale: float | None = None) -> str:
    """``(x, y, z)`` with :func:`fmt` numbers, a component that is rounding read as 0 (``(24, 0, 0)``, not
    ``(24, -2.22045e-16, 0)``).  ``scale``: what the vector was worked out from (the momenta of a sum); by default
    its own largest component."""
    if scale is None:
        scale = max((abs(x) for x in v), default=0.0)
    return "(" + ", ".join(fmt(x, scale) for x in v) + ")"


def stretched_arrow(speed: float, stretch: float) -> str:
    """The words beside a velocity arrow drawn ``stretch`` times longer than true so that it leaves its sphere:
    the true speed, and by how much the arrow is longer (``speed 0.583  (arrow ×2.2)``)."""
    times = f"{stretch:.2g}" if stretch < 10.0 else f"{stretch:.0f}"
    return f"speed {fmt(speed)}  (arrow ×{times})"


def polynomial(a: float, b: float, c: float, variable: str = "t",
               scales: tuple[float, float, float] | None = None) -> str:  # fmt: skip
    """``a t² + b t + c`` with proper signs, e.g. ``81 t² − 126 t + 44.16`` (in ``variable``).

    ``scales``: what each coefficient was worked out from (:func:`coefficient_scales`), so that one that is
    rounding reads 0 (``+ 0``, not ``+ 7.16461e-18`` for a ball starting at the wall it just left).
    """
    scale_a, scale_b, scale_c = (None, None, None) if scales is None else scales
    text = f"{fmt(a, scale_a)} {variable}²"
    for value, scale, tail in ((b, scale_b, f" {variable}"), (c, scale_c, "")):
        shown = fmt(abs(value), scale)
        sign = "−" if value < 0 and shown != "0" else "+"
        text += f" {sign} {shown}{tail}"
    return text


def coefficient_scales(s: Sweep) -> tuple[float, float, float]:
    """What the coefficients of ``s``'s f(t) = ``|p + v t|² − R²`` are worked out from: ``|v|²``, ``2 |p| |v|``
    and the larger of ``|p|²`` and ``R²`` (``b`` and ``c`` are differences that can cancel to rounding)."""
    p, v = s.relative_position, s.relative_velocity
    pp, vv = sum(x * x for x in p), sum(x * x for x in v)
    return vv, 2.0 * (pp * vv) ** 0.5, max(pp, s.radius**2)


def root_label(k: int, subscripts: bool = True) -> str:
    """``t₀`` / ``t₁`` (``t0`` / ``t1`` where the font has no subscript digits)."""
    return f"t{'₀₁'[k] if subscripts else k}"


def status_text(scene: Scene, solution: Solution, subscripts: bool = True, focus: Focus | None = None) -> str:
    """The one-line verdict shown above the view and in the values panel.

    ``all`` mode adds the count of events; when another body turns A (or its
    partner) before the primary contact, the line says so instead of the
    contact that never happens.  With a ``focus`` other than the primary pair
    (:mod:`.inspection`): that pair's verdict (:func:`focus_status`).
    """
    if focus is not None and not focus.primary:
        return focus_status(scene, solution, focus, subscripts)
    line = _pair_status(scene, 0, solution.other, solution.sweep, subscripts)
    if scene.mode != "all":
        return line
    if not solution.contact_happens:
        line = first_turn_text(scene, solution)
    count = len(solution.events)
    return f"{line}   ·   {count} event{'' if count == 1 else 's'} in all"


def focus_status(scene: Scene, solution: Solution, focus: Focus, subscripts: bool = True) -> str:
    """The verdict of the inspected event, or of the pair picked over the segment of the time shown.

    E.g. ``event 4 of 26 · C–E: HIT at t₀ = 0.376991  (h = 1)``, or
    ``B–C: HIT at t₀ = 0.7  (h = 1)   ·   from t = 0.5``.
    """
    i, j = focus.pair
    if scene.mode == "pair" and 0 not in focus.pair:
        line = f"{pair_name(scene, i, j)}: pass through each other (pair mode: only {scene.bodies[0].name} collides)"
    elif not focus.contact_happens and focus.turn is not None:
        line = f"{pair_name(scene, i, j)}: {turn_text(scene, focus.turn)}"
    else:
        line = _pair_status(scene, i, j, focus.sweep, subscripts, focus.start)
    if focus.event is not None:
        return f"event {focus.event + 1} of {len(solution.events)} · {line}"
    return line if focus.start == 0.0 else f"{line}   ·   from t = {fmt(focus.start)}"


def pair_name(scene: Scene, i: int, j: int) -> str:
    """``A–B``, or ``A in C`` for a ball and its container."""
    a, b = scene.bodies[i].name, scene.bodies[j].name
    return f"{a} in {b}" if j == scene.container else f"{a}–{b}"


def first_turn_text(scene: Scene, solution: Solution) -> str:
    """Who meets first when another body turns A (or its partner) before the primary contact."""
    return turn_text(scene, solution.first_turn)


def turn_text(scene: Scene, event: SceneEvent) -> str:
    """Who meets at ``event``: ``B and C meet first, at t = 0.5``."""
    names = " and ".join(scene.bodies[i].name for i in event.pair)
    return f"{names} meet first, at t = {fmt(event.time)}"


def _pair_status(scene: Scene, i: int, j: int, s: Sweep, subscripts: bool, start: float = 0.0) -> str:
    """The verdict of the sweep ``s`` of bodies ``i`` and ``j``, whose time 0 is ``start``."""
    pair = pair_name(scene, i, j)
    t0, t1 = root_label(0, subscripts), root_label(1, subscripts)
    if s.status is Status.OVERLAPPING:
        return f"{pair}: OVERLAPPING at t = {fmt(start)} (toi = {fmt(start)})"
    if s.status is Status.HIT:
        root = t1 if s.inside else t0
        return f"{pair}: HIT at {root} = {fmt(start + s.toi)}  (h = {fmt(scene.horizon)})"
    if s.status is Status.LATER:
        root = s.roots[1] if s.inside else s.roots[0]
        name = t1 if s.inside else t0
        return f"{pair}: LATER — {name} = {fmt(start + root)} > h = {fmt(scene.horizon)}"
    if s.status is Status.MISS:
        return f"{pair}: MISS — closest approach {fmt(s.closest.distance)} > R = {fmt(s.radius)}"
    if s.status is Status.SEPARATING:
        return f"{pair}: SEPARATING — moving apart, no contact"
    if s.status is Status.OUTSIDE:
        return f"{pair}: OUTSIDE — entirely outside the container at t = {fmt(start)}, no wall to reach"
    return f"{pair}: NO RELATIVE MOTION — the gap stays {fmt(s.closest.gap)}"


def state_note(scene: Scene, solution: Solution) -> str | None:
    """A status-bar hint for states that need a word of explanation, else None."""
    s = solution.sweep
    contact = s.contact
    if contact is not None and contact.degenerate:
        return "The centres coincide: the contact normal is undefined (x axis shown)."
    if s.status is Status.OUTSIDE:
        return (
            f"{scene.bodies[0].name} is entirely outside the container at t = 0: there is no wall to reach from inside."
        )
    if s.status is Status.OVERLAPPING and scene.mode == "inside":
        return f"{scene.bodies[0].name} touches or crosses the container wall at t = 0."
    if s.status is Status.OVERLAPPING:
        return "The spheres already overlap at t = 0: contact at toi = 0."
    if s.status is Status.NO_RELATIVE_MOTION:
        return "No relative motion: the gap never changes, so there is no contact."
    return None
