"""How two placed shapes touch, for the world's Python side, by the rigid step's own compiled manifold kernel.

:func:`manifold` answers what :func:`engine.geometry.collide` answers (the same :class:`~engine.geometry.Manifold`,
within 1e-9 px: ``tests/world/test_manifold_kernel.py``), through :func:`engine.world.kernels.manifold.collide`,
the kernel the rigid step gathers its contacts with. So a character's contacts with a crate, a push's contact
point, character-to-character touches and sensor overlaps are computed on the one production path of the
physics; ``engine.geometry`` stays the readable reference the tests hold the kernel to.
"""

from __future__ import annotations

import numpy as np

from ..geometry import ContactPoint, Manifold, RoundedPolygon, Transform
from .jit import kernels
from .rigid import shape_rows

__all__ = ["manifold"]

_KEPT = 4096
"""How many shapes' core rows are kept before the table starts over (shapes made anew each step are let go)."""

_cores: dict[int, tuple[RoundedPolygon, np.ndarray]] = {}


def manifold(a: RoundedPolygon, xf_a: Transform, b: RoundedPolygon, xf_b: Transform,
             margin: float = 0.0) -> Manifold | None:
    """The contact manifold of ``a`` placed by ``xf_a`` and ``b`` placed by ``xf_b``: the unit normal from A to
    B and the points within ``margin`` px (separations in px, negative = overlap); ``None`` when no point is
    within ``margin``. As :func:`engine.geometry.collide`."""
    local = np.empty((max(b.count, 2), 4))  # (the kernel's scratch: B's core in A's frame)
    (nx, ny, valid0, x0, y0, separation0, id0, valid1, x1, y1, separation1, id1,
     _) = kernels().manifold.collide(_core_rows(a), 0, a.count, float(a.radius), _place(xf_a), _core_rows(b), 0,
                                     b.count, float(b.radius), _place(xf_b), float(margin), local)
    points = []
    if valid0:
        points.append(ContactPoint((x0, y0), separation0, int(id0)))
    if valid1:
        points.append(ContactPoint((x1, y1), separation1, int(id1)))
    return Manifold((nx, ny), tuple(points)) if points else None


def _place(xf: Transform) -> tuple[float, float, float, float]:
    """A transform as the kernel takes it: (cos, sin, x, y)."""
    x, y = xf.position
    return (float(xf.cos), float(xf.sin), float(x), float(y))


def _core_rows(shape: RoundedPolygon) -> np.ndarray:
    """``shape``'s core rows (x, y, nx, ny: local vertices and the outward normal of the edge from each), made
    once per shape and kept with it (so that its id stays its own)."""
    kept = _cores.get(id(shape))
    if kept is not None and kept[0] is shape:
        return kept[1]
    core = shape_rows([shape])[0]
    if len(_cores) >= _KEPT:
        _cores.clear()
    _cores[id(shape)] = (shape, core)
    return core
