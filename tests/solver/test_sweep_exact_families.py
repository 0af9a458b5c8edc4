"""Every hard family against the exact reference: zero wrong verdicts, roots and
times of impact within 1e-10 relative; plus checks that the families really are
hard (a naive float64 formula gets many of them wrong) so they cannot silently
become easy."""

from __future__ import annotations

import functools
import math
from collections import Counter

import families as fam
import pytest
import reference as ref
from checks import check_consistency, check_contact, check_trace, sweep_many_cases
from core import core_sweep

from solver import Body, Status, sweep

RTOL = 1e-10
NAMES = list(fam.FAMILIES)


def run(mode: str, a: Body, b: Body, h: float):
    """The certified core (no range checks: the families reach every exponent)."""
    return core_sweep(a, b, h, mode)


def problems(s, r: ref.Reference, h: float, mode: str) -> list[str]:
    """Everything in sweep result ``s`` that contradicts reference ``r``."""
    out = []
    if s.status.name != r.status:
        out.append(f"status {s.status.name}, reference {r.status}")
    if s.hit != r.hit:
        out.append(f"hit {s.hit}, reference {r.hit}")
    # time of impact
    if r.toi is None:
        if s.toi is not None:
            out.append(f"toi {s.toi!r}, reference None")
    elif s.toi is None:
        out.append(f"toi None, reference {r.toi:.17g}")
    else:
        if not (0.0 <= s.toi <= h):
            out.append(f"toi {s.toi!r} outside [0, {h!r}]")
        e = ref.rel_error(s.toi, r.toi)
        if e > RTOL:
            out.append(f"toi {s.toi!r}, reference {r.toi:.20g} (rel. error {e:.3g})")
    # the reported times agree with the verdict
    if s.roots is not None and s.status.name in ("HIT", "LATER"):
        contact = s.roots[0] if mode == "pair" else s.roots[1]
        if s.status.name == "HIT" and s.toi != contact:
            out.append(f"HIT, but toi {s.toi!r} is not the contact root of {s.roots!r}")
        if s.status.name == "LATER" and not contact > h:
            out.append(f"LATER, but the contact root of {s.roots!r} is not after h = {h!r}")
    # both roots
    if r.roots is None:
        if s.roots is not None:
            out.append(f"roots {s.roots!r}, reference None")
    elif s.roots is None:
        out.append(f"roots None, reference ({r.roots[0]:.17g}, {r.roots[1]:.17g})")
    else:
        if not s.roots[0] <= s.roots[1]:
            out.append(f"roots not increasing: {s.roots!r}")
        for got, want in zip(s.roots, r.roots):
            e = ref.rel_error(got, want)
            if e > RTOL:
                out.append(f"root {got!r}, reference {want:.20g} (rel. error {e:.3g})")
    return out


@functools.lru_cache(maxsize=None)
def references(name: str) -> tuple[ref.Reference, ...]:
    """The exact outcome of every case of family ``name`` (cached)."""
    mode = fam.mode(name)
    return tuple(ref.reference(a, b, h, mode) for a, b, h in fam.cases(name))


def compare_family(name: str):
    mode = fam.mode(name)
    failures = []
    worst = 0.0
    for (a, b, h), r in zip(fam.cases(name), references(name)):
        s = run(mode, a, b, h)
        found = problems(s, r, h, mode)
        if found:
            failures.append((ref.describe(a, b, h, mode), found))
        if r.toi is not None and s.toi is not None:
            worst = max(worst, ref.rel_error(s.toi, r.toi))
    return failures, worst


@pytest.mark.parametrize("name", NAMES)
def test_family_matches_exact_reference(name):
    failures, worst = compare_family(name)
    n = len(fam.cases(name))
    assert not failures, (
        f"family {name!r}: {len(failures)} of {n} cases disagree with the exact reference "
        f"(worst toi rel. error {worst:.3g}).\nFirst failing case:\n  {failures[0][0]}\n  -> "
        + "; ".join(failures[0][1])
        + "".join(f"\n  also: {f[0]} -> {'; '.join(f[1])}" for f in failures[1:4])
    )
    assert worst <= RTOL


def _first_failures(name: str, check) -> tuple[int, list[str]]:
    mode = fam.mode(name)
    failures = []
    for a, b, h in fam.cases(name):
        try:
            check(run(mode, a, b, h), h, mode)
        except AssertionError as exc:
            failures.append(str(exc).split("\nassert")[0])
    return len(failures), failures[:3]


@pytest.mark.parametrize("name", NAMES)
def test_family_results_are_consistent(name):
    """hit <=> toi; toi in [0, h]; roots increasing; HIT's toi is the contact
    root; LATER's contact root is after h; ..."""
    count, first = _first_failures(name, check_consistency)
    assert not count, f"family {name!r}: {count} inconsistent results; first:\n" + "\n".join(first)


@pytest.mark.parametrize("name", NAMES)
def test_family_traces_state_true_facts(name):
    """Every trace step's stated sign holds for the exact quantity."""
    count, first = _first_failures(name, check_trace)
    assert not count, f"family {name!r}: {count} traces state something false; first:\n" + "\n".join(first)


