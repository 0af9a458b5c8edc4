"""Engine logs with known wrong answers planted among hard cases, and an exact reference for them.

The truth here does not come from the solver: verdicts are decided in rational
arithmetic (``fractions``) from the logged floats, first contact times from the
exact quadratic with a 60-digit square root (``decimal``).

Families of pairs (each a quarter of the hard ones):

* ``graze``: B sits beside A's straight path at a distance of ``R`` nudged by a
  few ulps either way (``R = rA + rB`` exact), so hit and miss differ in the
  last bits;
* ``long``: the same graze at the far end of a long shot (``1e5`` to ``1e6``
  away, arriving near the horizon);
* ``far``: grazes translated by ``2**20`` to ``2**39`` from the origin;
* ``reach``: head-on shots whose contact time is the horizon nudged by a few ulps.

Then ``generic`` pairs like the benchmarks' (uniform centres, normal velocities).

Planted among them: false hits (on true misses, mostly the hard ones), false
misses (on true hits) and TOI errors (``toi`` moved by 3 to 100 tolerances);
every other row has the true answer, some with a time moved by a quarter of a
tolerance, which the audit must let pass.
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext
from fractions import Fraction
from pathlib import Path

import numpy as np

from explorer.audit.log.columns import GEOMETRY

#: Tolerance the plants are sized for (the audit's default).
TOL = 1e-6


def _nudge(x: float, ulps: int) -> float:
    for _ in range(abs(ulps)):
        x = math.nextafter(x, math.inf if ulps > 0 else -math.inf)
    return x


def _dyadic(rng, lo: float, hi: float, bits: int = 8) -> float:
    """A random number in [lo, hi) with at most ``bits`` fraction bits (exact sums stay exact)."""
    return float(np.floor(rng.uniform(lo, hi) * 2**bits) / 2**bits)


def _row(a_c, a_v, a_r, b_c, b_v, b_r, horizon=1.0) -> list[float]:
    return [*a_c, *a_v, a_r, *b_c, *b_v, b_r, horizon]


def _graze(rng, offset=(0.0, 0.0, 0.0), distance: float | None = None, speed: float | None = None) -> list[float]:
    ra, rb = _dyadic(rng, 0.25, 2.0), _dyadic(rng, 0.25, 2.0)
    r = ra + rb
    speed = speed if speed is not None else _dyadic(rng, 2.0, 20.0)
    distance = distance if distance is not None else speed * _dyadic(rng, 0.2, 0.8) + r
    side = _nudge(r, int(rng.integers(-4, 5)))
    a_c = [offset[0], offset[1], offset[2]]
    b_c = [offset[0] + distance, offset[1] + side, offset[2]]
    return _row(a_c, [speed, 0.0, 0.0], ra, b_c, [0.0, 0.0, 0.0], rb)


def _reach(rng) -> list[float]:
    ra, rb = _dyadic(rng, 0.25, 2.0), _dyadic(rng, 0.25, 2.0)
    speed = _dyadic(rng, 1.0, 8.0)
    gap = _nudge(speed * 1.0, int(rng.integers(-3, 4)))  # contact at t = gap / speed, about the horizon 1
    return _row([0.0, 0.0, 0.0], [speed, 0.0, 0.0], ra, [ra + rb + gap, 0.0, 0.0], [0.0, 0.0, 0.0], rb)


def hard_rows(rng, n: int) -> list[list[float]]:
    """``n`` hard pairs, the four families in turn."""
    rows = []
    for i in range(n):
        family = i % 4
        if family == 0:
            rows.append(_graze(rng))
        elif family == 1:
            distance = float(rng.uniform(1e5, 1e6))
            rows.append(_graze(rng, distance=distance, speed=distance * 1.0000001))
        elif family == 2:
            shift = [float(2 ** int(rng.integers(20, 40)) * rng.choice([-1, 1])) for _ in range(3)]
            rows.append(_graze(rng, offset=shift))
        else:
            rows.append(_reach(rng))
    return rows


def generic_rows(rng, n: int) -> list[list[float]]:
    """``n`` pairs like the benchmarks': centres in [-5, 5]^3, velocities N(0, 3^2), radii in [0.1, 2)."""
    c = rng.uniform(-5, 5, (n, 6))
    v = rng.normal(0, 3, (n, 6))
    r = rng.uniform(0.1, 2, (n, 2))
    return [
        _row(c[i, :3], v[i, :3], r[i, 0], c[i, 3:], v[i, 3:], r[i, 1]) for i in range(n)
    ]  # fmt: skip


