"""The console script's first module records Ctrl-C and kill: one that comes while the command line is still being
imported stops the command in its one line, never a traceback from inside an import."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from explorer.model.formats.gallery import DEFAULT_SCENE

#: The console script as pip writes it, with a signal sent to itself just after explorer.start is imported (while
#: the rest of the project is not): the moment a user's Ctrl-C met an import before.
SCRIPT = """
import os, signal, sys
import explorer.start
os.kill(os.getpid(), {signum})
sys.argv = ["sphere-explorer", "solve", {scene!r}]
sys.exit(explorer.start.console())
"""


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_before_the_command_line_is_imported_stops_it_in_one_line(signum, code):
    script = SCRIPT.format(signum=int(signum), scene=str(DEFAULT_SCENE))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == code, done.stderr
    assert done.stdout == "" and done.stderr == "sphere-explorer solve: interrupted; nothing was written\n"


def test_the_console_script_enters_through_it():
    text = open(sys.executable.rsplit("/", 1)[0] + "/sphere-explorer", encoding="utf-8").read()
    assert "from explorer.start import console" in text
