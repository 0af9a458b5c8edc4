"""A solver's answers as text, for comparing two runs bit for bit (``repr`` of every field); numpy-free.

Used by ``tests/solver/test_without_numpy.py`` in this process and in a subprocess where numpy cannot be imported.
"""

from __future__ import annotations

from solver import Body, bounce_path, simulate, sweep, sweep_inside


def body(data) -> Body:
    """A Body from :func:`data`'s list."""
    center, velocity, radius, mass = data
    return Body(tuple(center), tuple(velocity), radius, mass)


def data(body: Body) -> list:
    """``[center, velocity, radius, mass]`` of ``body``, for JSON."""
    return [list(body.center), list(body.velocity), body.radius, body.mass]


def sweep_answer(a, b, horizon: float, mode: str) -> str:
    """Every field of one sweep, as text (``refused: ...`` for what the public API refuses: the families
    reach beyond its ranges to test the maths)."""
    query = sweep_inside if mode == "inside" else sweep
    try:
        s = query(body(a), body(b), horizon)
    except ValueError as exc:
        return f"refused: {exc}"
    contact = None if s.contact is None else (s.contact.point, s.contact.normal, s.contact.time)
    return repr((s.status.name, s.hit, s.toi, s.roots, s.exact, s.t_min, s.closest, contact, s.trace))


def motion_answer(case: dict) -> str:
    """Every event and frame of one motion, as text."""
    container = None if case["container"] is None else body(case["container"])
    m = simulate([body(b) for b in case["bodies"]], case["horizon"], case["restitution"], container,
                 max_events=case["max_events"])  # fmt: skip
    return repr((m.events, m.frames, m.origin, m.stopped, m.stop_kind))


def path_answer(case: dict) -> str:
    """One ball's bounce path among the others (or in its container), as text."""
    bodies = [body(b) for b in case["bodies"]]
    if case["container"] is not None:
        p = bounce_path(bodies[0], body(case["container"]), case["horizon"], case["restitution"], inside=True)
    else:
        p = bounce_path(bodies[0], bodies[1:], case["horizon"], case["restitution"])
    return repr((p.segments, p.bounces, p.stopped))
