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

Pure numpy/python (numba when available); never imports Qt, pyvista or the explorer app.
"""

from .batch import BatchResult, sweep_many
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
