"""``.. scene-gallery::``: every scene of the gallery with its picture, verdict and description, made at build time.

Each scene file (:func:`explorer.model.formats.gallery.gallery`: the default scene first, then by name) becomes a section:
its title, the picture ``sphere-explorer render SCENE -o OUT.png --size 640x400`` draws (the same call,
:func:`explorer.view.render.render_png`, in this process: one process draws them all), the verdict line the window
shows above the view (:func:`explorer.model.words.text.status_text`), the description, and the scene file to download.

The pictures are kept in ``docs/_build/gallery/``, each named by a hash of its scene file, its size and the code
that draws it (:data:`DRAWING_CODE`), so a build draws only what changed; pictures no scene uses any more are
removed.  The gallery page is read again at every build (its scenes are files outside the documentation).
A scene that cannot be loaded or drawn is a warning naming the file (an error with ``-W``).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)

#: The pictures' size in pixels (``render --size``): the page shows them at most this wide.
SIZE = (640, 400)
#: Where the pictures are kept, relative to the documentation's source folder (excluded from its sources).
PICTURES = Path("_build") / "gallery"
#: The packages whose code draws a picture; a change to any of their files draws every picture again.
DRAWING_CODE = ("solver", "explorer.model", "explorer.view")


def code_digest() -> str:
    """A SHA-256 of the Python files of :data:`DRAWING_CODE` (their paths and bytes)."""
    import importlib

    digest = hashlib.sha256()
    for package in DRAWING_CODE:
        folder = Path(importlib.import_module(package).__file__).parent
        for path in sorted(folder.rglob("*.py")):
            digest.update(path.relative_to(folder).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def picture_name(path: Path, code: str) -> str:
    """The cached picture's file name for the scene file at ``path`` drawn at :data:`SIZE` by the code of digest
    ``code``: the file's name and a hash of all three."""
    digest = hashlib.sha256(path.read_bytes() + f"\0{SIZE[0]}x{SIZE[1]}\0{code}".encode())
    return f"{path.stem}-{digest.hexdigest()[:16]}.png"


def section_ids(stems: list[str]) -> list[str]:
    """Each scene's section id (its link target), distinct however alike the file names: ``scene-<stem>`` as
    docutils writes ids, and where two stems write the same (``a_b`` and ``a-b``, or names with no Latin letter),
    each of them with a hash of its own stem after it."""
    plain = [nodes.make_id(f"scene-{stem}") for stem in stems]
    return [
        base if plain.count(base) == 1 else f"{base}-{hashlib.sha256(stem.encode()).hexdigest()[:8]}"
        for base, stem in zip(plain, stems)
    ]


def render_command(path: Path) -> str:
    """The command line that draws the same picture of the scene file at ``path``."""
    return f"sphere-explorer render scenes/{path.name} -o {path.stem}.png --size {SIZE[0]}x{SIZE[1]}"


class SceneGallery(SphinxDirective):
    """The directive: a section per gallery scene (see the module docstring)."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from explorer.model.formats.gallery import gallery

        self.env.note_reread()  # the scenes and the drawing code live outside the documentation's sources
        folder = Path(self.env.srcdir) / PICTURES
        folder.mkdir(parents=True, exist_ok=True)
        code = code_digest()
        sections, drawn = [], set()
        paths = gallery()
        for path, section_id in zip(paths, section_ids([path.stem for path in paths])):
            try:
                section, picture = self.scene_section(path, folder, code, section_id)
            except (OSError, ValueError) as exc:  # SceneError, RenderUnavailable, a refused size: one line each
                logger.warning("gallery: %s: %s", path.name, exc, location=self.get_location())
                continue
            sections.append(section)
            drawn.add(picture)
        for old in folder.glob("*.png"):
            if old.name not in drawn:
                old.unlink()
        if not sections:
            logger.warning("gallery: no scene files found", location=self.get_location())
        return sections

    def scene_section(self, path: Path, folder: Path, code: str, section_id: str) -> tuple[nodes.section, str]:
        """The section (id ``section_id``) of the scene file at ``path`` and its picture's file name (drawn into
        ``folder`` if new)."""
        from explorer.model.derived.analysis import solve
        from explorer.model.formats.scene_io import load
        from explorer.model.words.text import status_text
        from explorer.view.render import render_png

        scene = load(path)
        solution = solve(scene)
        picture = picture_name(path, code)
        if not (folder / picture).is_file():
            render_png(scene, folder / picture, SIZE, solution=solution)
        self.env.note_dependency(str(path))
        title = scene.title or path.stem
        section = nodes.section(ids=[section_id], names=[nodes.fully_normalize_name(title)])
        section += nodes.title(text=title)
        uri = "/" + (PICTURES / picture).as_posix()  # from the source folder
        section += nodes.image(uri=uri, alt=f"{title}: the picture sphere-explorer render draws")
        verdict = nodes.paragraph(classes=["scene-verdict"])
        verdict += nodes.strong(text=status_text(scene, solution))
        section += verdict
        if scene.description:
            section += nodes.paragraph(text=scene.description)
        section += self.file_line(path)
        return section, picture

    def file_line(self, path: Path) -> nodes.paragraph:
        """``Scene file: scenes/NAME.json (download) · picture: the render command``."""
        here = Path(self.env.srcdir) / Path(self.env.docname).parent
        target = Path(os.path.relpath(path, here)).as_posix()
        line = nodes.paragraph(classes=["scene-file"])
        line += nodes.Text("Scene file: ")
        line += addnodes.download_reference(
            "", "", nodes.literal(text=f"scenes/{path.name}"), reftarget=target, refdoc=self.env.docname
        )
        line += nodes.Text(" · picture: ")
        line += nodes.literal(text=render_command(path))
        return line


def check_drawing(app: Sphinx) -> None:
    """Choose how VTK draws without a display before anything loads VTK (autodoc may); stop in one line if it cannot."""
    from explorer.view.render import RenderUnavailable, check_offscreen

    try:
        check_offscreen()
    except RenderUnavailable as exc:
        raise ExtensionError(f"the gallery's pictures cannot be drawn: {exc}") from None


def setup(app: Sphinx) -> dict:
    """Register the directive and the drawing check."""
    app.add_directive("scene-gallery", SceneGallery)
    app.connect("builder-inited", check_drawing)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
