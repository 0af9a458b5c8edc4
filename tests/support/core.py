"""The certified core below the public API, reachable over the whole float range.

The public API (:class:`solver.Body`, :func:`solver.sweep`, :func:`solver.sweep_many`)
accepts only the ranges of :mod:`solver.limits`.  Underneath, the certified
filter and the exact integer path decide every finite float input exactly; the
hard families at extreme magnitudes (subnormal radii, coordinates near 1e308)
keep testing that core through these helpers.  ``tests/solver/test_limits.py`` checks that
the public API gives the very same answers wherever it accepts the input.
"""

from __future__ import annotations

from solver import Body
from solver.batch import _sweep_arrays
from solver.sweep import _solve


def raw_body(center, velocity=(0.0, 0.0, 0.0), radius=1.0, mass=1.0) -> Body:
    """A :class:`solver.Body` built without the range checks (finite floats assumed)."""
    body = object.__new__(Body)
    object.__setattr__(body, "center", tuple(float(x) for x in center))
    object.__setattr__(body, "velocity", tuple(float(x) for x in velocity))
    object.__setattr__(body, "radius", float(radius))
    object.__setattr__(body, "mass", float(mass))
    return body


def core_sweep(a: Body, b: Body, h: float, mode: str = "pair"):
    """The scalar query's certified core: ``sweep`` / ``sweep_inside`` without the range checks."""
    if mode == "inside":
        assert b.radius > a.radius, "the container must be larger than the ball"
    return _solve(a, b, float(h), mode)


def core_many(cases, inside: bool):
    """The batch query's core over ``(a, b, horizon)`` cases, without the range checks."""
    import numpy as np

    def arr(xs):
        return np.array(xs, dtype=np.float64)

    return _sweep_arrays(
        arr([a.center for a, _, _ in cases]),
        arr([a.velocity for a, _, _ in cases]),
        arr([a.radius for a, _, _ in cases]),
        arr([b.center for _, b, _ in cases]),
        arr([b.velocity for _, b, _ in cases]),
        arr([b.radius for _, b, _ in cases]),
        arr([h for _, _, h in cases]),
        bool(inside),
        False,
    )


def refine_inputs(cases):
    """``(a, b, horizon)`` cases as the arrays of :func:`solver._refine.refine_sweeps`:
    ``ca, va, ra, cb, vb, rb, h`` (vectors flattened, ``(3 n,)``)."""
    import numpy as np

    return (
        np.array([a.center for a, _, _ in cases]).reshape(-1),
        np.array([a.velocity for a, _, _ in cases]).reshape(-1),
        np.array([a.radius for a, _, _ in cases]),
        np.array([b.center for _, b, _ in cases]).reshape(-1),
        np.array([b.velocity for _, b, _ in cases]).reshape(-1),
        np.array([b.radius for _, b, _ in cases]),
        np.array([h for _, _, h in cases]),
    )
