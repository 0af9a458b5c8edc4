"""Independent exact checks of a ``solver.Motion``, from the mathematics alone.

A motion is a list of frames: at ``t_k`` the centres ``X_k`` and velocities
``V_k`` (floats, hence exact rationals).  Everything here is recomputed from
those rationals with ``fractions.Fraction`` (signs) and ``decimal`` at
:data:`PRECISION` digits (roots), never from the solver's code:

* **event times**: from each frame, the exact time of every pair's next event
  (a ball pair in contact, ``f = |p + v t|^2 - R^2 <= 0``, and approaching; a
  ball at or beyond its container wall, ``f >= 0``, and moving out); the
  frame must end at the earliest of them (relative error <= ``rtol``), on an
  event of a pair whose own time is that earliest one, or reach the horizon
  when there is none before it;
* **no tunnelling**: over each frame, no pair gets closer than its contact
  distance (or than it already was, for pairs that start overlapping) by more
  than the rounding of the positions themselves, and no ball gets farther out
  of its container than that;
* **continuity**: each frame starts where the previous one ended, to the
  rounding of the positions;
* **after an impulse** the pair is not approaching (exactly, on the next frame);
* **momentum** of the bodies involved is conserved, **kinetic energy**
  conserved at restitution 1 and never gained (in the frame of a fixed
  partner), both to ``1e-12`` relative.

:func:`check_motion` returns a list of problems (empty when all hold).
"""

from __future__ import annotations

import decimal
import math
from dataclasses import dataclass
from fractions import Fraction

PRECISION = 40
_CTX = decimal.Context(prec=PRECISION, Emax=10**6, Emin=-(10**6))
U = 2.0**-53
#: Relative tolerance of momentum and energy checks.
CONSERVE_RTOL = 1e-12


def _q(x: float) -> Fraction:
    return Fraction(x)


def _dec(q: Fraction) -> decimal.Decimal:
    return _CTX.divide(decimal.Decimal(q.numerator), decimal.Decimal(q.denominator))


def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@dataclass(frozen=True)
class PairTime:
    """Exact next event of one pair from one frame: ``time`` (Decimal, from the frame start) and ``kind``."""

    time: decimal.Decimal | None
    kind: str  # "impact", "slide" or "none"


def pair_event(p, v, R, wall: bool) -> PairTime:
    """The next event of a pair with exact relative position ``p`` and velocity ``v``.

    ``p`` is the other body's (or the container's) centre seen from the ball;
    ``p``, ``v`` and ``R`` are integers over one common power of two (which
    cancels from every time), or Fractions.
    """
    A = _dot(v, v)
    if A == 0:
        return PairTime(None, "none")
    B = _dot(p, v)
    C = _dot(p, p) - R * R
    D = B * B - A * C
    if not wall:
        if B >= 0:
            return PairTime(None, "none")
        if C <= 0:
            return PairTime(decimal.Decimal(0), "impact")
        if D <= 0:
            return PairTime(None, "none")
        # first root (-B - sqrt D) / A = C / (-B + sqrt D): no cancellation (B < 0)
        t = _CTX.divide(_d(C), _CTX.add(_d(-B), _CTX.sqrt(_d(D))))
        return PairTime(t, "impact")
    if C >= 0 and B > 0:
        return PairTime(decimal.Decimal(0), "impact")
    if C >= 0 and B == 0:
        return PairTime(decimal.Decimal(0), "slide")
    if D > 0:
        # larger root (-B + sqrt D) / A, or C / (-B - sqrt D) when B > 0 (no cancellation either way)
        sq = _CTX.sqrt(_d(D))
        if B <= 0:
            t = _CTX.divide(_CTX.add(_d(-B), sq), _d(A))
        else:
            t = _CTX.divide(_d(C), _CTX.subtract(_d(-B), sq))
        return PairTime(t, "impact")
    return PairTime(_CTX.divide(_d(-B), _d(A)), "slide")


def _d(x) -> decimal.Decimal:
    """An int or Fraction as a Decimal (to PRECISION digits)."""
    if isinstance(x, int):
        return _CTX.plus(decimal.Decimal(x))
    return _dec(x)


