"""What every command-line refusal test checks: exit 2, one line on stderr naming the program, nothing on stdout;
and ``sphere-explorer solve`` run as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from explorer.cli import main

#: The console script a user runs (installed beside this Python).
EXE = Path(sys.executable).with_name("sphere-explorer")


def solved(scene, *args: str) -> dict:
    """What ``sphere-explorer solve SCENE [ARGS]`` prints (run as a subprocess, its exit 0 asserted)."""
    done = subprocess.run([str(EXE), "solve", str(scene), *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def refused(argv, capsys, needle: str) -> str:
    """Run ``sphere-explorer ARGV`` in this process; assert a one-line refusal containing ``needle``; return it."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code == 2, err
    assert out == "" and err.count("\n") == 1 and err.startswith("sphere-explorer"), err
    assert needle in err, err
    return err
