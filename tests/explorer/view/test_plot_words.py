"""The parabola's marks and where their words go (explorer/view/plot_words.py), the one rule of the window's plot,
the pictures and the live page: near their mark, inside the plot, over no other word, mark or legend."""

from __future__ import annotations

import pytest

from explorer.model.derived.analysis import solve
from explorer.model.formats import scene_io
from explorer.model.formats.gallery import SCENES_DIR, gallery
from explorer.model.words.parabola import parabola
from explorer.view.palette import ENTER_COLOR, EXIT_COLOR, FADED_COLOR
from explorer.view.plot_words import LINES, MARK, marks, place_words

AREA = (384.0, 252.0)  # the live page's data rectangle


def _boxes(shown, sizes, spots, plot, area=AREA) -> dict:
    """Each placed word's box in the rectangle's pixels (y down), by mark name."""
    (t0, t1), (f0, f1) = plot.t_range, plot.f_range()
    out = {}
    for mark in shown:
        if spots[mark.name] is not None:
            t, f = spots[mark.name]
            x, y = (t - t0) / (t1 - t0) * area[0], (f1 - f) / (f1 - f0) * area[1]
            w, h = sizes[mark.name]
            out[mark.name] = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
    return out


def _apart(a, b) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def test_the_marks_are_both_roots_in_their_colours_or_faded_outside_the_window_and_the_vertex():
    plot = parabola(solve(scene_io.load(SCENES_DIR / "seed004_ricochet.json")))  # t₁ = 1.05942, after h
    shown = marks(plot)
    assert [m.name for m in shown] == ["root0", "root1", "vertex"]
    assert [m.color for m in shown[:2]] == [ENTER_COLOR, FADED_COLOR]
    assert shown[0].text == "t₀ = 0.467713" and shown[1].text == "t₁ = 1.05942" and shown[2].text.startswith("vertex")
    assert marks(parabola(solve(scene_io.load(SCENES_DIR / "default.json"))))[1].color == EXIT_COLOR


@pytest.mark.parametrize("path", gallery(), ids=lambda p: p.stem)
def test_on_every_gallery_scene_the_words_are_inside_the_plot_near_their_marks_and_cover_nothing(path):
    plot = parabola(solve(scene_io.load(path)))
    shown = marks(plot)
    sizes = {m.name: (7.5 * len(m.text), 15.0) for m in shown}  # about the page's 12 px text
    legend = (250.0, 0.0, 384.0, 60.0)
    spots = place_words(shown, sizes, AREA, plot.t_range, plot.f_range(), [legend])
    boxes = _boxes(shown, sizes, spots, plot)
    (t0, t1), (f0, f1) = plot.t_range, plot.f_range()
    dots = {m.name: ((m.t - t0) / (t1 - t0) * AREA[0], (f1 - m.f) / (f1 - f0) * AREA[1]) for m in shown}
    for name, box in boxes.items():
        assert 0 <= box[0] and box[2] <= AREA[0] and 0 <= box[1] and box[3] <= AREA[1], (name, box)
        assert _apart(box, legend), name
        for other, box2 in boxes.items():
            assert other == name or _apart(box, box2), (name, other)
        for x, y in dots.values():  # no word over a mark
            assert _apart(box, (x - MARK, y - MARK, x + MARK, y + MARK)), (name, box, (x, y))
        x, y = dots[name]
        h = sizes[name][1]
        assert abs((box[1] + box[3]) / 2 - y) <= MARK + (LINES + 1) * (h + 3), name  # a few lines from its mark
    assert len(boxes) >= len(shown) - 1, (path.stem, spots)  # at most one left out for want of room


def test_a_word_with_no_room_near_its_mark_is_left_out():
    plot = parabola(solve(scene_io.load(SCENES_DIR / "snooker_break.json")))
    shown = marks(plot)
    sizes = {m.name: (100.0, 15.0) for m in shown}
    spots = place_words(shown, sizes, AREA, plot.t_range, plot.f_range(), [(0.0, 0.0, AREA[0], AREA[1])])
    assert spots == {m.name: None for m in shown}
    assert place_words(shown, sizes, (0.0, 0.0), plot.t_range, plot.f_range()) == {m.name: None for m in shown}
