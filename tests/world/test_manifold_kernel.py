"""The manifold kernel (engine.world.kernels.manifold) gives what the readable ``engine.geometry.collide``
gives: the same normals, points, separations and feature ids (within 1e-9), for polygons of any vertex
counts, capsules, static segments and circles. Checked on the plain-Python tree of the kernels (the same
function the compiled tree compiles; the two step worlds to the same numbers, test_kernels_plain)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from engine.geometry import collide
from engine.world.kernels.compile import plain_kernels
from engine.world.manifolds import manifold
from engine.world.rigid import shape_rows
from tests.geometry.oracle import capsules, circles, convex_polygons, transforms

TOLERANCE = 1e-9
anything = st.one_of(convex_polygons(), capsules(), circles())
margins = st.sampled_from([0.0, 0.5, 4.0])


def kernel_manifold(a, xa, b, xb, margin):
    """The kernel's answer for A at ``xa`` and B at ``xb``."""
    core, offsets, radius, _, _ = shape_rows([a, b])
    places = [(math.cos(xf.angle), math.sin(xf.angle), *xf.position) for xf in (xa, xb)]
    local = np.empty((max(a.count, b.count, 2), 4))
    return plain_kernels().manifold.collide(core, 0, a.count, float(radius[0]), places[0], core, int(offsets[1]),
                                            b.count, float(radius[1]), places[1], margin, local)


@given(anything, transforms, anything, transforms, margins)
def test_the_kernel_manifold_of_any_two_shapes_is_the_references(a, xa, b, xb, margin):
    expected = collide(a, xa, b, xb, margin)
    nx, ny, valid0, x0, y0, sep0, id0, valid1, x1, y1, sep1, id1, _ = kernel_manifold(a, xa, b, xb, margin)
    got = [(x0, y0, sep0, id0)] if valid0 else []
    got += [(x1, y1, sep1, id1)] if valid1 else []
    if expected is None:
        assert not got
        return
    assert len(got) == len(expected.points)
    assert math.isclose(nx, expected.normal[0], abs_tol=TOLERANCE) and math.isclose(ny, expected.normal[1],
                                                                                      abs_tol=TOLERANCE)
    for (x, y, separation, feature), point in zip(got, expected.points):  # (in the reference's order)
        assert feature == point.id
        assert math.isclose(separation, point.separation, abs_tol=TOLERANCE)
        assert math.isclose(x, point.point[0], abs_tol=TOLERANCE) and math.isclose(y, point.point[1],
                                                                                   abs_tol=TOLERANCE)


@given(anything, transforms, anything, transforms, margins)
def test_the_worlds_manifold_is_the_compiled_kernels_and_equals_the_reference(a, xa, b, xb, margin):
    """``engine.world.manifolds.manifold`` (what a character's contacts with bodies, its push points, character
    touches and sensor overlaps are computed with) answers as ``engine.geometry.collide``, within 1e-9 px."""
    expected, got = collide(a, xa, b, xb, margin), manifold(a, xa, b, xb, margin)
    if expected is None:
        assert got is None
        return
    assert got is not None and len(got.points) == len(expected.points)
    assert all(math.isclose(g, e, abs_tol=TOLERANCE) for g, e in zip(got.normal, expected.normal))
    for point, reference in zip(got.points, expected.points):
        assert point.id == reference.id
        assert math.isclose(point.separation, reference.separation, abs_tol=TOLERANCE)
        assert all(math.isclose(g, e, abs_tol=TOLERANCE) for g, e in zip(point.point, reference.point))


def test_the_worlds_python_side_has_no_second_manifold():
    """The world's parts and the character mover ask the compiled manifold how two shapes touch; none of them
    imports the reference's ``collide`` (a second production path for the same physics)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "engine"
    for path in [root / "character.py", *sorted((root / "world").glob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.endswith("geometry"):
                assert "collide" not in {alias.name for alias in node.names}, path
