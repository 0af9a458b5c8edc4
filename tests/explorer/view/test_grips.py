"""Where an arrow key moves a grip (explorer/view/grips.py: key_move): along one coordinate axis of the drag plane,
the one closest to the screen's right for left and right, the other for up and down, signed as the screen is."""

from __future__ import annotations

import pytest

from explorer.view.grips import key_move


@pytest.mark.parametrize(
    ("sight", "right", "up", "keys", "move"),
    [
        ((0, 0, -1), (1, 0, 0), (0, 1, 0), (1, 0), (1, 0, 0)),  # looking down: right is +x
        ((0, 0, -1), (1, 0, 0), (0, 1, 0), (0, -1), (0, -1, 0)),  # down is −y
        ((0.3, 0.2, -1), (0.9, -0.3, 0.1), (0.2, 0.95, 0.25), (0, 1), (0, 1, 0)),  # a tilted view: the nearest axes
        ((0, 0, 1), (-1, 0, 0), (0, 1, 0), (1, 0), (-1, 0, 0)),  # looking up from below: the screen's right is −x
        ((0, 1, 0), (0.1, 0, -1), (0.05, 0, 1), (1, 0), (0, 0, -1)),  # from the side: the plane x-z, right along −z
        ((0, 1, 0), (0.1, 0, -1), (0.05, 0, 1), (0, 1), (1, 0, 0)),  # ... and up along +x (up's x is positive)
    ],
)
def test_an_arrow_key_moves_along_the_plane_s_axis_nearest_the_screen_s_direction(sight, right, up, keys, move):
    assert key_move(sight, right, up, *keys) == move
