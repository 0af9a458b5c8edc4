"""The parabola drawn with matplotlib (explorer/view/plot_image.py), for ``render --plot`` and the recorded page's
SVG: on every gallery scene, at the sizes those pictures have, the marks' words cover neither each other nor a tick
label, the legend or the title."""

from __future__ import annotations

import pytest

from explorer.model.derived.analysis import solve
from explorer.model.formats import scene_io
from explorer.model.formats.gallery import gallery
from explorer.model.words.parabola import parabola
from explorer.view.plot_image import draw_parabola

pytestmark = pytest.mark.long  # started first (tests/conftest.py)

#: (figure inches, dpi, the axes' rectangle): beside a 1280x800 and a 480x320 picture (compose_png), and the
#: recorded page's 460x300 SVG (explorer.web.parabola_svg).
SIZES = {
    "beside 1280x800": ((7.9, 8.0), 100, (0.14, 0.1, 0.82, 0.8)),
    "beside 480x320": ((3.0, 3.2), 100, (0.14, 0.1, 0.82, 0.8)),
    "recorded page": ((460 / 72, 300 / 72), 72, (0.15, 0.16, 0.81, 0.74)),
}


@pytest.mark.parametrize("size", SIZES)
def test_on_every_gallery_scene_the_marks_words_cover_no_other_word_tick_legend_or_title(size):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    inches, dpi, rect = SIZES[size]
    words_seen = 0
    for path in gallery():
        scene = scene_io.load(path)
        figure = Figure(figsize=inches, dpi=dpi)
        FigureCanvasAgg(figure)
        axes = figure.add_axes(rect)
        draw_parabola(axes, parabola(solve(scene)), inside=scene.mode == "inside")
        figure.canvas.draw()
        words = [t.get_window_extent() for t in axes.texts if t.get_visible()]
        words_seen += len(words)
        frame = axes.get_window_extent()
        others = [axes.get_legend().get_window_extent(), axes.title.get_window_extent()]
        others += [t.get_window_extent() for t in axes.get_xticklabels() + axes.get_yticklabels() if t.get_text()]
        for k, box in enumerate(words):
            assert frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1, path.stem
            for j, other in enumerate(words):
                assert j == k or not box.overlaps(other), (path.stem, size, "two words overlap")
            for other in others:
                assert not box.overlaps(other), (path.stem, size, "a word over a tick, the legend or the title")
    assert words_seen >= 2 * len(gallery())  # not clear by leaving the words out