def _ints(values) -> tuple[list[int], int]:
    """Floats as integers over one power of two: ``values[i] == ints[i] / 2**K`` exactly."""
    ratios = [float(x).as_integer_ratio() for x in values]
    K = max(d.bit_length() - 1 for _, d in ratios)
    return [n << (K - (d.bit_length() - 1)) for n, d in ratios], K


def _rel(x: decimal.Decimal, y: decimal.Decimal) -> float:
    scale = max(abs(x), abs(y), decimal.Decimal(2.0**-1022))
    return float(abs(x - y) / scale)


def _pairs(motion):
    n = len(motion.bodies)
    masses = [b.mass for b in motion.bodies]
    out = [
        (i, j, False)
        for i in range(n)
        for j in range(i + 1, n)
        if not (math.isinf(masses[i]) and math.isinf(masses[j]))
    ]
    if motion.container is not None:
        out += [(i, n, True) for i in range(n) if not (math.isinf(masses[i]) and math.isinf(motion.container.mass))]
    return out


def _radii(motion):
    rs = [b.radius for b in motion.bodies]
    if motion.container is not None:
        rs.append(motion.container.radius)
    return rs


def _masses(motion):
    ms = [b.mass for b in motion.bodies]
    if motion.container is not None:
        ms.append(motion.container.mass)
    return ms


def check_motion(motion, rtol: float = 1e-10, first_only: bool = False, stats: dict | None = None) -> list[str]:
    """Every problem found in ``motion`` (see the module notes).

    ``first_only``: only pairs with body 0 collide (a bounce path).  ``stats``,
    when given, gets ``"worst_time_error"`` (the largest relative error of an
    event time) and ``"events"`` updated.
    """
    problems: list[str] = []
    frames = motion.frames
    events = motion.events
    n = len(motion.bodies)
    radii = _radii(motion)
    masses = _masses(motion)
    pairs = [pr for pr in _pairs(motion) if not first_only or pr[0] == 0]
    H = _q(motion.horizon)
    if len(frames) != len(events) + 1:
        return [f"{len(frames)} frames for {len(events)} events"]
    scale = max(
        max(abs(x) for f in frames for c in f.centers for x in c),
        max(abs(x) for f in frames for v in f.velocities for x in v) * max(motion.horizon, 1.0),
        max(radii),
    )
    slack = Fraction(64.0 * U * scale)  # rounding of the positions themselves
    for k, frame in enumerate(frames):
        m = len(frame.centers)
        flat, K = _ints([x for c in frame.centers for x in c] + [x for v in frame.velocities for x in v] + radii
                        + [frame.t_start, frame.t_end])  # fmt: skip
        X = [flat[3 * r : 3 * r + 3] for r in range(m)]
        V = [flat[3 * m + 3 * r : 3 * m + 3 * r + 3] for r in range(m)]
        RI = flat[6 * m : 6 * m + len(radii)]
        ti0, ti1 = flat[-2], flat[-1]
        t0, t1 = _q(frame.t_start), _q(frame.t_end)
        if t1 < t0:
            problems.append(f"frame {k}: ends at {frame.t_end!r} before it starts at {frame.t_start!r}")
            continue
        # continuity with the previous frame (a tolerance check: floats with room to spare)
        if k > 0:
            prev = frames[k - 1]
            span = prev.t_end - prev.t_start
            jump = max(abs(c + v * span - x) for pc, pv, fc in zip(prev.centers, prev.velocities, frame.centers)
                       for c, v, x in zip(pc, pv, fc))  # fmt: skip
            if jump > 0.5 * float(slack):
                problems.append(f"frame {k}: the centres jump by {jump!r} from where the last frame ended")
        # the next event from this frame (times in units of 2^0: the scale cancels)
        times = {}
        span = ti1 - ti0  # over 2^K
        for i, j, wall in pairs:
            p = [X[j][c] - X[i][c] for c in range(3)]
            v = [V[j][c] - V[i][c] for c in range(3)]
            R = RI[j] - RI[i] if wall else RI[i] + RI[j]
            times[(i, j)] = pair_event(p, v, R, wall)
            # no tunnelling within the frame
            problems += _depth_problems(k, i, j, wall, p, v, R, span, K, slack)
        live = {key: pt for key, pt in times.items() if pt.time is not None}
        first = min((pt.time for pt in live.values()), default=None)
        left = _dec(H - t0)
        del ti0
        last = k == len(frames) - 1
        if not last:
            ev = events[k]
            key = (ev.pair[0], n if ev.pair[1] == -1 else ev.pair[1])
            if first is None:
                problems.append(f"frame {k}: event {ev.pair} at {ev.time!r}, but no pair has an event")
                continue
            end = _CTX.add(_dec(t0), first)
            err = _rel(_dec(t1), end)
            if stats is not None:
                stats["worst_time_error"] = max(stats.get("worst_time_error", 0.0), err)
                stats["events"] = stats.get("events", 0) + 1
            if err > rtol:
                problems.append(
                    f"frame {k}: ends at {frame.t_end!r}, first exact event at {end} (pairs {sorted(live)})"
                )
            own = live.get(key)
            if own is None or _rel(_CTX.add(_dec(t0), own.time), end) > rtol:
                problems.append(
                    f"frame {k}: event on pair {ev.pair}, whose own next event is {own}, not the first {first}"
                )
            if abs(ev.time - frame.t_end) > 0:
                problems.append(f"frame {k}: event time {ev.time!r} differs from the frame end {frame.t_end!r}")
            problems += _response_problems(k, ev, frames[k], frames[k + 1], masses, n, motion.restitution)
        elif motion.stopped is None:
            if t1 != H:
                problems.append(f"last frame ends at {frame.t_end!r}, not the horizon, without a stop reason")
            if first is not None and first < left and _rel(first, left) > rtol:
                problems.append(
                    f"last frame: an exact event at {float(first) + float(t0)!r} before the horizon was missed ({sorted(live)})"
                )
        else:
            kind = motion.stop_kind
            if kind == "sliding":
                slides = [key for key, pt in live.items() if pt.kind == "slide"]
                after_event = bool(events) and events[-1].time == frame.t_start and frame.t_end == frame.t_start
                if not after_event:
                    if first is None or _rel(_CTX.add(_dec(t0), first), _dec(t1)) > rtol or not slides:
                        problems.append(
                            f"stopped sliding at {frame.t_end!r} but the first exact event is {first} (slides: {slides})"
                        )
            elif kind in ("events", "jammed"):
                if len(events) < 1:
                    problems.append(f"stopped ({kind}) without events")
                if first is None or _rel(_CTX.add(_dec(t0), first), _dec(t1)) > rtol:
                    problems.append(f"stopped ({kind}) at {frame.t_end!r}, the next exact event is at {first}")
            else:
                problems.append(f"unknown stop kind {kind!r}")
    for a, b in zip(events, events[1:]):
        if b.time < a.time:
            problems.append(f"events out of order: {a.time!r} then {b.time!r}")
    return problems


