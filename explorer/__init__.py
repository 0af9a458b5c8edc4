"""Sphere Sweep Explorer: the scene model, the drawing code and the Qt window — and a front door for scripts.

For a script or a notebook, everything is one import away, and nothing heavy is imported until it is used
(``import explorer`` loads no Qt, VTK, pyvista or numpy)::

    import explorer

    scene = explorer.load("scenes/default.json")          # a Scene (refused files: SceneError)
    solution = explorer.solve(scene)                       # the solver's answer for every pair and the motion
    print(explorer.solution_dict(solution)["toi"])         # what `sphere-explorer solve` prints, as a dict
    faster = scene.with_body(0, velocity=(12.0, 1.0, 0.0)) # scenes are immutable: changed copies
    explorer.render_png(faster, "faster.png")              # the picture `sphere-explorer render` draws
    explorer.write_page(faster, "faster.html")             # the scene's web page

The names, each the object documented at its home module:

- ``Scene``, ``SceneBody``, ``SceneError``: :mod:`explorer.model.state.scene`;
- ``load``, ``save``, ``parse``, ``dumps``: :mod:`explorer.model.formats.scene_io`;
- ``solve``, ``Solution``, ``solution_dict`` (its ``to_dict``): :mod:`explorer.model.derived.analysis`;
- ``bodies_at``, ``at_time``: :mod:`explorer.model.words.momenta`;
- ``Session``: :mod:`explorer.model.actions.session`;
- ``render_png``: :mod:`explorer.view.render`;
- ``write_page``, ``write_single``, ``write_site``: :mod:`explorer.web.export`;
- ``QueryLog``: :mod:`explorer.audit.log.writer`; ``audit_log`` (its ``audit``): :mod:`explorer.audit.run`.

Layers, each importing only those below it (import-linter contracts in pyproject.toml):
:mod:`explorer.system` (standard library only: set-up, files, signals), :mod:`explorer.model`
(the Qt-free scene, session and analysis), :mod:`explorer.audit` (engine logs), :mod:`explorer.view`
(the drawing, Qt-free), :mod:`explorer.web` (web pages), :mod:`explorer.qt` (the window) and
:mod:`explorer.cli` (the command line).  This module imports none of them until a name is asked for.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

#: Each name of the front door: (its home module, its name there).
FRONT_DOOR = {
    "Scene": ("explorer.model.state.scene", "Scene"),
    "SceneBody": ("explorer.model.state.scene", "SceneBody"),
    "SceneError": ("explorer.model.state.scene", "SceneError"),
    "load": ("explorer.model.formats.scene_io", "load"),
    "save": ("explorer.model.formats.scene_io", "save"),
    "parse": ("explorer.model.formats.scene_io", "parse"),
    "dumps": ("explorer.model.formats.scene_io", "dumps"),
    "solve": ("explorer.model.derived.analysis", "solve"),
    "Solution": ("explorer.model.derived.analysis", "Solution"),
    "solution_dict": ("explorer.model.derived.analysis", "to_dict"),
    "bodies_at": ("explorer.model.words.momenta", "bodies_at"),
    "at_time": ("explorer.model.words.momenta", "at_time"),
    "Session": ("explorer.model.actions.session", "Session"),
    "render_png": ("explorer.view.render", "render_png"),
    "write_page": ("explorer.web.export", "write_page"),
    "write_single": ("explorer.web.export", "write_single"),
    "write_site": ("explorer.web.export", "write_site"),
    "QueryLog": ("explorer.audit.log.writer", "QueryLog"),
    "audit_log": ("explorer.audit.run", "audit"),  # not "audit": that is the subpackage explorer.audit
}

__all__ = [
    "QueryLog",
    "Scene",
    "SceneBody",
    "SceneError",
    "Session",
    "Solution",
    "at_time",
    "audit_log",
    "bodies_at",
    "dumps",
    "load",
    "parse",
    "render_png",
    "save",
    "solution_dict",
    "solve",
    "write_page",
    "write_single",
    "write_site",
]

if TYPE_CHECKING:  # imported on first use (__getattr__)
    from .audit.log.writer import QueryLog
    from .audit.run import audit as audit_log
    from .model.actions.session import Session
    from .model.derived.analysis import Solution, solve
    from .model.derived.analysis import to_dict as solution_dict
    from .model.formats.scene_io import dumps, load, parse, save
    from .model.state.scene import Scene, SceneBody, SceneError
    from .model.words.momenta import at_time, bodies_at
    from .view.render import render_png
    from .web.export import write_page, write_single, write_site


def __getattr__(name: str):
    """A name of :data:`FRONT_DOOR`, imported from its home module when first asked for (then kept here)."""
    try:
        home, attribute = FRONT_DOOR[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(importlib.import_module(home), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *FRONT_DOOR})
