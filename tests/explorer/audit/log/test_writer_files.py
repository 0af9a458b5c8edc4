"""What QueryLog leaves on disk when its process is killed or the disk fills, and what the audit makes of it.

Issue 36: a writer killed with SIGKILL left ``.log.csv.sphere-explorer-PID-....tmp.csv``,
which ``sphere-explorer audit`` took for a complete log (exit 0); a full disk during a
CSV log raised a bare ``OSError`` naming no file.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

COMMAND = Path(sys.executable).with_name("sphere-explorer")
#: A writer that logs ``chunks`` chunks of 1000 rows (each written as it fills) and then is killed outright.
KILLED = """
import os, signal, sys
from explorer.audit import QueryLog

log = QueryLog(sys.argv[1], chunk_rows=1000)
for _ in range(int(sys.argv[2])):
    log.add([[0.0, 0.0, 0.0]] * 1000, [4.0, 0.0, 0.0], 1.0, [3.0, 0.0, 0.0], [0.0, 0.0, 0.0], 1.0, engine_hit=False)
os.kill(os.getpid(), signal.SIGKILL)
"""
#: A writer whose files may not grow past ``sys.argv[2]`` bytes (as a full disk would stop them).
FULL = """
import os, resource, sys
from explorer.audit import QueryLog

resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[2]), int(sys.argv[2])))
log = QueryLog(sys.argv[1], chunk_rows=1000)
try:
    for _ in range(50):
        log.add([[k / 7, 0.0, 0.0] for k in range(1000)], [4.0, 0.0, 0.0], 1.0, [3.0, 0.0, 0.0], [0.0, 0.0, 0.0], 1.0)
except Exception as err:
    print(type(err).__name__, err, sep=": ")
print("closed" if log.closed else "open", os.listdir(os.path.dirname(sys.argv[1])))  # before the process ends
"""


def _python(code: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], capture_output=True, text=True,
                          timeout=120)  # fmt: skip


@pytest.mark.parametrize("name", ["log.csv", "log.parquet"])
def test_the_temporary_of_a_killed_writer_is_refused_by_the_audit_not_taken_for_a_log(tmp_path, name):
    done = _python(KILLED, str(tmp_path / name), "5")
    assert done.returncode == -9, done.stderr
    left = sorted(tmp_path.iterdir())
    assert len(left) == 1 and left[0].name.startswith(f".{name}.sphere-explorer-"), left  # no log; its temporary
    audit = subprocess.run([str(COMMAND), "audit", str(left[0]), "-o", str(tmp_path / "out")], capture_output=True,
                           text=True, timeout=300)  # fmt: skip
    assert audit.returncode == 2, audit.stdout + audit.stderr
    assert audit.stdout == ""
    assert audit.stderr.splitlines() == [
        f"sphere-explorer audit: {left[0].name}: not a log but the temporary file of an unfinished write (its writer "
        f"is still running or was killed); the log appears as '{name}' when its writer closes it"
    ]
    assert not (tmp_path / "out").exists()


def test_temporaries_are_known_by_their_name_and_name_their_file():
    from explorer.system.files import temporary_for

    assert temporary_for("/x/.log.csv.sphere-explorer-123-abcd_123.tmp.csv") == "log.csv"
    assert temporary_for(".q.parquet.sphere-explorer-9-zzzzzzzz.tmp.parquet") == "q.parquet"
    assert temporary_for(".out.sphere-explorer-77-a1b2c3d4.tmp") == "out"
    for name in ("log.csv", ".log.csv", "log.sphere-explorer-1-abcdefgh.tmp.csv", ".log.csv.sphere-explorer-1-ab.tmp"):
        assert temporary_for(name) is None, name


@pytest.mark.parametrize("name", ["log.csv", "log.parquet"])
def test_a_full_disk_is_one_line_naming_the_log_and_leaves_nothing(tmp_path, name):
    done = _python(FULL, str(tmp_path / name), "100000")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"WriteError: {tmp_path / name}: cannot write (File too large)", "closed []"]
    assert not list(tmp_path.iterdir())  # no log, no temporary
