"""Checks shared by the test modules: consistency of one result, truth of its
trace, geometry of its contact.  Each raises AssertionError with a repro."""

from __future__ import annotations

import math

import reference as ref

from solver import Status

PAIR_STATUSES = set(Status)
INSIDE_STATUSES = {Status.OVERLAPPING, Status.NO_RELATIVE_MOTION, Status.HIT, Status.LATER, Status.OUTSIDE}
PAIR_STATUSES = PAIR_STATUSES - {Status.OUTSIDE}


def check_consistency(s, h, mode):
    repro = ref.describe(s.a, s.b, h, mode)
    assert isinstance(s.status, Status), repro
    assert s.status in (PAIR_STATUSES if mode == "pair" else INSIDE_STATUSES), repro
    assert s.hit == s.status.is_hit == (s.status in (Status.OVERLAPPING, Status.HIT)), repro
    assert s.hit == (s.toi is not None), f"{repro}: hit {s.hit} but toi {s.toi!r}"
    if s.toi is not None:
        assert 0.0 <= s.toi <= h, f"{repro}: toi {s.toi!r} outside [0, {h!r}]"
    if s.status is Status.OVERLAPPING:
        assert s.toi == 0.0, repro
    if s.status is Status.OUTSIDE:
        assert not s.hit and s.toi is None, repro
    if s.roots is not None:
        lo, hi = s.roots
        assert lo <= hi, f"{repro}: roots {s.roots!r} not increasing"
        assert not (math.isnan(lo) or math.isnan(hi)), repro
    if s.status in (Status.MISS, Status.NO_RELATIVE_MOTION):
        assert s.roots is None, f"{repro}: {s.status.name} with roots {s.roots!r}"
    if s.status in (Status.HIT, Status.LATER):
        assert s.roots is not None, repro
        contact_root = s.roots[0] if mode == "pair" else s.roots[1]
        if s.status is Status.HIT:
            assert s.toi == contact_root, f"{repro}: toi {s.toi!r} is not the contact root of {s.roots!r}"
        else:
            assert contact_root > h, f"{repro}: LATER but the contact root {contact_root!r} <= h"
    if s.status is Status.SEPARATING and s.roots is not None:
        assert s.roots[1] <= 0.0, f"{repro}: separating, yet a root {s.roots!r} in the future"
    if mode == "inside" and s.status in (Status.HIT, Status.LATER):
        assert s.roots[0] <= 0.0 <= s.roots[1], f"{repro}: inside, roots {s.roots!r} do not straddle 0"
    assert s.mode == mode and s.inside == (mode == "inside") and s.horizon == h


_RELATIONS = {
    "≤ 0": lambda x: x <= 0,
    "< 0": lambda x: x < 0,
    "≥ 0": lambda x: x >= 0,
    "> 0": lambda x: x > 0,
    "= 0": lambda x: x == 0,
}


def _relation(answer: str):
    for key, fn in _RELATIONS.items():
        if answer.startswith(key):
            return key, fn
    return None, None


def _exact_quantity(quantity: str, r: ref.Reference):
    """The exact value of a trace step's quantity, or None when unknown."""
    q = quantity.replace(" ", "")
    if q == "|p|²−(rC+rA)²":
        return r.C_out
    if q.startswith("|p|²"):
        return r.C
    if q == "|v|²":
        return r.A
    if "×" in q:
        return r.D
    if "p+v·h|²" in q:
        return r.fh
    if "h" in q:  # v·(p + v·h) or p·v + |v|²·h
        return r.ve
    if q == "p·v":
        return r.B
    return None


#: Words the last step's answer must contain, per status.
OUTCOME_WORDS = {
    Status.OVERLAPPING: ("t = 0",),
    Status.NO_RELATIVE_MOTION: ("no contact",),
    Status.SEPARATING: ("no contact",),
    Status.MISS: ("MISS",),
    Status.HIT: ("HIT",),
    Status.LATER: ("LATER",),
    Status.OUTSIDE: ("outside",),
}


def check_trace(s, h, mode):
    r = ref.reference(s.a, s.b, h, mode)
    repro = ref.describe(s.a, s.b, h, mode)
    trace = s.trace
    assert isinstance(trace, tuple) and len(trace) > 0, repro
    last = trace[-1].answer
    assert any(w in last for w in OUTCOME_WORDS[s.status]), f"{repro}: last step {last!r} for {s.status.name}"
    for step in trace:
        assert isinstance(step.question, str) and isinstance(step.quantity, str) and isinstance(step.answer, str)
        assert step.exact == s.exact, repro
        key, holds = _relation(step.answer)
        assert key is not None, f"{repro}: step answer {step.answer!r} states no sign"
        exact = _exact_quantity(step.quantity, r)
        if exact is None:
            continue
        assert holds(exact), (
            f"{repro}: trace step '{step.quantity} {key}' is false: exact value {ref._dec(exact):.6e} "
            f"(shown {step.value!r}, {'exact' if step.exact else 'float64'}) in\n  " + "\n  ".join(map(str, trace))
        )
        rounded = ref.exact_float(exact)
        if step.exact:
            assert step.value == rounded or (math.isnan(rounded) and math.isnan(step.value)), (
                f"{repro}: '{step.quantity}' shown as {step.value!r}, correctly rounded {rounded!r}"
            )
        assert holds(step.value) or rounded == 0.0, f"{repro}: '{step.quantity} {key}' shown as {step.value!r}"


def check_contact(s):
    c = s.contact
    repro = ref.describe(s.a, s.b, s.horizon, s.mode)
    if not s.hit:
        assert c is None, repro
        return
    assert c is not None and c.time == s.toi, repro
    n = c.normal
    assert abs(math.hypot(*n) - 1.0) <= 1e-12, f"{repro}: |normal| = {math.hypot(*n)!r}, normal {n!r}"
    if s.status is not Status.HIT:
        return
    # just touching: the contact point is on A's surface, along the normal
    ca, cb = s.positions(s.toi)
    d = [c.point[i] - ca[i] for i in range(3)]
    scale = max(map(abs, (*ca, *cb))) + s.a.radius + s.b.radius
    tol = 1e-9 * scale
    dist = math.hypot(*d)
    assert abs(dist - s.a.radius) <= tol, f"{repro}: contact point at {dist!r} from A's centre, radius {s.a.radius!r}"
    along = sum(d[i] * n[i] for i in range(3))
    assert abs(along - dist) <= tol, f"{repro}: contact point not along the normal"
    sign = -1.0 if s.inside else 1.0  # pair: n from A to B; inside: from the container's centre outwards
    dn = [sign * (cb[i] - ca[i]) for i in range(3)]
    assert sum(dn[i] * n[i] for i in range(3)) >= -tol, f"{repro}: normal {n!r} points the wrong way"


def sweep_many_cases(cases, inside: bool):
    """The batch query's certified core over a list of ``(a, b, horizon)`` cases,
    without the range checks (see :mod:`core`), as arrays."""
    from core import core_many

    return core_many(cases, inside)
