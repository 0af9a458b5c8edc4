"""The audit's output folder, by the program's one safe writer (:mod:`explorer.system.files`).

OUTDIR must be new or an empty folder (a symbolic link is refused, never
followed); everything is written into a private folder beside it and renamed
into place when complete, so OUTDIR appears only when the audit has completed.
Here the writer's refusals become the audit's one-line ``-o:`` refusals.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ...system import files
from ..log.columns import LogError

#: Files in OUTDIR are created exclusively, never through a link.
create = files.create


class OutputError(LogError):
    """The output folder cannot be used or written (one line, naming it)."""


def check_target(outdir: str | os.PathLike[str]) -> Path:
    """Refuse, before any work, an output folder the writer would refuse.

    Raises
    ------
    OutputError
    """
    try:
        return files.check_folder(outdir, "the audit")
    except files.WriteError as err:
        raise OutputError(f"-o: {err}") from None


@contextmanager
def staged(outdir: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a private folder to write into; it becomes ``outdir`` when the block completes.

    Raises
    ------
    OutputError
        When the folder is refused or cannot be written (nothing is left behind).
    """
    try:
        with files.new_folder(outdir, "the audit") as stage:
            yield stage
    except files.WriteError as err:
        raise OutputError(f"-o: {err}") from None