@pytest.mark.parametrize("name", [n for n in NAMES if n != "extreme"])
def test_family_contacts(name):
    """Unit normal for every hit; for a HIT the contact point lies on A's surface."""
    count, first = _first_failures(name, lambda s, h, mode: check_contact(s))
    assert not count, f"family {name!r}: {count} bad contacts; first:\n" + "\n".join(first)


@pytest.mark.parametrize("name", NAMES)
def test_reference_oracle_self_check(name):
    """The oracle against a second exact formulation: a pair touches within
    [0, h] iff the minimum of f over [0, h] (at the clamped vertex) is <= 0; a
    ball reaches the wall iff max(f(0), f(h)) >= 0, unless it lies entirely
    outside the container (farther than rA + rC, compared by squared distance).
    Its roots are roots of f."""
    mode = fam.mode(name)
    D = ref.decimal.Decimal
    for (a, b, h), r in zip(fam.cases(name), references(name)):
        f = lambda t: r.A * t * t + 2 * r.B * t + r.C  # noqa: E731, B023 (used in this pass)
        if mode == "pair":
            t_v = min(max(-r.B / r.A, ref.Fraction(0)), r.h) if r.A else ref.Fraction(0)
            touches = f(t_v) <= 0
        else:
            dist2 = sum((ref.frac(b.center[i]) - ref.frac(a.center[i])) ** 2 for i in range(3))
            outside = dist2 > (ref.frac(a.radius) + ref.frac(b.radius)) ** 2
            touches = max(f(ref.Fraction(0)), f(r.h)) >= 0 and not outside
        assert touches == r.hit, f"oracle disagrees with itself on {ref.describe(a, b, h, mode)}"
        if r.roots:
            with ref.decimal.localcontext(ref._CTX):
                A, B, C = ref._dec(r.A), ref._dec(r.B), ref._dec(r.C)
                for t in r.roots:
                    residual = A * t * t + 2 * B * t + C
                    assert abs(residual) <= (abs(A) * t * t + abs(2 * B * t) + abs(C)) * D("1e-60"), (
                        f"oracle root {t} is not a root for {ref.describe(a, b, h, mode)}"
                    )
            assert r.roots[0] <= r.roots[1]


# -- the families are big, varied and hard ---------------------------------------

MIN_SIZE = {name: 300 for name in NAMES} | {"seed004": 4}


@pytest.mark.parametrize("name", NAMES)
def test_family_size_and_determinism(name):
    cases = fam.cases(name)
    assert len(cases) >= MIN_SIZE[name]
    again = fam.FAMILIES[name][0]()
    assert [ref.describe(*c) for c in again[:50]] == [ref.describe(*c) for c in cases[:50]], "not deterministic"


#: Statuses each family must contain (at least 10 times, or once for seed004).
EXPECTED_STATUSES = {
    "graze": {"HIT", "MISS", "LATER"},
    "long_shot": {"HIT", "MISS"},
    "tiny_gap": {"OVERLAPPING", "HIT", "LATER", "SEPARATING"},
    "far": {"HIT", "MISS"},
    "at_horizon": {"HIT", "LATER"},
    "bullets": {"HIT", "MISS"},
    "equal_velocity": {"NO_RELATIVE_MOTION", "OVERLAPPING", "SEPARATING"},
    "containers": {"OVERLAPPING", "HIT", "LATER", "NO_RELATIVE_MOTION"},
    "seed004": {"OVERLAPPING", "HIT"},
    "zero_and_perpendicular": {"NO_RELATIVE_MOTION", "SEPARATING", "MISS", "OVERLAPPING"},
    "extreme": {"OVERLAPPING", "SEPARATING", "MISS", "HIT", "LATER"},
}


@pytest.mark.parametrize("name", NAMES)
def test_family_covers_both_sides_of_its_boundaries(name):
    counts = Counter(r.status for r in references(name))
    need = 1 if name == "seed004" else 10
    missing = {s for s in EXPECTED_STATUSES[name] if counts[s] < need}
    assert not missing, f"family {name!r} has too few {sorted(missing)}: {dict(counts)}"


#: Families on which a naive float64 textbook formula must get at least this
#: fraction of the hit/no-hit verdicts wrong.
NAIVE_WRONG_FRACTION = {
    "graze": 0.05,
    "long_shot": 0.05,
    "far": 0.05,
    "at_horizon": 0.05,
    "bullets": 0.05,
    "containers": 0.05,
    "extreme": 0.05,
    "tiny_gap": 0.005,
}


@pytest.mark.parametrize("name", sorted(NAIVE_WRONG_FRACTION))
def test_family_defeats_naive_float64(name):
    mode = fam.mode(name)
    cases = fam.cases(name)
    wrong = sum(ref.naive_hit(a, b, h, mode) != r.hit for (a, b, h), r in zip(cases, references(name)))
    assert wrong >= NAIVE_WRONG_FRACTION[name] * len(cases), (
        f"family {name!r} became easy: the naive float64 formula is wrong on only {wrong} of {len(cases)}"
    )


