"""The one safe writer: every file and folder the program writes (scenes, pictures, animations, web
pages, reports, sites, audits) goes through here, under one policy.

Files (:func:`replacing`)
    Written to a temporary file beside the target, flushed to disk (fsync),
    then renamed over the target, so a crash or a full disk never leaves a
    half-written file and the old file stays whole until the new one is
    complete.  A new file gets 0666 less the umask; a file replaced keeps its
    mode (and, where allowed, its owner).  A symbolic link at the path is
    *written through*: the file it points to is replaced, the link stays (a
    link loop, a folder, a device or a read-only file is refused).
Folders (:func:`new_folder`)
    An output folder must be new, or an empty folder; a symbolic link there is
    *refused*, never followed, and so is a folder whose parent is missing.
    Everything is written into a private temporary folder beside it (0700
    while being written, files created exclusively and never through a link,
    :func:`create`), which gets the usual permissions and is renamed into
    place in one step when complete; on any failure or interruption it is
    removed, so no partial folder is ever left or presented as complete.
Signals
    A SIGINT or SIGTERM recorded before a file or folder is renamed into place
    stops the write there (:func:`explorer.system.interrupt.check`): the
    temporary is removed and the target left as it was.
Temporaries
    Named ``.NAME.sphere-explorer-PID-XXXXXXXX.tmp[.suffix]`` (the name cut so
    it stays within the 255-byte limit whatever NAME is).  Those of a process
    that is gone (killed mid-write) are removed by the next write in that
    folder (:func:`clean_stale_temps`), never those of a live one.

Every refusal is a :class:`WriteError` (a ``ValueError``) with one line naming
the path and the reason, operating-system errors included (a name over 255
bytes, a full disk, a read-only place).  Standard library only.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
import tempfile
import time
from pathlib import Path
from typing import IO, Any, BinaryIO, Iterator

from . import interrupt

#: Marks the temporaries this program writes, so that :func:`clean_stale_temps` removes only its own.
TEMP_TAG = ".sphere-explorer-"
_TEMP_NAME = re.compile(r"^\..*" + re.escape(TEMP_TAG) + r"(\d+)-[a-z0-9_]{8}\.tmp(\.[A-Za-z0-9]{1,8})?$")
#: A temporary of a live process older than this is stale too (its process id was reused).
STALE_AFTER = 3600.0


class WriteError(ValueError):
    """A file or folder that cannot be written; ``str()`` is one line naming it and why."""


def show_path(path: str | os.PathLike[str]) -> str:
    """A path as one printable line (undecodable bytes and control characters escaped)."""
    text = os.fsencode(os.fspath(path)).decode("utf-8", "backslashreplace")
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def os_reason(exc: OSError) -> str:
    """Why the operating system refused, in its words (``"No space left on device"``), or the error's own text."""
    return exc.strerror or str(exc)


def os_error_line(exc: OSError) -> str:
    """One line for an operating-system error on a file the user named: which file, and why
    (a name too long, a full disk, a read-only place...)."""
    where = f"{show_path(exc.filename)}: " if exc.filename is not None else ""
    return f"{where}{os_reason(exc)}"


