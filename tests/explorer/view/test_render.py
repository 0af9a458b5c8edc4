"""Pictures: the gallery rendered headless, checked pixel by pixel where the maths puts things."""

from __future__ import annotations

import subprocess
import sys

import imageio.v3 as iio
import numpy as np
import pytest

from explorer.model.derived.analysis import solve
from explorer.model.formats import scene_io
from explorer.model.formats.gallery import SCENES_DIR, gallery
from explorer.model.state.scene import LAYERS
from explorer.view.palette import BODY_COLORS, ENTER_COLOR
from explorer.view.render import draw_offscreen
from solver import Status

SIZE = (800, 500)


def _rgb(hex_color: str) -> np.ndarray:
    return np.array([int(hex_color[i : i + 2], 16) for i in (1, 3, 5)], dtype=float)


def _near(image: np.ndarray, pixel, color: str, radius: int = 10, tol: float = 70.0) -> int:
    """How many pixels within ``radius`` of ``pixel`` are within ``tol`` of ``color`` (RGB distance)."""
    col, row = int(round(pixel[0])), int(round(pixel[1]))
    h, w = image.shape[:2]
    patch = image[max(row - radius, 0) : min(row + radius + 1, h), max(col - radius, 0) : min(col + radius + 1, w), :3]
    return int((np.linalg.norm(patch.astype(float) - _rgb(color), axis=2) < tol).sum())


def _count(image: np.ndarray, color: str, tol: float = 60.0) -> int:
    """Pixels of ``color`` in the 3-D drawing (the colour key in the lower right corner excluded)."""
    h, w = image.shape[:2]
    close = np.linalg.norm(image[..., :3].astype(float) - _rgb(color), axis=2) < tol
    close[int(0.7 * h) :, int(0.78 * w) :] = False
    return int(close.sum())


def test_the_colour_key_is_drawn():
    image, _, _ = _render(scene_io.load(SCENES_DIR / "default.json"))
    h, w = image.shape[:2]
    key = image[int(0.7 * h) :, int(0.78 * w) :, :3].astype(float)
    assert (np.linalg.norm(key - _rgb("#ff00ff"), axis=2) < 60).sum() > 20  # the contact row


def _render(scene, t: float = 0.0, size: tuple[int, int] = SIZE):
    """Image, solution and a world-to-pixel function (evaluated while the plotter is open)."""
    plotter, solution, _ = draw_offscreen(scene, size, t)
    try:
        image = plotter.screenshot(return_img=True)
        renderer = plotter.renderer
        renderer.ComputeAspect()
        matrix = np.array(
            [
                [
                    renderer.GetActiveCamera()
                    .GetCompositeProjectionTransformMatrix(renderer.GetTiledAspectRatio(), -1, 1)
                    .GetElement(i, j)
                    for j in range(4)
                ]
                for i in range(4)
            ]
        )
    finally:
        plotter.close()

    def to_pixel(point):
        x, y, _, w = matrix @ np.append(np.asarray(point, dtype=float), 1.0)
        return (x / w + 1) / 2 * size[0], size[1] - (y / w + 1) / 2 * size[1]

    return image, solution, to_pixel


@pytest.mark.parametrize("path", gallery(), ids=lambda p: p.stem)
def test_gallery_scene_shows_what_the_maths_says(path):
    scene = scene_io.load(path)
    image, solution, to_pixel = _render(scene)
    assert image.shape == (SIZE[1], SIZE[0], 3)
    s = solution.sweep
    # the status line is drawn: dark text pixels in the top-left corner
    assert (image[10:45, 10:300].sum(axis=2) < 200).sum() > 50
    contact_pixels = _count(image, "#ff00ff")
    if s.contact is not None and s.status is Status.HIT and solution.contact_happens:
        # the contact marker's colour appears at the projected contact point
        assert _near(image, to_pixel(s.contact.point), "#ff00ff", radius=12) > 5
    if not s.hit or not solution.contact_happens:  # all mode: a contact another body prevents is not drawn
        assert contact_pixels == 0
    shown = {**LAYERS, **scene.layers}  # a gallery scene may open with a layer hidden (the momentum scenes' roots)
    if s.roots is not None and 0 <= s.roots[0] <= scene.horizon and scene.mode == "pair" and s.status is Status.HIT \
            and shown["roots"]:  # fmt: skip
        rel = np.subtract(scene.bodies[0].velocity, scene.bodies[solution.other].velocity)
        marker = np.add(scene.bodies[0].center, rel * s.roots[0])
        assert _near(image, to_pixel(marker), ENTER_COLOR, radius=8, tol=80) > 3


