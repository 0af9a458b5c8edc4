"""The packages the audit imports beyond the base install, and the one-line refusal when one is missing.

``make run`` installs the project's base dependencies (``pyproject.toml``
``dependencies``): numpy reads ``.npz`` logs, pyarrow reads Parquet and CSV.
Dask (``--workers``, ``--dask``) is the ``audit`` extra.  An installation that
lacks one of them (an extra not installed, or a base install made with
``--no-deps``) gets one line naming the exact command that installs it, run
with this very interpreter, never an "unexpected error".  Standard library only.
"""

from __future__ import annotations

import importlib
import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

#: The distribution name in ``pyproject.toml``.
PROJECT = "sphere-sweep-explorer"


@dataclass(frozen=True)
class Need:
    """What a capability imports and what provides it.

    Attributes
    ----------
    what : str
        The capability, for the message, e.g. ``"reading Parquet and CSV logs"``.
    modules : tuple of str
        Modules it imports.
    requirement : str or None
        A base dependency (``"pyarrow>=14"``): installed by name.
    extra : str or None
        An extra of this project (``"audit"``), installed with the project; with
        neither, the project itself is (re)installed.
    """

    what: str
    modules: tuple[str, ...]
    requirement: str | None = None
    extra: str | None = None


#: Parquet and CSV are read (and :class:`~explorer.audit.log.writer.QueryLog` writes Parquet) with pyarrow,
#: a base dependency; ``tests/explorer/audit/test_needs_base_install.py`` checks these match ``pyproject.toml``.
ARROW = Need("reading Parquet and CSV logs", ("pyarrow", "pyarrow.csv", "pyarrow.parquet"), "pyarrow>=14")
#: The audit itself: the base install.
BASE = Need("the audit", ("numpy", "numba", "matplotlib"))
#: ``--workers`` and ``--dask``: the ``audit`` extra.
DASK = Need("--workers and --dask: running on Dask", ("dask", "dask.dataframe", "distributed"), extra="audit")


class MissingPackage(ValueError):
    """A package the asked-for capability needs is not installed (one line with the install command).

    Not a :class:`~explorer.audit.log.columns.LogError`: this module is standard library only, so that the
    command line can word a missing numpy too.
    """


def _project_root() -> Path | None:
    """The source tree this package runs from (an editable install), or None for an installed copy."""
    root = Path(__file__).resolve().parents[2]
    try:
        text = (root / "pyproject.toml").read_text(encoding="utf-8")
    except OSError:
        return None
    return root if f'name = "{PROJECT}"' in text else None


def _short(path: Path) -> str:
    """``path`` relative to the working folder when it is inside it (``.venv/bin/pip``), else absolute."""
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return str(path)
    return relative if not relative.startswith("..") else str(path)


def install_command(need: Need) -> str:
    """The shell command that installs what ``need`` lacks, into the environment of this interpreter."""
    python = Path(sys.executable)
    pip = python.with_name("pip")
    runner = [_short(pip)] if pip.exists() else [_short(python), "-m", "pip"]
    if need.requirement is not None:
        target = [need.requirement]
    else:  # the project itself, with its extra
        extra = f"[{need.extra}]" if need.extra else ""
        root = _project_root()
        target = [PROJECT + extra] if root is None else ["-e", _short(root) + extra]
    return " ".join([*runner, "install", *(shlex.quote(word) for word in target)])


def missing(need: Need) -> str | None:
    """The first of ``need``'s modules that cannot be imported, or None when all can."""
    for name in need.modules:
        try:
            importlib.import_module(name)
        except ImportError:
            return name.split(".")[0]
    return None


def require(need: Need, what: str | None = None) -> None:
    """Import ``need``'s modules or refuse in one line.

    Parameters
    ----------
    need : Need
    what : str, optional
        The capability in the message, instead of ``need.what`` (e.g. ``"reading Parquet"``).

    Raises
    ------
    MissingPackage
        E.g. ``"reading Parquet needs pyarrow, which is not installed; install it with: .venv/bin/pip
        install 'pyarrow>=14'"``.
    """
    gone = missing(need)
    if gone is not None:
        doing = what or need.what
        raise MissingPackage(f"{doing} needs {gone}, which is not installed; install it with: {install_command(need)}")
