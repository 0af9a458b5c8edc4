"""Question mode: ask the class first, then reveal the answer.

While a scene asks, the views show the bodies, their velocities and the horizon
and nothing the solver computed: no verdict (its question instead), no roots,
ghosts, contact, normal, bounce path, closest approach, expanded sphere, events,
parabola, values or momenta after the start.  The time stays at 0 (a time
later would show where the bodies went).  *Reveal* brings the answer as a short
sequence (:data:`REVEAL_STAGES`): time runs to the first contact (or to the
horizon), the ghosts and the contact appear, then the parabola's roots; then
everything is shown as in the normal mode.  Qt-, VTK- and numpy-free.
"""

from __future__ import annotations

from solver import vec

from ..derived.analysis import Solution
from ..state.scene import Scene
from ..state.view_parts import Change, Part
from ..words.text import fmt

#: The layers that show an answer: hidden while asking.
ANSWER_LAYERS = ("minkowski", "roots", "contact", "reflection", "steps", "conserved", "momentum")

#: The reveal's stages and how long each lasts (seconds of wall time): the bodies move to the contact with the
#: answer still hidden; the ghosts, roots and contact appear in the view; the parabola's roots appear in its plot.
REVEAL_STAGES = (("running", 1.2), ("marks", 0.6), ("roots", 0.6))

#: Every stage a view may be in, in order.
STAGES = ("asking", *(name for name, _ in REVEAL_STAGES), "shown")


def question_text(scene: Scene) -> str:
    """The scene's question: its own, or one worded from its mode and bodies."""
    if scene.question:
        return scene.question
    names = [b.name for b in scene.bodies]
    horizon = fmt(scene.horizon)
    if scene.mode == "inside":
        return f"Will {names[0]} reach the wall of {names[1]} before t = {horizon}?"
    if scene.mode == "all":
        return f"Which two bodies touch first, and when? Any before t = {horizon}?"
    return f"Will {names[0]} touch {names[1]} before t = {horizon}?"


def _touches(scene: Scene, solution: Solution) -> list[tuple[float, tuple | None]]:
    """Every touch within [0, horizon]: each event's ``(time, point)``, and the described pair's contact
    ``(toi, point or None)`` (None: touching from the start, no contact point)."""
    touches = [(e.time, e.point) for e in solution.events if 0.0 <= e.time <= scene.horizon]
    sweep = solution.sweep
    if sweep.toi is not None and 0.0 <= sweep.toi <= scene.horizon:
        touches.append((sweep.toi, None if sweep.contact is None else sweep.contact.point))
    return touches


def reveal_target(scene: Scene, solution: Solution) -> float:
    """Where the reveal's clock runs to: the first contact or event within the horizon, else the horizon."""
    return min((t for t, _ in _touches(scene, solution)), default=scene.horizon)


def hides_answers(stage: str) -> bool:
    """Whether ``stage`` still hides the answer: asking, or while the bodies run to it."""
    return stage in ("asking", "running")


def hidden_layers(stage: str) -> frozenset[str]:
    """The layers a stage keeps hidden whatever the user's switches say."""
    if hides_answers(stage):
        return frozenset(ANSWER_LAYERS)
    if stage == "marks":
        return frozenset(ANSWER_LAYERS) - {"roots", "contact", "minkowski"}
    return frozenset()


def shown_layers(layers: dict[str, bool], stage: str) -> dict[str, bool]:
    """``layers`` (name -> visible) with the stage's hidden ones off."""
    hidden = hidden_layers(stage)
    return {name: on and name not in hidden for name, on in layers.items()}


class Asking(Part):
    """Question mode and the reveal: :attr:`stage` is one of :data:`STAGES`."""

    def __init__(self) -> None:
        super().__init__()
        self._asking = False
        self._elapsed: float | None = None  # seconds into the reveal, None when not revealing

    @property
    def asking(self) -> bool:
        """The answer is hidden (question mode, not yet revealed)."""
        return self._asking

    @property
    def revealing(self) -> bool:
        return self._elapsed is not None

    @property
    def stage(self) -> str:
        if self._asking:
            return "asking"
        if self._elapsed is None:
            return "shown"
        start = 0.0
        for name, seconds in REVEAL_STAGES:
            if self._elapsed < start + seconds:
                return name
            start += seconds
        return "shown"

    @property
    def hides_answers(self) -> bool:
        """The panels and the verdict line still hide the answer (:func:`hides_answers`)."""
        return hides_answers(self.stage)

    @property
    def running_fraction(self) -> float:
        """How far the reveal's clock has run to its target, in [0, 1]."""
        if self._asking:
            return 0.0
        if self._elapsed is None:
            return 1.0
        return min(1.0, self._elapsed / REVEAL_STAGES[0][1])

    def ask(self, on: bool) -> None:
        """Hide the answer (*Ask first*, *Ask again*), or show it at once."""
        self._set(Change.ASK, asking=bool(on), elapsed=None)

    def reveal(self) -> None:
        """Start the reveal (nothing when not asking)."""
        if self._asking:
            self._set(Change.ASK, asking=False, elapsed=0.0)

    def advance(self, seconds: float) -> None:
        """Move the reveal on by ``seconds`` of wall time; it ends after its last stage."""
        if self._elapsed is None:
            return
        elapsed = self._elapsed + max(0.0, float(seconds))
        self._set(Change.ASK, elapsed=None if elapsed >= sum(s for _, s in REVEAL_STAGES) else elapsed)


def touches(scene: Scene, solution: Solution) -> bool:
    """The answer to "will they touch": a contact of the described pair, or any event, within [0, horizon]."""
    return bool(_touches(scene, solution))


def first_contact(scene: Scene, solution: Solution) -> tuple[float, float, float] | None:
    """Where the first touch within [0, horizon] happens (the point of the earliest contact or event), or None."""
    placed = [(t, p) for t, p in _touches(scene, solution) if p is not None]
    return tuple(map(float, min(placed)[1])) if placed else None  # type: ignore[return-value]


def guess_distance(origin, direction, view_direction, point, radius: float) -> float | None:
    """How far a guess is from ``point``, in units of ``radius``: the guess is where the ray ``origin +
    s direction`` (a click) meets the plane through ``point`` facing the camera (normal ``view_direction``);
    None when the ray runs along that plane."""
    along = vec.dot(direction, view_direction)
    if along == 0.0:
        return None
    s = vec.dot(vec.sub(point, origin), view_direction) / along
    hit = vec.axpy(s, direction, origin)
    gap = vec.sub(hit, point)
    return (vec.dot(gap, gap) ** 0.5) / radius


def score_words(guess: bool | None, truth: bool, distance: float | None) -> str:
    """A student's answer in words: right or wrong, and how far the clicked point was from the contact."""
    said = "hit" if guess else "miss"
    words = f"You said {said}: {'right' if guess == truth else 'wrong'} — they {'do' if truth else 'do not'} touch"
    if distance is not None:
        words += f"; your point was {fmt(distance)} radii of A from the contact"
    return words + "."
