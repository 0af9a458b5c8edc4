"""Scene files: JSON in, JSON out, refused with a message naming the problem.

Format ``sphere-explorer/1``::

    {"format": "sphere-explorer/1", "mode": "pair", "horizon": 1.0, "restitution": 1.0,
     "bodies": [{"name": "A", "center": [0, 0, 0], "velocity": [10, 0, 0], "radius": 1.0, "mass": 1.0},
                {"name": "B", "center": [5, 0, 0], "radius": 1.0, "fixed": true}],
     "title": "...", "description": "...", "view": {...}}

Reading refuses anything but a regular file of at most :data:`MAX_FILE_BYTES`
(never blocking on a FIFO, never reading a device), strict JSON only (no NaN,
no duplicate keys, no absurdly long number literals), then the scene model's
validation (:func:`explorer.model.scene.validate`).

Writing (:func:`save`, and every file the program writes through
:func:`replacing`) goes to a temporary file beside the target, flushed to disk
and renamed over it: a crash never leaves a half-written file.  The new file
keeps the old one's permissions (and owner, where allowed); a symbolic link is
written through (the file it points to is replaced, the link stays).  Temporary
files of interrupted writes are recognisable by name and removed by
:func:`clean_stale_temps` (called by every write, and by the window at start-up).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import stat
import string
import tempfile
import time
from pathlib import Path
from typing import IO, Any, Iterator

from .scene import FORMAT, MAX_BODIES, Scene, SceneBody, SceneError, short_repr

#: Scene files (and pasted text) larger than this are refused unread.
MAX_FILE_BYTES = 1 << 20
#: Longest integer literal (digits) and number literal (characters) accepted in JSON.
#: Every quantity of a scene is within 1e12, so longer literals are always refused anyway;
#: refusing them early keeps Python's int parser (4300-digit limit) out of it.
MAX_INT_DIGITS = 40
MAX_NUMBER_CHARS = 100

REQUIRED = ("format", "mode", "horizon", "restitution", "bodies")
OPTIONAL = ("title", "description", "view")
BODY_KEYS = ("name", "center", "velocity", "radius", "mass", "fixed", "container")

#: Marks the temporary files (and report folders) this program writes, so that
#: :func:`clean_stale_temps` removes only its own: ``.<name>.sphere-explorer-<pid>-<random>.tmp[.suffix]``.
TEMP_TAG = ".sphere-explorer-"
_TEMP_NAME = re.compile(r"^\..*" + re.escape(TEMP_TAG) + r"(\d+)-[a-z0-9_]{8}\.tmp(\.[A-Za-z0-9]{1,8})?$")
#: A temporary file of a live process older than this is stale too (its process id was reused).
STALE_AFTER = 3600.0


# -- JSON text --------------------------------------------------------------------------


class _Refused(ValueError):
    """A JSON literal refused by a hook of :func:`decode_json`: (literal, reason)."""


def _reject_constant(name: str) -> None:
    raise _Refused(name, f"{name} is not a number JSON allows")


def _parse_int(literal: str) -> int:
    digits = len(literal.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise _Refused(literal, f"integer literal of {digits} digits is too long (at most {MAX_INT_DIGITS})")
    return int(literal)


def _parse_float(literal: str) -> float:
    if len(literal) > MAX_NUMBER_CHARS:
        raise _Refused(literal, f"number literal of {len(literal)} characters is too long (at most {MAX_NUMBER_CHARS})")
    number = float(literal)
    if number in (float("inf"), float("-inf")):
        raise _Refused(literal, f"number {literal} is beyond the float range (±1.8e308)")
    return number


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Refused(json.dumps(key), f"key {_short_text(key)} given twice")
        out[key] = value
    return out


def _short_text(text: str) -> str:
    shown = repr(text)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def line_of(text: str, index: int) -> int:
    """1-based line number of character ``index`` of ``text``."""
    return text.count("\n", 0, index) + 1


def decode_json(text: str) -> object:
    """Parse JSON text strictly: no NaN or Infinity, no duplicate keys, no absurd literals.

    Raises
    ------
    SceneError
        One line starting with the line number, e.g.
        ``"line 3: not valid JSON: Expecting ',' delimiter (column 7)"``; its
        ``line`` attribute holds the number.
    """
    try:
        return json.loads(
            text, parse_constant=_reject_constant, parse_int=_parse_int, parse_float=_parse_float,
            object_pairs_hook=_no_duplicates,
        )  # fmt: skip
    except json.JSONDecodeError as exc:
        raise SceneError(f"line {exc.lineno}: not valid JSON: {exc.msg} (column {exc.colno})", line=exc.lineno) from None
    except RecursionError:
        raise SceneError("line 1: not valid JSON: nested too deeply", line=1) from None
    except _Refused as exc:
        literal, reason = exc.args
        line = line_of(text, max(text.find(literal), 0))
        raise SceneError(f"line {line}: not valid JSON: {reason}", line=line) from None


def parse(text: str) -> Scene:
    """Build a scene from JSON text.

    Raises
    ------
    SceneError
        Naming the problem: invalid JSON, unknown format version, missing or
        unknown keys, wrong types, non-finite or out-of-range numbers, invalid
        text, absurd sizes.
    """
    if not isinstance(text, str):
        raise SceneError(f"expected text, got {type(text).__name__}")
    if len(text) > MAX_FILE_BYTES:
        raise SceneError(f"file too large ({len(text)} characters; a scene is at most {MAX_FILE_BYTES} bytes)")
    return from_dict(decode_json(text))


def from_dict(data: Any) -> Scene:
    """Build a scene from a parsed JSON object (see :func:`parse`).

    The file's structure (keys, lists, ``fixed``) is checked here; every value
    by the scene model (:func:`explorer.model.scene.validate`).
    """
    if not isinstance(data, dict):
        raise SceneError(f"expected a JSON object at the top level, got {type(data).__name__}")
    if "format" not in data:
        raise SceneError('missing key "format" (expected "sphere-explorer/1")')
    if data["format"] != FORMAT:
        raise SceneError.at(("format",), f"unknown version {short_repr(data['format'])} (this program reads {FORMAT!r})")
    for key in REQUIRED:
        if key not in data:
            raise SceneError(f'missing key "{key}"')
    unknown = sorted(set(data) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise SceneError(f"unknown key {short_repr(unknown[0])}", path=(unknown[0],))
    bodies = data["bodies"]
    if not isinstance(bodies, list):
        raise SceneError.at(("bodies",), "expected a list of bodies")
    if len(bodies) > MAX_BODIES:
        raise SceneError.at(("bodies",), f"at most {MAX_BODIES} bodies, got {len(bodies)}")
    return Scene(
        mode=data["mode"],
        horizon=data["horizon"],
        restitution=data["restitution"],
        bodies=tuple(_body(item, i) for i, item in enumerate(bodies)),
        title=data.get("title", ""),
        description=data.get("description", ""),
        view=data.get("view", {}),
    )


def _body(item: Any, i: int) -> SceneBody:
    if not isinstance(item, dict):
        raise SceneError.at(("bodies", i), "expected an object")
    unknown = sorted(set(item) - set(BODY_KEYS))
    if unknown:
        raise SceneError.at(("bodies", i), f"unknown key {short_repr(unknown[0])}")
    for key in ("center", "radius"):
        if key not in item:
            raise SceneError.at(("bodies", i), f'missing key "{key}"')
    fixed = item.get("fixed", False)
    if not isinstance(fixed, bool):
        raise SceneError.at(("bodies", i, "fixed"), "expected true or false")
    if fixed and "mass" in item:
        raise SceneError.at(("bodies", i), 'give either "mass" or "fixed": true, not both')
    vectors = {}
    for key in ("center", "velocity"):
        vector = item.get(key, [0, 0, 0])
        if not isinstance(vector, list):
            raise SceneError.at(("bodies", i, key), f"expected a list of 3 numbers, got {short_repr(vector)}")
        vectors[key] = tuple(vector)
    return SceneBody(
        name=item.get("name", string.ascii_uppercase[i]),
        center=vectors["center"],  # type: ignore[arg-type]
        velocity=vectors["velocity"],  # type: ignore[arg-type]
        radius=item["radius"],
        mass=float("inf") if fixed else item.get("mass", 1.0),
        container=item.get("container", False),
    )


def to_dict(scene: Scene) -> dict[str, Any]:
    """JSON-ready dictionary of ``scene`` (the inverse of :func:`from_dict`)."""
    bodies = []
    for b in scene.bodies:
        entry: dict[str, Any] = {"name": b.name, "center": list(b.center), "velocity": list(b.velocity), "radius": b.radius}
        if b.fixed:
            entry["fixed"] = True
        else:
            entry["mass"] = b.mass
        if b.container:
            entry["container"] = True
        bodies.append(entry)
    data: dict[str, Any] = {"format": FORMAT}
    if scene.title:
        data["title"] = scene.title
    if scene.description:
        data["description"] = scene.description
    data.update(mode=scene.mode, horizon=scene.horizon, restitution=scene.restitution, bodies=bodies)
    if scene.view:
        data["view"] = scene.view
    return data


def dumps(scene: Scene) -> str:
    """The scene as indented JSON text."""
    return json.dumps(to_dict(scene), indent=2, allow_nan=False) + "\n"


# -- reading files ------------------------------------------------------------------------


def show_path(path: str | os.PathLike[str]) -> str:
    """A path as one printable line: undecodable bytes and control characters escaped."""
    text = os.fsencode(os.fspath(path)).decode("utf-8", "backslashreplace")
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def os_error_line(exc: OSError) -> str:
    """One line for an operating-system error on a file the user named: which file, and why
    (a name too long, a full disk, a read-only place...)."""
    where = f"{show_path(exc.filename)}: " if exc.filename is not None else ""
    return f"{where}{exc.strerror or exc}"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_bytes(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    Folders, FIFOs, devices and sockets are refused without reading (a FIFO is
    opened non-blocking, so a FIFO without a writer never hangs); a file that
    grows past ``limit`` while being read is refused after ``limit + 1`` bytes.

    Raises
    ------
    SceneError
        Naming the file and the problem, in one line.
    """
    shown = show_path(path)
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise SceneError(f"{shown}: cannot read {_kind(info.st_mode)}; expected a scene file")
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):  # replaced between the two looks
                raise SceneError(f"{shown}: cannot read {_kind(info.st_mode)}; expected a scene file")
            if info.st_size > limit:
                raise SceneError(f"{shown}: file too large ({info.st_size} bytes; a scene is at most {limit})")
            chunks, total = [], 0
            while total <= limit:
                chunk = os.read(fd, min(1 << 16, limit + 1 - total))
                if not chunk:
                    break
                chunks.append(chunk)
                total += len(chunk)
        finally:
            os.close(fd)
    except OSError as exc:
        raise SceneError(f"{shown}: cannot read ({exc.strerror or exc})") from None
    if total > limit:
        raise SceneError(f"{shown}: file too large (more than {limit} bytes; a scene is at most {limit})")
    return b"".join(chunks)


