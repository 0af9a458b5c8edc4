"""Animated exports: the sweep over the horizon as a GIF (or MP4), and the bug-report folder.

Qt-free; used by the window's File menu and by ``sphere-explorer render SCENE
-o OUT.gif`` / ``sphere-explorer report``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import numpy as np

from ..model.derived.analysis import solve, to_dict
from ..model.formats.scene_io import dumps
from ..model.state.scene import Scene
from ..system import interrupt
from ..system.files import check_folder, create, new_folder, replacing, write_target
from .render import check_memory

#: Default number of frames over [0, horizon] and playback rate.
FRAMES = 40
FPS = 20
#: Accepted frame counts and playback rates.
FRAME_RANGE = (2, 1000)
FPS_RANGE = (1, 100)
#: Formats :func:`render_animation` writes, by file suffix.
ANIMATION_SUFFIXES = (".gif", ".mp4")
#: The files of a report folder.
#: How to get MP4 export.
MP4_MISSING = "animation: MP4 needs imageio-ffmpeg, the mp4 extra (.venv/bin/pip install -e '.[mp4]'); or write a .gif"


def mp4_available() -> bool:
    """True when imageio's ffmpeg plugin (imageio-ffmpeg) can write MP4 here."""
    try:
        import imageio_ffmpeg

        found = bool(imageio_ffmpeg.get_ffmpeg_exe())
    except (ImportError, RuntimeError):
        found = False
    interrupt.check()  # a Ctrl-C reaches the ffmpeg run to try it (the terminal's whole process group)
    return found


def animation_times(scene: Scene, frames: int = FRAMES) -> np.ndarray:
    """The times drawn, ``(frames,) float`` evenly over [0, horizon]."""
    return np.linspace(0.0, scene.horizon, frames)


def check_animation(out: str | os.PathLike[str], size: tuple[int, int], frames: int, fps: float) -> tuple[int, int]:
    """Refuse a bad animation request before any drawing; return the frame size used.

    Raises
    ------
    ValueError
        One line: unknown suffix, MP4 without imageio-ffmpeg, frames outside
        :data:`FRAME_RANGE`, fps outside :data:`FPS_RANGE`, or over the memory budget.
    """
    suffix = Path(out).suffix.lower()
    if suffix not in ANIMATION_SUFFIXES:
        raise ValueError(f"animation: expected a .gif or .mp4 file, got {Path(out).name!r}")
    if suffix == ".mp4" and not mp4_available():
        raise ValueError(MP4_MISSING)
    if isinstance(frames, bool) or not isinstance(frames, int) or not FRAME_RANGE[0] <= frames <= FRAME_RANGE[1]:
        raise ValueError(f"frames: expected {FRAME_RANGE[0]} to {FRAME_RANGE[1]}, got {frames!r}")
    if not (isinstance(fps, (int, float)) and not isinstance(fps, bool) and FPS_RANGE[0] <= fps <= FPS_RANGE[1]):
        raise ValueError(f"fps: expected {FPS_RANGE[0]} to {FPS_RANGE[1]} frames per second, got {fps!r}")
    if suffix == ".mp4":
        size = (size[0] + size[0] % 2, size[1] + size[1] % 2)
    check_memory(size, frames, suffix.lstrip("."))
    return size


def render_animation(
    scene: Scene,
    out: str | os.PathLike[str],
    size: tuple[int, int] = (800, 500),
    frames: int = FRAMES,
    fps: int = FPS,
    camera: dict | None = None,
    frame: float | str = 0.0,
) -> Path:
    """Draw the sweep at ``frames`` times over [0, horizon] and write a GIF or MP4.

    Parameters
    ----------
    scene : Scene
    out : path
        ``.gif`` or ``.mp4`` (MP4 needs imageio-ffmpeg: the ``mp4`` extra).
    size : (int, int)
        Pixels per frame (MP4 rounds them up to even numbers).
    frames, fps : int
        Frame count (2 to 1000) and playback rate (1 to 100).
    camera : dict, optional
        As :func:`explorer.view.render.render_png`.
    frame : float or "com"
        0 world frame, 1 B's rest frame, ``"com"`` the frame of the free bodies' centre of mass.

    Raises
    ------
    ValueError
        Before any drawing (see :func:`check_animation`); a SceneError (a
        ValueError) when ``out`` cannot be written, leaving no file behind.
    """
    out = Path(out)
    size = check_animation(out, size, frames, fps)
    write_target(out)  # a folder, a device, a missing folder: refused before drawing
    images = _draw_frames(scene, size, animation_times(scene, frames), camera, frame)
    _write_frames(out, images, fps)
    return out


