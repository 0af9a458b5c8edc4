"""Animated exports: the sweep over the horizon as a GIF (or MP4), and the bug-report folder.

Qt-free; used by the window's File menu and by ``sphere-explorer render SCENE
-o OUT.gif`` / ``sphere-explorer report``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from ..model.analysis import solve, to_dict
from ..model.scene import Scene
from ..model.scene_io import dumps

#: Default number of frames over [0, horizon] and playback rate.
FRAMES = 40
FPS = 20
#: Formats :func:`render_animation` writes, by file suffix.
ANIMATION_SUFFIXES = (".gif", ".mp4")


def mp4_available() -> bool:
    """True when imageio's ffmpeg plugin (imageio-ffmpeg) can write MP4 here."""
    try:
        import imageio_ffmpeg

        return bool(imageio_ffmpeg.get_ffmpeg_exe())
    except (ImportError, RuntimeError):
        return False


def animation_times(scene: Scene, frames: int = FRAMES) -> np.ndarray:
    """The times drawn, ``(frames,) float`` evenly over [0, horizon]."""
    return np.linspace(0.0, scene.horizon, frames)


def render_animation(
    scene: Scene,
    out: str | os.PathLike[str],
    size: tuple[int, int] = (800, 500),
    frames: int = FRAMES,
    fps: int = FPS,
    camera: dict | None = None,
    frame: float = 0.0,
) -> Path:
    """Draw the sweep at ``frames`` times over [0, horizon] and write a GIF or MP4.

    Parameters
    ----------
    scene : Scene
    out : path
        ``.gif`` or ``.mp4`` (MP4 needs imageio-ffmpeg).
    size : (int, int)
        Pixels per frame (MP4 rounds them up to even numbers).
    frames, fps : int
        Frame count (2 to 1000) and playback rate.
    camera : dict, optional
        As :func:`explorer.render.render_png`.
    frame : float
        0 world frame, 1 B's rest frame.

    Raises
    ------
    ValueError
        Unknown suffix, MP4 without imageio-ffmpeg, or a bad frame count.
    """
    import imageio.v2 as imageio_v2
    import imageio.v3 as iio

    from .render import draw_offscreen

    out = Path(out)
    suffix = out.suffix.lower()
    if suffix not in ANIMATION_SUFFIXES:
        raise ValueError(f"animation: expected a .gif or .mp4 file, got {out.name!r}")
    if suffix == ".mp4" and not mp4_available():
        raise ValueError("animation: MP4 needs the imageio-ffmpeg package; write a .gif instead")
    if not 2 <= frames <= 1000:
        raise ValueError(f"frames: expected 2 to 1000, got {frames}")
    if suffix == ".mp4":
        size = (size[0] + size[0] % 2, size[1] + size[1] % 2)
    plotter, solution, view = draw_offscreen(scene, size, 0.0, camera, frame)
    images = []
    try:
        for t in animation_times(scene, frames):
            view.update(scene, solution, float(t), frame, scene.layers)
            plotter.render_window.Render()  # pyvista's screenshot renders only the first time
            images.append(plotter.screenshot(return_img=True))
    finally:
        plotter.close()
    tmp = out.with_name(f".{out.name}.tmp{suffix}")
    if suffix == ".gif":
        iio.imwrite(tmp, np.stack(images), extension=".gif", duration=1000.0 / fps, loop=0)
    else:
        with imageio_v2.get_writer(tmp, format="FFMPEG", fps=fps, macro_block_size=2) as writer:
            for image in images:
                writer.append_data(image)
    os.replace(tmp, out)
    return out


def write_report(scene: Scene, folder: str | os.PathLike[str], size: tuple[int, int] = (1280, 800), camera: dict | None = None) -> Path:
    """A folder for a bug report: the scene, the solution as JSON, and a picture with the parabola.

    Files: ``scene.json``, ``solution.json`` (as ``sphere-explorer solve``
    prints it), ``picture.png`` (the view beside f(t)).
    """
    from .render import render_png

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "scene.json").write_text(dumps(scene), encoding="utf-8")
    solution = json.dumps(to_dict(solve(scene)), indent=2, allow_nan=False, ensure_ascii=False)
    (folder / "solution.json").write_text(solution + "\n", encoding="utf-8")
    render_png(scene, folder / "picture.png", size, camera=camera, with_plot=True)
    return folder
