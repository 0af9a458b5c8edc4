"""Triangle meshes built with numpy: spheres, capsules, arrows, tubes of polylines.

Each builder returns ``(points, faces)`` with ``points`` an ``(n, 3) float``
array and ``faces`` in VTK's flat layout ``[3, i, j, k, 3, ...]`` (an ``(m * 4,)
int`` array).  Topology depends only on the resolution, so a mesh can be updated
in place every frame; nothing here imports pyvista or Qt.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

#: Default tessellation: meridians and parallels of a sphere.
SPHERE_RES = (32, 16)
#: Sides of a capsule, tube or arrow cross-section.
SIDES = 24


@lru_cache(maxsize=8)
def unit_sphere(n_theta: int = SPHERE_RES[0], n_phi: int = SPHERE_RES[1]) -> tuple[np.ndarray, np.ndarray]:
    """Unit sphere at the origin.

    Returns
    -------
    points : (n_theta * (n_phi - 1) + 2, 3) float
    faces : (n_theta * 2 * (n_phi - 1) * 4,) int
    """
    phi = np.linspace(0.0, np.pi, n_phi + 1)[1:-1]
    theta = np.linspace(0.0, 2.0 * np.pi, n_theta, endpoint=False)
    st, ct = np.sin(theta), np.cos(theta)
    ring = np.stack(
        [np.outer(np.sin(phi), ct).ravel(), np.outer(np.sin(phi), st).ravel(), np.repeat(np.cos(phi), n_theta)], axis=1
    )
    points = np.vstack([[0.0, 0.0, 1.0], ring, [0.0, 0.0, -1.0]])
    faces = _grid_faces(n_theta, n_phi - 1, first=1, top=0, bottom=len(points) - 1)
    points.setflags(write=False)
    faces.setflags(write=False)
    return points, faces


def _grid_faces(n_around: int, n_rings: int, first: int, top: int | None, bottom: int | None) -> np.ndarray:
    """Triangles of a closed band of ``n_rings`` rings of ``n_around`` points, with optional pole caps."""
    tris = []
    j = np.arange(n_around)
    jn = (j + 1) % n_around
    if top is not None:
        tris.append(np.stack([np.full(n_around, top), first + j, first + jn], axis=1))
    for ring in range(n_rings - 1):
        a = first + ring * n_around
        b = a + n_around
        tris.append(np.stack([a + j, b + j, b + jn], axis=1))
        tris.append(np.stack([a + j, b + jn, a + jn], axis=1))
    if bottom is not None:
        last = first + (n_rings - 1) * n_around
        tris.append(np.stack([np.full(n_around, bottom), last + jn, last + j], axis=1))
    t = np.vstack(tris)
    return np.hstack([np.full((len(t), 1), 3), t]).astype(np.int64).ravel()


def sphere(center, radius: float, res: tuple[int, int] = SPHERE_RES) -> tuple[np.ndarray, np.ndarray]:
    """Sphere of ``radius`` around ``center`` (3,)."""
    points, faces = unit_sphere(*res)
    return points * radius + np.asarray(center, dtype=float), faces


def _frame(direction: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Unit axis along ``direction`` and two unit vectors perpendicular to it (x axis if zero)."""
    length = float(np.linalg.norm(direction))
    axis = direction / length if length > 0.0 else np.array([1.0, 0.0, 0.0])
    helper = np.array([0.0, 0.0, 1.0]) if abs(axis[2]) < 0.9 else np.array([1.0, 0.0, 0.0])
    u = np.cross(axis, helper)
    u /= np.linalg.norm(u)
    w = np.cross(axis, u)
    return axis, u, w


