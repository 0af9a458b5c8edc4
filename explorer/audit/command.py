"""``sphere-explorer audit LOG -o OUTDIR``: the command line of the audit.

Only argparse at import time; numpy, numba, pyarrow and Dask are imported when
the command runs, so ``sphere-explorer --help`` stays fast.
"""

from __future__ import annotations

import argparse
import math
import shutil
import sys
from pathlib import Path

from ..system import interrupt, numbers
from ..system.files import os_error_line
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
b_vz b_r (centre, velocity, radius), optional horizon, engine_hit (bool or 0/1)
and engine_toi (empty/NaN without a hit), and optional step, a_id, b_id
(integers within +-2**53 naming the engine's row, shown with the worst cases;
anything else there is refused). Without engine columns the audit reports what
the textbook formula in float32 and float64 would have got wrong. Rows with
missing or out-of-range values are skipped and counted; a log that changes
while it is read (opened for writing, cut short) is refused.

Time unit: velocities are per the time unit of the horizon, which the log states
once: per row in its horizon column, or for the whole log with --horizon; with
neither it is 1 (velocities per frame). An engine stepping at dt = 1/60 s logs
m/s and horizon = 1/60. summary.json's time_unit says which was used; a log
whose every moving pair moves more than 1e6 contact distances within its
horizon is warned about (a likely unit mistake) and still audited.

Reading .npz needs numpy only; Parquet and CSV need pyarrow, which the base
install (make run) includes; --workers and --dask need the audit extra. A
missing package is refused in one line naming the command that installs it."""


def _parse(text: str, what: str, kind=float):
    try:
        return numbers.whole(text) if kind is int else numbers.real(text)  # never 1_0, " 5" or "٣"
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None


def _number(text: str, lo: float, hi: float, what: str, kind=float):
    value = _parse(text, what, kind)
    if not (isinstance(value, int) or math.isfinite(value)) or not lo <= value <= hi:
        raise argparse.ArgumentTypeError(f"expected {what} in [{lo:g}, {hi:g}], got {text!r}")
    return value


def _tolerance(text: str) -> float:
    value = _number(text, 0.0, 1e6, "a tolerance")
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive tolerance, got {text!r}")
    return value


def _time(text: str) -> float:
    """A horizon: a number, or a fraction such as ``1/60`` (a step of 1/60 s), in the range of :mod:`solver.limits`."""
    from solver.limits import HORIZON_WORDS, RANGES, horizon_ok

    top, slash, bottom = text.partition("/")
    value = _parse(top, "a horizon")
    if slash:
        denominator = _parse(bottom, "a horizon")
        value = value / denominator if denominator > 0 else math.nan
    if not horizon_ok(value, RANGES):
        shown = f"{text!r} ({value:g})" if slash and value == value else repr(text)  # a fraction: its value too
        raise argparse.ArgumentTypeError(f"expected a horizon {HORIZON_WORDS}, got {shown}")
    return value


def _address(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a scheduler address such as tcp://host:8786, got an empty one")
    return text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the audit's arguments to ``parser`` (and the log format as its epilog if it has none)."""
    parser.epilog = parser.epilog or DESCRIPTION
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    # The help texts are documentation, read and reviewed as such: not mutated by the mutation run
    # (benchmarks/mutation.py); the metavars are, and a test holds each to the words of its help.
    parser.add_argument(
        "log",
        help="engine log: .parquet, .csv (header row) or .npz",  # pragma: no mutate
    )
    parser.add_argument(
        "-o", "--output", required=True, metavar="OUTDIR",
        help="the folder OUTDIR to create (new, or empty)",  # pragma: no mutate
    )  # fmt: skip
    parser.add_argument(
        "--toi-tol", type=_tolerance, default=TOI_TOL, metavar="TOL",
        help=f"a TOI is wrong when |engine_toi - toi| > TOL * max(1, |toi|) (default {TOI_TOL:g})",  # pragma: no mutate
    )  # fmt: skip
    parser.add_argument(
        "--worst", type=lambda t: _number(t, 0, MAX_WORST, "a count", int), default=WORST, metavar="N",
        help=f"write the N worst cases as scene files (default {WORST})",  # pragma: no mutate
    )  # fmt: skip
    parser.add_argument(
        "--chunk-rows", type=lambda t: _number(t, MIN_CHUNK_ROWS, MAX_CHUNK_ROWS, "a row count", int),
        default=CHUNK_ROWS, metavar="ROWS",
        help=f"ROWS rows per chunk and per Dask partition (default {CHUNK_ROWS})",  # pragma: no mutate
    )  # fmt: skip
    parser.add_argument(
        "--horizon", type=_time, metavar="H",
        help="H, the horizon of every row (the time unit of the velocities) for a log without a horizon "  # pragma: no mutate
        "column (default 1: velocities per frame); e.g. 1/60 for velocities in m/s logged at dt = 1/60 s",  # pragma: no mutate
    )  # fmt: skip
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--dask", type=_address, metavar="ADDRESS",
        help="run on the Dask scheduler at ADDRESS (e.g. tcp://host:8786)",  # pragma: no mutate
    )  # fmt: skip
    where.add_argument(
        "--workers", type=lambda t: _number(t, 1, 256, "a worker count", int), metavar="N",
        help="run on a local Dask cluster of N worker processes",  # pragma: no mutate
    )  # fmt: skip
    parser.add_argument(
        "-q", "--quiet", action="store_true",
        help="no progress bar (none is drawn unless stderr is a terminal)",  # pragma: no mutate
    )  # fmt: skip


