"""The case a sweep query ended in, one per leaf of the decision tree."""

from __future__ import annotations

import enum


class Status(enum.IntEnum):
    """Outcome of :func:`solver.sweep` or :func:`solver.sweep_inside`.

    Integer-valued so that :func:`solver.sweep_many` can return a compact
    ``(n,) int8`` array of the same codes.
    """

    #: In contact at t = 0 (pair: the spheres touch or overlap; inside: the
    #: ball touches or crosses the container wall).  ``toi == 0``.
    OVERLAPPING = 0
    #: Relative velocity is exactly zero and there is no contact at t = 0.
    NO_RELATIVE_MOTION = 1
    #: Apart at t = 0 and not approaching (p·v >= 0): any roots lie in the past.
    SEPARATING = 2
    #: Approaching, but the closest approach is wider than the radius sum.
    MISS = 3
    #: First contact at some t in [0, horizon].
    HIT = 4
    #: Contact happens, but only after the horizon.
    LATER = 5
    #: Inside mode only: the ball lies entirely outside the container at t = 0
    #: (``|p| > rC + rA``), so it has no wall to reach from inside; no contact.
    #: (A ball that touches or straddles the wall is :attr:`OVERLAPPING`.)
    OUTSIDE = 6

    def __str__(self) -> str:
        """The name, e.g. ``HIT`` (an IntEnum would print ``4``); ``repr`` and ``int`` keep the code."""
        return self.name

    def __format__(self, spec: str) -> str:
        """``f"{status}"`` is the name too; a numeric format (``f"{status:d}"``) gives the code."""
        numeric = bool(spec) and spec[-1] in "bcdoxXneEfFgG%"
        return int(self).__format__(spec) if numeric else self.name.__format__(spec)

    @property
    def is_hit(self) -> bool:
        """True for the two statuses that mean contact within the horizon."""
        return self in (Status.OVERLAPPING, Status.HIT)

    @property
    def label(self) -> str:
        """Lower-case name for JSON and the values panel, e.g. ``"no-relative-motion"``."""
        return self.name.lower().replace("_", "-")


#: Codes for the batch arrays, as plain ints (usable inside compiled kernels).
OVERLAPPING = int(Status.OVERLAPPING)
NO_RELATIVE_MOTION = int(Status.NO_RELATIVE_MOTION)
SEPARATING = int(Status.SEPARATING)
MISS = int(Status.MISS)
HIT = int(Status.HIT)
LATER = int(Status.LATER)
OUTSIDE = int(Status.OUTSIDE)
