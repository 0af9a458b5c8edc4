"""Reading an exported page in headless Chromium (a Playwright page, see web/browser.py): where a 3-D point lands,
what colour is there, the page's text.

The projection is computed here from the page's camera (position, focal point,
view-up, view angle) and the size of its 3-D view, with the textbook perspective
formulas: it does not use the page's own code.  Where the spheres are comes from
the solver's certified motion.
"""

from __future__ import annotations

import base64
import gzip
import json
import math
import re

import imageio.v3 as iio
import numpy as np

#: A pixel shows a body's colour when its hue is within HUE_TOL degrees of the colour's and it is
#: saturated at least MIN_SATURATION (lighting and see-through layers change brightness and
#: saturation, hardly the hue); a grey body's pixels are grey and neither white nor the grid's light grey.
HUE_TOL = 12.0
MIN_SATURATION = 0.2
GREY = (0.12, 0.15, 0.72)  # most saturation, least and most value of a grey body's pixels


def page_data(html_text: str) -> dict:
    """The page's embedded data (the JSON its script reads)."""
    found = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html_text, re.DOTALL)
    return json.loads(found.group(1))


def recording(html_text: str) -> dict:
    """A recorded page's recording (``explorer.web.recorded.record``), read back from the page: base64 of gzip of
    JSON in the element its data names."""
    name = page_data(html_text)["recorded"]["frames"]
    found = re.search(rf'<script type="application/octet-stream" id="{name}">(.*?)</script>', html_text, re.DOTALL)
    return json.loads(gzip.decompress(base64.b64decode(found.group(1))))


def recorded_frame(recorded: dict, k: int) -> dict:
    """Frame ``k`` of a recording, whole (each entry, shape and label from its parts)."""
    parts = recorded["parts"]

    def whole(entry):
        if isinstance(entry, list):  # kept item by item
            return [parts[p] for p in entry]
        if isinstance(entry, dict):  # kept by its keys' lists, item by item
            return {key: [parts[p] for p in items] for key, items in entry.items()}
        return parts[entry]

    return {key: whole(entry) for key, entry in zip(recorded["keys"], recorded["frames"][k])}


def hide_text_overlays(page) -> None:
    """Hide the labels and the colour key (they sit over the spheres' centres)."""
    page.evaluate("for (const id of ['labels', 'legend']) document.getElementById(id).style.visibility = 'hidden'")


def element_box(page, element_id: str) -> list[float]:
    """``[left, top, width, height]`` of the page's element ``element_id``, in CSS pixels."""
    rect = f"document.getElementById('{element_id}').getBoundingClientRect()"
    return page.evaluate(f"(r => [r.left, r.top, r.width, r.height])({rect})")


def camera(page) -> dict:
    """The page's camera in world coordinates and its 3-D view's box in CSS pixels (the page draws in a frame of its
    own, the frame's ``local`` origin and unit: explorer.view.local_frame)."""
    cam = page.evaluate("window.sphereExplorer.camera()")
    local = page.evaluate("window.sphereExplorer.frame().local")
    world = {key: in_world(local, cam[key]).tolist() for key in ("position", "focal")}
    return {**cam, **world, "box": element_box(page, "view")}


def drawn_centers(page) -> list[np.ndarray]:
    """Where the page draws each body's centre now, in world coordinates (the frame's ``centers``)."""
    frame = page.evaluate("(f => ({local: f.local, centers: f.centers}))(window.sphereExplorer.frame())")
    return [in_world(frame["local"], c) for c in frame["centers"]]


def in_world(local: dict, point) -> np.ndarray:
    """A point (3,) of the page's numbers in world coordinates: ``local`` is the frame's (its ``origin``, ``unit``)."""
    return np.asarray(local["origin"], dtype=float) + float(local["unit"]) * np.asarray(point, dtype=float)


def project(cam: dict, point) -> tuple[float, float, float]:
    """Page pixel (x, y) of a world point, and its depth along the line of sight (perspective camera)."""
    position, focal, up = (np.asarray(cam[k], dtype=float) for k in ("position", "focal", "up"))
    sight = focal - position
    sight /= np.linalg.norm(sight)
    right = np.cross(sight, up)
    right /= np.linalg.norm(right)
    true_up = np.cross(right, sight)
    rel = np.asarray(point, dtype=float) - position
    depth = float(rel @ sight)
    half = math.tan(math.radians(cam["angle"]) / 2.0)
    left, top, width, height = cam["box"]
    ndc_x = float(rel @ right) / (depth * half * width / height)
    ndc_y = float(rel @ true_up) / (depth * half)
    return left + (ndc_x + 1.0) / 2.0 * width, top + (1.0 - ndc_y) / 2.0 * height, depth


def pixel_radius(cam: dict, radius: float, depth: float) -> float:
    """How many pixels a sphere of ``radius`` at ``depth`` spans from its centre (about)."""
    return radius / (depth * math.tan(math.radians(cam["angle"]) / 2.0)) * cam["box"][3] / 2.0


