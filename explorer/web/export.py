"""Writing web pages: one scene as one file, or a folder of scenes as a small site with an index.

A scene's page (:func:`write_page`) is the recorded one: the live page's drawer playing the frames
its Python described at export (:mod:`explorer.web.page`).  ``--single`` (:func:`write_single`) writes the live page instead, with
Python inside it.  A site (:func:`write_site`) has, for each scene, the live page ``NAME.html`` (its
Python and vtk.js in the shared ``runtime/`` folder) and the recorded page ``NAME.recorded.html``,
which a live page opened from a file (where a browser starts no Python) goes to.

Files are written whole or not at all, by the one safe writer
(:mod:`explorer.system.files`): a page replaces its file atomically; a site is a
new folder that appears when every page is done.  A folder with one bad scene
file is refused before anything is drawn.  A site's pages are made by worker
processes, one per usable core up to :data:`SITE_WORKERS`
(:mod:`explorer.system.workers`); a page is the same, byte for byte, whichever
process makes it.  Qt-free.

What a site publishes of a folder (:func:`scene_files`): its files named
``*.json`` (any case), and symbolic links to files inside the folder; it skips,
and lists, subfolders, hidden entries (a name starting with a dot), links that
lead outside the folder or to no regular file, devices and FIFOs, and counts
the files of other names.  A page's file name is its scene file's, with bytes
that are not UTF-8 replaced (U+FFFD); its title, for an untitled scene, the
file name in printable form.
"""

from __future__ import annotations

import base64
import html
import io
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import numpy as np

from ..model.formats.scene_io import load, show_path
from ..model.state.scene import Scene, SceneError
from ..system import interrupt
from ..system.files import create, kind_of, new_folder, os_reason, replacing
from ..system.workers import WorkersUnavailable, run_in_workers, usable_cores
from . import SINGLE_BUDGET
from . import page as page_module
from .live_page import document_head, single_page, site_page
from .page import Page, PageTooLarge, build_page
from .runtime import folder_manifest, use_folder_manifest, write_folder

#: The size of the picture an index's card is made from (the drawing code's, as ``render`` draws it).
VIEW_SIZE = (960, 768)
#: The index's pictures: that picture scaled down by this factor.
THUMBNAIL_SHRINK = 3
#: The site's index page (a scene of that name gets another file name).
INDEX = "index.html"
#: The longest file name, in bytes, that common file systems take.
NAME_BYTES = 255
#: A site's recorded page of a scene: the live page's name with this ending instead of ``.html``.
RECORDED_SUFFIX = ".recorded.html"
#: Worker processes that make a site's pages, at most (see :func:`site_workers`).
SITE_WORKERS = 2


