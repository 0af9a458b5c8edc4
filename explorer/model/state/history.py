"""Undo/redo of scene edits: a list of immutable scenes and a cursor.  Qt-free."""

from __future__ import annotations

from dataclasses import dataclass

from .scene import Scene

#: Oldest edits are forgotten beyond this many.
MAX_HISTORY = 500


@dataclass(frozen=True)
class Entry:
    """A scene and the edit that produced it (``label`` as shown in the Edit menu)."""

    scene: Scene
    label: str


class History:
    """Linear undo history.

    Parameters
    ----------
    scene : Scene
        The starting state (not undoable past).
    """

    def __init__(self, scene: Scene) -> None:
        self._entries = [Entry(scene, "open")]
        self._index = 0

    @property
    def current(self) -> Scene:
        """The scene at the cursor."""
        return self._entries[self._index].scene

    def push(self, scene: Scene, label: str) -> None:
        """Record an edit; drops any redo states.  Ignored when nothing changed."""
        if scene == self.current and scene.view == self.current.view:
            return
        del self._entries[self._index + 1 :]
        self._entries.append(Entry(scene, label))
        if len(self._entries) > MAX_HISTORY:
            del self._entries[0]
        self._index = len(self._entries) - 1

    def reset(self, scene: Scene) -> None:
        """Forget everything and start from ``scene`` (a newly opened file)."""
        self._entries = [Entry(scene, "open")]
        self._index = 0

    @property
    def can_undo(self) -> bool:
        return self._index > 0

    @property
    def can_redo(self) -> bool:
        return self._index < len(self._entries) - 1

    @property
    def undo_label(self) -> str | None:
        """What :meth:`undo` would undo."""
        return self._entries[self._index].label if self.can_undo else None

    @property
    def redo_label(self) -> str | None:
        """What :meth:`redo` would redo."""
        return self._entries[self._index + 1].label if self.can_redo else None

    def undo(self) -> Scene:
        """Step back; returns the scene now current."""
        if self.can_undo:
            self._index -= 1
        return self.current

    def redo(self) -> Scene:
        """Step forward; returns the scene now current."""
        if self.can_redo:
            self._index += 1
        return self.current
