"""Words in the drawing's colours read on white: each colour words are drawn in is kept where it reads at 4.5:1 or
more, else darkened with its hue kept until it does (WCAG 1.4.3's contrast, worked out here by its formula)."""

from __future__ import annotations

import colorsys

import pytest

from explorer.view.palette import BODY_COLORS, ENTER_COLOR, FADED_COLOR, VERDICT_PLAIN, readable, text_colors


def _contrast_on_white(color: str) -> float:
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(color[k : k + 2], 16)) for k in (1, 3, 5))
    return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)


def _hue(color: str) -> float:
    return colorsys.rgb_to_hsv(*(int(color[k : k + 2], 16) / 255 for k in (1, 3, 5)))[0]


@pytest.mark.parametrize("color", sorted(set(text_colors())))
def test_every_text_colour_reads_on_white_in_its_own_hue(color):
    words = text_colors()[color]
    assert _contrast_on_white(words) >= 4.5, (color, words)
    assert _hue(words) == pytest.approx(_hue(color), abs=0.02)


def test_a_colour_that_reads_is_kept_and_one_that_does_not_is_darkened_no_more_than_needed():
    assert readable(VERDICT_PLAIN) == VERDICT_PLAIN  # #333333: 12.6:1
    for pale in (FADED_COLOR, ENTER_COLOR, BODY_COLORS[1]):  # 2.8, 3.4 and 2.7:1 as they are
        assert _contrast_on_white(pale) < 4.5
        darker = readable(pale)
        assert darker != pale and _contrast_on_white(darker) >= 4.5
        lighter = "#" + "".join(f"{min(255, round(int(darker[k : k + 2], 16) * 51 / 50)):02x}" for k in (1, 3, 5))
        assert _contrast_on_white(lighter) < 4.6  # one fiftieth lighter would not do
