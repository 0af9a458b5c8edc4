"""The front door (explorer/__init__.py): a script's names one import away, each the object at its home, and
nothing heavy imported until used."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

import explorer
from explorer.model.formats.gallery import DEFAULT_SCENE

#: A script as the README's example writes it; prints what it needed to import.
SCRIPT = """
import json, sys
import explorer
before = sorted(m for m in sys.modules if m.startswith(("explorer.", "numpy", "PySide6", "vtk", "pyvista")))
scene = explorer.load(sys.argv[1])
solution = explorer.solve(scene)
faster = scene.with_body(0, velocity=(12.0, 1.0, 0.0))
heavy = sorted({m.split(".")[0] for m in sys.modules if m.split(".")[0] in ("PySide6", "vtk", "vtkmodules", "pyvista")})
print(json.dumps({"before": before, "toi": explorer.solution_dict(solution)["toi"],
                  "faster": explorer.solve(faster).sweep.toi, "heavy": heavy}))
"""


def test_a_script_loads_and_solves_through_the_front_door_without_qt_or_vtk():
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(DEFAULT_SCENE)], capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["before"] == []  # `import explorer` alone imports none of the program
    assert out["heavy"] == []
    # default.json: A from x = -5 at (9, 1, 0) against B (fixed) at the origin: it touches before t = 1; faster, sooner
    assert 0.0 < out["faster"] < out["toi"] < 1.0


def test_every_name_of_the_front_door_is_the_object_at_its_home():
    assert explorer.__all__ == sorted(explorer.FRONT_DOOR)
    for name, (home, attribute) in explorer.FRONT_DOOR.items():
        assert getattr(explorer, name) is getattr(importlib.import_module(home), attribute), name
    assert "solve" in dir(explorer)


def test_a_name_the_front_door_does_not_have_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no_such_thing"):
        explorer.no_such_thing  # noqa: B018
