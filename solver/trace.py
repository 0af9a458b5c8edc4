"""The tests that decided a sweep, in order, written for a student to read.

Seed 003's early-outs become explicit steps: contact at t = 0, relative motion,
approaching or not, the discriminant, then the horizon.  Each step carries the
value that was tested and whether its sign was proved in float64 or needed
exact arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass

from .status import Status


@dataclass(frozen=True, slots=True)
class TraceStep:
    """One test of the decision tree.

    Attributes
    ----------
    question : str
        What is being asked, e.g. ``"approaching?"``.
    quantity : str
        The formula tested, e.g. ``"p·v"``.
    value : float
        Its value (the sign is exact; the digits are a correctly rounded float
        when ``exact`` is True, a float64 evaluation otherwise).
    answer : str
        The conclusion in words.
    exact : bool
        True when float64 could not prove the sign and integers decided it.
    """

    question: str
    quantity: str
    value: float
    answer: str
    exact: bool

    def __str__(self) -> str:
        how = "decided exactly" if self.exact else "float64, error-bounded"
        return f"{self.question} {self.quantity} = {self.value:.6g} → {self.answer} [{how}]"


def _fmt(t: float | None) -> str:
    return "none" if t is None else f"{t:.6g}"


def build_trace(s) -> tuple[TraceStep, ...]:
    """Steps of the decision for sweep result ``s`` (a :class:`solver.result.Sweep`)."""
    steps: list[TraceStep] = []

    def step(question: str, quantity: str, value: float, answer: str) -> None:
        steps.append(TraceStep(question, quantity, value, answer, s.exact))

    (_inside_steps if s.inside else _pair_steps)(s, step)
    return tuple(steps)


def _inside_steps(s, step) -> None:
    """The container's ladder: inside at t = 0, moving, out by the horizon (``step`` records each)."""
    c, _pv, vv, _disc = s._values
    status = s.status
    if status is Status.OUTSIDE:
        step("inside at t = 0?", "|p|² − (rC − rA)²", c, "≥ 0: the ball is not strictly inside the shrunken container")
        step(
            "outside at t = 0?",
            "|p|² − (rC + rA)²",
            s.outside_gap,
            "> 0: the ball lies entirely outside the container → no contact from inside",
        )
        return
    if status is Status.OVERLAPPING:
        step(
            "inside at t = 0?",
            "|p|² − (rC − rA)²",
            c,
            "≥ 0: the ball already touches or crosses the wall → contact at t = 0",
        )
        return
    step("inside at t = 0?", "|p|² − (rC − rA)²", c, "< 0: the ball starts strictly inside the shrunken container")
    if status is Status.NO_RELATIVE_MOTION:
        step("moving?", "|v|²", vv, "= 0: the ball never moves relative to the container → no contact")
        return
    step("moving?", "|v|²", vv, "> 0: the ball will leave the shrunken container at the larger root t₁")
    fh = s.gap_at_horizon
    if status is Status.HIT:
        answer = f"≥ 0: it reaches the wall at t₁ = {_fmt(s.toi)} ≤ h → HIT"
    else:
        t1 = s.roots[1] if s.roots else None
        answer = f"< 0: still inside at the horizon; t₁ = {_fmt(t1)} > h → LATER"
    step("out by the horizon?", "|p + v·h|² − (rC − rA)²", fh, answer)


def _pair_steps(s, step) -> None:
    """The pair's ladder: apart, moving, approaching, the line meets the sphere, within the horizon."""
    c, pv, vv, disc = s._values
    status = s.status
    if status is Status.OVERLAPPING:
        step("apart at t = 0?", "|p|² − R²", c, "≤ 0: the spheres already touch or overlap → contact at t = 0")
        return
    step("apart at t = 0?", "|p|² − R²", c, "> 0: apart at t = 0")
    if status is Status.NO_RELATIVE_MOTION:
        step("moving?", "|v|²", vv, "= 0: no relative motion, the gap never changes → no contact")
        return
    step("moving?", "|v|²", vv, "> 0: relative motion")
    if status is Status.SEPARATING:
        step("approaching?", "p·v", pv, "≥ 0: moving apart or sideways, the gap only grows → no contact")
        return
    step("approaching?", "p·v", pv, "< 0: approaching")
    question, quantity = "path meets the expanded sphere?", "|v|²R² − |p×v|²"
    if status is Status.MISS:
        d = s.closest.distance
        step(question, quantity, disc, f"< 0: closest approach {d:.6g} > R = {s.radius:.6g} → MISS")
        return
    step(question, quantity, disc, "≥ 0: the line of motion meets the expanded sphere")
    _horizon_steps(s, step)


def _horizon_steps(s, step) -> None:
    """A pair whose line meets the expanded sphere: is the first contact within the horizon?"""
    fh, ve = s.gap_at_horizon, s.vertex_test
    if s.status is Status.HIT:
        if s.by_vertex:  # the test the solver proved, not a float re-evaluation
            answer = f"≥ 0: closest approach before h, so t₀ = {_fmt(s.toi)} ≤ h → HIT"
            step("within the horizon?", "p·v + |v|²·h", ve, answer)
        else:
            answer = f"≤ 0: in contact at the horizon, so t₀ = {_fmt(s.toi)} ≤ h → HIT"
            step("within the horizon?", "|p + v·h|² − R²", fh, answer)
        return
    t0 = s.roots[0] if s.roots else None
    step("within the horizon?", "|p + v·h|² − R²", fh, "> 0: apart at the horizon")
    step(
        "vertex before h?",
        "p·v + |v|²·h",
        ve,
        f"< 0: still approaching at h; first contact t₀ = {_fmt(t0)} > h → LATER",
    )
