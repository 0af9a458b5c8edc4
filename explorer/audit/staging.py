"""The output folder appears only when complete: written in a hidden sibling, renamed at the end.

Rules:

* ``OUTDIR`` must not exist, or be an empty folder; a symbolic link is refused
  (never written through), and so is a missing parent folder;
* everything is written into a fresh private folder beside it, named as every
  temporary of the program is (:func:`explorer.model.scene_io.temp_prefix`:
  ``.OUTDIR.sphere-explorer-PID-XXXXXXXX.tmp``, created by :func:`tempfile.mkdtemp`),
  whose files are created exclusively and never through a link; the staging
  folders of runs that were killed are removed by the next run in that folder;
* on success that folder gets the usual permissions and is renamed to
  ``OUTDIR`` in one step; on any failure or interruption it is removed, so no
  partial folder is ever left behind or presented as complete.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Iterator

from explorer.model.scene_io import clean_stale_temps, temp_prefix

from .columns import LogError


class OutputError(LogError):
    """The output folder cannot be used or written (one line, naming it)."""


def check_target(outdir: str | os.PathLike[str]) -> Path:
    """Refuse an output folder that exists (unless empty), is a link, or has no parent folder.

    Raises
    ------
    OutputError
    """
    out = Path(outdir)
    if out.is_symlink():
        raise OutputError(f"-o: {str(out)!r} is a symbolic link; give a new folder")
    if out.exists():
        if not out.is_dir():
            raise OutputError(f"-o: {str(out)!r} exists and is not a folder")
        if any(out.iterdir()):
            raise OutputError(f"-o: {str(out)!r} exists and is not empty; give a new folder")
    parent = out.absolute().parent
    if not parent.is_dir():
        raise OutputError(f"-o: folder {str(parent)!r} does not exist")
    return out


@contextmanager
def staged(outdir: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a private folder to write into; rename it to ``outdir`` when the block completes.

    Raises
    ------
    OutputError
        When the folder cannot be created or renamed (the staging folder is
        then removed).
    """
    out = check_target(outdir)
    parent = out.absolute().parent
    clean_stale_temps(parent)  # staging folders of runs that were killed
    try:
        stage = Path(tempfile.mkdtemp(prefix=temp_prefix(out), suffix=".tmp", dir=parent))
    except OSError as err:
        raise OutputError(f"-o: cannot write in {str(parent)!r} ({err.strerror or err})") from None
    try:
        try:
            yield stage
        except OSError as err:  # a full disk, a quota, an I/O error while writing the files
            raise OutputError(f"-o: cannot write {str(out)!r} ({err.strerror or err})") from None
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(stage, 0o777 & ~umask)
        check_target(out)  # nothing appeared there meanwhile
        try:
            os.rename(stage, out)
        except OSError as err:
            raise OutputError(f"-o: cannot create {str(out)!r} ({err.strerror or err})") from None
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise


def create(path: Path) -> BinaryIO:
    """Open a new file for writing: exclusively, never through a symbolic link."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
    return os.fdopen(fd, "wb")