def test_families_contain_exact_boundaries():
    """Exactly on the boundary, not just near it: discriminant exactly 0
    (tangent), touching exactly at t = 0, contact exactly at the horizon."""
    graze = references("graze")
    assert sum(r.D == 0 and r.C > 0 and r.B < 0 for r in graze) >= 100
    tiny = references("tiny_gap")
    assert sum(r.C == 0 for r in tiny) >= 20
    cont = references("containers")
    assert sum(r.C == 0 for r in cont) >= 20  # touching the wall
    assert sum(r.C < 0 and r.fh == 0 for r in cont) >= 20  # reaching it exactly at the horizon
    perp = references("zero_and_perpendicular")
    assert sum(r.A > 0 and r.B == 0 for r in perp) >= 50  # p.v exactly 0
    axis = [
        (a, b) for (a, b, h), r in zip(fam.cases("zero_and_perpendicular"), perp)
        if r.A > 0 and all(r.p[i] == 0 or r.v[i] == 0 for i in range(3))
    ]  # fmt: skip
    assert len(axis) >= 20  # ... and every product p_i v_i is 0
    hor = references("at_horizon")
    assert sum(r.fh == 0 for r in hor) >= 20
    # and within a few ulps of the horizon elsewhere
    near = sum(
        r.roots is not None and abs(r.roots[0] - ref._dec(r.h)) <= 8 * ref._dec(ref.frac(math.ulp(float(r.h))))
        for r in hor
    )
    assert near >= 0.5 * len(hor)


def test_families_tangents_are_exactly_tangent():
    """The (5, 3, 0) sample: p = (5, 3, 0), v = (-1, 0, 0), R = 3 -- discriminant
    exactly 0, contact exactly at t = 5: a HIT at the horizon 5, LATER before."""
    a = Body((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 1.0)
    b = Body((5.0, 3.0, 0.0), (-1.0, 0.0, 0.0), 2.0)
    s = sweep(a, b, 5.0)
    assert s.status is Status.HIT and s.toi == 5.0 and s.roots == (5.0, 5.0)
    s = sweep(a, b, math.nextafter(5.0, 0.0))
    assert s.status is Status.LATER and s.toi is None and s.roots[0] > s.horizon
    s = sweep(a, Body((5.0, math.nextafter(3.0, 4.0), 0.0), (-1.0, 0.0, 0.0), 2.0), 10.0)
    assert s.status is Status.MISS and s.roots is None


def test_seed004_sample_is_overlapping():
    """Seed 004: ball at the origin heading to (4, 4, 4) at 3 units/frame,
    radius 4; sphere at (4, 4, 0), radius 4.  They already overlap."""
    speed = 3.0 / math.sqrt(3.0)
    ball = Body(center=(0.0, 0.0, 0.0), velocity=(speed, speed, speed), radius=4.0)
    sphere = Body(center=(4.0, 4.0, 0.0), velocity=(0.0, 0.0, 0.0), radius=4.0)
    for s in (sweep(ball, sphere, 1.0), sweep(sphere, ball, 1.0)):
        assert s.status is Status.OVERLAPPING
        assert s.hit and s.toi == 0.0


def test_docstring_example():
    s = sweep(Body((0, 0, 0), (10, 0, 0), 1.0), Body((5, 0, 0)), 1.0)
    assert s.status is Status.HIT and s.toi == 0.3 and s.roots == (0.3, 0.7)


# -- the batch API ---------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_batch_verdicts_equal_scalar_sweep(name):
    """``sweep_many`` over a whole family: the same verdicts as the scalar query
    on every pair, times within the promised accuracy of the scalar ones."""
    mode = fam.mode(name)
    cases = fam.cases(name)
    out = sweep_many_cases(cases, mode == "inside")
    assert len(out.hit) == len(out.status) == len(out.toi) == len(cases)
    failures = []
    for i, (a, b, h) in enumerate(cases):
        s = run(mode, a, b, h)
        got = (bool(out.hit[i]), int(out.status[i]))
        if got != (s.hit, int(s.status)):
            failures.append(
                f"{ref.describe(a, b, h, mode)}: batch (hit, status) {got}, scalar {(s.hit, int(s.status))}"
            )
            continue
        roots = s.roots or (None, None)
        for field, x, y in (("toi", out.toi[i], s.toi), ("t_enter", out.t_enter[i], roots[0]),
                            ("t_exit", out.t_exit[i], roots[1])):  # fmt: skip
            x = float(x)
            if y is None:
                if not math.isnan(x):
                    failures.append(f"{ref.describe(a, b, h, mode)}: batch {field} {x!r}, scalar None")
            elif not (x == y or abs(x - y) <= 2 * RTOL * max(abs(y), ref.TINY)):
                failures.append(f"{ref.describe(a, b, h, mode)}: batch {field} {x!r}, scalar {y!r}")
    assert not failures, f"{len(failures)} of {len(cases)} batch results differ from sweep(); first: {failures[0]}"
