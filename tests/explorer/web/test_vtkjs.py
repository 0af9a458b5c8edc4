"""The page's 3-D scene (``explorer.web.vtkjs``): the same bytes whatever window this process could open."""

from __future__ import annotations

import os
import subprocess

from cli_helpers import EXE

from explorer.model.formats.gallery import SCENES_DIR


def test_a_page_is_the_same_made_with_an_x_server_or_without_one(tmp_path):
    """Without a display VTK draws through EGL, with one through X (and falls back to EGL when the X server does not
    answer in time, as under load): the page must not say which (a site made by two workers differed by that)."""
    assert os.environ.get("DISPLAY"), "the tests run under Xvfb"
    pages = {}
    for name, env in (("x", dict(os.environ)), ("egl", {k: v for k, v in os.environ.items() if k != "DISPLAY"})):
        pages[name] = tmp_path / f"{name}.html"
        done = subprocess.run([str(EXE), "export-html", str(SCENES_DIR / "default.json"), "-o", str(pages[name])],
                              capture_output=True, text=True, env=env, timeout=300)  # fmt: skip
        assert done.returncode == 0, done.stderr
    assert pages["x"].read_bytes() == pages["egl"].read_bytes()
