"""The scene's numbers as a form to type in: each field's accessible name, its text, and the sliders a student
expects (a mass per ball, the elasticity), described once for the window's Scene panel and the live page's.

Every field names a session edit (:data:`explorer.model.actions.edits.FIELDS`: ``horizon``, ``restitution``,
``body.radius``, ``body.mass``, ``body.center.0`` ... ``body.velocity.2``), so a value typed in either form is
the same edit, refused with the same one line naming the field.  The accessible names are the ones checks rely on
(DESIGN.md): ``"A mass"``, ``"A radius"``, ``"A center x"``, ``"A velocity x"`` (any body by its name),
``"restitution"``, ``"horizon"``, and the buttons ``"add body"`` and ``"remove A"``.  Qt- and numpy-free.
"""

from __future__ import annotations

import math

from ..state.scene import MAX_BODIES, Scene

#: The mass slider's range and step (PhET's Collision Lab: 0.1 to 10 kg); any mass can still be typed.
MASS_SLIDER = (0.1, 10.0, 0.1)
#: The elasticity (restitution) slider: 0, perfectly inelastic, to 1, elastic.
RESTITUTION_SLIDER = (0.0, 1.0, 0.01)
#: The scene's modes, as the form offers them.
MODES = ("pair", "inside", "all")
#: Bodies can be removed down to this many (A never; the session refuses what a mode does not allow).
MIN_BODIES = 2


def field_text(value: float) -> str:
    """A number as a form shows it to be typed over: 10 significant digits, no ``-0``."""
    return f"{value + 0.0:.10g}"


def _field(field: str, label: str, value: float, slider: tuple[float, float, float] | None = None,
           slider_label: str = "") -> dict:  # fmt: skip
    row = {"field": field, "label": label, "value": field_text(value)}
    if slider is not None:
        row.update(slider=list(slider), sliderLabel=slider_label)
    return row


def body_fields(scene: Scene, index: int) -> list[dict]:
    """Body ``index``'s typed fields: centre x, y, z, velocity x, y, z, radius, and mass (none when fixed)."""
    body = scene.bodies[index]
    rows = [_field(f"body.{key}.{k}", f"{body.name} {key} {axis}", getattr(body, key)[k])
            for key in ("center", "velocity") for k, axis in enumerate("xyz")]  # fmt: skip
    rows.append(_field("body.radius", f"{body.name} radius", body.radius))
    if math.isfinite(body.mass):
        rows.append(_field("body.mass", f"{body.name} mass", body.mass, MASS_SLIDER, f"{body.name}'s mass, slider"))
    return rows


def scene_form(scene: Scene) -> dict:
    """The whole form: the scene's own fields, its mode, and each body's.

    Returns
    -------
    dict
        ``scene``: the restitution (with its slider) and horizon fields; ``mode`` and ``modes``; ``bodies``: each
        ``{"index", "name", "fixed", "removable", "fields"}`` (``fields`` from :func:`body_fields`); ``canAdd``.
        A field is ``{"field", "label", "value"}`` and, where a student expects one, ``"slider": [lo, hi, step]``
        and its own accessible name ``"sliderLabel"`` (never holding the field's, so a name finds one control).
    """
    n = len(scene.bodies)
    return {
        "scene": [
            _field("restitution", "restitution", scene.restitution, RESTITUTION_SLIDER, "elasticity, slider"),
            _field("horizon", "horizon", scene.horizon),
        ],
        "mode": scene.mode,
        "modes": list(MODES),
        "bodies": [
            {
                "index": k,
                "name": b.name,
                "fixed": not math.isfinite(b.mass),
                "removable": k > 0 and n > MIN_BODIES,
                "fields": body_fields(scene, k),
            }
            for k, b in enumerate(scene.bodies)
        ],  # fmt: skip
        "canAdd": n < MAX_BODIES and scene.mode != "inside",
    }
