"""Fixtures shared by every test tree."""

from __future__ import annotations

import io

import pytest


class Terminal(io.StringIO):
    """A stand-in for stderr on a terminal: what is written is kept, and ``isatty()`` is True (progress
    bars and compile notices are drawn only on a terminal)."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def terminal() -> type[Terminal]:
    """The :class:`Terminal` class: call it for a fresh stand-in."""
    return Terminal
