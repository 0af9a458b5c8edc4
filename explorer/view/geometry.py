"""Triangle meshes built with numpy: spheres, capsules, arrows, tubes of polylines.

Each builder returns a :class:`Mesh`: ``points`` an ``(n, 3) float`` array,
``faces`` in VTK's flat layout ``[3, i, j, k, 3, ...]`` (an ``(m * 4,) int``
array), unit vertex ``normals`` ``(n, 3) float`` computed analytically where the
shape allows, or ``lines`` for line cells.  A sphere's faces and normals are
shared, cached arrays, so updating a sphere in place costs only its points.
Nothing here imports pyvista or Qt.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .picture import BODY_RES


@dataclass(frozen=True, eq=False)
class Mesh:
    """Points with either triangles (and their vertex normals), line cells or vertex cells.

    ``colors``: an ``(n, 3) float`` base colour per point (in [0, 1]) for a mesh
    that joins objects of several colours; None takes the item's colour.
    """

    points: np.ndarray
    faces: np.ndarray | None = None
    normals: np.ndarray | None = None
    lines: np.ndarray | None = None
    colors: np.ndarray | None = None
    verts: np.ndarray | None = None

    @property
    def cells(self) -> np.ndarray:
        """The mesh's cells in VTK's flat layout: its triangles, else its lines, else its vertices."""
        return next(c for c in (self.faces, self.lines, self.verts) if c is not None)

    @property
    def empty(self) -> bool:
        return len(self.points) == 0


EMPTY = Mesh(np.empty((0, 3)))

#: Default tessellation: meridians and parallels of a sphere (the picture's bodies).
SPHERE_RES = BODY_RES
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


@lru_cache(maxsize=64)
def _grid_faces(n_around: int, n_rings: int, first: int, top: int | None, bottom: int | None) -> np.ndarray:
    """Triangles of a closed band of ``n_rings`` rings of ``n_around`` points, with optional pole caps.

    Cached and read-only: meshes of the same kind share one faces array.
    """
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
    faces = np.hstack([np.full((len(t), 1), 3), t]).astype(np.int64).ravel()
    faces.setflags(write=False)
    return faces


def sphere(center, radius: float, res: tuple[int, int] = SPHERE_RES) -> Mesh:
    """Sphere of ``radius`` around ``center`` (3,); faces and normals are the cached unit sphere's."""
    points, faces = unit_sphere(*res)
    return Mesh(points * radius + np.asarray(center, dtype=float), faces, points)


def spheres(centers, radii, res: tuple[int, int] = SPHERE_RES) -> Mesh:
    """Several spheres in one mesh; ``centers`` (k, 3), ``radii`` (k,)."""
    return merge([sphere(c, r, res) for c, r in zip(centers, radii)])


def merge(parts: list[Mesh]) -> Mesh:
    """Concatenate triangle meshes into one."""
    parts = [m for m in parts if not m.empty]
    if not parts:
        return EMPTY
    points, faces, normals, offset = [], [], [], 0
    for m in parts:
        f = m.faces.reshape(-1, 4).copy()
        f[:, 1:] += offset
        points.append(m.points)
        faces.append(f.ravel())
        normals.append(m.normals)
        offset += len(m.points)
    return Mesh(np.vstack(points), np.concatenate(faces), np.vstack(normals))


