"""A folder of scene files to step through, one after another (e.g. the worst cases an audit wrote)."""

from __future__ import annotations

from pathlib import Path

from ...system.files import os_reason, show_path
from ..state.scene import SceneError


class SceneFolder:
    """The ``*.json`` files of one folder, in name order, and which one is open.

    Parameters
    ----------
    folder : Path
    current : Path, optional
        The file to start at (default: the first).

    Raises
    ------
    SceneError
        The folder cannot be read or holds no scene files.
    """

    def __init__(self, folder: str | Path, current: str | Path | None = None) -> None:
        self.folder = Path(folder)
        try:
            self.paths = sorted(p for p in self.folder.iterdir() if p.suffix.lower() == ".json" and p.is_file())
        except OSError as exc:
            raise SceneError(f"{show_path(self.folder)}: cannot read the folder ({os_reason(exc)})") from None
        if not self.paths:
            raise SceneError(f"{show_path(self.folder)}: no scene files (*.json) in this folder")
        self.index = 0
        if current is not None and Path(current) in self.paths:
            self.index = self.paths.index(Path(current))

    @property
    def current(self) -> Path:
        return self.paths[self.index]

    def step(self, offset: int) -> Path:
        """Move by ``offset`` files (wrapping around) and return the file now current."""
        self.index = (self.index + offset) % len(self.paths)
        return self.current

    def position(self) -> str:
        """``"3 / 10"``: where the current file is in the folder."""
        return f"{self.index + 1} / {len(self.paths)}"
