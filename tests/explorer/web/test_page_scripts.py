"""The page's scripts draw what Python decides and decide nothing of it themselves: no stage of the question mode
and no mark of f(t) is named in them (as a quoted word), so which controls a stage shows, which items are seen and
where f(t)'s words go come from the frame Python describes (explorer/web/live.py)."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from explorer.model.actions.asking import STAGES
from explorer.model.derived.analysis import solve
from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.formats.scene_io import load
from explorer.model.words.parabola import parabola
from explorer.view.plot_words import marks
from explorer.web.runtime import MODULES

#: The words a script would have to compare with to decide what Python decides.
MARKS = {m.name for m in marks(parabola(solve(load(SCENES_DIR / "heavy_light_glancing.json"))))}


@pytest.mark.parametrize("script", MODULES)
def test_no_stage_or_mark_of_f_is_named_in_the_pages_scripts(script):
    text = resources.files("explorer.web").joinpath(script).read_text(encoding="utf-8")
    quoted = set(re.findall(r"""["'`]([A-Za-z0-9_]+)["'`]""", text))
    assert MARKS >= {"root0", "vertex"} and len(STAGES) == 5  # the words looked for are the real ones
    assert quoted & (set(STAGES) | MARKS) == set()