def _sqrt_bounds(q: Fraction) -> tuple[Fraction, Fraction]:
    """Rationals below and above ``sqrt(q)`` (q >= 0)."""
    r = Fraction(math.sqrt(float(q)))
    return r * Fraction(1 - 2.0**-48), r * Fraction(1 + 2.0**-48)


def _depth_problems(k, i, j, wall, p, v, R, span, K, slack) -> list[str]:
    """Pair (i, j) over one frame of ``span / 2^K`` time units: never deeper in than the rounding allows.

    ``p``, ``v``, ``R`` are integers over ``2^K``.  A pair stays at least
    ``min(R, |p(0)|) - slack`` apart; a ball stays within ``max(R, |p(0)|) + slack``
    of its container's centre.
    """
    A, B, C = _dot(v, v), _dot(p, v), _dot(p, p)  # over 2^(2K)
    S = 1 << K
    # squared distance at t = s / 2^K, times 2^(4K):  A s^2 + 2 B s 2^K + C 2^(2K)
    cands = [A * span * span + 2 * B * span * S + C * S * S, C * S * S]
    if A != 0 and 0 < -B * S < A * span:  # vertex t = -B / A inside the frame: |p x v|^2 / |v|^2
        w = [p[1] * v[2] - p[2] * v[1], p[2] * v[0] - p[0] * v[2], p[0] * v[1] - p[1] * v[0]]
        cands.append(Fraction(_dot(w, w) * S * S, A))
    scale2 = Fraction(1, 1 << (4 * K))
    RR = Fraction(R * R, 1 << (2 * K))
    C0 = Fraction(C, 1 << (2 * K))
    if not wall:
        low = _sqrt_bounds(min(RR, C0))[0] - slack
        worst = min(cands) * scale2
        if low > 0 and worst < low * low:
            return [
                f"frame {k}: pair ({i}, {j}) closes in to distance {math.sqrt(float(worst)):.17g} (allowed {float(low):.17g})"
            ]
        return []
    high = _sqrt_bounds(max(RR, C0))[1] + slack
    worst = max(cands) * scale2
    if worst > high * high:
        return [
            f"frame {k}: ball {i} gets {math.sqrt(float(worst)):.17g} from its container's centre (allowed {float(high):.17g})"
        ]
    return []