def write_page(scene: Scene, out: str | os.PathLike[str], name: str = "scene") -> Page:
    """Write ``scene``'s web page to ``out`` (whole or not at all); ``name`` titles an untitled scene.

    Raises
    ------
    SceneError
        The scene is refused.
    WriteError
        ``out`` cannot be written (nothing is left behind).
    WebUnavailable
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
    note: str | None = None  # what the page left out to keep within its budget


def scene_files(folder: str | os.PathLike[str]) -> tuple[list[Path], list[str]]:
    """The scene files a site publishes of ``folder``, in name order, and what it skips, in words.

    See the module docstring for the policy.

    Returns
    -------
    paths : list of Path
        Files named ``*.json``, and links to files inside ``folder``.
    skipped : list of str
        ``"NAME (why)"`` for each other entry (``"3 files not named *.json"`` for those).

    Raises
    ------
    SceneError
        The folder cannot be read, or has no scene file (naming what was skipped).
    """
    folder = Path(folder)
    paths, skipped, others = [], [], 0
    try:
        inside = Path(os.path.realpath(folder))
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError as exc:
        raise SceneError(f"{show_path(folder)}: cannot read the folder ({os_reason(exc)})") from None
    for entry in entries:
        why = _skipped_because(entry, inside)
        if why is None:
            paths.append(Path(entry.path))
        elif why:
            skipped.append(f"{show_path(entry.name)} ({why})")
        else:
            others += 1
    if others:
        skipped.append(f"{others} file{'s' if others > 1 else ''} not named *.json")
    if not paths:
        also = f"; skipped {', '.join(skipped)}" if skipped else ""
        raise SceneError(f"{show_path(folder)}: no scene files (*.json) in this folder{also}")
    return paths, skipped


def _skipped_because(entry: os.DirEntry, inside: Path) -> str | None:
    """Why a site leaves out ``entry`` of the folder ``inside`` (its real path): words, ``""`` for a file not
    named ``*.json``, None when it is published."""
    if entry.name.startswith("."):
        return "hidden"
    try:
        info = entry.stat(follow_symlinks=False)
        if stat.S_ISLNK(info.st_mode):
            target = Path(os.path.realpath(entry.path))
            if not target.is_relative_to(inside):
                return "a link outside the folder"
            info = os.stat(target)
    except OSError:
        return "a broken link"
    if not stat.S_ISREG(info.st_mode):
        return f"{'a link to ' if entry.is_symlink() else ''}{kind_of(info.st_mode)}"
    return None if entry.name.lower().endswith(".json") else ""


def load_scenes(paths: list[Path]) -> list[tuple[Path, Scene]]:
    """Each scene file loaded, in the order given; SceneError naming the first bad one."""
    scenes = []
    for path in paths:
        try:
            scenes.append((path, load(path)))
        except SceneError as exc:
            message = str(exc)
            prefix = show_path(path.name)
            raise SceneError(message if message.startswith(prefix) else f"{prefix}: {message}") from None
    return scenes


def load_folder(folder: str | os.PathLike[str]) -> list[tuple[Path, Scene]]:
    """Every scene file a site publishes of ``folder`` (:func:`scene_files`), each loaded (:func:`load_scenes`)."""
    return load_scenes(scene_files(folder)[0])


def write_site(
    scenes: list[tuple[Path, Scene]], out: str | os.PathLike[str], progress=None, workers: int | None = None
) -> list[SiteEntry]:
    """Write one page per scene and an ``index.html`` with a thumbnail of each into the folder ``out``.

    The pages are made by :func:`site_workers` worker processes, the scenes with
    the most bodies first (one page at a time in this process when that is 1);
    the site is the same, byte for byte, either way.

    Parameters
    ----------
    scenes : list of (Path, Scene)
        From :func:`load_folder`; each page is named after its file, the index lists them in this order.
    out : path
        The site's folder: new, or an empty folder.
    progress : callable, optional
        Called with ``(done, total, file name)`` after each page (in the order they are done).
    workers : int, optional
        Worker processes (default :func:`site_workers`); 1 makes every page in this process.

    Raises
    ------
    WriteError
        ``out`` is refused or cannot be written (:func:`explorer.system.files.new_folder`); nothing is left.
    PageTooLarge, SceneError...
        A page cannot be made (the message names its scene file); nothing is left.
    """
    names = _page_names([path for path, _ in scenes])
    workers = site_workers(len(scenes)) if workers is None else workers
    entries: list[SiteEntry | None] = [None] * len(scenes)
    with new_folder(out, "the site") as work:
        write_folder(work)
        manifest = folder_manifest()  # of the files just written: each page names them (a worker hashes none)
        jobs = [(path, scene, name, page_module.PAGE_BUDGET, manifest) for (path, scene), name in zip(scenes, names)]

        def done(k: int, made: tuple[str, str, SiteEntry]) -> None:
            """Write page ``k``'s two files (its recorded page and its live page) as it is made."""
            recorded, live, entries[k] = made
            with create(work / _recorded_name(names[k])) as handle:
                handle.write(recorded.encode("utf-8"))
            with create(work / names[k]) as handle:
                handle.write(live.encode("utf-8"))
            if progress is not None:
                progress(len(entries) - entries.count(None), len(jobs), names[k])

        if workers > 1:
            order = sorted(range(len(jobs)), key=lambda k: -len(jobs[k][1].bodies))  # the longest pages first
            try:
                run_in_workers(site_page_files, [jobs[k] for k in order], workers, lambda j, made: done(order[j], made))
            except WorkersUnavailable:
                pass  # the system refused a new process: this process makes the pages (the same bytes)
        for k, job in enumerate(jobs):
            if entries[k] is None:
                interrupt.check()  # between pages (and within each, build_page); new_folder checks before the rename
                done(k, site_page_files(*job))
        with create(work / INDEX) as handle:
            handle.write(site_index(entries).encode("utf-8"))
    return entries


def site_workers(pages: int) -> int:
    """How many worker processes make a site of ``pages`` pages: :data:`SITE_WORKERS`, at most one per usable
    core and one per page (1: the pages are made in this process)."""
    return max(1, min(SITE_WORKERS, usable_cores(), pages))


