"""The documentation site's configuration: ``make docs`` builds it into ``docs/_build/html``.

The user guide is the README's sections (MyST includes them: one text, read on GitHub and on the site),
the API reference is autodoc over the numpydoc docstrings, and the gallery is drawn from ``scenes/`` at
build time (``_ext/scene_gallery.py``).  Offline: no intersphinx, no web fonts, no MathJax; ``_ext/offline.py``
fails the build when a page would request anything outside the site.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
# the code documented is this checkout's; the extensions are beside this file
sys.path[:0] = [str(ROOT), str(DOCS / "_ext")]
# as the one-scene commands run it: the solver as plain Python, nothing to compile while the gallery is drawn
import solver  # noqa: E402 - after the path above

solver.configure(jit=False)

project = "Sphere Sweep Explorer"
release = version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
author = "the Sphere Sweep Explorer authors"
copyright = author

extensions = [
    "sphinx.ext.autodoc",
    "numpydoc",
    "myst_parser",
    "scene_gallery",
    "offline",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
smartquotes = False  # text as written: a scene's description as the window shows it, the README as on GitHub
# _build: the output and the gallery's pictures; the PNGs beside these sources are the README's pictures
exclude_patterns = ["_build"]

# -- the API reference -------------------------------------------------------------------------
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": False}
autodoc_typehints = "none"  # the numpydoc sections give the types; signatures show names and defaults
numpydoc_show_class_members = False  # autodoc lists the members; numpydoc parses the sections
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# -- MyST (the guide is the README's Markdown) -------------------------------------------------
myst_heading_anchors = 3
myst_enable_extensions = []

# -- HTML -------------------------------------------------------------------------------------
html_theme = "furo"
html_title = f"{project} {release}"
html_static_path = []
html_show_sourcelink = False
html_copy_source = False
html_last_updated_fmt = None
html_theme_options = {"top_of_page_buttons": []}
