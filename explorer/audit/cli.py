"""``sphere-explorer audit LOG -o OUTDIR``: the command line of the audit.

Only argparse at import time; numpy, numba, pyarrow and Dask are imported when
the command runs, so ``sphere-explorer --help`` stays fast.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import sys
from pathlib import Path

from ..system import interrupt
from .constants import CHUNK_ROWS, MAX_CHUNK_ROWS, MAX_WORST, MIN_CHUNK_ROWS, TOI_TOL, WORST

#: Exit codes: refused input (bad log, bad arguments, output folder in the way), interrupted.
EXIT_REFUSED = 2
EXIT_INTERRUPTED = 130

DESCRIPTION = """\
Check every pair query of an engine's collision log exactly with the solver, and
write OUTDIR/summary.json, OUTDIR/audit.png and the worst cases as scene files
under OUTDIR/cases/ (open them with sphere-explorer). OUTDIR appears only when
the audit completed.

The log (Parquet, CSV with a header row, or .npz with one array per column) has
one row per query: a_cx a_cy a_cz a_vx a_vy a_vz a_r b_cx b_cy b_cz b_vx b_vy
b_vz b_r (centre, velocity per frame, radius), optional horizon (default 1),
engine_hit (bool or 0/1) and engine_toi (empty/NaN without a hit). Without
engine columns the audit reports what the textbook formula in float32 and
float64 would have got wrong. Rows with missing or out-of-range values are
skipped and counted."""


def _number(text: str, lo: float, hi: float, what: str, kind=float):
    try:
        value = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
    if not (isinstance(value, int) or math.isfinite(value)) or not lo <= value <= hi:
        raise argparse.ArgumentTypeError(f"expected {what} in [{lo:g}, {hi:g}], got {text!r}")
    return value


def _tolerance(text: str) -> float:
    value = _number(text, 0.0, 1e6, "a tolerance")
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive tolerance, got {text!r}")
    return value


def _address(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a scheduler address such as tcp://host:8786, got an empty one")
    return text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the audit's arguments to ``parser`` (and the log format as its epilog if it has none)."""
    parser.epilog = parser.epilog or DESCRIPTION
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("log", help="engine log: .parquet, .csv (header row) or .npz")
    parser.add_argument("-o", "--output", required=True, metavar="OUTDIR", help="folder to create (new, or empty)")
    parser.add_argument(
        "--toi-tol", type=_tolerance, default=TOI_TOL, metavar="TOL",
        help=f"a TOI is wrong when |engine_toi - toi| > TOL * max(1, |toi|) (default {TOI_TOL:g})",
    )  # fmt: skip
    parser.add_argument(
        "--worst", type=lambda t: _number(t, 0, MAX_WORST, "a count", int), default=WORST, metavar="N",
        help=f"write the N worst cases as scene files (default {WORST})",
    )  # fmt: skip
    parser.add_argument(
        "--chunk-rows", type=lambda t: _number(t, MIN_CHUNK_ROWS, MAX_CHUNK_ROWS, "a row count", int),
        default=CHUNK_ROWS, metavar="ROWS", help=f"rows per chunk and per Dask partition (default {CHUNK_ROWS})",
    )  # fmt: skip
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--dask", type=_address, metavar="ADDRESS", help="run on the Dask scheduler at ADDRESS (e.g. tcp://host:8786)")
    where.add_argument(
        "--workers", type=lambda t: _number(t, 1, 256, "a worker count", int), metavar="N",
        help="run on a local Dask cluster of N worker processes",
    )  # fmt: skip
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar (none is drawn unless stderr is a terminal)")


def _fail(message: str) -> int:
    print(f"sphere-explorer audit: {message}", file=sys.stderr)
    return EXIT_REFUSED


def run(args: argparse.Namespace) -> int:
    """Run the audit for parsed arguments; print the one-line summary and OUTDIR; return the exit code.

    Every refusal is one line and exit 2; SIGINT and SIGTERM, whenever they
    come, end with one line, exit 130 or 143 and no OUTDIR.
    """
    # Millions of pairs: the solver must be compiled.  The console script turns compilation off
    # (SPHERE_SOLVER_JIT=0) for its one-scene commands before anything imports the solver; turn
    # it back on here, before the first import, and for the local Dask workers, which inherit it.
    if os.environ.get("SPHERE_SOLVER_JIT") == "0":
        os.environ["SPHERE_SOLVER_JIT"] = "1"
    try:
        from .columns import LogError
        from .reading import printable
        from .run import audit
        from .summary import one_line
        from explorer.model.scene_io import os_error_line
    except ImportError as err:  # pragma: no cover - depends on the installation
        return _fail(f"needs the 'audit' extra ({err.name} is missing): pip install 'sphere-sweep-explorer[audit]'")
    if args.dask or args.workers:
        try:
            import distributed  # noqa: F401
        except ImportError:  # pragma: no cover - depends on the installation
            return _fail("--dask/--workers need Dask: pip install 'sphere-sweep-explorer[audit]'")
    name = printable(Path(args.log).name)
    written = None
    with interrupt.catching():
        try:
            summary = audit(
                args.log, args.output, toi_tol=args.toi_tol, worst=args.worst, chunk_rows=args.chunk_rows,
                dask=args.dask, workers=args.workers, quiet=args.quiet,
            )  # fmt: skip
            written = Path(args.output)
            interrupt.check()  # a signal whose KeyboardInterrupt was swallowed on the way out
            print(one_line(summary))
            print(args.output, flush=True)
        except LogError as err:  # about the log, named first; or about -o or --dask, which say so
            text = str(err)
            return _fail(text if text.startswith("-") else f"{name}: {text}")
        except MemoryError:
            return _fail("out of memory: try a smaller --chunk-rows")
        except OSError as err:  # the log or OUTDIR's folder: a name too long, a full disk, an I/O error
            return _fail(os_error_line(err))
        except KeyboardInterrupt:
            if written is not None:  # stopped after completing: the user asked for nothing, so leave nothing
                shutil.rmtree(written, ignore_errors=True)
            print(f"sphere-explorer audit: {interrupt.MESSAGE}", file=sys.stderr)
            return interrupt.exit_code(EXIT_INTERRUPTED)
    return 0
