"""The audit's running totals: one :class:`Tally` per chunk, folded in file order into one.

Everything in a tally is a count, a minimum, a maximum or a short list kept in a fixed
order, so folding the chunks of any partition of the log, in file order, gives
the same totals: the single-process run and the Dask run agree exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from solver import Status

from ..constants import SKIPPED_EXAMPLES
from .judging import Verdicts
from .worst import Case, merge

#: Status codes 0..5 (see :class:`solver.Status`).
N_STATUS = len(Status)


@dataclass(frozen=True)
class Skipped:
    """One skipped row: where, which column, and why."""

    row: int
    column: str
    reason: str


@dataclass
class Tally:
    """Totals over some rows of the log.

    Attributes
    ----------
    rows : int
        Rows read.
    pairs : int
        Rows decided (``rows`` minus the skipped ones).
    status : (6,) int64
        Decided pairs by :class:`solver.Status` code.
    exact_path : int
        Pairs the solver's float filter could not prove, decided in exact arithmetic.
    skipped_by_column : dict of str to int
    skipped_examples : list of Skipped
        The first :data:`~explorer.audit.constants.SKIPPED_EXAMPLES` skipped rows.
    verdicts : dict of str to Verdicts
        Per source of answers (``"engine"``, or ``"float64"`` and ``"float32"``).
    cases : list of Case
        The worst disagreements so far, worst first.
    horizon_low, horizon_high : float
        The smallest and largest horizon of the decided pairs (``inf`` and ``-inf`` before any).
    least_motion : float
        The smallest relative motion within the horizon, in contact distances, of the decided
        pairs that move (``inf`` before any; see :mod:`explorer.audit.log.units`).
    misses_at_end : int
        The engine's false misses whose pair is still in contact at the end of its horizon
        (``t_enter <= horizon <= t_exit``): what a discrete test at the end of the step sees,
        the mark of a log that pairs a step with earlier contacts (step lag).
    """

    rows: int = 0
    pairs: int = 0
    status: np.ndarray = field(default_factory=lambda: np.zeros(N_STATUS, dtype=np.int64))
    exact_path: int = 0
    skipped_by_column: dict[str, int] = field(default_factory=dict)
    skipped_examples: list[Skipped] = field(default_factory=list)
    verdicts: dict[str, Verdicts] = field(default_factory=dict)
    cases: list[Case] = field(default_factory=list)
    horizon_low: float = math.inf
    horizon_high: float = -math.inf
    least_motion: float = math.inf
    misses_at_end: int = 0

    @property
    def skipped(self) -> int:
        """Rows skipped."""
        return self.rows - self.pairs

    def add(self, later: "Tally", worst: int) -> None:
        """Fold in the tally of the rows that come right after these (its rows are chunk-relative)."""
        offset = self.rows
        self.rows += later.rows
        self.pairs += later.pairs
        self.status = self.status + later.status
        self.exact_path += later.exact_path
        for column, count in later.skipped_by_column.items():
            self.skipped_by_column[column] = self.skipped_by_column.get(column, 0) + count
        room = SKIPPED_EXAMPLES - len(self.skipped_examples)
        self.skipped_examples += [replace(s, row=s.row + offset) for s in later.skipped_examples[:room]]
        for name, verdicts in later.verdicts.items():
            if name not in self.verdicts:
                self.verdicts[name] = Verdicts(checks_toi=verdicts.checks_toi)
            self.verdicts[name].add(verdicts)
        self.cases = merge(self.cases + [c.shifted(offset) for c in later.cases], worst)
        self.horizon_low = min(self.horizon_low, later.horizon_low)
        self.horizon_high = max(self.horizon_high, later.horizon_high)
        self.least_motion = min(self.least_motion, later.least_motion)
        self.misses_at_end += later.misses_at_end


class OrderedFold:
    """Fold tallies that may arrive out of order (from a Dask cluster) in file order.

    Tallies are held only until every earlier one has arrived, so memory stays
    bounded by the tasks in flight, not by the size of the log.
    """

    def __init__(self, worst: int) -> None:
        self.total = Tally()
        self.worst = worst
        self._next = 0
        self._waiting: dict[int, Tally] = {}

    def add(self, index: int, tally: Tally) -> None:
        """Accept the tally of chunk ``index`` (0-based, in file order)."""
        self._waiting[index] = tally
        while self._next in self._waiting:
            self.total.add(self._waiting.pop(self._next), self.worst)
            self._next += 1

    @property
    def rows_before(self) -> int:
        """Rows of the chunks folded so far (the offset of chunk :attr:`folded`)."""
        return self.total.rows

    @property
    def folded(self) -> int:
        """Number of chunks folded."""
        return self._next
