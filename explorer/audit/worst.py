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

from .columns import GEOMETRY
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


def select(kept, result, answers: dict, kinds: dict, worst: int) -> list[Case]:
    """The worst ``worst`` disagreements of one chunk, worst first.

    Parameters
    ----------
    kept : explorer.audit.rows.Kept
        The decided pairs (``m`` of them) and their rows in the chunk.
    result : solver.BatchResult
        Exact answers, ``(m,)`` arrays.
    answers : dict of str to ((m,) bool, (m,) float64)
        Each source's ``(hit, toi)``, in the order of the ordering.
    kinds : dict of str to (m,) int8
        Each source's per-pair kind from :func:`explorer.audit.judging.judge`.
    worst : int
        How many to keep.
    """
    if worst <= 0 or not kinds:
        return []
    names = list(kinds)
    n_sources = len(names)
    flagged = [np.flatnonzero(kinds[name]) for name in names]
    idx = flagged[0] if n_sources == 1 else np.unique(np.concatenate(flagged))
    if idx.size == 0:
        return []
    rank = np.full(idx.size, np.iinfo(np.int64).max, dtype=np.int64)
    chosen = np.full(idx.size, -1, dtype=np.int64)
    for s, name in enumerate(names):
        k = kinds[name][idx]
        group = np.where((k == FALSE_HIT) | (k == FALSE_MISS), s, np.where(k == TOI_ERROR, n_sources + s, -1))
        better = (group >= 0) & (group < rank)
        rank = np.where(better, group, rank)
        chosen = np.where(better, s, chosen)
    source = chosen
    r = rank
    verdict = r < n_sources
    p = kept.b_center[idx] - kept.a_center[idx]
    v = kept.b_velocity[idx] - kept.a_velocity[idx]
    contact = kept.a_radius[idx] + kept.b_radius[idx]
    closest = _closest(p, v, kept.horizon[idx])
    said_toi = np.stack([answers[name][1][idx] for name in names])[source, np.arange(idx.size)]
    toi = result.toi[idx]
    with np.errstate(invalid="ignore"):
        toi_err = np.abs(said_toi - toi) / np.maximum(1.0, np.abs(toi))
    severity = np.where(verdict, np.abs(closest - contact) / contact, toi_err)
    severity = np.where(np.isnan(severity), np.inf, severity)
    rows = kept.row[idx]
    order = np.lexsort((rows, -severity, r))[:worst]
    cases = []
    for j in order.tolist():
        i = int(idx[j])
        name = names[int(source[j])]
        values = {col: float(kept_value) for col, kept_value in zip(GEOMETRY, _row_values(kept, i))}
        values["horizon"] = float(kept.horizon[i])
        cases.append(
            Case(
                row=int(rows[j]),
                source=name,
                kind=KIND_NAMES[int(kinds[name][i])],
                rank=int(r[j]),
                severity=float(severity[j]),
                values=values,
                said={s: {"hit": bool(answers[s][0][i]), "toi": _value(answers[s][1][i])} for s in names},
                status=Status(int(result.status[i])).name,
                hit=bool(result.hit[i]),
                toi=_value(result.toi[i]),
                t_enter=_value(result.t_enter[i]),
                t_exit=_value(result.t_exit[i]),
                closest=float(closest[j]),
                contact_distance=float(contact[j]),
            )
        )
    return cases


def _row_values(kept, i: int) -> list[float]:
    """The 14 geometry values of kept pair ``i``, in :data:`GEOMETRY` order."""
    return [
        *kept.a_center[i].tolist(), *kept.a_velocity[i].tolist(), float(kept.a_radius[i]),
        *kept.b_center[i].tolist(), *kept.b_velocity[i].tolist(), float(kept.b_radius[i]),
    ]  # fmt: skip


def merge(cases: list[Case], worst: int) -> list[Case]:
    """The first ``worst`` of ``cases`` by :attr:`Case.key`."""
    return sorted(cases, key=lambda c: c.key)[:worst]