def _response_problems(k, ev, before, after, masses, n, e) -> list[str]:
    """The velocity change at event ``ev`` between frames ``before`` and ``after`` (exact integers)."""
    out = []
    changed = [r for r in range(len(before.velocities)) if before.velocities[r] != after.velocities[r]]
    bodies = [n if b == -1 else b for b in (ev.bodies or ev.pair)]
    if not set(changed) <= set(bodies):
        out.append(f"event {k}: velocities of {changed} changed, the event names {bodies}")
    ms = [masses[r] for r in bodies]
    fixed = [q for q, m in enumerate(ms) if math.isinf(m)]
    values = [x for r in bodies for x in [*before.velocities[r], *after.velocities[r]]]
    ints, _ = _ints(values + [m for m in ms if not math.isinf(m)])
    vel = [ints[6 * q : 6 * q + 6] for q in range(len(bodies))]  # before (3), after (3)
    mi = iter(ints[6 * len(bodies) :])
    M = [None if math.isinf(m) else next(mi) for m in ms]
    if fixed:
        ref = vel[fixed[0]][:3]
    else:
        ref = [0, 0, 0]
        pb = [sum(M[q] * vel[q][c] for q in range(len(bodies))) for c in range(3)]
        pa = [sum(M[q] * vel[q][3 + c] for q in range(len(bodies))) for c in range(3)]
        size = sum(M[q] * sum(abs(x) for x in vel[q][:3]) for q in range(len(bodies)))
        if max(abs(x - y) for x, y in zip(pb, pa)) * 10**12 > size:
            out.append(f"event {k}: momentum not conserved")

    def kinetic(off):
        return sum(
            M[q] * sum((vel[q][off + c] - ref[c]) ** 2 for c in range(3))
            for q in range(len(bodies))
            if M[q] is not None
        )

    kb, ka = kinetic(0), kinetic(3)
    if (ka - kb) * 10**12 > kb:
        out.append(f"event {k}: kinetic energy gained ({ka} > {kb}, over a common scale)")
    if e == 1.0 and ev.kind == "impact" and abs(ka - kb) * 10**12 > kb:
        out.append(f"event {k}: elastic impact changed the kinetic energy ({kb} -> {ka})")
    if ev.kind == "impact":
        i, j = ev.pair[0], n if ev.pair[1] == -1 else ev.pair[1]
        flat, _ = _ints([*after.centers[i], *after.centers[j], *after.velocities[i], *after.velocities[j]])
        d = [flat[3 + c] - flat[c] for c in range(3)]
        w = [flat[9 + c] - flat[6 + c] for c in range(3)]
        s = _dot(d, w)
        if (s < 0) if ev.pair[1] != -1 else (s > 0):
            out.append(f"event {k}: pair {ev.pair} still approaching after the impulse")
        # the normal and the impulse lie along the line of centres (from i towards j; outwards at the wall)
        sign_ = 1.0 if ev.pair[1] != -1 else -1.0
        line = [sign_ * (after.centers[j][c] - after.centers[i][c]) for c in range(3)]
        size = math.hypot(*line)
        for name, vec_, sign in (("normal", ev.normal, 1.0), ("impulse", ev.impulse, -1.0)):
            length = math.hypot(*vec_)
            if length == 0.0:
                continue
            cross = [
                vec_[1] * line[2] - vec_[2] * line[1],
                vec_[2] * line[0] - vec_[0] * line[2],
                vec_[0] * line[1] - vec_[1] * line[0],
            ]
            along = sign * sum(a * b for a, b in zip(vec_, line))
            if math.hypot(*cross) > 1e-12 * length * size or along <= 0:
                out.append(f"event {k}: {name} {vec_!r} is not along the line of centres {line!r}")
    return out
