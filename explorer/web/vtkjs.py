"""The 3-D view as vtk.js draws it in a browser: a plotter's actors serialized, and the viewer that draws them.

Both come from ``trame-vtk`` (Kitware's bridge from VTK to vtk.js, as pyvista's own
HTML export uses): its serializers turn the render window the drawing code filled
into vtk.js's scene description (actors, meshes, colours, camera), and its
offline viewer is one ES-module script with vtk.js inside.  The viewer would
fetch its favicon from the web; that one statement is taken out (checked by the
tests: the page requests nothing).  Qt-free.
"""

from __future__ import annotations

import base64
import io
import json
import re
import zipfile
from functools import lru_cache

#: The install command named when the web export's package is missing.
INSTALL_HINT = ".venv/bin/pip install -e ."
#: The statement of the viewer script that adds web favicons to the page's head.
#: The date of the archive's one file (the zip format's earliest): a page's bytes do not depend on when it is made.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
_FAVICON = re.compile(r'(\w+)=document\.querySelector\("head"\);\1&&\[[0-9,]+\]\.forEach')


class WebUnavailable(RuntimeError):
    """The web export's package (trame-vtk) is missing or not the expected viewer (one line)."""


def _trame_vtk():
    try:
        from trame_vtk.modules.vtk import serializers
        from trame_vtk.tools import vtksz2html
    except ImportError as exc:
        hint = f"the web export needs the trame-vtk package ({exc}); install it with: {INSTALL_HINT}"
        raise WebUnavailable(hint) from None
    return serializers, vtksz2html


@lru_cache(maxsize=1)
def viewer_script() -> str:
    """The offline vtk.js viewer: the body of one ``<script type="module">``, with no request to the web.

    It defines ``window.OfflineLocalView.load(container, {base64Str})`` and
    keeps the render window it makes in ``global.renderWindow``.
    """
    _, vtksz2html = _trame_vtk()
    text = vtksz2html.HTML_VIEWER_PATH.read_text(encoding="utf-8")
    scripts = re.findall(r'<script type="module">(.*?)</script>', text, flags=re.DOTALL)
    if len(scripts) != 1 or "OfflineLocalView" not in scripts[0]:
        raise WebUnavailable(f"trame-vtk's offline viewer ({vtksz2html.HTML_VIEWER_PATH.name}) is not the one expected")
    script, count = _FAVICON.subn(lambda m: f"{m.group(1)}=null;{m.group(1)}&&[].forEach", scripts[0])
    if count != 1:
        raise WebUnavailable("trame-vtk's offline viewer does not add its icons as expected (it would reach the web)")
    return script


class StableIds(dict):
    """Ids for a page's VTK objects that do not depend on where they are in memory.

    trame-vtk names an object by its address (16 hex digits), which differs from
    one process or run to the next; a page names them ``0000000000000001``,
    ``0000000000000002``... in the order they are first looked up here
    (``ids[address]``), so the same scene makes the same bytes in any process.
    """

    def __missing__(self, address: str) -> str:
        self[address] = stable = f"{len(self) + 1:016x}"
        return stable


#: trame-vtk's id of a VTK object (its address) in a string of its scene: ``ADDRESS``, ``ADDRESS-dataset``,
#: ``instance:${ADDRESS}``.  (A data array's hash is 32 hex digits: not one.)
_ADDRESS = re.compile(r"(?<![0-9a-f])[0-9a-f]{16}(?![0-9a-f])")


def _renamed(value, ids: StableIds):
    """``value`` (trame-vtk's scene: dicts, lists, strings, numbers) with each address in its strings renamed
    by ``ids``, in the order they come."""
    if isinstance(value, dict):
        return {key: _renamed(item, ids) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_renamed(item, ids) for item in value]
    if isinstance(value, str):
        return _ADDRESS.sub(lambda match: ids[match.group()], value)
    return value


def actor_id(actor) -> str:
    """The id under which ``actor`` (a VTK actor) appears in trame-vtk's scene (its address; see :class:`StableIds`)."""
    serializers, _ = _trame_vtk()
    return serializers.reference_id(actor)


def scene_archive(render_window, ids: StableIds) -> str:
    """What the viewer loads: ``render_window``'s visible renderers and actors as a base64 zip of vtk.js's scene.

    The same description pyvista's HTML export writes (``index.json`` with the
    scene tree and each data array once, by hash); hidden actors are left out.
    Its objects are named by ``ids`` (which gets their addresses in the order
    the description names them), its modification time and the zip's date are
    fixed: the same view makes the same bytes in any process, at any time.

    Parameters
    ----------
    render_window : vtkRenderWindow
        Drawn at least once.
    ids : StableIds
        The page's ids; the actors the page moves are looked up in it after.

    Returns
    -------
    str
        Base64 of the zip.
    """
    serializers, _ = _trame_vtk()
    serializers.initialize_serializers()
    context = serializers.SynchronizationContext()
    state = serializers.serialize(None, render_window, "1", context, 1)
    if state is None:
        raise WebUnavailable("trame-vtk could not describe the 3-D view")
    state["mtime"] = 1  # VTK's modification counter (history of the process); vtk.js loads a scene newer than 0
    # the class of this process's window (X, or EGL where no X server answered) is not the page's: the viewer
    # draws in a render window of its own
    state["type"] = "vtkOpenGLRenderWindow"
    camera = render_window.GetRenderers().GetFirstRenderer().GetActiveCamera()
    state["extra"] = {"vtkRefId": serializers.reference_id(render_window), "centerOfRotation": camera.GetFocalPoint()}
    hashes = {}
    for entry in serializers.extract_array_hash(state):
        key = entry["hash"]
        hashes[key] = dict(**entry, content=context.get_cached_data_array(key, False))
    text = json.dumps({"scene": _renamed(state, ids), "hashes": hashes}, allow_nan=False)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        entry = zipfile.ZipInfo("index.json", date_time=ZIP_DATE)
        archive.writestr(entry, text, compress_type=zipfile.ZIP_DEFLATED)
    return base64.b64encode(buffer.getvalue()).decode("ascii")
