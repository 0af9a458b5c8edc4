"""``OUTDIR/audit.png``: disagreements by kind, the histogram of relative TOI errors, the worst cases.

Drawn with matplotlib's Agg canvas (no window, no pyplot state).  Importing
matplotlib takes about half a second, as long as auditing 5 M pairs: the
audit calls :func:`preload` as it starts, so the import happens in a background
thread while the log is read.
"""

from __future__ import annotations

import gc
import io
import threading
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from ..decision.worst import engine_row
from .staging import create
from .summary import count

#: Colours per source of answers.
COLOURS = {"engine": "#d62728", "float64": "#1f77b4", "float32": "#ff7f0e"}
KINDS = (("false_hits", "false hits"), ("false_misses", "false misses"), ("toi_errors", "TOI errors"))
#: In place of the histogram when there is none.
NO_TIMES = "The engine logged no times of impact\n(no engine_toi column): only its verdicts were checked."
NO_TIMES_COMPARED = (
    "No times of impact compared:\nno pair is a hit with a time\nfor both the exact answer and the answers checked."
)


#: Digits and minus sign as superscripts, for tick labels like 10⁻⁶ in plain text.
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def power_label(value: float, _position=None) -> str:
    """A tick label for a log or symlog axis in plain text: ``0``, ``1``, ``10``, ``10²``, ``10⁻⁶``.

    matplotlib's own labels (``$10^{-6}$``) go through its TeX parser, which
    took a third of a second of each audit; these are plain text, as DejaVu
    Sans has the superscript digits.  Values that are not powers of ten
    (none on these axes) get ``%g``.
    """
    if value == 0:
        return "0"
    exponent = round(np.log10(abs(value)))
    if value < 0 or not np.isclose(value, 10.0**exponent, rtol=1e-9, atol=0.0):
        return f"{value:g}"
    return "1" if exponent == 0 else "10" if exponent == 1 else "10" + str(exponent).translate(_SUPERSCRIPT)


def _power_ticks(axis) -> None:
    """Label ``axis`` (a log or symlog axis) with :func:`power_label`, with no minor ticks (unlabelled marks
    between the powers of ten: on a histogram of a few decades, drawing them took up to a fifth of the time)."""
    from matplotlib.ticker import FuncFormatter, NullLocator

    axis.set_major_formatter(FuncFormatter(power_label))
    axis.set_minor_locator(NullLocator())


def _import() -> None:
    """Import matplotlib and, the first time in this process, draw a small figure, so the first real drawing
    finds its font loaded and its caches filled."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:  # pragma: no cover - write_plot will say so
        return
    if _warmed:  # pragma: no mutate  (speed only: a second warm-up draws the same throw-away figure)
        return
    _warmed.append(True)  # pragma: no mutate
    # What is drawn here is thrown away: only how fast the first real drawing is depends on it.
    fig = Figure(figsize=(1, 1))  # pragma: no mutate
    FigureCanvasAgg(fig)  # pragma: no mutate
    fig.subplots().set_title("0")  # pragma: no mutate
    fig.savefig(io.BytesIO(), format="png", pil_kwargs=PNG)  # pragma: no mutate  (PIL loads its PNG writer)


#: Not empty once :func:`_import` has warmed matplotlib up in this process.
_warmed: list[bool] = []
#: The background thread :func:`preload` started, if any: :func:`write_plot` waits for it (two threads never
#: draw at once: matplotlib's font objects are not shared safely between threads).
_preloading: list[threading.Thread] = []


def preload() -> threading.Thread:
    """Start importing matplotlib (and warming it up) in a background thread; a later import waits for the
    import, :func:`write_plot` for the whole."""
    thread = threading.Thread(target=_import, name="audit-plot-import", daemon=True)
    thread.start()
    _preloading.append(thread)
    return thread


def wait_for_preload() -> None:
    """Wait for the thread :func:`preload` started, if any.  Also before a refused audit returns: a process
    that ends while the thread is still inside matplotlib's C++ code aborts ("terminate called ...", exit -6)
    instead of exiting with its refusal."""
    while _preloading:
        _preloading.pop().join()


#: The picture's size in inches and its resolution: 1210 x 506 pixels.  Layout numbers like these (and the
#: margins, font sizes and panel widths) are judged by eye on the PNG: they are kept out of the functions
#: here or marked for the mutation run to leave alone (``# pragma: no mutate``); the tests check what the
#: picture says and where its parts are.
SIZE, DPI = (11.0, 4.6), 110
#: How the PNG is compressed: zlib's fastest level (a third of the time of the default, 6; the file is a
#: few kB larger).
PNG = {"compress_level": 1}
#: Where and how the line of worst cases is written, below the panels.
WORST_TEXT = {"x": 0.01, "y": 0.015, "fontsize": 8, "ha": "left", "va": "bottom"}
#: The counts written above the bars.
COUNT_TEXT = {"fontsize": 8}
#: The tolerance's line across the histogram.
TOLERANCE_LINE = {"color": "black", "linestyle": "--", "linewidth": 1}
#: A panel's title: at the top of the panel, where matplotlib puts it by default (giving its place saves
#: matplotlib looking for tick labels above the panel, which these panels never have).
TITLE = {"y": 1.0}
#: Words in place of the histogram, in the middle of its panel (in the panel's own coordinates).
MIDDLE_TEXT = {"x": 0.5, "y": 0.5, "ha": "center", "va": "center", "fontsize": 11, "wrap": True}


def write_plot(summary: dict, path: Path, size: tuple[float, float] = SIZE, dpi: int = DPI):
    """Draw the two panels of ``summary`` (as :func:`explorer.audit.report.summary.build` makes it) to a PNG.

    Left, the wrong answers by kind; right, the histogram of relative TOI errors, or in its place
    a sentence saying why there is none (no times logged, or none compared); below, the worst cases
    with the engine's row (step and bodies) when the log names it.  Returns the matplotlib Figure drawn.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    wait_for_preload()
    with _collector_paused():
        fig = Figure(figsize=size, dpi=dpi)
        FigureCanvasAgg(fig)
        left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.5]})  # pragma: no mutate
        _bars(left, summary["answers"])
        _histogram(right, summary)
        fig.suptitle(
            f"{count(summary['pairs'], 'pair')} audited exactly ({count(summary['hits'], 'hit')}, "
            f"{count(summary['skipped_rows'], 'row')} skipped)",
            fontsize=11,  # pragma: no mutate
        )
        worst = worst_line(summary["worst"])
        if worst:
            fig.text(s=worst, **WORST_TEXT)
        fig.subplots_adjust(left=0.07, right=0.98, bottom=0.2, top=0.84, wspace=0.2)  # pragma: no mutate
        with create(path) as handle:
            fig.savefig(handle, format="png", pil_kwargs=PNG)
    return fig


