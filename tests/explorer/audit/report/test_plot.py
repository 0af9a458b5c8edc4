"""The audit's plot labels its log axes in plain text (10⁻⁶), not through matplotlib's TeX parser.

The TeX labels cost a third of a second of every audit (parsing ``$10^{-6}$``);
the plain ones read the same.
"""

from __future__ import annotations

import gc
import threading
import time

import numpy as np
import pytest
from audit_logs import CHUNK

from explorer.audit.report import plot
from explorer.audit.report.plot import power_label, preload, write_plot
from explorer.audit.run import audit


@pytest.mark.parametrize(
    "value, label",
    [(0.0, "0"), (1.0, "1"), (10.0, "10"), (100.0, "10²"), (1e5, "10⁵"), (1e-6, "10⁻⁶"), (1e-12, "10⁻¹²"),
     (1e-300, "10⁻³⁰⁰"), (2.5, "2.5"), (-10.0, "-10"), (30.0, "30")],
)  # fmt: skip
def test_power_labels(value, label):
    assert power_label(value) == label


def test_a_tick_label_near_a_power_of_ten_is_written_out():
    """999.995 is within 1e-5 of 10**3 but is not it: plain %g, not 10³."""
    assert (power_label(999.995), power_label(1000.0), power_label(1e-6)) == ("999.995", "10³", "10⁻⁶")


def test_the_drawn_plot_has_no_tex_labels(planted_files, tmp_path):
    summary = audit(planted_files["log.npz"], tmp_path / "out", chunk_rows=CHUNK)
    fig = write_plot(summary, tmp_path / "again.png")
    labels = [
        tick.get_text()
        for ax in fig.axes
        for axis in (ax.xaxis, ax.yaxis)
        for tick in axis.get_ticklabels(which="both")
        if tick.get_text()
    ]
    assert labels, "no tick labels drawn"
    assert not [text for text in labels if "$" in text]
    assert {"0", "1", "10", "10²"} <= set(labels)  # the counts' axis
    assert "10⁻⁶" in labels  # the tolerance's decade on the relative-error axis
    # no minor ticks: matplotlib's own would be marks without labels between these (and a third of the drawing)
    assert [len(axis.get_minor_locator()()) for ax in fig.axes for axis in (ax.xaxis, ax.yaxis)] == [0, 0, 0, 0]


def test_drawing_waits_for_the_warm_up_and_leaves_the_collector_as_it_was(planted_files, tmp_path, monkeypatch):
    """The background warm-up (made slow here) is over before the picture is drawn: never two threads
    drawing.  The garbage collector paused for the drawing runs again after it, or stays off if it was off."""
    summary = audit(planted_files["log.npz"], tmp_path / "out", chunk_rows=CHUNK)
    warmed = threading.Event()

    def slow_warm_up():
        time.sleep(0.5)
        warmed.set()

    monkeypatch.setattr(plot, "_import", slow_warm_up)
    warm_up = preload()
    write_plot(summary, tmp_path / "on.png")
    assert warmed.is_set() and not warm_up.is_alive() and gc.isenabled()
    gc.disable()
    try:
        write_plot(summary, tmp_path / "off.png")
        assert not gc.isenabled()
    finally:
        gc.enable()


# -- what the picture says, and where its parts are, for a hand-made summary ---------------------------


def _answers(false_hits, false_misses, toi_errors, histogram=None, compared=0, exact=0) -> dict:
    return {"false_hits": false_hits, "false_misses": false_misses, "toi_errors": toi_errors,
            "toi_error_histogram": histogram, "toi_compared": compared, "toi_exact": exact}  # fmt: skip


def _summary(answers: dict, **extra) -> dict:
    edges = [10.0**k for k in range(-16, 1)]  # 16 bins, 1e-16 .. 1
    summary = {"pairs": 6000, "hits": 1, "skipped_rows": 1, "toi_tol": 1e-6, "histogram_edges": edges,
               "answers": answers, "worst": []}  # fmt: skip
    return summary | extra