def site_page_files(
    path: Path, scene: Scene, name: str, budget: int, manifest: dict | None = None
) -> tuple[str, str, SiteEntry]:
    """A site's two pages of the scene file ``path`` (the live page ``name``): the recorded page, the live page,
    and what the index shows of it.  ``manifest``: the site's runtime folder's (:func:`.runtime.folder_manifest`
    of the command that wrote it; None: made here).

    Raises
    ------
    PageTooLarge
        Over ``budget`` bytes (naming the scene file).
    """
    if manifest is not None:
        use_folder_manifest(manifest)
    try:
        page = build_page(scene, path.stem, budget=budget, live=name)
    except PageTooLarge as exc:
        raise PageTooLarge(f"{show_path(path.name)}: {exc}") from None
    return page.html, site_page(scene, page.title, quote(_recorded_name(name))), _entry(scene, page, name)


def _recorded_name(name: str) -> str:
    """The file name of a site's recorded page beside the live page ``name`` (``x.html`` -> ``x.recorded.html``)."""
    return name[: -len(".html")] + RECORDED_SUFFIX


def write_single(scene: Scene, out: str | os.PathLike[str], name: str = "scene") -> int:
    """Write ``scene``'s live page as one file (everything inside it) to ``out``; returns its size in bytes.

    Raises
    ------
    SceneError
        The scene is refused.
    PageTooLarge
        Over :data:`~explorer.web.SINGLE_BUDGET` (nothing is written).
    WebUnavailable
        The web runtime is missing (the message names the command that fetches it).
    """
    from ..model.actions.session import Session

    Session(scene)  # the scene is solved here first: a refusal before anything is built
    text = single_page(scene, scene.title or show_path(name)).encode("utf-8")
    if len(text) > SINGLE_BUDGET:
        raise PageTooLarge(f"the page would be {len(text) / 1e6:.2f} MB ({len(text):,} bytes), over the budget of "
                           f"{SINGLE_BUDGET / 1e6:g} MB ({SINGLE_BUDGET:,} bytes) of a single-file page")  # fmt: skip
    with replacing(out, binary=True) as (handle, _):
        handle.write(text)
    return len(text)


def _page_names(paths: list[Path]) -> list[str]:
    """A distinct page file name for each scene file: its stem + ``.html`` (never the index's name), in UTF-8
    (other bytes replaced) and within :data:`NAME_BYTES`."""
    taken = {INDEX}
    names = []
    for path in paths:
        stem = os.fsencode(path.stem).decode("utf-8", "replace")
        name, k = _fitted(stem, ".html"), 1
        while {name.lower(), _recorded_name(name).lower()} & taken:
            k += 1
            name = _fitted(stem, f"-{k}.html")
        taken |= {name.lower(), _recorded_name(name).lower()}
        names.append(name)
    return names


def _fitted(stem: str, suffix: str) -> str:
    """``stem + suffix``, the stem cut so that the name is at most :data:`NAME_BYTES` bytes in UTF-8."""
    while len(f"{stem}{suffix}".encode("utf-8")) > NAME_BYTES - len(RECORDED_SUFFIX) + len(".html"):
        stem = stem[:-1]
    return stem + suffix


def thumbnail(scene: Scene, ask: bool = False) -> np.ndarray:
    """The picture of ``scene`` at t = 0 an index's card shows, ``(H, W, 3) uint8`` (:data:`VIEW_SIZE`), drawn as
    ``render`` draws it without its text (the card has its own); ``ask``: question mode's picture."""
    from ..view.render import draw_offscreen

    plotter, _, view = draw_offscreen(scene, VIEW_SIZE, ask=ask)
    try:
        interrupt.check()  # before the picture is taken
        plotter.renderer.hide_axes()
        for text in (view.text.verdict, view.text.note, *view.text.legend):
            text.SetVisibility(False)
        return plotter.screenshot(return_img=True)[..., :3]
    finally:
        plotter.close()


def _entry(scene: Scene, page: Page, name: str) -> SiteEntry:
    import imageio.v3 as iio

    image = thumbnail(scene, page.asks)
    k = THUMBNAIL_SHRINK
    h, w = (image.shape[0] // k) * k, (image.shape[1] // k) * k
    small = image[:h, :w].reshape(h // k, k, w // k, k, 3).mean(axis=(1, 3)).round().astype(np.uint8)
    buffer = io.BytesIO()
    iio.imwrite(buffer, small, extension=".png")
    picture = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
    size = len(page.html.encode("utf-8"))
    return SiteEntry(name, page.title, page.verdict, scene.description, picture, size, page.note)


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
<main>
<h1>Moving spheres: when and where they collide</h1>
<p>Each scene opens as one page that works offline in any browser with WebGL: turn the 3-D view with the mouse
or a finger, move the time slider, switch to the rest frame.</p>
<ul id="scenes">
{cards}
</ul>
</main>
</body>
</html>
"""
