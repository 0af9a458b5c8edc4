"""The scalar queries: two spheres in relative motion, and a ball inside a container."""

from __future__ import annotations

from types import ModuleType

from ._compile import as_python
from ._exact import classify_exact
from .body import Body
from .limits import RANGES, check_horizon, horizon_ok
from .result import Mode, Sweep
from .status import Status

_STATUSES = tuple(Status)


def _require_body(value: object, field: str) -> Body:
    if not isinstance(value, Body):
        raise ValueError(f"{field}: expected a solver.Body, got {type(value).__name__}")
    return value


def _horizon(value: object) -> float:
    if value.__class__ is float and horizon_ok(value, RANGES):  # fast path for the live drag loop
        return value  # type: ignore[return-value]
    return check_horizon(value, "horizon")


#: :mod:`solver._filter` once the first query has imported it.  Not imported with this module (which
#: ``import solver`` imports): its import decides whether the solver runs compiled, and
#: :func:`solver.configure` may come after ``import solver``.
_filter: ModuleType | None = None


def _import_filter() -> ModuleType:
    """:mod:`solver._filter`, imported by the first query."""
    global _filter
    from . import _filter as module

    _filter = module
    return module


def _solve(a: Body, b: Body, horizon: float, mode: Mode) -> Sweep:
    """Run the float filter, and the exact path where it cannot prove the answer."""
    inside = mode == "inside"
    ca, va, cb, vb = a.center, a.velocity, b.center, b.velocity
    ra, rb = a.radius, b.radius
    maths = _filter or _import_filter()
    out = maths.sweep_one(
        ca[0], ca[1], ca[2], va[0], va[1], va[2], ra, cb[0], cb[1], cb[2], vb[0], vb[1], vb[2], rb, horizon, inside
    )
    if out[4] == 0:
        return Sweep(a, b, horizon, mode, _STATUSES[out[0]], out[1], out[2], out[3], False, out[5:9], out[9])
    out = classify_exact(*ca, *va, ra, *cb, *vb, rb, horizon, inside)
    toi, t_lo, t_hi = as_python(maths.finish)(out[0], out[1], out[2], horizon, inside)
    return Sweep(a, b, horizon, mode, _STATUSES[out[0]], toi, t_lo, t_hi, True, out[4:8], out[8], out[9:11])


def sweep(a: Body, b: Body, horizon: float = 1.0) -> Sweep:
    """First contact of two moving spheres within ``[0, horizon]``.

    Parameters
    ----------
    a, b : Body
        Either or both may move.
    horizon : float
        Length of the time window, in (0, 1e6] (one frame by default).

    Returns
    -------
    Sweep
        Exact verdict (status, hit, toi, roots) and lazily computed details.

    Raises
    ------
    ValueError
        For a non-Body argument or a bad horizon, naming the field.

    Examples
    --------
    >>> from solver import Body, sweep
    >>> s = sweep(Body((0, 0, 0), (10, 0, 0), 1.0), Body((5, 0, 0)), 1.0)
    >>> s.status.name, s.toi
    ('HIT', 0.3)
    """
    _require_body(a, "a")
    _require_body(b, "b")
    return _solve(a, b, _horizon(horizon), "pair")


def sweep_inside(a: Body, container: Body, horizon: float = 1.0) -> Sweep:
    """When a ball moving inside a larger sphere first reaches its wall.

    The container is shrunk by the ball's radius; contact is the larger root
    of the quadratic (seed 001).  A ball that touches or crosses the wall at
    t = 0 is reported as :attr:`Status.OVERLAPPING` with ``toi = 0``.

    Parameters
    ----------
    a : Body
        The ball.
    container : Body
        The containing sphere; its radius must exceed the ball's.
    horizon : float
        In (0, 1e6].

    Raises
    ------
    ValueError
        ``container.radius`` not larger than ``a.radius``, or bad arguments.
    """
    _require_body(a, "a")
    _require_body(container, "container")
    h = _horizon(horizon)
    if not container.radius > a.radius:
        raise ValueError(
            f"container.radius: must be larger than the ball's radius ({container.radius!r} <= {a.radius!r})"
        )
    return _solve(a, container, h, "inside")
