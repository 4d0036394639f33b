"""Value types of the geometry kernel: transforms, rounded convex polygons and bounding boxes.

Conventions (the whole kernel uses them):

* Units are pixels; the frame is y-up; angles are radians, counter-clockwise.
* A :class:`RoundedPolygon` is a convex *core* polygon Minkowski-summed with a disc of ``radius`` >= 0.
  One vertex gives a circle, two a capsule (a thick segment), three or more a (rounded) convex polygon.
* Core vertices are stored counter-clockwise; ``normals[i]`` is the outward unit normal of the edge from
  ``vertices[i]`` to ``vertices[i + 1]``.

All values are immutable; every constructor validates its input and raises :class:`GeometryError`
(a ``ValueError``) naming the offending value.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import NamedTuple

__all__ = [
    "AABB",
    "MAX_VERTICES",
    "VERTEX_TOLERANCE",
    "GeometryError",
    "RoundedPolygon",
    "Transform",
    "Vec2",
]

Vec2 = tuple[float, float]
"""A 2D vector or point in pixels. Any two-number sequence is accepted as input."""

MAX_VERTICES = 32
"""The most core vertices a :class:`RoundedPolygon` may have."""

VERTEX_TOLERANCE = 1e-4
"""Pixels. Core vertices closer than this are duplicates; a vertex closer than this to the line through its
neighbours is collinear. Both are rejected because they make edge normals meaningless."""


class GeometryError(ValueError):
    """Bad input to the geometry kernel. The message names the offending value."""


def _finite_point(value: object, what: str) -> Vec2:
    try:
        x, y = value  # type: ignore[misc]
        fx, fy = float(x), float(y)  # type: ignore[has-type]
    except (TypeError, ValueError):
        raise GeometryError(f"{what} must be a pair of numbers, got {value!r}") from None
    if not (math.isfinite(fx) and math.isfinite(fy)):
        raise GeometryError(f"{what} must be finite, got {value!r}")
    return (fx, fy)


def _finite_scalar(value: object, what: str) -> float:
    try:
        f = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise GeometryError(f"{what} must be a number, got {value!r}") from None
    if not math.isfinite(f):
        raise GeometryError(f"{what} must be finite, got {value!r}")
    return f


class Transform:
    """A rigid transform: rotate by ``angle`` (radians, counter-clockwise) about the local origin, then
    translate by ``position`` (pixels). Maps a shape's local frame to the world frame.

    >>> xf = Transform((10.0, 0.0), math.pi / 2)
    >>> [round(c, 9) for c in xf.apply((1.0, 0.0))]
    [10.0, 1.0]
    """

    __slots__ = ("angle", "cos", "position", "sin")

    position: Vec2
    angle: float
    cos: float
    sin: float

    def __init__(self, position: Sequence[float] = (0.0, 0.0), angle: float = 0.0) -> None:
        set_ = object.__setattr__
        set_(self, "position", _finite_point(position, "Transform position"))
        a = _finite_scalar(angle, "Transform angle")
        set_(self, "angle", a)
        set_(self, "cos", math.cos(a))
        set_(self, "sin", math.sin(a))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Transform is immutable")

    def __repr__(self) -> str:
        return f"Transform(position={self.position!r}, angle={self.angle!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Transform) and (self.position, self.angle) == (other.position, other.angle)

    def __hash__(self) -> int:
        return hash((self.position, self.angle))

    def __reduce__(self):  # pickling (slots + immutability)
        return (Transform, (self.position, self.angle))

    def apply(self, point: Sequence[float]) -> Vec2:
        """Local point -> world point."""
        x, y = point
        c, s = self.cos, self.sin
        px, py = self.position
        return (c * x - s * y + px, s * x + c * y + py)

    def apply_inverse(self, point: Sequence[float]) -> Vec2:
        """World point -> local point."""
        px, py = self.position
        x, y = point[0] - px, point[1] - py
        c, s = self.cos, self.sin
        return (c * x + s * y, -s * x + c * y)

    def rotate(self, vector: Sequence[float]) -> Vec2:
        """Rotate a local direction into the world frame (no translation)."""
        x, y = vector
        c, s = self.cos, self.sin
        return (c * x - s * y, s * x + c * y)

    def rotate_inverse(self, vector: Sequence[float]) -> Vec2:
        """Rotate a world direction into the local frame (no translation)."""
        x, y = vector
        c, s = self.cos, self.sin
        return (c * x + s * y, -s * x + c * y)


IDENTITY = Transform()


class AABB(NamedTuple):
    """Axis-aligned bounding box in pixels (y-up): ``min_x <= max_x`` and ``min_y <= max_y``."""

    min_x: float
    min_y: float
    max_x: float
    max_y: float

    def overlaps(self, other: AABB) -> bool:
        """True when the boxes overlap or touch."""
        return not (
            other.min_x > self.max_x
            or other.max_x < self.min_x
            or other.min_y > self.max_y
            or other.max_y < self.min_y
        )

    def contains_point(self, point: Sequence[float]) -> bool:
        return self.min_x <= point[0] <= self.max_x and self.min_y <= point[1] <= self.max_y

    def union(self, other: AABB) -> AABB:
        return AABB(
            min(self.min_x, other.min_x),
            min(self.min_y, other.min_y),
            max(self.max_x, other.max_x),
            max(self.max_y, other.max_y),
        )

    def grown(self, margin: float) -> AABB:
        """The box grown by ``margin`` pixels on every side."""
        return AABB(self.min_x - margin, self.min_y - margin, self.max_x + margin, self.max_y + margin)

    def swept(self, translation: Sequence[float]) -> AABB:
        """The box covering this one moved along ``translation`` (pixels) from start to end."""
        dx, dy = translation
        return AABB(
            self.min_x + min(dx, 0.0),
            self.min_y + min(dy, 0.0),
            self.max_x + max(dx, 0.0),
            self.max_y + max(dy, 0.0),
        )

    @property
    def width(self) -> float:
        return self.max_x - self.min_x

    @property
    def height(self) -> float:
        return self.max_y - self.min_y

    @property
    def center(self) -> Vec2:
        return ((self.min_x + self.max_x) * 0.5, (self.min_y + self.max_y) * 0.5)


def _edge_normals(vertices: Sequence[Vec2]) -> tuple[Vec2, ...]:
    """Outward unit normals of a counter-clockwise core (for two vertices: both sides of the segment)."""
    n = len(vertices)
    if n == 1:
        return ()
    normals = []
    for i in range(n):
        x1, y1 = vertices[i]
        x2, y2 = vertices[(i + 1) % n]
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy)
        # Outward for a counter-clockwise polygon is to the right of the edge direction.
        normals.append((dy / length, -dx / length))
    return tuple(normals)


def _cross3(o: Vec2, a: Vec2, b: Vec2) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def convex_hull(points: Iterable[Sequence[float]], tolerance: float = VERTEX_TOLERANCE) -> list[Vec2]:
    """Counter-clockwise convex hull of ``points`` (Andrew's monotone chain), without collinear or
    duplicate vertices (within ``tolerance`` pixels). Returns 1 point for a single point, 2 for a segment."""
    pts = sorted({(float(p[0]), float(p[1])) for p in points})
    if len(pts) <= 1:
        return pts

    def half(seq: list[Vec2]) -> list[Vec2]:
        chain: list[Vec2] = []
        for p in seq:
            while len(chain) >= 2:
                o, a = chain[-2], chain[-1]
                # Drop `a` unless it makes a clear left turn; the distance of `a` from the line o-p decides.
                cross = _cross3(o, a, p)
                base = math.hypot(p[0] - o[0], p[1] - o[1])
                if cross <= tolerance * base:
                    chain.pop()
                else:
                    break
            chain.append(p)
        return chain

    lower = half(pts)
    upper = half(pts[::-1])
    hull = lower[:-1] + upper[:-1]
    # Merge near-duplicates that survived (points within tolerance of each other).
    cleaned: list[Vec2] = []
    for p in hull:
        if cleaned and math.hypot(p[0] - cleaned[-1][0], p[1] - cleaned[-1][1]) <= tolerance:
            continue
        cleaned.append(p)
    if len(cleaned) > 1 and math.hypot(cleaned[0][0] - cleaned[-1][0], cleaned[0][1] - cleaned[-1][1]) <= tolerance:
        cleaned.pop()
    if not cleaned:
        cleaned = [pts[0]]
    return cleaned


class RoundedPolygon:
    """A convex core polygon Minkowski-summed with a disc of ``radius`` pixels (the rounded shape).

    ``vertices`` are in the shape's local frame, in either winding (stored counter-clockwise). The core
    must be strictly convex: no duplicate vertices, no collinear vertices (within
    :data:`VERTEX_TOLERANCE`), at most :data:`MAX_VERTICES` vertices. One vertex makes a circle (radius > 0
    required), two a capsule (radius may be 0: a plain segment), three or more a polygon.

    >>> RoundedPolygon.box(16, 8).vertices
    ((-16.0, -8.0), (16.0, -8.0), (16.0, 8.0), (-16.0, 8.0))
    """

    __slots__ = ("_local_aabb", "count", "normals", "radius", "vertices")

    vertices: tuple[Vec2, ...]
    normals: tuple[Vec2, ...]
    radius: float
    count: int
    _local_aabb: AABB

    def __init__(self, vertices: Sequence[Sequence[float]], radius: float = 0.0) -> None:
        r = _finite_scalar(radius, "RoundedPolygon radius")
        if r < 0.0:
            raise GeometryError(f"RoundedPolygon radius must be >= 0, got {radius!r}")
        try:
            raw = list(vertices)
        except TypeError:
            raise GeometryError(f"RoundedPolygon vertices must be a sequence of points, got {vertices!r}") from None
        if not raw:
            raise GeometryError("RoundedPolygon needs at least one vertex, got none")
        if len(raw) > MAX_VERTICES:
            raise GeometryError(f"RoundedPolygon has {len(raw)} vertices; at most {MAX_VERTICES} are allowed")
        pts = [_finite_point(p, f"RoundedPolygon vertex {i}") for i, p in enumerate(raw)]
        n = len(pts)
        for i in range(n):
            for j in range(i + 1, n):
                if math.hypot(pts[i][0] - pts[j][0], pts[i][1] - pts[j][1]) <= VERTEX_TOLERANCE:
                    raise GeometryError(
                        f"RoundedPolygon vertices {i} and {j} are duplicates: {pts[i]!r} and {pts[j]!r}"
                    )
        if n == 1 and r == 0.0:
            raise GeometryError("a one-vertex RoundedPolygon (circle) needs radius > 0, got 0")
        if n >= 3:
            area2 = sum(pts[i][0] * pts[(i + 1) % n][1] - pts[(i + 1) % n][0] * pts[i][1] for i in range(n))
            if area2 < 0.0:
                pts.reverse()  # accept clockwise input; store counter-clockwise
            for i in range(n):
                prev, cur, nxt = pts[i - 1], pts[i], pts[(i + 1) % n]
                cross = _cross3(prev, cur, nxt)
                base = math.hypot(nxt[0] - prev[0], nxt[1] - prev[1])
                if abs(cross) <= VERTEX_TOLERANCE * base:
                    raise GeometryError(f"RoundedPolygon vertex {cur!r} is collinear with its neighbours")
                if cross < 0.0:
                    raise GeometryError(f"RoundedPolygon is not convex: it turns the wrong way at vertex {cur!r}")
            # A star-shaped input (e.g. a pentagram) turns left everywhere but winds twice.
            turning = 0.0
            for i in range(n):
                a, b, c = pts[i - 1], pts[i], pts[(i + 1) % n]
                turning += math.atan2(_cross3(a, b, c), (b[0] - a[0]) * (c[0] - b[0]) + (b[1] - a[1]) * (c[1] - b[1]))
            if turning > 2.0 * math.pi + 1e-6:
                raise GeometryError("RoundedPolygon is not convex: its vertices wind around more than once")
        self._init(tuple(pts), _edge_normals(pts), r)

    def _init(self, vertices: tuple[Vec2, ...], normals: tuple[Vec2, ...], radius: float) -> None:
        set_ = object.__setattr__
        set_(self, "vertices", vertices)
        set_(self, "normals", normals)
        set_(self, "radius", radius)
        set_(self, "count", len(vertices))
        xs = [v[0] for v in vertices]
        ys = [v[1] for v in vertices]
        set_(self, "_local_aabb", AABB(min(xs) - radius, min(ys) - radius, max(xs) + radius, max(ys) + radius))

    @classmethod
    def _trusted(cls, vertices: Sequence[Vec2], radius: float) -> RoundedPolygon:
        """Build without validation from a counter-clockwise, strictly convex core (kernel-internal)."""
        shape = cls.__new__(cls)
        verts = tuple(vertices)
        shape._init(verts, _edge_normals(verts), radius)
        return shape

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("RoundedPolygon is immutable")

    def inflated(self, extra: float) -> RoundedPolygon:
        """The same core with its radius grown by ``extra`` pixels (>= -radius): a character's skin-grown cast
        shape, say."""
        radius = self.radius + float(extra)
        if not (math.isfinite(radius) and radius >= 0.0):
            raise GeometryError(f"inflated: the radius would be {radius!r} (radius {self.radius!r} + {extra!r})")
        return RoundedPolygon._trusted(self.vertices, radius)

    def __repr__(self) -> str:
        return f"RoundedPolygon({list(self.vertices)!r}, radius={self.radius!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, RoundedPolygon)
            and self.vertices == other.vertices
            and self.radius == other.radius
        )

    def __hash__(self) -> int:
        return hash((self.vertices, self.radius))

    def __reduce__(self):
        # (Rebuilt as it is, not through the checks for hand-made shapes: the engine's own shapes, Minkowski
        # sums in its caches among them, may have hull vertices a hair off a line, and a copy must equal them.)
        return (RoundedPolygon._trusted, (self.vertices, self.radius))

    # ----------------------------------------------------------------- constructors
    @classmethod
    def circle(cls, radius: float, center: Sequence[float] = (0.0, 0.0)) -> RoundedPolygon:
        """A disc of ``radius`` pixels (> 0) around ``center`` (local frame)."""
        return cls([center], radius)

    @classmethod
    def capsule(cls, p1: Sequence[float], p2: Sequence[float], radius: float) -> RoundedPolygon:
        """A thick segment: every point within ``radius`` pixels of the segment p1-p2. Radius 0 gives a
        plain segment."""
        return cls([p1, p2], radius)

    @classmethod
    def segment(cls, p1: Sequence[float], p2: Sequence[float]) -> RoundedPolygon:
        """A segment with no thickness (a capsule of radius 0)."""
        return cls([p1, p2], 0.0)

    @classmethod
    def box(
        cls,
        half_width: float,
        half_height: float,
        radius: float = 0.0,
        center: Sequence[float] = (0.0, 0.0),
        angle: float = 0.0,
    ) -> RoundedPolygon:
        """A box whose *outer* extents are ``2 * half_width`` by ``2 * half_height`` pixels, with corners
        rounded by ``radius`` (the core is shrunk by the radius so the outside size stays what you asked
        for; ``radius`` must be smaller than both half extents). ``center`` and ``angle`` (radians, CCW)
        place it in the local frame."""
        hw = _finite_scalar(half_width, "box half_width")
        hh = _finite_scalar(half_height, "box half_height")
        r = _finite_scalar(radius, "box radius")
        if hw <= 0.0:
            raise GeometryError(f"box half_width must be > 0, got {half_width!r}")
        if hh <= 0.0:
            raise GeometryError(f"box half_height must be > 0, got {half_height!r}")
        if r < 0.0 or r >= min(hw, hh):
            raise GeometryError(
                f"box radius must be >= 0 and smaller than both half extents ({hw}, {hh}), got {radius!r}"
            )
        xf = Transform(center, angle)
        cw, ch = hw - r, hh - r
        corners = [(-cw, -ch), (cw, -ch), (cw, ch), (-cw, ch)]
        return cls([xf.apply(p) for p in corners], r)

    @classmethod
    def polygon(cls, points: Sequence[Sequence[float]], radius: float = 0.0) -> RoundedPolygon:
        """A convex polygon (either winding) rounded by ``radius`` pixels; the same as the constructor."""
        return cls(points, radius)

    @classmethod
    def hull(cls, points: Iterable[Sequence[float]], radius: float = 0.0) -> RoundedPolygon:
        """The convex hull of ``points`` rounded by ``radius``. Collinear and duplicate points are dropped,
        so any point cloud is accepted as long as it is finite and not empty."""
        pts = [_finite_point(p, f"hull point {i}") for i, p in enumerate(points)]
        if not pts:
            raise GeometryError("RoundedPolygon.hull needs at least one point, got none")
        hull = convex_hull(pts)
        if len(hull) > MAX_VERTICES:
            raise GeometryError(f"hull has {len(hull)} vertices; at most {MAX_VERTICES} are allowed")
        return cls(hull, radius)

    # ----------------------------------------------------------------- queries on the value itself
    @property
    def kind(self) -> str:
        """``"circle"``, ``"capsule"`` or ``"polygon"``, from the number of core vertices."""
        return ("circle", "capsule")[self.count - 1] if self.count <= 2 else "polygon"

    @property
    def local_aabb(self) -> AABB:
        """Bounding box in the shape's local frame."""
        return self._local_aabb

    def aabb(self, xf: Transform = IDENTITY) -> AABB:
        """Tight bounding box of the shape placed by ``xf`` (world frame)."""
        if xf.angle == 0.0:
            px, py = xf.position
            a = self._local_aabb
            return AABB(a.min_x + px, a.min_y + py, a.max_x + px, a.max_y + py)
        c, s = xf.cos, xf.sin
        px, py = xf.position
        xs = [c * x - s * y for x, y in self.vertices]
        ys = [s * x + c * y for x, y in self.vertices]
        r = self.radius
        return AABB(min(xs) + px - r, min(ys) + py - r, max(xs) + px + r, max(ys) + py + r)

    def support(self, direction: Sequence[float]) -> Vec2:
        """The core vertex farthest along ``direction`` (local frame)."""
        dx, dy = direction
        best = self.vertices[0]
        best_dot = best[0] * dx + best[1] * dy
        for v in self.vertices[1:]:
            d = v[0] * dx + v[1] * dy
            if d > best_dot:
                best, best_dot = v, d
        return best

    def transformed(self, xf: Transform) -> RoundedPolygon:
        """The same shape with its core moved by ``xf`` (useful to build compound level geometry)."""
        return RoundedPolygon._trusted([xf.apply(v) for v in self.vertices], self.radius)
