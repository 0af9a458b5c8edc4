"""The audit's plot labels its log axes in plain text (10⁻⁶), not through matplotlib's TeX parser.

The TeX labels cost a third of a second of every audit (parsing ``$10^{-6}$``);
the plain ones read the same.
"""

from __future__ import annotations

import pytest

from explorer.audit.plot import power_label, write_plot
from explorer.audit.run import audit

from .conftest import CHUNK


@pytest.mark.parametrize(
    "value, label",
    [(0.0, "0"), (1.0, "1"), (10.0, "10"), (100.0, "10²"), (1e5, "10⁵"), (1e-6, "10⁻⁶"), (1e-12, "10⁻¹²"),
     (1e-300, "10⁻³⁰⁰"), (2.5, "2.5"), (-10.0, "-10"), (30.0, "30")],
)  # fmt: skip
def test_power_labels(value, label):
    assert power_label(value) == label


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
