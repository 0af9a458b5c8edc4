"""``OUTDIR/audit.png``: disagreements by kind, and the histogram of relative TOI errors.

Drawn with matplotlib's Agg canvas (no window, no pyplot state).  Importing
matplotlib takes about half a second, as long as auditing 5 M pairs: the
audit calls :func:`preload` as it starts, so the import happens in a background
thread while the log is read.
"""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np

from .staging import create

#: Colours per source of answers.
COLOURS = {"engine": "#d62728", "float64": "#1f77b4", "float32": "#ff7f0e"}
KINDS = (("false_hits", "false hits"), ("false_misses", "false misses"), ("toi_errors", "TOI errors"))


def _import() -> None:
    try:
        import matplotlib.backends.backend_agg  # noqa: F401
        import matplotlib.figure  # noqa: F401
    except ImportError:  # pragma: no cover - write_plot will say so
        pass


def preload() -> threading.Thread:
    """Start importing matplotlib in a background thread (a later import waits for it to finish)."""
    thread = threading.Thread(target=_import, name="audit-plot-import", daemon=True)
    thread.start()
    return thread


def write_plot(summary: dict, path: Path, size: tuple[float, float] = (11.0, 4.2), dpi: int = 110) -> None:
    """Draw the two panels of ``summary`` (as :func:`explorer.audit.summary.build` makes it) to a PNG."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=size, dpi=dpi)
    FigureCanvasAgg(fig)
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.5]})
    answers = summary["answers"]
    names = list(answers)
    width = 0.8 / max(len(names), 1)
    x = np.arange(len(KINDS))
    for k, name in enumerate(names):
        counts = [answers[name][key] or 0 for key, _ in KINDS]
        bars = left.bar(x + (k - (len(names) - 1) / 2) * width, counts, width, label=_label(name),
                        color=COLOURS.get(name))  # fmt: skip
        left.bar_label(bars, labels=[f"{c:,}" for c in counts], fontsize=8)
    left.set_xticks(x, [label for _, label in KINDS])
    left.set_ylabel("pairs")
    left.set_title("Wrong answers by kind")
    top = max([answers[n][key] or 0 for n in names for key, _ in KINDS] + [0])
    left.set_yscale("symlog", linthresh=1)
    left.set_ylim(0, max(10.0, top * 30.0))  # room above the bars for their counts and the legend
    left.legend(fontsize=8, loc="upper right")

    edges = np.array(summary["histogram_edges"])
    centers = np.sqrt(edges[:-1] * edges[1:])
    hists = {n: np.array(answers[n]["toi_error_histogram"]) for n in names if answers[n]["toi_error_histogram"] is not None}
    used = np.flatnonzero(sum(hists.values())) if hists else np.array([], dtype=int)
    tol_bin = int(np.searchsorted(edges, summary["toi_tol"])) - 1
    lo = max(min(used.min() if used.size else tol_bin, tol_bin) - 2, 0)
    hi = min(max(used.max() if used.size else tol_bin, tol_bin) + 3, centers.size)
    for name, hist in hists.items():
        right.step(centers[lo:hi], hist[lo:hi], where="mid", color=COLOURS.get(name), label=_label(name))
    drawn = bool(hists)
    right.axvline(summary["toi_tol"], color="black", linestyle="--", linewidth=1, label=f"tolerance {summary['toi_tol']:g}")
    right.set_xscale("log")
    right.set_yscale("symlog", linthresh=1)
    right.set_ylim(bottom=0)
    right.set_xlabel("relative TOI error |t_said - t| / max(1, |t|)  (where both say hit)")
    right.set_ylabel("pairs")
    right.set_title("TOI errors" if drawn else "TOI errors (the log has no engine_toi)")
    right.legend(fontsize=8)
    fig.suptitle(
        f"{summary['pairs']:,} pairs audited exactly ({summary['hits']:,} hits, {summary['skipped_rows']:,} rows skipped)",
        fontsize=11,
    )
    fig.subplots_adjust(left=0.07, right=0.98, bottom=0.14, top=0.84, wspace=0.2)
    with create(path) as handle:
        fig.savefig(handle, format="png")


def _label(name: str) -> str:
    return "engine" if name == "engine" else f"textbook {name}"
