"""Make the helper modules of this directory (``reference``, ``families``)
importable from the tests whatever pytest's import mode."""

import pathlib
import sys

_HERE = str(pathlib.Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
