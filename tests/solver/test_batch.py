"""``sweep_columns``: the batch query over pairs held as columns, as a log stores them.

It must be ``sweep_many`` bit for bit -- on every hard family (the certified core over the whole float
range, exact stage included) and on ordinary pairs within the ranges -- and, with ``skip_refused``, mark
every pair ``sweep_many`` would refuse while deciding the others as ``sweep_many`` decides them alone.
"""

from __future__ import annotations

import math

import families as fam
import numpy as np
import pytest
from core import core_many

from solver import _compile, limits, sweep_many
from solver.batch import _sweep_columns, sweep_columns

FIELDS = ("hit", "status", "exact", "toi", "t_enter", "t_exit")


@pytest.fixture
def compiled_loops(monkeypatch):
    """The compiled batch loops from the first pair (the plain copies have a test of their own)."""
    monkeypatch.setattr(_compile, "BATCH_BUDGET", _compile._Budget(0))


def _same(got, want, rows=slice(None)) -> list[str]:
    """The fields of two batch results that differ (bit for bit) at ``rows``."""
    return [f for f in FIELDS if getattr(got, f)[rows].tobytes() != getattr(want, f)[rows].tobytes()]


def _columns_of(cases) -> tuple:
    """``(a, b, horizon)`` cases as the seven fields of ``sweep_columns``, vectors as x, y, z columns."""
    vector = lambda get: [np.array([get(case)[k] for case in cases]) for k in range(3)]  # noqa: E731
    scalar = lambda get: np.array([get(case) for case in cases])  # noqa: E731
    return (vector(lambda c: c[0].center), vector(lambda c: c[0].velocity), scalar(lambda c: c[0].radius),
            vector(lambda c: c[1].center), vector(lambda c: c[1].velocity), scalar(lambda c: c[1].radius),
            scalar(lambda c: c[2]))  # fmt: skip


@pytest.mark.parametrize("name", list(fam.FAMILIES))
def test_every_hard_family_as_columns_is_the_batch_bit_for_bit(name, compiled_loops):
    cases = fam.cases(name)
    inside = fam.mode(name) == "inside"
    want = core_many(cases, inside)
    got = _sweep_columns(_columns_of(cases), inside, False, False)
    assert want.exact.any(), "the family should need the exact stage"
    assert _same(got, want) == [] and got.accepted is None


def _ordinary(n: int, seed: int) -> tuple:
    rng = np.random.default_rng(seed)
    return (rng.uniform(-5, 5, (n, 3)), rng.normal(0, 3, (n, 3)), rng.uniform(0.1, 2, n),
            rng.uniform(-5, 5, (n, 3)), rng.normal(0, 3, (n, 3)), rng.uniform(0.1, 2, n), rng.uniform(0.5, 2, n))  # fmt: skip


def _as_columns(pairs: tuple) -> tuple:
    ca, va, ra, cb, vb, rb, h = pairs
    return list(ca.T), va.T, ra, list(cb.T), vb.T, rb, h  # lists of columns and (3, n) arrays alike


def test_ordinary_pairs_and_shared_values(compiled_loops):
    pairs = _ordinary(3000, 1)
    assert _same(sweep_columns(*_as_columns(pairs)), sweep_many(*pairs)) == []
    shared = (*pairs[:2], 0.75, *pairs[3:5], 1.25, 1.5)  # a radius and the horizon shared by every pair
    assert _same(sweep_columns(*_as_columns(shared)), sweep_many(*shared)) == []


#: Values out of the ranges of solver.limits, by the column they are put in.
SPOILERS = {
    "a_center": [math.nan, math.inf, 2 * limits.MAX_COORDINATE],
    "b_velocity": [1e-200, -math.inf, -2 * limits.MAX_COORDINATE],
    "a_radius": [0.0, -1.0, 2 * limits.MAX_RADIUS],
    "b_radius": [math.nan, limits.MIN_RADIUS / 2],
    "horizon": [0.0, -1.0, 2 * limits.MAX_HORIZON],
}


def test_refused_pairs_are_marked_and_the_others_decided_as_alone(compiled_loops):
    pairs = [np.array(x) for x in _ordinary(2000, 2)]
    rng = np.random.default_rng(3)
    spoiled = sorted(rng.choice(2000, 60, replace=False).tolist())
    fields = ("a_center", "a_velocity", "a_radius", "b_center", "b_velocity", "b_radius", "horizon")
    for j, row in enumerate(spoiled):
        field = list(SPOILERS)[j % len(SPOILERS)]
        value = SPOILERS[field][j % len(SPOILERS[field])]
        k = fields.index(field)
        if pairs[k].ndim == 2:
            pairs[k][row, j % 3] = value
        else:
            pairs[k][row] = value
    got = sweep_columns(*_as_columns(tuple(pairs)), skip_refused=True)
    assert np.flatnonzero(~got.accepted).tolist() == spoiled
    assert not got.exact[spoiled].any()
    kept = np.flatnonzero(got.accepted)
    alone = sweep_many(*(x[kept] for x in pairs))
    assert [f for f in FIELDS if getattr(got, f)[kept].tobytes() != getattr(alone, f).tobytes()] == []
    with pytest.raises(ValueError) as refused:  # without skip_refused: sweep_many's refusal, word for word
        sweep_columns(*_as_columns(tuple(pairs)))
    with pytest.raises(ValueError) as as_many:
        sweep_many(*pairs)
    assert str(refused.value) == str(as_many.value) and str(refused.value).endswith(f" at index {spoiled[0]}")


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda f: (f[0][:2], *f[1:]), "a_center: expected 3 columns (x, y, z)"),
        (lambda f: (f[0], 1.0, *f[2:]), "a_velocity: expected 3 columns (x, y, z)"),
        (lambda f: (*f[:2], f[2][:5], *f[3:]), "columns of different lengths (a_center[0] 40, a_radius 5, ...)"),
        (lambda f: (*f[:5], f[5].astype(bool), f[6]), "b_radius: expected numbers, got an array of dtype bool"),
        (lambda f: (*f[:6], "1"), "horizon: expected numbers, got '1'"),
        (lambda f: (*f[:2], np.ones((40, 1)), *f[3:]), "a_radius: expected a column of shape (n,), got (40, 1)"),
    ],
)
def test_bad_columns_are_refused_naming_the_field(change, words):
    fields = _as_columns(_ordinary(40, 4))
    with pytest.raises(ValueError) as refused:
        sweep_columns(*change(fields))
    assert str(refused.value) == words


def test_answers_written_into_arrays_given_and_those_refused(compiled_loops):
    """``out``: a caller's arrays, reused batch after batch (the audit's chunks), hold each batch's own answers."""
    from solver.batch import batch_arrays

    held = batch_arrays(3000)
    for seed, n in ((5, 3000), (6, 1200)):
        pairs = _ordinary(n, seed)
        out = type(held)(*(x[:n] for x in held.__dict__.values()))
        got = sweep_columns(*_as_columns(pairs), skip_refused=True, out=out)
        assert got.hit is out.hit and got.accepted is out.accepted and got.accepted.all()
        assert _same(got, sweep_many(*pairs)) == []
    wrong = {"toi": held.toi[:10].astype(np.float32), "status": held.status[:9], "hit": held.hit[:10].copy()}
    wrong["hit"].flags.writeable = False
    for name, array in wrong.items():
        out = type(held)(*(array if f == name else x[:10] for f, x in held.__dict__.items()))
        with pytest.raises(ValueError, match=f"^out: {name} must be a writable"):
            sweep_columns(*_as_columns(_ordinary(10, 7)), out=out)