def _bars_of(ax) -> list[tuple[float, float, float, str]]:
    """(left x, width, height, colour) of each bar, in drawing order."""
    from matplotlib.colors import to_hex

    return [(bar.get_x(), bar.get_width(), bar.get_height(), to_hex(bar.get_facecolor())) for bar in ax.patches]


def test_the_wrong_answers_are_bars_side_by_side_per_kind_with_their_counts(tmp_path):
    """Three sources: each kind's three bars touch, are 0.8 wide together and centred on the kind's tick, in the
    sources' colours; a count not measured (the engine logged no times) is drawn as 0."""
    from explorer.audit.report.plot import COLOURS

    answers = {"engine": _answers(1234, 5, None), "float64": _answers(0, 76, 3), "float32": _answers(520, 266, 461)}
    fig = write_plot(_summary(answers), tmp_path / "plot.png")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["false hits", "false misses", "TOI errors"]
    assert list(ax.get_xticks()) == [0, 1, 2]
    assert ax.get_ylabel() == "pairs" and ax.get_title() == "Wrong answers by kind"
    bars = _bars_of(ax)
    assert len(bars) == 9
    counts = {"engine": [1234, 5, 0], "float64": [0, 76, 3], "float32": [520, 266, 461]}
    for k, name in enumerate(counts):  # drawn source by source
        for kind in range(3):
            left, width, height, colour = bars[3 * k + kind]
            assert width == pytest.approx(0.8 / 3)
            assert left == pytest.approx(kind - 0.4 + k * 0.8 / 3), (name, kind)
            assert height == counts[name][kind] and colour == COLOURS[name]
    labels = [t.get_text() for t in ax.texts]
    assert labels == ["1,234", "5", "0", "0", "76", "3", "520", "266", "461"]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["engine", "textbook float64", "textbook float32"]


def test_kinds_no_source_measured_are_left_out_and_one_source_fills_the_slot(tmp_path):
    fig = write_plot(_summary({"engine": _answers(25, 24, None)}), tmp_path / "plot.png")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["false hits", "false misses"]
    assert [(round(left, 9), round(width, 9), height) for left, width, height, _ in _bars_of(ax)] == [
        (-0.4, 0.8, 25), (0.6, 0.8, 24)]  # fmt: skip
    assert [t.get_text() for t in ax.texts] == ["25", "24"]


def test_the_title_counts_and_the_worst_cases_line_are_written(tmp_path):
    worst = [{"kind": "false hit", "row": 3128, "step": 7, "a_id": 1, "b_id": 2},
             {"kind": "toi error", "row": 12, "step": None, "a_id": None, "b_id": None}]  # fmt: skip
    summary = _summary({"engine": _answers(1, 0, None)}, worst=worst)
    fig = write_plot(summary, tmp_path / "plot.png")
    assert fig._suptitle.get_text() == "6,000 pairs audited exactly (1 hit, 1 row skipped)"
    texts = [t.get_text() for t in fig.texts]
    assert "Worst: false hit at row 3,128 (step 7, bodies 1 and 2); toi error at row 12" in texts
    summary |= {"pairs": 1, "hits": 2, "skipped_rows": 3, "worst": []}
    fig = write_plot(summary, tmp_path / "again.png")  # (the plot is never written over an existing file)
    assert fig._suptitle.get_text() == "1 pair audited exactly (2 hits, 3 rows skipped)"
    assert not [t for t in fig.texts if t.get_text().startswith("Worst")]


def test_the_png_has_the_size_asked_in_pixels(tmp_path):
    import struct

    path = tmp_path / "plot.png"
    write_plot(_summary({"engine": _answers(1, 0, None)}), path, size=(5.0, 2.0), dpi=50)
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", head[16:24]) == (250, 100)


