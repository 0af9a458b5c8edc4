"""Where the scene gallery lives, and what is in it."""

from __future__ import annotations

import os
from pathlib import Path

#: The gallery folder: ``$SPHERE_EXPLORER_SCENES`` or ``scenes/`` beside the package.
SCENES_DIR = Path(os.environ.get("SPHERE_EXPLORER_SCENES", Path(__file__).resolve().parents[2] / "scenes"))

DEFAULT_SCENE = SCENES_DIR / "default.json"


def gallery() -> list[Path]:
    """The gallery's scene files, default first, then by name."""
    if not SCENES_DIR.is_dir():
        return []
    files = sorted(p for p in SCENES_DIR.glob("*.json") if p.name != DEFAULT_SCENE.name)
    return ([DEFAULT_SCENE] if DEFAULT_SCENE.exists() else []) + files
