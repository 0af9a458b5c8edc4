"""What a frame-stepped engine would see: the pair's positions at fixed steps and its overlap test at each.

A game engine that does not sweep moves every body by ``v * dt`` and tests
``|cB − cA| ≤ rA + rB`` (inside a container: ``|cB − cA| ≥ rC − rA``) at each
step.  Between two steps it sees nothing, so a fast small body can pass right
through a thin target: the tunnelling that swept tests exist to prevent.  This
module gives the steps, which of them the test catches, and the verdict beside
the continuous one.  Qt-free.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass

from solver import vec

from ..state.scene import check_steps
from .analysis import Solution


@dataclass(frozen=True)
class SteppedTest:
    """The overlap test at ``steps + 1`` times ``k h / steps``, k = 0 … steps, on the primary pair.

    Attributes
    ----------
    times : (steps + 1,) float, a tuple
    a_centers, b_centers : (steps + 1, 3) float, tuples of 3-tuples
        The two centres at those times, moving as at t = 0 (the engine knows no
        sweep and no response until it sees a contact).
    caught : (steps + 1,) bool, a tuple
        The overlap test holds at that step.
    first : int or None
        The first step that catches the contact, or None.
    continuous_toi : float or None
        The exact first contact in [0, h] (the sweep's answer), for comparison.
    """

    times: tuple[float, ...]
    a_centers: tuple[tuple[float, float, float], ...]
    b_centers: tuple[tuple[float, float, float], ...]
    caught: tuple[bool, ...]
    first: int | None
    continuous_toi: float | None

    @property
    def tunnels(self) -> bool:
        """The continuous answer has a contact in [0, h] and no step sees it."""
        return self.continuous_toi is not None and self.first is None

    def summary(self, fmt, sep: str = "\n") -> str:
        """What the engine concludes, numbers written with ``fmt``.

        ``sep`` comes between a miss and its explanation: a line break for the
        view's note, ``" — "`` for one line in the values panel.
        """
        steps = len(self.times) - 1
        head = f"frame-stepped engine ({steps} step{'s' if steps != 1 else ''} of {fmt(self.times[1] - self.times[0])})"
        if self.first is not None:
            late = "" if self.continuous_toi is None else f"; the contact began at t = {fmt(self.continuous_toi)}"
            return f"{head}: overlap seen at step {self.first}, t = {fmt(self.times[self.first])}{late}"
        if self.tunnels:
            k = bisect.bisect_left(self.times, self.continuous_toi) - 1
            return f"{head}: MISSED{sep}the contact at t = {fmt(self.continuous_toi)} falls between steps {k} and {k + 1}: it tunnels through"
        return f"{head}: no overlap, as in the continuous answer"


def stepped_test(solution: Solution, steps: int) -> SteppedTest:
    """The frame-stepped view of ``solution``'s primary pair over its horizon, with N = ``steps``.

    Computed once per solution and N (kept on the solution: the 3-D view and the
    values panel ask for the same one after each change).

    Raises
    ------
    SceneError
        ``steps`` outside the one rule, :func:`explorer.model.state.scene.check_steps`.
    """
    cache = solution.__dict__.setdefault("_stepped_tests", {})
    if steps not in cache:
        cache[steps] = _stepped_test(solution, check_steps(steps, ("steps",)))
    return cache[steps]


def _stepped_test(solution: Solution, steps: int) -> SteppedTest:
    scene = solution.scene
    s = solution.sweep
    a, b = scene.bodies[0], scene.bodies[solution.other]
    step = scene.horizon / steps
    times = tuple(k * step for k in range(steps)) + (scene.horizon,)
    a_centers = tuple(vec.axpy(t, a.velocity, a.center) for t in times)
    b_centers = tuple(vec.axpy(t, b.velocity, b.center) for t in times)
    gap = [math.dist(pa, pb) for pa, pb in zip(a_centers, b_centers)]
    caught = tuple(g >= s.radius if s.inside else g <= s.radius for g in gap)
    first = caught.index(True) if any(caught) else None
    return SteppedTest(times, a_centers, b_centers, caught, first, s.toi if s.hit else None)
