"""The audit on a base install: CSV and .npz need no extra; what is missing is refused in one line naming the command.

A package is hidden from the real console script by a ``sitecustomize`` on
``PYTHONPATH`` that makes importing it fail (a meta-path finder), as on an
installation without it; nothing is uninstalled.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from audit_logs import read_summary

from explorer.audit import needs

ROOT = Path(__file__).resolve().parents[3]
COMMAND = Path(sys.executable).with_name("sphere-explorer")
PIP = os.path.relpath(Path(sys.executable).with_name("pip"), ROOT)
BLOCKER = """
import importlib.abc, os, sys

class _Hidden(importlib.abc.MetaPathFinder):
    hidden = set(os.environ["HIDE_MODULES"].split(","))

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in self.hidden:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, _Hidden())
"""


@pytest.fixture(scope="module")
def blocker(tmp_path_factory) -> Path:
    """A folder holding the ``sitecustomize.py`` that hides the modules named in ``HIDE_MODULES``."""
    folder = tmp_path_factory.mktemp("hide")
    (folder / "sitecustomize.py").write_text(BLOCKER, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def hiding(blocker):
    """``run(hidden, *args)``: the console script with the named top-level modules hidden; cwd the project."""

    def run(hidden: str, *args: str) -> subprocess.CompletedProcess:
        return _hidden(blocker, hidden, [str(COMMAND), *args])

    return run


def _hidden(blocker: Path, hidden: str, command: list[str]) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(blocker), "HIDE_MODULES": hidden}
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)


def test_the_blocker_hides_what_it_is_told(blocker):
    done = _hidden(blocker, "pyarrow", [sys.executable, "-c", "import numpy; import pyarrow"])
    assert done.returncode == 1 and "No module named 'pyarrow'" in done.stderr


WRITE_LOGS = """
import sys
from explorer.audit import QueryLog
with QueryLog(sys.argv[1], horizon=0.5) as log:
    log.add([0, 0, 0], [1, 0, 0], 0.5, [3, 0, 0], [0, 0, 0], 0.5, engine_hit=True, step=4, a_id=1, b_id=2)
try:
    QueryLog(sys.argv[2])
except ValueError as err:
    print(err)
"""


def test_without_pyarrow_query_log_writes_csv_and_refuses_parquet(blocker, tmp_path):
    done = _hidden(
        blocker, "pyarrow", [sys.executable, "-c", WRITE_LOGS, str(tmp_path / "q.csv"), str(tmp_path / "q.parquet")]
    )
    assert done.returncode == 0, done.stderr
    assert (
        done.stdout
        == f"writing Parquet needs pyarrow, which is not installed; install it with: {PIP} install 'pyarrow>=14'\n"
    )
    lines = (tmp_path / "q.csv").read_text(encoding="ascii").splitlines()
    assert lines[1] == "0.0,0.0,0.0,1.0,0.0,0.0,0.5,3.0,0.0,0.0,0.0,0.0,0.0,0.5,0.5,1,4,1,2"
    assert not (tmp_path / "q.parquet").exists()


def test_without_the_audit_extra_csv_parquet_and_npz_are_audited(hiding, planted_files, planted, tmp_path):
    for name in ("log.csv", "log.npz", "log.parquet"):
        done = hiding("dask,distributed", "audit", str(planted_files[name]), "-o", str(tmp_path / name))
        assert done.returncode == 0, done.stderr
        summary = read_summary(tmp_path / name)
        assert summary["engine_false_misses"] == len(planted["planted"]["false miss"])
        assert summary["engine_false_hits"] == len(planted["planted"]["false hit"])


def test_without_dask_workers_are_refused_in_one_line(hiding, planted_files, tmp_path):
    done = hiding(
        "dask,distributed", "audit", str(planted_files["log.npz"]), "-o", str(tmp_path / "o"), "--workers", "2"
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"sphere-explorer audit: --workers and --dask: running on Dask needs dask, which is not installed; "
        f"install it with: {PIP} install -e '.[audit]'"
    ]
    assert not (tmp_path / "o").exists()


def test_without_pyarrow_npz_is_audited_and_parquet_and_csv_refused(hiding, planted_files, planted, tmp_path):
    done = hiding("pyarrow,dask,distributed", "audit", str(planted_files["log-z.npz"]), "-o", str(tmp_path / "npz"))
    assert done.returncode == 0, done.stderr
    assert read_summary(tmp_path / "npz")["engine_false_misses"] == len(planted["planted"]["false miss"])
    for name, fmt in (("log.parquet", "Parquet"), ("log.csv", "CSV")):
        done = hiding("pyarrow", "audit", str(planted_files[name]), "-o", str(tmp_path / name))
        assert done.returncode == 2 and done.stdout == "" and not (tmp_path / name).exists()
        assert done.stderr.splitlines() == [
            f"sphere-explorer audit: {name}: reading {fmt} needs pyarrow, which is not installed; "
            f"install it with: {PIP} install 'pyarrow>=14'"
        ]


def test_what_the_refusals_name_is_what_pyproject_installs():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert needs.ARROW.requirement in project["dependencies"]  # `make run` installs it
    extra = " ".join(project["optional-dependencies"][needs.DASK.extra])
    assert {"dask", "distributed"} <= {m.split(".")[0] for m in needs.DASK.modules}
    assert "dask[dataframe]" in extra and "distributed" in extra
    assert project["name"] == needs.PROJECT