def exact(row: list[float]) -> tuple[bool, float]:
    """(hit, first contact time or NaN) of one row, decided in rationals."""
    f = [Fraction(x) for x in row]
    p = [f[7 + k] - f[k] for k in range(3)]
    v = [f[10 + k] - f[3 + k] for k in range(3)]
    r = f[6] + f[13]
    h = f[14]
    a = sum(x * x for x in v)
    b = 2 * sum(p[k] * v[k] for k in range(3))
    c = sum(x * x for x in p) - r * r
    if c <= 0:
        return True, 0.0
    if a == 0:
        return False, math.nan
    vertex = -b / (2 * a)
    if vertex < 0:
        return False, math.nan
    t = min(vertex, h)
    if a * t * t + b * t + c > 0:
        return False, math.nan
    with localcontext() as ctx:
        ctx.prec = 60
        disc = b * b - 4 * a * c
        root = (Decimal(disc.numerator) / Decimal(disc.denominator)).sqrt()
        t0 = (Decimal(-b.numerator) / Decimal(b.denominator) - root) / (
            2 * Decimal(a.numerator) / Decimal(a.denominator)
        )
    return True, float(t0)


def make_log(seed: int = 11, hard: int = 2000, generic: int = 4000, plants: int = 25,
             false_hits: int | None = None, false_misses: int | None = None, toi_errors: int | None = None,
             horizons: tuple[float, ...] = (1.0,)) -> dict:  # fmt: skip
    """A planted log.

    ``plants`` of each kind unless ``false_hits``, ``false_misses`` or ``toi_errors`` say
    otherwise (at least 5 false hits and 5 false misses: that many are taken among the generic
    pairs).  Each row's horizon is drawn from ``horizons`` (the truth is decided with it).

    Returns
    -------
    dict
        ``columns``: ``{name: (n,) float64}`` with the geometry, ``horizon``,
        ``engine_hit`` (0/1) and ``engine_toi`` (NaN without a hit);
        ``hit``, ``toi``: the exact answers; ``planted``: ``{"false hit": rows,
        "false miss": rows, "toi error": rows}`` (sorted lists); ``near``: rows
        whose time is off by a quarter of the tolerance (not errors).
    """
    rng = np.random.default_rng(seed)
    false_hits = plants if false_hits is None else false_hits
    false_misses = plants if false_misses is None else false_misses
    toi_errors = plants if toi_errors is None else toi_errors
    rows = hard_rows(rng, hard) + generic_rows(rng, generic)
    order = rng.permutation(len(rows))
    rows = [rows[i] for i in order]
    if horizons != (1.0,):
        for row in rows:
            row[14] = float(rng.choice(horizons))
    truth = [exact(row) for row in rows]
    hit = np.array([t[0] for t in truth])
    toi = np.array([t[1] for t in truth])
    is_hard = np.zeros(len(rows), dtype=bool)
    is_hard[np.flatnonzero(order < hard)] = True

    engine_hit = hit.astype(np.float64)
    engine_toi = toi.copy()
    free = np.ones(len(rows), dtype=bool)

    def take(mask: np.ndarray, k: int) -> np.ndarray:
        chosen = rng.choice(np.flatnonzero(mask & free), size=k, replace=False)
        free[chosen] = False
        return np.sort(chosen)

    false_hits = np.concatenate([take(~hit & is_hard, false_hits - 5), take(~hit & ~is_hard, 5)])
    engine_hit[false_hits] = 1.0
    engine_toi[false_hits] = rng.uniform(0, 1, false_hits.size)
    false_misses = np.concatenate([take(hit & is_hard, false_misses - 5), take(hit & ~is_hard, 5)])
    engine_hit[false_misses] = 0.0
    engine_toi[false_misses] = math.nan
    toi_errors = take(hit & (toi > 0), toi_errors)
    sizes = rng.uniform(3, 100, toi_errors.size) * rng.choice([-1.0, 1.0], toi_errors.size)
    engine_toi[toi_errors] = toi[toi_errors] + sizes * TOL * np.maximum(1.0, np.abs(toi[toi_errors]))
    near = take(hit & (toi > 0), plants)
    engine_toi[near] = toi[near] + 0.25 * TOL * rng.choice([-1.0, 1.0], near.size) * np.maximum(1.0, toi[near])

    table = np.array(rows)
    columns = {name: np.ascontiguousarray(table[:, k]) for k, name in enumerate(GEOMETRY)}
    columns["horizon"] = np.ascontiguousarray(table[:, 14])
    columns["engine_hit"] = engine_hit
    columns["engine_toi"] = engine_toi
    planted = {
        "false hit": sorted(false_hits.tolist()),
        "false miss": sorted(false_misses.tolist()),
        "toi error": sorted(toi_errors.tolist()),
    }
    return {"columns": columns, "hit": hit, "toi": toi, "planted": planted, "near": sorted(near.tolist())}