def _words_in_the_middle(ax) -> list[str]:
    """The texts of ``ax`` drawn within the panel (what stands in for its plot)."""
    fig = ax.figure
    fig.canvas.draw()
    box = ax.get_window_extent()
    inside = []
    for text in ax.texts:
        extent = text.get_window_extent()
        if box.x0 <= extent.x0 and extent.x1 <= box.x1 and box.y0 <= extent.y0 and extent.y1 <= box.y1:
            inside.append(text.get_text())
    return inside


def test_without_times_the_histogram_panel_says_why_in_its_middle(tmp_path):
    from explorer.audit.report.plot import NO_TIMES, NO_TIMES_COMPARED

    fig = write_plot(_summary({"engine": _answers(3, 4, None)}), tmp_path / "none.png")
    right = fig.axes[1]
    assert right.get_title() == "Times of impact" and not right.axison
    assert _words_in_the_middle(right) == [NO_TIMES]
    assert "no engine_toi column" in NO_TIMES
    # times logged, but no pair where both the exact answer and the engine say hit with a time
    fig = write_plot(_summary({"engine": _answers(3, 4, 0, [0] * 16, 0)}), tmp_path / "none-compared.png")
    assert _words_in_the_middle(fig.axes[1]) == [NO_TIMES_COMPARED]
    assert "No times of impact compared" in NO_TIMES_COMPARED


def test_the_histogram_steps_over_the_used_bins_and_the_tolerance_with_room_around(tmp_path):
    from matplotlib.colors import to_hex

    from explorer.audit.report.plot import COLOURS

    """Bins of one decade, 1e-16 .. 1 (16 bins, centres 10^(k + 0.5)); errors in bins 3 and 10, tolerance 1e-6
    (the edge of bins 9 and 10): shown from 2 bins below the lowest used one (bin 1) to 2 bins above the
    highest of the used ones and the tolerance's bin 9 (bin 12), by hand."""
    hist = [0] * 16
    hist[3], hist[10] = 7, 2
    answers = {"engine": _answers(0, 0, 2, hist, 9, 0)}
    fig = write_plot(_summary(answers), tmp_path / "hist.png")
    ax = fig.axes[1]
    step, tolerance = ax.lines
    np.testing.assert_allclose(step.get_xdata(), [10.0 ** (k + 0.5) for k in range(-15, -3)], rtol=1e-12)
    assert list(step.get_ydata()) == hist[1:13]
    assert list(tolerance.get_xdata()) == [1e-6, 1e-6]
    assert ax.get_title() == "TOI errors (9 pairs compared, 0 exactly right)"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["engine", "tolerance 1e-06"]
    assert step.get_drawstyle() == "steps-mid" and to_hex(step.get_color()) == COLOURS["engine"]
    label = ax.get_xlabel()
    assert label.startswith("relative TOI error") and label.endswith("(where both say hit)") and "max(1, |t|)" in label
    assert tolerance.get_linestyle() == "--" and to_hex(tolerance.get_color()) == "#000000"  # dashed, black
    assert ax.get_ylabel() == "pairs"


@pytest.mark.parametrize(
    "used, first, last",
    [
        ([12], 7, 15),  # errors above the tolerance only: from 2 bins below the tolerance's bin 9
        ([], 7, 12),  # every time exactly right (no bin used): around the tolerance's bin
        ([1], 0, 12),  # from bin 0 at the lowest (2 below bin 1 would be before the first)
        ([15], 7, 16),  # to the last bin at the highest (2 above bin 15 would be past the last)
    ],
)  # fmt: skip
def test_the_histogram_s_range_takes_in_the_tolerance_and_stays_within_the_bins(tmp_path, used, first, last):
    hist = [0] * 16
    for k in used:
        hist[k] = 4
    answers = {"engine": _answers(0, 0, 0, hist, 5, 5 if not used else 1)}
    fig = write_plot(_summary(answers), tmp_path / "hist.png")
    step = fig.axes[1].lines[0]
    np.testing.assert_allclose(step.get_xdata(), [10.0 ** (k - 16 + 0.5) for k in range(first, last)], rtol=1e-12)
    assert list(step.get_ydata()) == hist[first:last]