def _frame(direction: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Unit axis along ``direction`` and two unit vectors perpendicular to it (x axis if zero)."""
    x, y, z = (float(c) for c in direction)
    length = math.sqrt(x * x + y * y + z * z)
    if length > 0.0:
        x, y, z = x / length, y / length, z / length
    else:
        x, y, z = 1.0, 0.0, 0.0
    # u = axis x helper, helper = z (or x when the axis is near z)
    if abs(z) < 0.9:
        ux, uy, uz = y, -x, 0.0
    else:
        ux, uy, uz = 0.0, z, -y
    n = math.sqrt(ux * ux + uy * uy + uz * uz)
    ux, uy, uz = ux / n, uy / n, uz / n
    w = (y * uz - z * uy, z * ux - x * uz, x * uy - y * ux)
    return np.array([x, y, z]), np.array([ux, uy, uz]), np.array(w)


def capsule(p0, p1, radius: float, sides: int = SIDES, cap_rings: int = 8) -> Mesh:
    """The volume swept by a sphere of ``radius`` moving from ``p0`` to ``p1``.

    A cylinder between two hemispheres; with ``p0 == p1`` it is the sphere.

    Returns
    -------
    Mesh
        ``sides * 2 cap_rings + 2`` points with analytic normals.
    """
    p0 = np.asarray(p0, dtype=float)
    p1 = np.asarray(p1, dtype=float)
    axis, u, w = _frame(p1 - p0)
    theta = np.linspace(0.0, 2.0 * np.pi, sides, endpoint=False)
    circle = np.outer(np.cos(theta), u) + np.outer(np.sin(theta), w)  # (sides, 3)
    # profile angles from the far pole of the end cap to the equator, then the start cap
    angles = np.linspace(0.0, np.pi / 2, cap_rings + 1)[1:]
    directions = [np.cos(a) * axis + np.sin(a) * circle for a in angles]  # cap around p1, pole to equator
    directions += [-np.cos(a) * axis + np.sin(a) * circle for a in angles[::-1]]  # cap around p0
    centres = [p1] * len(angles) + [p0] * len(angles)
    normals = np.vstack([axis, *directions, -axis])
    points = np.vstack([p1 + radius * axis, *(c + radius * d for c, d in zip(centres, directions)), p0 - radius * axis])
    faces = _capsule_faces(sides, 2 * cap_rings)
    return Mesh(points, faces, normals)


@lru_cache(maxsize=4)
def _capsule_faces(sides: int, rings: int) -> np.ndarray:
    faces = _grid_faces(sides, rings, first=1, top=0, bottom=sides * rings + 1)
    faces.setflags(write=False)
    return faces


def tube(path, radius: float, sides: int = 8) -> Mesh:
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
        return EMPTY
    return tubes(np.stack([pts[:-1], pts[1:]], axis=1), radius, sides)


def coloured_tubes(paths, colors, radius: float, sides: int = 8) -> Mesh:
    """Thin tubes along several polylines, each in its own colour, as one mesh (one upload, one draw).

    The same triangles as :func:`tube` on each path.

    Parameters
    ----------
    paths : sequence of (k, 3) float
    colors : sequence of (3,) float
        One base colour per path, in [0, 1].
    """
    segments = [np.stack([p[:-1], p[1:]], axis=1) for p in (np.asarray(p, dtype=float) for p in paths)]
    seg = np.concatenate(segments) if segments else np.empty((0, 2, 3))
    per_segment = np.repeat(np.asarray(colors, dtype=float).reshape(-1, 3), [len(s) for s in segments], axis=0)
    keep = np.any(seg[:, 1] != seg[:, 0], axis=1)
    mesh = tubes(seg[keep], radius, sides)
    if mesh.empty:
        return mesh
    return Mesh(mesh.points, mesh.faces, mesh.normals, colors=np.repeat(per_segment[keep], 2 * sides, axis=0))


def tubes(segments, radius: float, sides: int = 8) -> Mesh:
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
        return EMPTY
    axis = axis / length[:, None]
    x, y, z = axis[:, 0], axis[:, 1], axis[:, 2]
    near_z = np.abs(z) >= 0.9  # u = axis x (0, 0, 1), or axis x (1, 0, 0) near the z axis
    u = np.where(near_z[:, None], np.stack([np.zeros_like(x), z, -y], 1), np.stack([y, -x, np.zeros_like(x)], 1))
    u /= np.linalg.norm(u, axis=1)[:, None]
    w = np.stack([y * u[:, 2] - z * u[:, 1], z * u[:, 0] - x * u[:, 2], x * u[:, 1] - y * u[:, 0]], 1)
    theta = np.linspace(0.0, 2.0 * np.pi, sides, endpoint=False)
    ring = np.cos(theta)[None, :, None] * u[:, None, :] + np.sin(theta)[None, :, None] * w[:, None, :]
    # per segment: the ring at the end (+axis side first, for outward normals), then the ring at the start
    points = np.concatenate([seg[:, 1, None, :] + radius * ring, seg[:, 0, None, :] + radius * ring], axis=1).reshape(
        -1, 3
    )
    normals = np.concatenate([ring, ring], axis=1).reshape(-1, 3)
    return Mesh(points, _tube_faces(m, sides), normals)


@lru_cache(maxsize=32)
def _tube_faces(m: int, sides: int) -> np.ndarray:
    """The triangles of :func:`tubes` around ``m`` segments, cached and read-only: a drag that keeps the number of
    segments keeps the same array, and the item's cells are not built again (:meth:`explorer.view.items.ItemSet.show`)."""
    one = _grid_faces(sides, 2, first=0, top=None, bottom=None).reshape(-1, 4)
    faces = np.tile(one, (m, 1))
    faces[:, 1:] += (np.repeat(np.arange(m), len(one)) * 2 * sides)[:, None]
    faces = faces.ravel()
    faces.setflags(write=False)
    return faces


def vertex_normals(points: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """Area-weighted unit vertex normals of a triangle mesh, ``(n, 3) float`` (zero for unused points)."""
    tri = faces.reshape(-1, 4)[:, 1:]
    a, b, c = points[tri[:, 0]], points[tri[:, 1]], points[tri[:, 2]]
    face_normals = np.cross(b - a, c - a)
    corners = tri.ravel()  # each face's three corners in turn, each given its face's normal
    weights = np.repeat(face_normals, 3, axis=0)
    normals = np.stack([np.bincount(corners, weights[:, k], len(points)) for k in range(3)], axis=1)
    length = np.linalg.norm(normals, axis=1)
    length[length == 0.0] = 1.0
    return normals / length[:, None]


#: Most dashes drawn on one line (longer lines get longer dashes).
MAX_DASHES = 400


def dashes(start, end, dash: float, gap: float) -> np.ndarray:
    """Split the segment ``start``-``end`` into dashes of length ``dash`` separated by ``gap``.

    Returns
    -------
    (m, 2, 3) float
        Start and end of each dash (at most :data:`MAX_DASHES`; a longer line
        gets proportionally longer dashes).
    """
    a = np.asarray(start, dtype=float)
    b = np.asarray(end, dtype=float)
    length = float(np.linalg.norm(b - a))
    period = dash + gap
    if length == 0.0 or period <= 0.0:
        return np.empty((0, 2, 3))
    n = int(math.ceil(length / period))
    if n > MAX_DASHES:
        period = length / MAX_DASHES
        dash = 0.6 * period
        n = MAX_DASHES
    s0 = np.arange(n) * period
    s1 = np.minimum(s0 + dash, length)
    direction = (b - a) / length
    return np.stack([a + s0[:, None] * direction, a + s1[:, None] * direction], axis=1)


def arrow(start, end, shaft_radius: float, head_radius: float, head_length: float, sides: int = 16) -> Mesh:
    """A solid arrow from ``start`` to ``end`` (cylinder shaft and cone head).

    The head length is capped at 60 % of the arrow's length.

    Returns
    -------
    Mesh
        ``3 sides + 2`` points.
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
    return Mesh(points, faces, vertex_normals(points, faces))


def circles(center, radius: float, n: int = 96) -> Mesh:
    """Three great circles of a sphere (an outline that reads at any opacity), as line cells."""
    theta = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
    c, s0 = np.cos(theta), np.sin(theta)
    z = np.zeros(n)
    rings = [np.stack([c, s0, z], 1), np.stack([c, z, s0], 1), np.stack([z, c, s0], 1)]
    points = np.vstack(rings) * radius + np.asarray(center, dtype=float)
    return Mesh(points, lines=_circle_lines(n))


@lru_cache(maxsize=4)
def _circle_lines(n: int) -> np.ndarray:
    j = np.arange(n)
    lines = np.concatenate([np.stack([np.full(n, 2), k * n + j, k * n + (j + 1) % n], 1).ravel() for k in range(3)])
    lines.setflags(write=False)
    return lines


def dots(centers, colors) -> Mesh:
    """A vertex cell at each of ``centers`` (k, 3), in its colour ``colors`` (k, 3) in [0, 1] (drawn as dots a few
    pixels wide: :class:`explorer.view.scene_view.SceneView`)."""
    points = np.asarray(centers, dtype=float).reshape(-1, 3)
    if len(points) == 0:
        return EMPTY
    verts = np.stack([np.ones(len(points), dtype=np.int64), np.arange(len(points))], axis=1).ravel()
    return Mesh(points, colors=np.asarray(colors, dtype=float).reshape(-1, 3), verts=verts)


def coloured_lines(paths, colors) -> Mesh:
    """A polyline cell along each of ``paths`` (a sequence of (k, 3) polylines), each in its colour ``colors`` (3,)."""
    pieces = [(np.asarray(path, dtype=float).reshape(-1, 3), color) for path, color in zip(paths, colors)]
    pieces = [(path, color) for path, color in pieces if len(path) >= 2]
    if not pieces:
        return EMPTY
    lines, start = [], 0
    for path, _ in pieces:
        lines += [len(path), *range(start, start + len(path))]
        start += len(path)
    rgb = np.repeat(np.asarray([color for _, color in pieces], dtype=float), [len(path) for path, _ in pieces], axis=0)
    return Mesh(np.concatenate([path for path, _ in pieces]), lines=np.array(lines, dtype=np.int64), colors=rgb)


def segments(points) -> Mesh:
    """Line cells joining consecutive pairs of ``points`` (2 k, 3)."""
    pts = np.asarray(points, dtype=float)
    k = len(pts) // 2
    lines = np.stack([np.full(k, 2), 2 * np.arange(k), 2 * np.arange(k) + 1], 1).ravel()
    return Mesh(pts, lines=lines)


def dashed_tube(start, end, size: float) -> Mesh:
    """A dashed thin tube from ``start`` to ``end``: dashes ``0.3 size`` long, gaps ``0.2 size``, radius ``0.02 size``."""
    return tubes(dashes(start, end, 0.3 * size, 0.2 * size), 0.02 * size, 6)


def ring(center, axis, radius: float, thickness: float, n: int = 32) -> Mesh:
    """A thin ring of ``radius`` around ``axis`` through ``center`` (a tube along a circle)."""
    _, u, w = _frame(np.asarray(axis, dtype=float))
    theta = np.linspace(0.0, 2.0 * np.pi, n + 1)
    circle = np.asarray(center, dtype=float) + radius * (np.outer(np.cos(theta), u) + np.outer(np.sin(theta), w))
    return tubes(np.stack([circle[:-1], circle[1:]], axis=1), thickness, 6)


def flat_circles(centers, radius: float, n: int = 32) -> Mesh:
    """Horizontal circles (in planes z = const) of ``radius`` around each of ``centers`` (k, 3), as line cells.

    The outlines of a body at many instants, light enough for hundreds.
    """
    c = np.asarray(centers, dtype=float).reshape(-1, 3)
    if len(c) == 0:
        return EMPTY
    theta = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
    ring = np.stack([np.cos(theta), np.sin(theta), np.zeros(n)], axis=1) * radius  # (n, 3)
    points = (c[:, None, :] + ring[None, :, :]).reshape(-1, 3)
    j = np.arange(n)
    base = (np.arange(len(c)) * n)[:, None]
    lines = np.stack([np.full((len(c), n), 2), base + j, base + (j + 1) % n], axis=2).reshape(-1)
    return Mesh(points, lines=lines)
