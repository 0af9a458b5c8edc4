"""The previous figures the benchmarks print beside their own: quoted, or measured on another checkout.

Quoted: issue 17's figures for main at 001ca0b (the code before the
compile-time and throughput work), measured on the project's 2-core machine.
Measured: ``--previous CHECKOUT`` (for example ``git worktree add /tmp/prev
001ca0b``) runs the same benchmark function on that checkout's ``solver`` and
``explorer`` in a subprocess of the same run (:func:`run_previous`); numba
caches that checkout's machine code in its own ``__pycache__`` folders, and
its first run compiles (the old exact stage took minutes).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: Issue 17's figures for main at 001ca0b.
ISSUE_17 = {
    # first use, cold numba cache (seconds)
    "cold_sweep_s": 2.2,
    "cold_sweep_many_s": 4.4,
    "cold_sweep_many_grazes_s": 175.0,
    "cold_audit_2000_rows_s": 177.0,
    # sweep_many on 1e6 random pairs, and the textbook formula in the same run
    "sweep_many_mpairs_per_s": 28.0,
    "textbook_over_sweep_many": 2.1,
    "before_validation_mpairs_per_s": 37.0,
    "before_validation_textbook_over_sweep_many": 2.9,
    # the audit end to end on the 1e7-pair Parquet log with engine columns
    "audit_mpairs_per_s": 10.0,
    "audit_read_share": 0.63,
}
#: benchmarks/README.md at 001ca0b, section [7]: sweep_many on 1e5 pairs that touch exactly (M pairs/s).
EXACT_PATH_001CA0B = {"t0": 3.476, "tangent": 1.960, "horizon": 3.653, "mix": 2.784}
#: Where the quoted figures come from, for the reports.
QUOTED = "main at 001ca0b as issue 17 gives it, quoted, not measured here"


def run_previous(checkout: Path, module: str, function: str, **kwargs) -> dict:
    """``module.function(**kwargs)`` (a module of ``benchmarks/``) run on ``checkout``'s code; its JSON result.

    The subprocess runs in ``checkout`` and imports ``solver`` and
    ``explorer`` from it (``PYTHONPATH``), the benchmark module from this
    folder; arguments and result go through JSON (paths as strings).
    """
    code = (
        "import json, sys\n"
        f"sys.path.insert(1, {str(HERE)!r})\n"
        f"from {module} import {function} as run\n"
        "kwargs = json.loads(sys.argv[1])\n"
        "print('\\nRESULT ' + json.dumps(run(**kwargs), default=str))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "SPHERE_SOLVER_JIT"}
    env["PYTHONPATH"] = str(Path(checkout).resolve())
    proc = subprocess.run([sys.executable, "-c", code, json.dumps(kwargs, default=str)], env=env, cwd=checkout,
                          capture_output=True, text=True, timeout=7200)  # fmt: skip
    if proc.returncode != 0:
        raise SystemExit(f"the previous checkout failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}")
    line = [x for x in proc.stdout.splitlines() if x.startswith("RESULT ")][-1]
    return json.loads(line[len("RESULT ") :])
