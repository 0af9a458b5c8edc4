"""Exact moving-sphere queries: time of impact, both roots, contact, response and motion.

* :func:`sweep`, :func:`sweep_inside`, :func:`sweep_many`: first contact of two
  spheres, certified (:mod:`solver._filter`, :mod:`solver._refine`,
  :mod:`solver._exact`);
* :func:`reflect`, :func:`ricochet_angle`, :func:`collide`, :func:`impact`: the
  response at a contact;
* :func:`simulate`: every body moving and colliding, event by event
  (:mod:`solver.motion`); :func:`bounce_path`: one ball's path over it;
* :mod:`solver.limits`: the one validation rule, and why its ranges keep every
  result finite.

Plain Python for one query or one motion (numba compiles the loops when it is
installed); :func:`sweep_many` needs numpy, and is imported only when used, so
everything else runs where numpy cannot be installed (a browser's Python).
Never imports Qt, pyvista or the explorer app.
"""

from .body import Body
from .motion import Event, Frame, Motion, simulate
from .path import Bounce, BouncePath, Segment, bounce_path
from .ray import RayHit, ray_sphere
from .response import Impact, collide, impact, reflect, ricochet_angle
from .result import Approach, Contact, Sweep
from .status import Status
from .sweep import sweep, sweep_inside

__all__ = [
    "Approach",
    "BatchResult",
    "Bounce",
    "Body",
    "BouncePath",
    "Contact",
    "Event",
    "Frame",
    "Impact",
    "Motion",
    "RayHit",
    "Segment",
    "Status",
    "Sweep",
    "bounce_path",
    "collide",
    "impact",
    "ray_sphere",
    "reflect",
    "ricochet_angle",
    "simulate",
    "sweep",
    "sweep_inside",
    "sweep_many",
]


#: The names that need numpy, imported when first used (:func:`__getattr__`).
_BATCH_NAMES = ("BatchResult", "sweep_many")


def __getattr__(name: str):
    """``sweep_many`` and ``BatchResult``, imported on first use: they need numpy, nothing else does."""
    if name not in _BATCH_NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        from . import batch
    except ImportError as exc:
        raise ImportError(f"solver.{name} needs numpy ({exc}); install it with: pip install numpy") from None
    return getattr(batch, name)
