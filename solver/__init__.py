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

The loops are compiled by numba when it is installed, or the same source runs
as plain Python, with the same answers (:mod:`solver._compile`; :func:`configure`
chooses, before the first query; :func:`load_motion_loop` lets a plain Python process use the compiled
motion loop once loaded in the background); :func:`sweep_many` needs numpy, and is imported only when used, so everything
else runs where numpy cannot be installed (a browser's Python).
Never imports Qt, pyvista or the explorer app.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ._compile import configure, load_motion_loop
from .body import Body
from .response import Impact, collide, impact, reflect, ricochet_angle
from .result import Approach, Contact, Sweep
from .status import Status
from .sweep import sweep, sweep_inside

if TYPE_CHECKING:  # imported on first use (__getattr__)
    from .batch import BatchResult, sweep_many
    from .motion import Event, Frame, Motion, simulate
    from .path import Bounce, BouncePath, Segment, bounce_path
    from .ray import RayHit, ray_sphere

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
    "configure",
    "impact",
    "load_motion_loop",
    "ray_sphere",
    "reflect",
    "ricochet_angle",
    "simulate",
    "sweep",
    "sweep_inside",
    "sweep_many",
]

#: The names imported on first use, by module: importing those modules decides whether the solver runs
#: compiled (:mod:`solver._compile`), which :func:`configure` may still choose after ``import solver``;
#: ``batch``'s need numpy as well.
_ON_FIRST_USE = {
    "motion": ("Event", "Frame", "Motion", "simulate"),
    "path": ("Bounce", "BouncePath", "Segment", "bounce_path"),
    "ray": ("RayHit", "ray_sphere"),
    "batch": ("BatchResult", "sweep_many"),
}
_MODULE_OF = {name: module for module, names in _ON_FIRST_USE.items() for name in names}


def __getattr__(name: str):
    """The names of :data:`_ON_FIRST_USE`, imported when first asked for (``from solver import simulate``)."""
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    except ImportError as exc:
        if module != "batch":
            raise
        raise ImportError(f"solver.{name} needs numpy ({exc}); install it with: pip install numpy") from None
    globals()[name] = value  # asked for once
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