def test_hit_and_miss_pictures_differ_where_the_contact_is():
    hit = scene_io.load(SCENES_DIR / "default.json")
    miss = hit.with_body(0, velocity=(9.0, -4.0, 0.0))
    img_hit, sol_hit, to_pixel = _render(hit)
    img_miss, sol_miss, _ = _render(miss)
    assert sol_hit.sweep.hit and not sol_miss.sweep.hit
    assert _count(img_hit, "#ff00ff") > 20 and _count(img_miss, "#ff00ff") == 0
    assert np.abs(img_hit.astype(int) - img_miss.astype(int)).sum() > 1000
    # body A sits where its centre projects, in its colour, in both
    a_pixel = to_pixel(hit.bodies[0].center)
    assert _near(img_hit, a_pixel, BODY_COLORS[0], radius=6, tol=90) > 10


def test_render_command_writes_the_requested_size(tmp_path):
    out = tmp_path / "shot.png"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "explorer.cli",
            "render",
            str(SCENES_DIR / "seed001_container.json"),
            "-o",
            str(out),
            "--size",
            "640x360",
            "--time",
            "0.25",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    image = iio.imread(out)
    assert image.shape[:2] == (360, 640)
    # the ball is drawn where it is at t = 0.25 on its bounce path, in its colour, and not where it started
    scene = scene_io.load(SCENES_DIR / "seed001_container.json")
    same, solution, to_pixel = _render(scene, 0.25, (640, 360))
    assert np.abs(same[..., :3].astype(int) - image[..., :3].astype(int)).max() <= 2  # as the drawing code draws it
    now, start = solution.path.positions(0.25)[0], np.asarray(scene.bodies[0].center)
    assert np.linalg.norm(now - start) > 2 * scene.bodies[0].radius
    assert _near(image, to_pixel(now), BODY_COLORS[0], radius=4, tol=90) > 10
    # where it started only its path crosses (a line at most 3 pixels wide: up to 27 of the 9 x 9 patch; the ball
    # would fill it), now that no label is left covering it
    assert _near(image, to_pixel(start), BODY_COLORS[0], radius=4, tol=90) <= 27


def test_render_time_moves_the_spheres():
    scene = scene_io.load(SCENES_DIR / "billiards.json")
    img_early, _, _ = _render(scene, 0.0)
    img_late, solution, to_pixel = _render(scene, scene.horizon)
    a_end = solution.path.positions(scene.horizon)[0]
    pixel = to_pixel(a_end)
    assert _near(img_late, pixel, BODY_COLORS[0], radius=5, tol=90) > _near(
        img_early, pixel, BODY_COLORS[0], radius=5, tol=90
    )


@pytest.mark.parametrize(
    "args, needle",
    [
        (["render", "nope.json", "-o", "x.png"], "cannot read"),
        (["render", str(SCENES_DIR / "default.json"), "-o", "x.jpg"], ".png"),
        (["render", str(SCENES_DIR / "default.json"), "-o", "/nonexistent/dir/x.png"], "does not exist"),
        (["render", str(SCENES_DIR / "default.json"), "-o", "x.png", "--size", "big"], "WIDTHxHEIGHT"),
    ],
)
def test_render_refusals_exit_2_with_a_reason(args, needle, capsys):
    from explorer.cli import main

    assert main(args) == 2
    assert needle in capsys.readouterr().err