@contextmanager
def _collector_paused():
    """Python's cyclic garbage collector paused, and restored as it was.  Drawing allocates enough to set off
    a full collection, which in a process that has imported matplotlib, pyarrow and numba took a third of
    the first drawing's time; the collection comes later, or never in a command that exits."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _bars(ax, answers: dict) -> None:
    """Wrong answers by kind, one bar per source; kinds not measured (no times logged) are left out."""
    names = list(answers)
    kinds = [(key, label) for key, label in KINDS if any(answers[n][key] is not None for n in names)]
    width = 0.8 / max(len(names), 1)
    x = np.arange(len(kinds))
    for k, name in enumerate(names):
        counts = [answers[name][key] or 0 for key, _ in kinds]
        bars = ax.bar(x + (k - (len(names) - 1) / 2) * width, counts, width, label=_label(name),
                      color=COLOURS.get(name))  # fmt: skip
        for label in ax.bar_label(bars, labels=[f"{c:,}" for c in counts]):
            label.set(**COUNT_TEXT)
    ax.set_xticks(x, [label for _, label in kinds])
    ax.set_ylabel("pairs")
    ax.set_title("Wrong answers by kind", **TITLE)
    top = max([answers[n][key] or 0 for n in names for key, _ in kinds] + [0])  # pragma: no mutate
    ax.set_yscale("symlog", linthresh=1)  # pragma: no mutate
    _power_ticks(ax.yaxis)
    ax.set_ylim(0, max(10.0, top * 30.0))  # pragma: no mutate  (room above the bars for their counts and the legend)
    ax.legend(fontsize=8, loc="upper right")  # pragma: no mutate


def _histogram(ax, summary: dict) -> None:
    """The relative TOI errors where both said hit; or, when none was measured, why, in words."""
    answers = summary["answers"]
    hists = {n: np.array(a["toi_error_histogram"]) for n, a in answers.items() if a["toi_error_histogram"] is not None}
    compared = sum(answers[n]["toi_compared"] for n in hists)
    if not compared:
        ax.set_axis_off()
        ax.set_title("Times of impact", **TITLE)
        words = NO_TIMES if not hists else NO_TIMES_COMPARED
        ax.text(s=words, transform=ax.transAxes, **MIDDLE_TEXT)
        return
    edges = np.array(summary["histogram_edges"])
    centers = np.sqrt(edges[:-1] * edges[1:])
    used = np.flatnonzero(sum(hists.values()))
    tol_bin = int(np.searchsorted(edges, summary["toi_tol"])) - 1
    lo = max(min(used.min() if used.size else tol_bin, tol_bin) - 2, 0)
    hi = min(max(used.max() if used.size else tol_bin, tol_bin) + 3, centers.size)
    for name, hist in hists.items():
        ax.step(centers[lo:hi], hist[lo:hi], where="mid", color=COLOURS.get(name), label=_label(name))
    ax.axvline(summary["toi_tol"], label=f"tolerance {summary['toi_tol']:g}", **TOLERANCE_LINE)
    ax.set_xscale("log")
    ax.set_yscale("symlog", linthresh=1)  # pragma: no mutate
    _power_ticks(ax.xaxis)
    _power_ticks(ax.yaxis)
    ax.set_ylim(0, max(10.0, 3.0 * max(int(h.max()) for h in hists.values())))  # pragma: no mutate  (headroom)
    ax.set_xlabel("relative TOI error |t_said - t| / max(1, |t|)  (where both say hit)")
    ax.set_ylabel("pairs")
    exact = sum(answers[n]["toi_exact"] for n in hists)
    ax.set_title(f"TOI errors ({count(compared, 'pair')} compared, {exact:,} exactly right)", **TITLE)
    ax.legend(fontsize=8)  # pragma: no mutate


def worst_line(worst: list[dict], shown: int = 3) -> str:
    """The first ``shown`` worst cases in one line: kind, row, and the engine's step and bodies when logged."""
    if not worst:
        return ""
    parts = [f"{case['kind']} at row {case['row']:,}{engine_row(case)}" for case in worst[:shown]]
    more = f" (and {len(worst) - shown:,} more in cases/)" if len(worst) > shown else ""
    return "Worst: " + "; ".join(parts) + more


def _label(name: str) -> str:
    return "engine" if name == "engine" else f"textbook {name}"
