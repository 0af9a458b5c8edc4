"""How much of each generated family a test run covers: a normal run (``make test``) its size, a full run
(``make test-full``: ``python -m pytest --full``, a nightly-style run) all of it.

:data:`FULL` is set from the command line by ``tests/conftest.py`` before any test module is imported.
"""

from __future__ import annotations

import os

#: True in a full run (``--full``).
FULL = False

#: The gallery scenes whose single-file page a normal run drags (a site's page of every scene is dragged in every
#: run; a single file differs from it only in how the page holds its runtime): a plain pair, a container and the
#: 16-ball break.
SINGLE_FILE_SAMPLE = ("default", "caged_ball", "snooker_break")

#: The site's pages a normal run opens from the index and drags (every gallery scene is dragged in one live page,
#: opened with its *Open…*; a full run opens every scene's own page too): a plain pair, far from the origin, a container.
SITE_PAGE_SAMPLE = ("default", "seed004_far_from_origin", "seed001_container")

#: The recorded pages whose spheres a normal run finds in the page's pixels (a full run: every gallery scene's): a
#: pair, an overlap seen through red, a container, a 16-ball motion, a long shot framed at its contact, far from the
#: origin.  Every gallery scene's recorded page is still made and checked against the page budget in every run.
RECORDED_PAGE_SAMPLE = ("default", "seed004_sample_overlap", "caged_ball", "snooker_break", "seed003_long_shot",
                        "seed004_far_from_origin")  # fmt: skip


#: The gallery scenes whose site page's Scene panel a normal run types into (a full run: every one): a pair, both
#: moving, every body colliding with fixed walls, a container of balls, a ball inside a container, the break, far
#: from the origin, a long shot.
SCENE_PANEL_SAMPLE = ("default", "heavy_light_glancing", "caged_ball", "gas_in_container", "seed001_container",
                      "snooker_break", "seed004_far_from_origin", "seed003_long_shot")  # fmt: skip

#: Starts of the window in a row that a normal run checks for a whole start-up (a full run: 20).
WINDOW_STARTS = 5


def window_starts() -> int:
    """How many times in a row the window is started and checked: :data:`WINDOW_STARTS`, 20 in a full run."""
    return 20 if FULL else WINDOW_STARTS


def sampled(paths: list, stems: tuple[str, ...]) -> list:
    """``paths`` whose file stems are among ``stems`` in a normal run, every one in a full run."""
    return list(paths) if FULL else [path for path in paths if path.stem in stems]


def motion_cases() -> int:
    """Cases per motion family: 1,000 in a normal run, 10,000 in a full one; ``MOTION_CASES`` in the environment
    overrides both (the mutation runs' short families)."""
    return int(os.environ.get("MOTION_CASES", 10_000 if FULL else 1_000))