def test_window_without_a_display_says_so_in_one_line(tmp_path):
    env = {
        k: v for k, v in __import__("os").environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    proc = subprocess.run([sys.executable, "-m", "explorer.cli"], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "no display" in proc.stderr and "render" in proc.stderr


def _cli(*args, timeout=300):
    return subprocess.run(
        [sys.executable, "-m", "explorer.cli", *map(str, args)], capture_output=True, text=True, timeout=timeout
    )


def test_cli_relative_frame_with_the_parabola_is_a_wider_picture(tmp_path):
    plain, rel = tmp_path / "plain.png", tmp_path / "rel.png"
    scene = SCENES_DIR / "seed002_both_moving.json"
    assert _cli("render", scene, "-o", plain, "--size", "640x400").returncode == 0
    proc = _cli("render", scene, "-o", rel, "--size", "640x400", "--frame", "relative", "--plot")
    assert proc.returncode == 0, proc.stderr
    a, b = iio.imread(plain), iio.imread(rel)
    assert a.shape[:2] == (400, 640) and b.shape[0] == 400 and b.shape[1] > 640 * 1.5
    assert np.abs(b[:, :640, :3].astype(int) - a[:, :, :3].astype(int)).mean() > 2  # a different frame


def test_cli_gif_has_the_requested_frames_and_size(tmp_path):
    out = tmp_path / "sweep.gif"
    proc = _cli("render", SCENES_DIR / "seed001_container.json", "-o", out, "--size", "320x200", "--frames", "9")
    assert proc.returncode == 0, proc.stderr
    frames = iio.imread(out, index=None)
    assert frames.shape[:3] == (9, 200, 320)
    assert len({frame.tobytes() for frame in frames}) > 5  # the ball moves from frame to frame


def test_cli_mp4_when_ffmpeg_is_available(tmp_path):
    from explorer.view.animation import mp4_available

    assert mp4_available()  # imageio-ffmpeg is in the test extra
    out = tmp_path / "sweep.mp4"
    proc = _cli("render", SCENES_DIR / "billiards.json", "-o", out, "--size", "320x200", "--frames", "6")
    assert proc.returncode == 0, proc.stderr
    import imageio.v2 as imageio_v2

    reader = imageio_v2.get_reader(out, format="FFMPEG")
    count = sum(1 for _ in reader)
    reader.close()
    assert count == 6


def test_cli_report_writes_the_three_files(tmp_path):
    import json

    folder = tmp_path / "report"
    proc = _cli("report", SCENES_DIR / "default.json", "-o", folder, "--size", "480x300")
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["picture.png", "scene.json", "solution.json"]
    assert json.loads((folder / "solution.json").read_text())["hit"] is True


def test_a_picture_in_the_centre_of_mass_frame_says_the_fixed_body_only_appears_to_move():
    """As `render --frame com` draws it (the note over the picture: the overlay's text actor)."""
    scene = scene_io.load(SCENES_DIR / "seed004_ricochet.json")  # A bounces off the fixed B
    (event,) = solve(scene).events
    bounce = event.time
    notes = {}
    for frame, t in (("com", bounce / 2), ("com", (bounce + 1) / 2), (0.0, bounce / 2)):
        plotter, _, view = draw_offscreen(scene, SIZE, t, frame=frame)
        try:
            notes[frame, t] = view.text.note.GetInput() if view.text.note.GetVisibility() else ""
        finally:
            plotter.close()
    fixed = "B is fixed in the world: it only appears to move in this frame."
    assert notes["com", bounce / 2] == fixed
    assert notes["com", (bounce + 1) / 2].startswith(fixed + "\nThe frame changed at t = ")
    assert "fixed in the world" not in notes[0.0, bounce / 2]


@pytest.mark.parametrize("ask", [False, True])
def test_a_slow_bodys_velocity_shows_outside_its_sphere(ask):
    """heavy_light_glancing's B moves (v = (0, 0.5, -0.3), shorter than its radius 0.8, and nearly away from the
    camera): B's colour shows just beyond B's outline in the direction it moves, asked or not."""
    from web_helpers import color_matches

    scene = scene_io.load(SCENES_DIR / "heavy_light_glancing.json")
    plotter, _, _ = draw_offscreen(scene, SIZE, 0.0, ask=ask)
    try:
        image = plotter.screenshot(return_img=True)
        renderer = plotter.renderer

        def pixel(point) -> np.ndarray:
            renderer.SetWorldPoint(*(float(x) for x in point), 1.0)
            renderer.WorldToDisplay()
            x, y, _ = renderer.GetDisplayPoint()
            return np.array([x, SIZE[1] - y])

        camera = renderer.GetActiveCamera()
        across = np.cross(np.subtract(camera.GetFocalPoint(), camera.GetPosition()), camera.GetViewUp())
        b = scene.bodies[1]
        centre = pixel(b.center)
        radius = np.linalg.norm(pixel(np.add(b.center, b.radius * across / np.linalg.norm(across))) - centre)
        way = pixel(np.add(b.center, 0.1 * np.asarray(b.velocity))) - centre
        way /= np.linalg.norm(way)
    finally:
        plotter.close()
    beyond = [centre + (radius + step) * way for step in np.arange(4.0, 0.6 * radius, 2.0)]
    shown = [color_matches(image, xy, BODY_COLORS[1], 1) > 0 for xy in beyond]
    assert sum(shown) >= 0.8 * len(shown), (radius, shown)