def kind_of(mode: int) -> str:
    """What a file of ``mode`` is, in words (``"a folder"``, ``"a device"``...)."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def temp_prefix(path: str | os.PathLike[str]) -> str:
    """The name start of a temporary beside ``path`` (``.NAME.sphere-explorer-PID-``), for :mod:`tempfile`."""
    return f".{Path(path).name[:80]}{TEMP_TAG}{os.getpid()}-"


def temporary_for(path: str | os.PathLike[str]) -> str | None:
    """The name of the file a temporary of this program's writer is written for (cut at 80 characters as
    the temporary's name cuts it), or None when ``path`` is not named as one (see :func:`temp_prefix`).

    A temporary that is left is the file of a write that is still going on or was killed: never a
    finished file.
    """
    name = Path(path).name
    if not _TEMP_NAME.match(name):
        return None
    return name[1 : name.rindex(TEMP_TAG)]


def umask() -> int:
    """The process's umask (read without changing it where /proc allows)."""
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            for row in handle:
                if row.startswith("Umask:"):
                    return int(row.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# -- files -----------------------------------------------------------------------------------


def write_target(path: str | os.PathLike[str]) -> Path:
    """The file a write to ``path`` replaces: ``path`` with symbolic links followed.

    Raises
    ------
    WriteError
        A folder, a device or FIFO, a read-only file, a link loop, a missing
        folder, or an operating-system error (a name too long...).
    """
    shown = show_path(path)
    try:
        target = Path(os.path.realpath(path))
        if target.is_symlink():
            raise WriteError(f"{shown}: cannot write (a loop of symbolic links)")
        try:
            info = os.stat(target)
        except FileNotFoundError:
            info = None
        link = f" (a link to {show_path(target)})" if Path(path).is_symlink() else ""
        parent_there = target.parent.is_dir()
    except OSError as exc:
        raise WriteError(f"{shown}: cannot write ({os_reason(exc)})") from None
    if info is not None:
        if not stat.S_ISREG(info.st_mode):
            raise WriteError(f"{shown}{link}: cannot write over {kind_of(info.st_mode)}")
        if not os.access(target, os.W_OK):
            raise WriteError(f"{shown}{link}: cannot write (the file is read-only)")
    if not parent_there:
        raise WriteError(f"{shown}{link}: cannot write (folder {show_path(target.parent)} does not exist)")
    return target


def check_writable(path: str | os.PathLike[str]) -> Path:
    """Check, before any work, that a file can be written at ``path``: :func:`write_target`, and a
    temporary file created (and removed at once) beside the file it would replace.

    Returns
    -------
    Path
        The file a write would replace (symbolic links followed).
    """
    target = write_target(path)
    try:
        fd, name = tempfile.mkstemp(prefix=temp_prefix(target), suffix=".tmp", dir=target.parent)
        os.close(fd)
        os.unlink(name)
    except OSError as exc:
        raise WriteError(f"{show_path(path)}: cannot write there ({os_reason(exc)})") from None
    return target


@contextlib.contextmanager
def replacing(path: str | os.PathLike[str], binary: bool = False) -> Iterator[tuple[IO[Any], Path]]:
    """Write a file atomically: ``with replacing(path) as (handle, tmp): handle.write(...)``.

    Yields an open handle on a new temporary file beside the target (and its
    path, for writers that need a file name, such as ffmpeg); see the module
    docstring for the policy.  On any exception in the block the temporary is
    removed and the target is untouched.

    Raises
    ------
    WriteError
        When the file cannot be written (an ``OSError`` inside the block too).
    """
    shown = show_path(path)
    target = write_target(path)
    clean_stale_temps(target.parent)
    try:
        old = os.stat(target)
    except OSError:
        old = None
    mode = stat.S_IMODE(old.st_mode) if old is not None else 0o666 & ~umask()
    tmp: Path | None = None
    try:
        fd, name = tempfile.mkstemp(prefix=temp_prefix(target), suffix=".tmp" + target.suffix[:9], dir=target.parent)
        tmp = Path(name)
        os.fchmod(fd, mode)
        if old is not None and (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
            with contextlib.suppress(OSError):  # only root may give a file away; others keep their own
                os.fchown(fd, old.st_uid, old.st_gid)
        with os.fdopen(fd, "wb" if binary else "w", **({} if binary else {"encoding": "utf-8"})) as handle:
            yield handle, tmp
            handle.flush()
            os.fsync(handle.fileno())
        interrupt.check()  # stopped before the file is in place: the temporary goes, the target stays as it was
        os.replace(tmp, target)
        tmp = None
        _sync_folder(target.parent)
    except OSError as exc:
        raise WriteError(f"{shown}: cannot write ({os_reason(exc)})") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _sync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# -- folders ---------------------------------------------------------------------------------


def check_folder(folder: str | os.PathLike[str], what: str = "the output") -> Path:
    """Refuse, before any work, an output folder that is a symbolic link, exists and is not an empty
    folder, or has no parent folder; and one whose parent cannot be written in.

    ``what`` names the output in the message, e.g. ``"the report"``.
    """
    out = Path(folder)
    shown = show_path(out)
    try:
        if out.is_symlink():
            raise WriteError(f"{shown} is a symbolic link; give {what} a new folder (links are not followed)")
        if out.exists():
            if not out.is_dir():
                raise WriteError(f"{shown} exists and is not a folder")
            if any(out.iterdir()):
                raise WriteError(f"{shown} exists and is not empty; give {what} a new folder")
        parent = out.absolute().parent
        if not parent.is_dir():
            raise WriteError(f"folder {show_path(parent)} does not exist")
        with interrupt.held():  # a signal is raised once the probe is gone, not inside its mkdtemp
            with tempfile.TemporaryDirectory(prefix=temp_prefix(out), suffix=".tmp", dir=parent):
                pass
    except OSError as exc:
        raise WriteError(f"{shown}: cannot write ({os_reason(exc)})") from None
    return out


@contextlib.contextmanager
def new_folder(folder: str | os.PathLike[str], what: str = "the output") -> Iterator[Path]:
    """Yield a private temporary folder to write into; it becomes ``folder`` when the block completes.

    See the module docstring for the policy.  Create the files inside with :func:`create`.

    Raises
    ------
    WriteError
        The folder is refused (:func:`check_folder`), or writing failed (the
        temporary folder is then removed, and ``folder`` does not appear).
    """
    out = check_folder(folder, what)
    parent = out.absolute().parent
    clean_stale_temps(parent)
    stage = None
    try:
        try:
            with interrupt.held():  # a signal is raised once the folder's name is known, so that it is removed
                stage = Path(tempfile.mkdtemp(prefix=temp_prefix(out), suffix=".tmp", dir=parent))
            yield stage
            os.chmod(stage, 0o777 & ~umask())
            check_folder(out, what)  # nothing appeared there meanwhile; a signal recorded stops it there (held)
            os.rename(stage, out)  # over an empty folder, or new
        except OSError as err:  # a full disk, a quota, an I/O error while writing the files
            raise WriteError(f"{show_path(out)}: cannot write ({os_reason(err)})") from None
    except BaseException:
        if stage is not None:
            shutil.rmtree(stage, ignore_errors=True)
        raise


def create(path: str | os.PathLike[str]) -> BinaryIO:
    """Open a new file for writing in a folder of :func:`new_folder`: exclusively, never through a link."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
    return os.fdopen(fd, "wb")


# -- temporaries left by killed writes -------------------------------------------------------


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: a process of another user
        return True
    return True


def clean_stale_temps(folder: str | os.PathLike[str], max_age: float = STALE_AFTER) -> list[Path]:
    """Remove the temporary files (and folders) that interrupted writes of this program left in ``folder``.

    Only names of ours (see :data:`TEMP_TAG`), owned by this user, whose process
    is gone or which are older than ``max_age`` seconds; a write in progress in
    a live process is left alone.  Never raises.

    Returns
    -------
    list of Path
        What was removed.
    """
    removed: list[Path] = []
    now = time.time()
    uid = os.geteuid()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        match = _TEMP_NAME.match(entry.name)
        if not match:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if info.st_uid != uid or stat.S_ISLNK(info.st_mode):
                continue
            if _alive(int(match.group(1))) and now - info.st_mtime < max_age:
                continue
            if stat.S_ISDIR(info.st_mode):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
            removed.append(Path(entry.path))
        except OSError:  # gone meanwhile, or not ours to remove
            continue
    return removed
