"""Numbers typed in a command's options: written plainly, or refused.

Python's ``int`` and ``float`` also take ``1_0``, `` 5`` and other scripts' digits (``٣``, ``５``): in an option
those are typing slips, refused like any other word.  Every command-line option that takes a number reads it here
(the main commands' in :mod:`explorer.cli`, the audit's in :mod:`explorer.audit.command`).
"""

from __future__ import annotations

import re

_WHOLE = re.compile(r"-?[0-9]+")


def whole(text: str) -> int:
    """``text`` as a whole number in ASCII digits, with an optional leading minus; ValueError otherwise."""
    if not _WHOLE.fullmatch(text):
        raise ValueError(text)
    return int(text)


def real(text: str) -> float:
    """``text`` as a float written in ASCII, without ``_`` or space around it (``1e-9``, ``+5``, ``inf`` are
    fine; the caller says which values it takes); ValueError otherwise."""
    if not text.isascii() or "_" in text or text != text.strip():
        raise ValueError(text)
    return float(text)