def capsule(p0, p1, radius: float, sides: int = SIDES, cap_rings: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """The volume swept by a sphere of ``radius`` moving from ``p0`` to ``p1``.

    A cylinder between two hemispheres; with ``p0 == p1`` it is the sphere.

    Returns
    -------
    points : (sides * (2 cap_rings) + 2, 3) float
    faces : flat VTK triangle list
    """
    p0 = np.asarray(p0, dtype=float)
    p1 = np.asarray(p1, dtype=float)
    axis, u, w = _frame(p1 - p0)
    theta = np.linspace(0.0, 2.0 * np.pi, sides, endpoint=False)
    circle = np.outer(np.cos(theta), u) + np.outer(np.sin(theta), w)  # (sides, 3)
    # profile angles from the far pole of the end cap to the equator, then the start cap
    angles = np.linspace(0.0, np.pi / 2, cap_rings + 1)[1:]
    rings = []
    for a in angles:  # cap around p1, from near its pole down to the equator
        rings.append(p1 + radius * (np.cos(a) * axis + np.sin(a) * circle))
    for a in angles[::-1]:  # cap around p0, from the equator to near its pole
        rings.append(p0 + radius * (-np.cos(a) * axis + np.sin(a) * circle))
    points = np.vstack([p1 + radius * axis, *rings, p0 - radius * axis])
    faces = _grid_faces(sides, len(rings), first=1, top=0, bottom=len(points) - 1)
    return points, faces


def tube(path, radius: float, sides: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """A thin open tube along a polyline (paths and segments that stay visible at any zoom).

    Parameters
    ----------
    path : (k, 3) float
        Consecutive duplicates are dropped; fewer than two distinct points give
        an empty mesh.
    """
    pts = np.asarray(path, dtype=float)
    keep = np.ones(len(pts), dtype=bool)
    keep[1:] = np.any(pts[1:] != pts[:-1], axis=1)
    pts = pts[keep]
    if len(pts) < 2:
        return np.empty((0, 3)), np.empty(0, dtype=np.int64)
    return tubes(np.stack([pts[:-1], pts[1:]], axis=1), radius, sides)


def tubes(segments, radius: float, sides: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """Open tubes around many segments at once (vectorised; dashed lines are hundreds of them).

    Parameters
    ----------
    segments : (m, 2, 3) float
        Start and end of each segment; zero-length segments are dropped.
    """
    seg = np.asarray(segments, dtype=float).reshape(-1, 2, 3)
    axis = seg[:, 1] - seg[:, 0]
    length = np.linalg.norm(axis, axis=1)
    seg, axis, length = seg[length > 0], axis[length > 0], length[length > 0]
    m = len(seg)
    if m == 0:
        return np.empty((0, 3)), np.empty(0, dtype=np.int64)
    axis = axis / length[:, None]
    helper = np.where(np.abs(axis[:, 2:3]) < 0.9, [[0.0, 0.0, 1.0]], [[1.0, 0.0, 0.0]])
    u = np.cross(axis, helper)
    u /= np.linalg.norm(u, axis=1)[:, None]
    w = np.cross(axis, u)
    theta = np.linspace(0.0, 2.0 * np.pi, sides, endpoint=False)
    circle = radius * (np.cos(theta)[None, :, None] * u[:, None, :] + np.sin(theta)[None, :, None] * w[:, None, :])
    # per segment: the ring at the end (+axis side first, for outward normals), then the ring at the start
    points = np.concatenate([seg[:, 1, None, :] + circle, seg[:, 0, None, :] + circle], axis=1).reshape(-1, 3)
    one = _grid_faces(sides, 2, first=0, top=None, bottom=None).reshape(-1, 4)
    faces = np.tile(one, (m, 1))
    faces[:, 1:] += (np.repeat(np.arange(m), len(one)) * 2 * sides)[:, None]
    return points, faces.ravel()


def vertex_normals(points: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """Area-weighted unit vertex normals of a triangle mesh, ``(n, 3) float`` (zero for unused points)."""
    tri = faces.reshape(-1, 4)[:, 1:]
    a, b, c = points[tri[:, 0]], points[tri[:, 1]], points[tri[:, 2]]
    face_normals = np.cross(b - a, c - a)
    normals = np.zeros_like(points)
    for k in range(3):
        np.add.at(normals, tri[:, k], face_normals)
    length = np.linalg.norm(normals, axis=1)
    length[length == 0.0] = 1.0
    return normals / length[:, None]


def dashes(path, dash: float, gap: float) -> list[np.ndarray]:
    """Split a polyline into dashes of length ``dash`` separated by ``gap``.

    Returns
    -------
    list of (2, 3) float arrays, one per dash.
    """
    pts = np.asarray(path, dtype=float)
    out = []
    period = dash + gap
    if period <= 0:
        return [pts[[0, -1]]]
    for a, b in zip(pts[:-1], pts[1:]):
        length = float(np.linalg.norm(b - a))
        if length == 0.0:
            continue
        direction = (b - a) / length
        n = int(np.ceil(length / period))
        if n > 400:  # keep very long dashed lines cheap
            period = length / 400
            dash = period * 0.6
            n = 400
        for k in range(n):
            s0 = k * period
            s1 = min(s0 + dash, length)
            out.append(np.vstack([a + s0 * direction, a + s1 * direction]))
    return out


def arrow(start, end, shaft_radius: float, head_radius: float, head_length: float, sides: int = 16):
    """A solid arrow from ``start`` to ``end`` (cylinder shaft and cone head).

    The head length is capped at 60 % of the arrow's length.

    Returns
    -------
    points : (4 sides + 2, 3) float
    faces : flat VTK triangle list
    """
    start = np.asarray(start, dtype=float)
    end = np.asarray(end, dtype=float)
    axis, u, w = _frame(end - start)
    length = float(np.linalg.norm(end - start))
    head = min(head_length, 0.6 * length)
    neck = end - head * axis
    theta = np.linspace(0.0, 2.0 * np.pi, sides, endpoint=False)
    circle = np.outer(np.cos(theta), u) + np.outer(np.sin(theta), w)
    # from the tip (the +axis pole) back to the tail, like the sphere from its top pole
    rings = [neck + head_radius * circle, neck + shaft_radius * circle, start + shaft_radius * circle]
    points = np.vstack([end, *rings, start])
    faces = _grid_faces(sides, 3, first=1, top=0, bottom=len(points) - 1)
    return points, faces