# -- writing logs -------------------------------------------------------------------------


def write_parquet(path, columns: dict, row_group_size: int = 1 << 20) -> None:
    """Write columns to Parquet (``engine_hit`` as a boolean column when it holds only 0 and 1)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    data = {}
    for name, values in columns.items():
        if name == "engine_hit" and np.isin(values, (0.0, 1.0)).all():
            data[name] = pa.array(values.astype(bool))
        else:
            data[name] = pa.array(values, from_pandas=False)
    pq.write_table(pa.table(data), path, row_group_size=row_group_size)


def csv_text(columns: dict) -> str:
    """Columns as CSV text: every float in its shortest round-trip form, NaN as an empty cell."""
    names = list(columns)
    lines = [",".join(names)]
    arrays = [columns[name].tolist() for name in names]
    for i in range(len(arrays[0])):
        cells = []
        for name, values in zip(names, arrays):
            x = values[i]
            if isinstance(x, float) and math.isnan(x):
                cells.append("")
            elif name == "engine_hit":
                cells.append(str(int(x)))
            else:
                cells.append(repr(x))
        lines.append(",".join(cells))
    return "\n".join(lines) + "\n"


def write_csv(path, columns: dict) -> None:
    """Write columns to a CSV file (see :func:`csv_text`)."""
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(csv_text(columns))


def write_npz(path, columns: dict, compressed: bool = False) -> None:
    """Write columns to ``.npz``, one array per column."""
    (np.savez_compressed if compressed else np.savez)(path, **columns)


def write_packed(path, data: bytes) -> None:
    """Write ``data`` to ``path``, gzip- or bzip2-compressed when its suffix says so (in any case)."""
    import bz2
    import gzip

    pack = {".gz": gzip.compress, ".bz2": bz2.compress}.get(Path(path).suffix.lower(), bytes)
    Path(path).write_bytes(pack(data))


def spoil_crc(path, member: str) -> None:
    """Change the CRC-32 that the zip archive's directory records for ``member`` (its data stays whole).

    zipfile checks it when the member has been read to its end, so the error comes with its last bytes."""
    raw = bytearray(Path(path).read_bytes())
    name = member.encode()
    at = raw.index(b"PK\x01\x02")
    while raw[at + 46 : at + 46 + len(name)] != name or int.from_bytes(raw[at + 28 : at + 30], "little") != len(name):
        at = raw.index(b"PK\x01\x02", at + 4)
    raw[at + 16] ^= 0xFF  # the CRC-32 field of the central directory entry
    Path(path).write_bytes(bytes(raw))


def write_rows(path, rows: list[list[float]], **extra) -> Path:
    """An ``.npz`` log of ``rows`` (the 14 geometry values each, in :data:`GEOMETRY` order) and the extra
    columns given; returns ``path``."""
    table = np.array(rows, dtype=np.float64)
    np.savez(path, **{name: table[:, k] for k, name in enumerate(GEOMETRY)}, **extra)
    return Path(path)


def random_columns(rows: int, seed: int = 7) -> dict[str, np.ndarray]:
    """A log's columns of valid random pairs, with ``horizon`` and ``engine_hit`` (uncompressible values: a
    file as large as its data)."""
    rng = np.random.default_rng(seed)
    columns = {name: rng.uniform(-5, 5, rows) for name in GEOMETRY}
    columns.update(a_r=rng.uniform(0.1, 2, rows), b_r=rng.uniform(0.1, 2, rows), horizon=np.ones(rows))
    columns["engine_hit"] = (rng.uniform(size=rows) < 0.5).astype(float)
    return columns


def write_log(path, columns: dict, row_group_size: int = 1 << 20) -> None:
    """Write by suffix: ``.parquet``, ``.csv``, ``.npz`` (``-z.npz``: compressed)."""
    name = str(path)
    if name.endswith(".parquet"):
        write_parquet(path, columns, row_group_size)
    elif name.endswith(".csv"):
        write_csv(path, columns)
    else:
        write_npz(path, columns, compressed=name.endswith("-z.npz"))
