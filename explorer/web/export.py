"""Writing web pages: one scene as one file, or a folder of scenes as a small site with an index.

Files are written whole or not at all, by the one safe writer
(:mod:`explorer.system.files`): a page replaces its file atomically; a site is a
new folder that appears when every page is done.  A folder with one bad scene
file is refused before anything is drawn.  Qt-free.
"""

from __future__ import annotations

import base64
import html
import io
import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import numpy as np

from ..model.folder import SceneFolder
from ..model.scene import Scene, SceneError
from ..model.scene_io import load, show_path
from ..system import interrupt
from ..system.files import create, new_folder, replacing
from .page import VIEW_SIZE, Page, build_page, document_head

#: The index's pictures: the page's first view scaled down by this factor.
THUMBNAIL_SHRINK = 3
#: The site's index page (a scene of that name gets another file name).
INDEX = "index.html"


def write_page(scene: Scene, out: str | os.PathLike[str], name: str = "scene") -> Page:
    """Write ``scene``'s web page to ``out`` (whole or not at all); ``name`` titles an untitled scene.

    Raises
    ------
    SceneError
        The scene is refused.
    WriteError
        ``out`` cannot be written (nothing is left behind).
    RenderUnavailable, WebUnavailable
        The page cannot be made here.
    """
    page = build_page(scene, name)
    with replacing(out) as (handle, _):
        handle.write(page.html)
    return page


@dataclass(frozen=True)
class SiteEntry:
    """One scene of a site: its page's file name and what the index shows of it."""

    file: str
    title: str
    verdict: str
    description: str
    thumbnail: str  # a data: URL of a PNG
    size: int  # bytes of the page


def load_folder(folder: str | os.PathLike[str]) -> list[tuple[Path, Scene]]:
    """Every scene file of ``folder`` in name order, each loaded; SceneError naming the first bad one."""
    scenes = []
    for path in SceneFolder(folder).paths:
        try:
            scenes.append((path, load(path)))
        except SceneError as exc:
            message = str(exc)
            prefix = show_path(path.name)
            raise SceneError(message if message.startswith(prefix) else f"{prefix}: {message}") from None
    return scenes


def write_site(scenes: list[tuple[Path, Scene]], out: str | os.PathLike[str], progress=None) -> list[SiteEntry]:
    """Write one page per scene and an ``index.html`` with a thumbnail of each into the folder ``out``.

    Parameters
    ----------
    scenes : list of (Path, Scene)
        From :func:`load_folder`; each page is named after its file.
    out : path
        The site's folder: new, or an empty folder.
    progress : callable, optional
        Called with ``(done, total, file name)`` after each page.

    Raises
    ------
    WriteError
        ``out`` is refused or cannot be written (:func:`explorer.system.files.new_folder`); nothing is left.
    """
    entries: list[SiteEntry] = []
    with new_folder(out, "the site") as work:
        names = _page_names([path for path, _ in scenes])
        for (path, scene), name in zip(scenes, names):
            interrupt.check()  # between pages (and within each, build_page); new_folder checks before the rename
            page = build_page(scene, path.stem)
            with create(work / name) as handle:
                handle.write(page.html.encode("utf-8"))
            entries.append(_entry(scene, page, name))
            if progress is not None:
                progress(len(entries), len(scenes), name)
        with create(work / INDEX) as handle:
            handle.write(site_index(entries).encode("utf-8"))
    return entries


def _page_names(paths: list[Path]) -> list[str]:
    """A distinct page file name for each scene file: its stem + ``.html`` (never the index's name)."""
    taken = {INDEX}
    names = []
    for path in paths:
        name, k = f"{path.stem}.html", 1
        while name.lower() in taken:
            k += 1
            name = f"{path.stem}-{k}.html"
        taken.add(name.lower())
        names.append(name)
    return names


def _entry(scene: Scene, page: Page, name: str) -> SiteEntry:
    import imageio.v3 as iio

    image = page.thumbnail
    k = THUMBNAIL_SHRINK
    h, w = (image.shape[0] // k) * k, (image.shape[1] // k) * k
    small = image[:h, :w].reshape(h // k, k, w // k, k, 3).mean(axis=(1, 3)).round().astype(np.uint8)
    buffer = io.BytesIO()
    iio.imwrite(buffer, small, extension=".png")
    thumbnail = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
    return SiteEntry(name, page.title, page.verdict, scene.description, thumbnail, len(page.html.encode("utf-8")))


def site_index(entries: list[SiteEntry]) -> str:
    """The index page: a card per scene (thumbnail, title, verdict, description) linking to its page."""
    e = html.escape
    width, height = (side // THUMBNAIL_SHRINK for side in VIEW_SIZE)
    cards = "\n".join(
        f'<li><a href="{e(quote(entry.file))}"><img src="{entry.thumbnail}" alt="" width="{width}" height="{height}">'
        f'<h2>{e(entry.title)}</h2></a><p class="verdict">{e(entry.verdict)}</p>'
        f'<p class="description">{e(entry.description)}</p></li>'
        for entry in entries
    )
    policy = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"
    return f"""{document_head(policy, "Moving spheres: the scenes")}
<style>
body {{ font-family: "DejaVu Sans", "Segoe UI", Roboto, Helvetica, Arial, sans-serif; margin: 16px; color: #1a1a1f; }}
h1 {{ font-size: 22px; }}
ul {{ list-style: none; padding: 0; display: grid; gap: 18px;
  grid-template-columns: repeat(auto-fill, minmax(330px, 1fr)); }}
li {{ border: 1px solid #ddd; border-radius: 6px; padding: 8px; }}
img {{ display: block; max-width: 100%; height: auto; border: 1px solid #eee; }}
h2 {{ font-size: 16px; margin: 8px 0 4px; }}
a {{ color: inherit; text-decoration: none; }}
.verdict {{ font-weight: bold; font-size: 13px; margin: 0 0 4px; }}
.description {{ font-size: 13px; color: #333; margin: 0; white-space: pre-wrap; }}
</style>
</head>
<body>
<h1>Moving spheres: when and where they collide</h1>
<p>Each scene opens as one page that works offline in any browser with WebGL: turn the 3-D view with the mouse
or a finger, move the time slider, switch to the rest frame.</p>
<ul id="scenes">
{cards}
</ul>
</body>
</html>
"""