def load(path: str | os.PathLike[str]) -> Scene:
    """Read a scene file.

    Raises
    ------
    SceneError
        For any problem, including unreadable, non-regular and oversized files,
        naming it in one line.
    """
    raw = read_bytes(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SceneError(f"{show_path(Path(path).name)}: not a text file (invalid UTF-8)") from None
    return parse(text)


# -- writing files ------------------------------------------------------------------------


def temp_prefix(path: str | os.PathLike[str]) -> str:
    """The name start of a temporary beside ``path`` (``.NAME.sphere-explorer-PID-``), for :mod:`tempfile`.

    The name is cut to 80 characters, so the temporary's name stays within the
    255-byte limit of file systems whatever ``path`` is called.
    """
    return f".{Path(path).name[:80]}{TEMP_TAG}{os.getpid()}-"


def _umask() -> int:
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


def write_target(path: str | os.PathLike[str]) -> Path:
    """The file a write to ``path`` replaces: ``path`` with symbolic links followed.

    Raises
    ------
    SceneError
        When it cannot be written: a folder, a device or FIFO, a read-only file,
        a link loop, or a folder that does not exist.
    """
    shown = show_path(path)
    target = Path(os.path.realpath(path))
    if target.is_symlink():
        raise SceneError(f"{shown}: cannot write (a loop of symbolic links)")
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise SceneError(f"{shown}: cannot write ({exc.strerror or exc})") from None
    link = f" (a link to {show_path(target)})" if Path(path).is_symlink() else ""
    if info is not None:
        if not stat.S_ISREG(info.st_mode):
            raise SceneError(f"{shown}{link}: cannot write over {_kind(info.st_mode)}")
        if not os.access(target, os.W_OK):
            raise SceneError(f"{shown}{link}: cannot write (the file is read-only)")
    if not target.parent.is_dir():
        raise SceneError(f"{shown}{link}: cannot write (folder {show_path(target.parent)} does not exist)")
    return target


def check_writable(path: str | os.PathLike[str]) -> Path:
    """Check, before any work, that a file can be written at ``path``: :func:`write_target`, and a
    temporary file created (and removed at once) beside the file it would replace.

    Returns
    -------
    Path
        The file a write would replace (symbolic links followed).

    Raises
    ------
    SceneError
        Naming the path and why not, in one line.
    """
    target = write_target(path)
    try:
        fd, name = tempfile.mkstemp(prefix=temp_prefix(target), suffix=".tmp", dir=target.parent)
        os.close(fd)
        os.unlink(name)
    except OSError as exc:
        raise SceneError(f"{show_path(path)}: cannot write there ({exc.strerror or exc})") from None
    return target


@contextlib.contextmanager
def replacing(path: str | os.PathLike[str], binary: bool = False) -> Iterator[tuple[IO[Any], Path]]:
    """Write a file atomically: ``with replacing(path) as (handle, tmp): handle.write(...)``.

    Yields an open handle on a new temporary file beside the target (and its
    path, for writers that need a file name, such as ffmpeg).  When the block
    ends without an exception the file is flushed, given the old file's mode
    (a new file: 0666 less the umask) and renamed over the target; on any
    exception it is removed and the target is untouched.  A symbolic link is
    written through (see :func:`write_target`).

    Raises
    ------
    SceneError
        When the file cannot be written, naming it and why (``OSError`` inside
        the block too).
    """
    shown = show_path(path)
    target = write_target(path)
    clean_stale_temps(target.parent)
    try:
        old = os.stat(target)
    except OSError:
        old = None
    mode = stat.S_IMODE(old.st_mode) if old is not None else 0o666 & ~_umask()
    tmp: Path | None = None
    try:
        fd, name = tempfile.mkstemp(
            prefix=temp_prefix(target), suffix=".tmp" + target.suffix[:9], dir=target.parent
        )
        tmp = Path(name)
        os.fchmod(fd, mode)
        if old is not None and (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
            with contextlib.suppress(OSError):  # only root may give a file away; others keep their own
                os.fchown(fd, old.st_uid, old.st_gid)
        with os.fdopen(fd, "wb" if binary else "w", **({} if binary else {"encoding": "utf-8"})) as handle:
            yield handle, tmp
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
        tmp = None
        _sync_folder(target.parent)
    except OSError as exc:
        raise SceneError(f"{shown}: cannot write ({exc.strerror or exc})") from None
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


def save(scene: Scene, path: str | os.PathLike[str]) -> None:
    """Write ``scene`` to ``path`` atomically (temporary file, fsync, rename); see :func:`replacing`.

    Keeps the file's permissions, writes through a symbolic link, and removes
    temporary files that interrupted saves left in the folder.

    Raises
    ------
    SceneError
        When the file cannot be written, saying why; the previous file is then untouched.
    """
    text = dumps(scene)
    with replacing(path) as (handle, _):
        handle.write(text)


def temp_folder(folder: str | os.PathLike[str]) -> Path:
    """A new empty folder beside ``folder``, named as a temporary of ours (for whole-folder writes)."""
    folder = Path(folder)
    parent = folder.parent
    clean_stale_temps(parent)
    name = tempfile.mkdtemp(prefix=temp_prefix(folder), suffix=".tmp", dir=parent)
    os.chmod(name, 0o777 & ~_umask())
    return Path(name)


def check_output_folder(folder: str | os.PathLike[str], what: str) -> None:
    """Refuse an output folder that is a symbolic link, not a folder, or in a missing folder (ValueError, one line).

    ``what`` names the output in the message, e.g. ``"the report"``.
    """
    folder = Path(folder)
    shown = show_path(folder)
    if folder.is_symlink():
        raise ValueError(f"{shown} is a symbolic link; give {what} a real folder (it does not follow links)")
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{shown} exists and is not a folder")
    if not folder.absolute().parent.is_dir():
        raise ValueError(f"folder {show_path(folder.absolute().parent)} does not exist")


def move_into(work: Path, folder: Path, names) -> None:
    """Put the finished temporary folder ``work`` (see :func:`temp_folder`) at ``folder``.

    A new (or empty) ``folder``: ``work`` renamed to it, all at once.  An existing
    one: each of ``names`` renamed into it, replacing a symbolic link of the same
    name rather than writing through it (other files there stay).  Raises OSError.
    """
    try:
        os.rename(work, folder)
    except OSError:
        if not folder.is_dir() or folder.is_symlink():
            raise
        for name in names:
            os.replace(work / name, folder / name)


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