def _draw_frames(scene: Scene, size: tuple[int, int], times: np.ndarray, camera: dict | None, frame) -> list:
    """The scene drawn off screen at each of ``times`` (shape (frames,)): RGB arrays of shape (height, width, 3)."""
    from .render import draw_offscreen

    plotter, solution, view = draw_offscreen(scene, size, 0.0, camera, frame)
    images = []
    try:
        for t in times:
            interrupt.check()  # between frames (and before the file is renamed into place, by replacing)
            com = frame == "com"
            view.update(scene, solution, float(t), 0.0 if com else frame, scene.layers, scene.steps, None, float(com))
            plotter.render_window.Render()  # pyvista's screenshot renders only the first time
            images.append(plotter.screenshot(return_img=True))
    finally:
        plotter.close()
    return images


def _write_frames(out: Path, images: list, fps: int) -> None:
    """Encode ``images`` as ``out``'s format (GIF or MP4) and replace ``out`` with it atomically."""
    # The GIF is encoded in memory (within the budget of check_animation): an encoder writing to the
    # file itself would, on a full disk, fail again in its destructor and print a traceback.
    gif = _gif_bytes(images, fps) if out.suffix.lower() == ".gif" else None
    with replacing(out, binary=True) as (handle, tmp):
        if gif is not None:
            handle.write(gif)
        else:
            _write_mp4(tmp, images, fps)


def _write_mp4(path: Path, images: list, fps: int) -> None:
    """Encode ``images`` (RGB arrays of shape (height, width, 3)) as an MP4 at ``path`` with ffmpeg; a signal is
    acted on between frames.  Stopped, ffmpeg is waited for (imageio's writer leaves it running on an error,
    and it would write the file again once removed)."""
    import imageio.v2 as imageio_v2

    writer = imageio_v2.get_writer(path, format="FFMPEG", fps=fps, macro_block_size=2)
    try:
        for image in images:
            interrupt.check()
            writer.append_data(image)
    except BaseException:
        with contextlib.suppress(Exception):  # the error that stopped it is the one to report
            writer.close()
        raise
    writer.close()


def _gif_bytes(images: list, fps: int) -> bytes:
    """``images`` (RGB arrays of shape (height, width, 3)) as a looping GIF, encoded in memory by Pillow as
    imageio encodes it; a signal is acted on between frames, which the encoder takes one at a time (hundreds
    of frames take seconds)."""
    from PIL import Image

    def frames():
        for image in images[1:]:
            interrupt.check()
            yield Image.fromarray(image)

    buffer = io.BytesIO()
    Image.fromarray(images[0]).save(buffer, format="GIF", save_all=True, append_images=frames(),
                                    duration=1000.0 / fps, loop=0)  # fmt: skip
    return buffer.getvalue()


def write_report(scene: Scene, folder: str | os.PathLike[str], size: tuple[int, int] = (1280, 800),
                 camera: dict | None = None) -> Path:  # fmt: skip
    """A folder for a bug report: the scene, the solution as JSON, and a picture with the parabola.

    Files: ``scene.json``, ``solution.json`` (as ``sphere-explorer solve``
    prints it), ``picture.png`` (the view beside f(t)).  ``folder`` must be new
    or empty; it appears only when all three are written (the one safe writer,
    :func:`explorer.system.files.new_folder`).

    Raises
    ------
    ValueError
        Over the memory budget; WriteError when ``folder`` is refused or cannot be written.
    """
    from .render import render_png

    folder = Path(folder)
    check_memory(size, plot=True)
    with new_folder(folder, "the report") as work:
        solution = solve(scene)
        text = json.dumps(to_dict(solution), indent=2, allow_nan=False, ensure_ascii=False) + "\n"
        for name, content in (("scene.json", dumps(scene)), ("solution.json", text)):
            with create(work / name) as handle:
                handle.write(content.encode("utf-8"))
        render_png(scene, work / "picture.png", size, camera=camera, with_plot=True, solution=solution)
    return folder


def check_report_folder(folder: str | os.PathLike[str]) -> None:
    """Refuse, before any work, a report folder the one safe writer would refuse (WriteError, one line)."""
    check_folder(folder, "the report")