def occluded(cam: dict, centre, others) -> bool:
    """Whether the line of sight to ``centre`` passes through one of ``others`` ((centre, radius) pairs) first."""
    eye = np.asarray(cam["position"], dtype=float)
    target = np.asarray(centre, dtype=float)
    ray = target - eye
    length = float(np.linalg.norm(ray))
    ray /= length
    for other, radius in others:
        along = float((np.asarray(other) - eye) @ ray)
        if 0.0 < along < length and np.linalg.norm(eye + along * ray - other) < radius:
            return True
    return False


def hex_rgb(color: str) -> np.ndarray:
    return np.array([int(color[i : i + 2], 16) for i in (1, 3, 5)], dtype=float)


def hsv(rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Hue (degrees), saturation and value of ``(..., 3)`` RGB in 0..255."""
    rgb = np.asarray(rgb, dtype=float) / 255.0
    top, low = rgb.max(axis=-1), rgb.min(axis=-1)
    span = np.where(top > low, top - low, 1.0)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    hue = np.select([top == r, top == g], [(g - b) / span % 6.0, (b - r) / span + 2.0], (r - g) / span + 4.0) * 60.0
    saturation = np.where(top > 0, (top - low) / np.where(top > 0, top, 1.0), 0.0)
    return hue, saturation, top


def color_matches(image: np.ndarray, xy, color: str, radius: int = 3, towards: str | None = None) -> int:
    """How many pixels within ``radius`` of ``xy`` show ``color`` (its hue, however lit or seen through).

    ``towards``: a second colour seen through or over it (e.g. the red glow of an overlap): hues on the
    shorter arc from ``color``'s to ``towards``'s count too.
    """
    x, y = int(round(xy[0])), int(round(xy[1]))
    patch = image[max(y - radius, 0) : y + radius + 1, max(x - radius, 0) : x + radius + 1, :3]
    hue, saturation, value = hsv(patch)
    want_hue, want_saturation, _ = hsv(hex_rgb(color))
    if want_saturation < GREY[0]:
        return int(((saturation < GREY[0]) & (value > GREY[1]) & (value < GREY[2])).sum())
    off = (hue - want_hue + 180.0) % 360.0 - 180.0  # signed, in (-180, 180]
    low, high = -HUE_TOL, HUE_TOL
    if towards is not None:
        arc = (float(hsv(hex_rgb(towards))[0]) - float(want_hue) + 180.0) % 360.0 - 180.0
        low, high = min(low, arc - HUE_TOL), max(high, arc + HUE_TOL)
    return int(((off > low) & (off < high) & (saturation > MIN_SATURATION)).sum())


def sphere_shows(image: np.ndarray, xy, radius_px: float, color: str, towards: str | None = None) -> int:
    """Of 9 points of a drawn sphere's disc (its centre, and 8 around it at half its radius), how many show
    ``color`` (most of a 5 x 5 patch; see :func:`color_matches`); markers and labels drawn over a few of
    them leave the rest."""
    points = [(0.0, 0.0)] + [(math.cos(a), math.sin(a)) for a in np.arange(8) * math.pi / 4]
    return sum(
        color_matches(image, (xy[0] + 0.5 * radius_px * dx, xy[1] + 0.5 * radius_px * dy), color, 2, towards) >= 13
        for dx, dy in points
    )


def screen_axes(cam: dict) -> tuple[np.ndarray, np.ndarray]:
    """World directions that point right and up on the screen, ``(3,)`` unit vectors."""
    position, focal, up = (np.asarray(cam[k], dtype=float) for k in ("position", "focal", "up"))
    sight = (focal - position) / np.linalg.norm(focal - position)
    right = np.cross(sight, up)
    right /= np.linalg.norm(right)
    return right, np.cross(right, sight)


def drag(page, start: tuple[float, float], end: tuple[float, float], steps: int = 8) -> None:
    """Press the mouse at page pixel ``start``, move it in ``steps`` to ``end``, release."""
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=steps)
    page.mouse.up()


def screenshot(page) -> np.ndarray:
    return iio.imread(page.screenshot())


#: A page's f(t) plot: each mark's words, every other text (ticks, the axis' name) and the data rectangle (between
#: the axes' lines), as boxes in page pixels.
PLOT_TEXTS = """(() => {
  const box = (e) => ((r) => [r.left, r.top, r.right, r.bottom])(e.getBoundingClientRect());
  const lines = [...document.querySelectorAll('#plot line.axis')].map(box);
  return {words: [...document.querySelectorAll('#plot .mark-words')].map((e) => [e.textContent, box(e)]),
          others: [...document.querySelectorAll('#plot text:not(.mark-words)')].map((e) => [e.textContent, box(e)]),
          area: [Math.min(...lines.map((b) => b[0])), Math.min(...lines.map((b) => b[1])),
                 Math.max(...lines.map((b) => b[2])), Math.max(...lines.map((b) => b[3]))]};
})()"""


def overlap(a, b) -> bool:
    """Whether two boxes [left, top, right, bottom] overlap (touching edges do not)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
