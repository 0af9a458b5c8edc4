"""Where the scene gallery lives, and what is in it."""

from __future__ import annotations

import os
from pathlib import Path

#: The gallery folder: ``$SPHERE_EXPLORER_SCENES`` (when set and not empty) or ``scenes/`` beside the package.
SCENES_DIR = Path(os.environ.get("SPHERE_EXPLORER_SCENES") or Path(__file__).resolve().parents[3] / "scenes")

DEFAULT_SCENE = SCENES_DIR / "default.json"


def gallery() -> list[Path]:
    """The gallery's scene files (regular files only), default first, then by name."""
    try:
        if not SCENES_DIR.is_dir():
            return []
        files = sorted(p for p in SCENES_DIR.glob("*.json") if p.name != DEFAULT_SCENE.name and p.is_file())
    except OSError:  # an unreadable folder: no gallery
        return []
    return ([DEFAULT_SCENE] if DEFAULT_SCENE.is_file() else []) + files
