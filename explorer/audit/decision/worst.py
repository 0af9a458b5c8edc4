"""Choosing the worst disagreements: the pairs written out as scene files.

Order (the first ``N`` are kept):

1. wrong verdicts before wrong times; among sources, the first listed first
   (the engine; or the textbook formula in float64 before float32);
2. then by severity, largest first: for a wrong verdict, how far the closest
   approach over [0, horizon] is from touching, relative to the contact
   distance, ``|d_min - R| / R`` (a deep overlap reported as a miss is worse than
   a graze); for a wrong time, the relative TOI error;
3. then by row.

Each chunk keeps its own first ``N``; merging keeps the first ``N`` of the union,
which is the first ``N`` of the whole log whatever the chunking (the key of a
row depends only on that row).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from solver import Status

from ..log.columns import HORIZON
from .judging import FALSE_HIT, FALSE_MISS, KIND_NAMES, TOI_ERROR


@dataclass(frozen=True)
class Case:
    """One disagreement, with all that is needed to show it.

    Attributes
    ----------
    row : int
        Row in the log (0-based).
    source : str
        ``"engine"``, ``"float64"`` or ``"float32"`` (the textbook formula).
    kind : str
        ``"false hit"``, ``"false miss"`` or ``"toi error"``.
    rank : int
        Group of the ordering (see the module notes); smaller is worse.
    severity : float
        See the module notes; larger is worse.
    values : dict of str to float
        The row's geometry columns and ``horizon``.
    said : dict of str to dict
        Per source, ``{"hit": bool, "toi": float or None}``.
    status : str
        The exact :class:`solver.Status` name.
    hit : bool
    toi, t_enter, t_exit : float or None
    closest : float
        Closest distance between the centres over [0, horizon] (float64 estimate).
    contact_distance : float
        ``R = a_r + b_r``.
    labels : dict of str to int, float or None
        The row's ``step``, ``a_id`` and ``b_id`` for those the log has (None where empty).
    """

    row: int
    source: str
    kind: str
    rank: int
    severity: float
    values: dict[str, float] = field(compare=False)
    said: dict[str, dict] = field(compare=False)
    status: str = ""
    hit: bool = False
    toi: float | None = None
    t_enter: float | None = None
    t_exit: float | None = None
    closest: float = 0.0
    contact_distance: float = 0.0
    labels: dict[str, int | float | None] = field(default_factory=dict, compare=False)

    @property
    def key(self) -> tuple[int, float, int]:
        """Sort key: worst first."""
        return (self.rank, -self.severity, self.row)

    def shifted(self, offset: int) -> "Case":
        """The same case with its row counted ``offset`` rows further on."""
        return replace(self, row=self.row + offset)


def _closest(p: np.ndarray, v: np.ndarray, h: np.ndarray) -> np.ndarray:
    """Distance ``min |p + v t|`` over ``t`` in [0, h]; ``p, v`` (k, 3), ``h`` (k,) -> (k,)."""
    vv = np.einsum("ij,ij->i", v, v)
    pv = np.einsum("ij,ij->i", p, v)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(vv > 0, -pv / np.where(vv > 0, vv, 1.0), 0.0)
    t = np.clip(t, 0.0, h)
    d = p + v * t[:, None]
    return np.sqrt(np.einsum("ij,ij->i", d, d))


def _value(x: float) -> float | None:
    x = float(x)
    return None if x != x else x


def label_value(x: float) -> int | float | None:
    """A label cell (``step``, ``a_id``, ``b_id``, read as float64) as JSON shows it: an int when whole."""
    x = float(x)
    if x != x:
        return None
    return int(x) if x.is_integer() else x


def select(decided, answers: dict, kinds: dict, worst: int, labels: dict | None = None) -> list[Case]:
    """The worst ``worst`` disagreements of one chunk, worst first.

    Parameters
    ----------
    decided : explorer.audit.decision.rows.Decided
        The chunk's ``n`` rows and the exact answers.
    answers : dict of str to ((n,) bool, (n,) float64)
        Each source's ``(hit, toi)``, in the order of the ordering.
    kinds : dict of str to (n,) int8
        Each source's per-row kind from :func:`explorer.audit.decision.judging.judge` (:data:`AGREE` at the rows
        not decided).
    worst : int
        How many to keep.
    labels : dict of str to (n,) float64, optional
        The chunk's label columns (``step``, ``a_id``, ``b_id``).
    """
    if worst <= 0 or not kinds:
        return []
    names = list(kinds)
    rows, rank, source = _flagged(kinds, names)
    if rows.size == 0:
        return []
    result, columns = decided.result, decided.columns
    p = decided.vectors("b_c", rows) - decided.vectors("a_c", rows)
    v = decided.vectors("b_v", rows) - decided.vectors("a_v", rows)
    contact = columns["a_r"][rows] + columns["b_r"][rows]
    closest = _closest(p, v, columns[HORIZON][rows])
    said_toi = np.stack([answers[name][1][rows] for name in names])[source, np.arange(rows.size)]
    toi = result.toi[rows]
    with np.errstate(invalid="ignore"):
        toi_err = np.abs(said_toi - toi) / np.maximum(1.0, np.abs(toi))
    severity = np.where(rank < len(names), np.abs(closest - contact) / contact, toi_err)
    severity = np.where(np.isnan(severity), np.inf, severity)
    cases = []
    for j in np.lexsort((rows, -severity, rank))[:worst].tolist():
        i = int(rows[j])
        name = names[int(source[j])]
        cases.append(
            Case(
                row=i,
                source=name,
                kind=KIND_NAMES[int(kinds[name][i])],
                rank=int(rank[j]),
                severity=float(severity[j]),
                values=decided.values(i),
                said={s: {"hit": bool(answers[s][0][i]), "toi": _value(answers[s][1][i])} for s in names},
                status=Status(int(result.status[i])).name,
                hit=bool(result.hit[i]),
                toi=_value(result.toi[i]),
                t_enter=_value(result.t_enter[i]),
                t_exit=_value(result.t_exit[i]),
                closest=float(closest[j]),
                contact_distance=float(contact[j]),
                labels={col: label_value(values[i]) for col, values in (labels or {}).items()},
            )
        )
    return cases


def _flagged(kinds: dict, names: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pairs some source got wrong, each with its group of the ordering and the source that sets it.

    Returns
    -------
    rows : (k,) int64
        Rows with a disagreement, ascending.
    rank : (k,) int64
        Group (see the module notes): source ``s``'s wrong verdict is ``s``, its wrong time
        ``len(names) + s``; the smallest over the sources.
    source : (k,) int64
        Index in ``names`` of the source that gives ``rank``.
    """
    n_sources = len(names)
    flagged = [np.flatnonzero(kinds[name]) for name in names]
    idx = flagged[0] if n_sources == 1 else np.unique(np.concatenate(flagged))
    rank = np.full(idx.size, np.iinfo(np.int64).max, dtype=np.int64)
    source = np.full(idx.size, -1, dtype=np.int64)
    for s, name in enumerate(names):
        k = kinds[name][idx]
        group = np.where((k == FALSE_HIT) | (k == FALSE_MISS), s, np.where(k == TOI_ERROR, n_sources + s, -1))
        better = (group >= 0) & (group < rank)
        rank = np.where(better, group, rank)
        source = np.where(better, s, source)
    return idx, rank, source


def engine_row(labels: dict) -> str:
    """``" (step 120, bodies 4 and 17)"``: the engine's own names for a row, from the labels logged.

    Parameters
    ----------
    labels : dict
        Any of ``step``, ``a_id``, ``b_id`` (None or absent where not logged).

    Returns
    -------
    str
        Empty when the log names none.
    """
    words = []
    if labels.get("step") is not None:
        words.append(f"step {labels['step']}")
    a, b = labels.get("a_id"), labels.get("b_id")
    if a is not None and b is not None:
        words.append(f"bodies {a} and {b}")
    elif a is not None:
        words.append(f"A is body {a}")
    elif b is not None:
        words.append(f"B is body {b}")
    return f" ({', '.join(words)})" if words else ""


def merge(cases: list[Case], worst: int) -> list[Case]:
    """The first ``worst`` of ``cases`` by :attr:`Case.key`."""
    return sorted(cases, key=lambda c: c.key)[:worst]
