"""The gallery's site, made once per test run by the console script as a user makes it
(``sphere-explorer export-html scenes/ -o SITE``) and shared by every test module and worker that opens its pages:
the live pages' tests and the recorded pages' tests read the same files."""

from __future__ import annotations

from pathlib import Path

import pytest
from live_helpers import export
from once_per_run import made_once

from explorer.model.formats.gallery import SCENES_DIR


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The gallery's site folder (its tests only read it)."""
    return made_once(tmp_path_factory, "gallery-site", lambda folder: export(str(SCENES_DIR), "-o", str(folder)))
