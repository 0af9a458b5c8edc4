"""Comparing an answer (the engine's, or the textbook formula's) with the exact one, pair by pair.

Kinds of disagreement, per pair:

* **false hit**: the answer says hit, the exact solver says no contact in [0, horizon];
* **false miss**: the answer says no hit, the exact solver says contact;
* **TOI error**: both say hit and ``|toi_said - toi| > tol * max(1, |toi|)``.

Where both say hit, the relative error ``|toi_said - toi| / max(1, |toi|)`` also
goes into a histogram with power-of-two bins (:mod:`~explorer.audit.constants`);
a hit reported without a time (``engine_toi`` empty) is counted as
*TOI missing* instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from ..constants import HIST_BINS, HIST_MAX_EXP, HIST_MIN_EXP
from ..log.columns import read_only

#: Per-pair kinds written by :func:`judge`.
AGREE, FALSE_HIT, FALSE_MISS, TOI_ERROR = 0, 1, 2, 3
#: Their names in the summary and the case files.
KIND_NAMES = {FALSE_HIT: "false hit", FALSE_MISS: "false miss", TOI_ERROR: "toi error"}

_TOP = 2.0**HIST_MAX_EXP


@njit(cache=True, nogil=True)
def _judge(hit, toi, said_hit, said_toi, check_toi, tol, kept, kind, hist):
    false_hits = 0
    false_misses = 0
    toi_errors = 0
    toi_missing = 0
    toi_exact = 0
    worst = 0.0
    for i in range(hit.shape[0]):
        h = hit[i]
        s = said_hit[i]
        k = 0
        if not kept[i]:
            pass
        elif s and not h:
            k = 1
            false_hits += 1
        elif h and not s:
            k = 2
            false_misses += 1
        elif h and check_toi:
            ts = said_toi[i]
            if ts != ts:
                toi_missing += 1
            else:
                t = toi[i]
                scale = max(1.0, abs(t))
                d = abs(ts - t)
                if d > tol * scale:
                    k = 3
                    toi_errors += 1
                err = d / scale
                if err == 0.0:
                    toi_exact += 1
                else:
                    if err >= _TOP:
                        b = HIST_BINS - 1
                    else:
                        b = min(max(math.frexp(err)[1] - HIST_MIN_EXP, 0), HIST_BINS - 1)
                    hist[b] += 1
                    if err > worst:
                        worst = err
        kind[i] = k
    return false_hits, false_misses, toi_errors, toi_missing, toi_exact, worst


@dataclass
class Verdicts:
    """How one source of answers fared on a chunk (summable over chunks).

    Attributes
    ----------
    false_hits, false_misses, toi_errors : int
    toi_missing : int
        Both say hit, but the answer gave no time.
    toi_exact : int
        Both say hit at exactly the same time.
    toi_error_max : float
        Largest relative TOI error where both say hit (0.0 when none).
    histogram : (HIST_BINS,) int64
        Relative TOI errors (non-zero) by power-of-two bin.
    checks_toi : bool
        False when the source gives verdicts only.
    """

    false_hits: int = 0
    false_misses: int = 0
    toi_errors: int = 0
    toi_missing: int = 0
    toi_exact: int = 0
    toi_error_max: float = 0.0
    histogram: np.ndarray | None = None
    checks_toi: bool = True

    def __post_init__(self) -> None:
        if self.histogram is None:
            self.histogram = np.zeros(HIST_BINS, dtype=np.int64)

    def add(self, other: "Verdicts") -> None:
        """Add another chunk's verdicts into this one."""
        self.false_hits += other.false_hits
        self.false_misses += other.false_misses
        self.toi_errors += other.toi_errors
        self.toi_missing += other.toi_missing
        self.toi_exact += other.toi_exact
        self.toi_error_max = max(self.toi_error_max, other.toi_error_max)
        self.histogram = self.histogram + other.histogram


def judge(hit, toi, said_hit, said_toi, tol: float, check_toi: bool = True, kept=None) -> tuple[np.ndarray, Verdicts]:
    """Compare answers with the exact ones.

    Parameters
    ----------
    hit : (m,) bool
        Exact verdicts.
    toi : (m,) float64
        Exact first contact times (NaN without a hit).
    said_hit : (m,) bool
    said_toi : (m,) float64
        NaN where the answer gave none.
    tol : float
        Relative TOI tolerance (see the module notes).
    check_toi : bool
        False when the answer has no times (a log with ``engine_hit`` only).
    kept : (m,) bool, optional
        The pairs to judge (the rows of a chunk that were decided); every pair when None.

    Returns
    -------
    kind : (m,) int8
        :data:`AGREE`, :data:`FALSE_HIT`, :data:`FALSE_MISS` or :data:`TOI_ERROR`; :data:`AGREE` where not kept.
    verdicts : Verdicts
    """
    m = hit.shape[0]
    kind = np.empty(m, dtype=np.int8)
    histogram = np.zeros(HIST_BINS, dtype=np.int64)
    if not check_toi:
        said_toi = np.empty(0)
    if kept is None:
        kept = np.ones(m, dtype=np.bool_)
    fh, fm, te, tm, tx, worst = _judge(hit, read_only(toi), said_hit, read_only(said_toi), bool(check_toi),
                                       float(tol), kept, kind, histogram)  # fmt: skip
    return kind, Verdicts(fh, fm, te, tm, tx, worst, histogram, bool(check_toi))


def histogram_edges() -> list[float]:
    """The ``HIST_BINS + 1`` bin edges of :attr:`Verdicts.histogram` (the outer bins are open)."""
    return [2.0 ** (HIST_MIN_EXP + k - 1) for k in range(HIST_BINS + 1)]