def _fail(message: str) -> int:
    print(f"sphere-explorer audit: {message}", file=sys.stderr)
    return EXIT_REFUSED


def _report(summary: dict, output: str) -> None:
    """The warnings on stderr (one line each), then the summary's line and OUTDIR on stdout."""
    from .report.summary import one_line

    for warning in summary["warnings"]:
        print(f"sphere-explorer audit: warning: {warning}", file=sys.stderr)
    print(one_line(summary))
    print(output, flush=True)


def _absent_or_empty(folder: Path) -> bool:
    """``folder`` does not exist, or is an empty folder: what a run may fill (False when it cannot be told)."""
    try:
        return not folder.exists() or (folder.is_dir() and next(folder.iterdir(), None) is None)
    except OSError:
        return False


def run(args: argparse.Namespace) -> int:
    """Run the audit for parsed arguments; print the one-line summary and OUTDIR; return the exit code.

    Every refusal is one line and exit 2; SIGINT and SIGTERM, whenever they
    come, end with one line, exit 130 or 143 and no OUTDIR.
    """
    # Millions of pairs: the solver compiled (the console script chose plain Python for its one-scene
    # commands; the Dask workers, other processes, run compiled by default).  Before the first query.
    import solver

    solver.configure(jit=True)
    from .needs import BASE, MissingPackage, install_command

    try:
        from .log.columns import LogError
        from .log.info import printable
        from .run import SUMMARY, audit
    except ImportError as err:  # a broken base install: name what reinstalls it
        return _fail(f"{err.name} is not installed; install the project with: {install_command(BASE)}")
    name = printable(Path(args.log).name)
    output, fillable = Path(args.output), False
    with interrupt.catching():
        try:
            fillable = _absent_or_empty(output)
            summary = audit(
                args.log, args.output, toi_tol=args.toi_tol, worst=args.worst, chunk_rows=args.chunk_rows,
                dask=args.dask, workers=args.workers, quiet=args.quiet, horizon=args.horizon,
            )  # fmt: skip
            interrupt.check()  # a signal whose KeyboardInterrupt was swallowed on the way out
            _report(summary, args.output)
        except (LogError, MissingPackage) as err:  # about the log, named first; or about an option, which says so
            text = str(err)
            return _fail(text if text.startswith("-") else f"{name}: {text}")
        except MemoryError:
            return _fail("out of memory: try a smaller --chunk-rows")
        except OSError as err:  # the log or OUTDIR's folder: a name too long, a full disk, an I/O error
            return _fail(os_error_line(err))
        except KeyboardInterrupt:
            # stopped once OUTDIR was in place (after the audit returned, or as it did, just after the folder's
            # rename): the user asked for nothing, so leave nothing; a folder that held anything before is not ours
            if fillable and (output / SUMMARY).is_file():
                shutil.rmtree(output, ignore_errors=True)
            print(f"sphere-explorer audit: {interrupt.MESSAGE}", file=sys.stderr)
            return interrupt.exit_code(EXIT_INTERRUPTED)
    return 0
