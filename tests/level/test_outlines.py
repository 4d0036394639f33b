"""Outline merging: tiles become seamless outlines."""

import struct

import numpy as np

from engine.level.outlines import merge_outlines, ring_segments

TILE = 32.0


def square(col, row):
    x, y = col * TILE, row * TILE
    return [(x, y), (x + TILE, y), (x + TILE, y + TILE), (x, y + TILE)]


def slope_up(col, row):
    x, y = col * TILE, row * TILE
    return [(x, y), (x + TILE, y), (x + TILE, y + TILE)]


def test_a_row_of_100_tiles_is_one_outline_with_no_interior_joints():
    rings = merge_outlines(square(c, 0) for c in range(100))
    assert len(rings) == 1
    ring = rings[0]
    assert len(ring) == 4  # one rectangle: the joints between tiles are gone
    xs = sorted({x for x, _ in ring})
    assert xs == [0.0, 3200.0]


def test_a_staircase_of_slopes_and_flats_is_one_continuous_chain():
    """
           /##
      ____/###      flat, 45-degree slope, flat, one level up, all on a solid base row
    """
    tiles = [square(c, 0) for c in range(8)] + [slope_up(3, 1), square(4, 1), square(5, 1), square(6, 1), square(7, 1)]
    rings = merge_outlines(tiles)
    assert len(rings) == 1
    ring = rings[0]
    segments = ring_segments(ring)
    # The top surface: flat (0..96, 32), slope up to (128, 64), flat to (256, 64); no vertex at tile seams.
    assert (96.0, 32.0) in ring and (128.0, 64.0) in ring
    assert not any(x == 64.0 and y == 32.0 for x, y in ring)
    for (ax, ay), (bx, by) in segments:
        assert (ax, ay) != (bx, by)
    assert len(ring) == 6  # base corners (2), wall tops (2), slope foot and slope top


def test_a_hole_is_its_own_ring():
    tiles = [square(c, r) for c in range(3) for r in range(3) if (c, r) != (1, 1)]
    rings = merge_outlines(tiles)
    assert len(rings) == 2


def test_degenerate_input_gives_nothing():
    assert merge_outlines([]) == []
    assert merge_outlines([[(0, 0), (1, 1), (2, 2)]]) == []


def _shapes(seed):
    """A 24 x 12 grid of random tile shapes (blocks, both slopes, half blocks, corner-touching diagonals), a
    second layer over part of it, and a few rectangles laid across tiles at odd positions."""
    import random

    rng = random.Random(seed)
    kinds = [square, slope_up, lambda c, r: [(c * TILE, r * TILE), (c * TILE + TILE, r * TILE),
                                             (c * TILE, r * TILE + TILE)],
             lambda c, r: [(c * TILE, r * TILE), (c * TILE + TILE, r * TILE), (c * TILE + TILE, r * TILE + 16),
                           (c * TILE, r * TILE + 16)], None, None]
    shapes = []
    for layer in range(2):
        for c in range(24):
            for r in range(12):
                kind = rng.choice(kinds)
                if kind is not None and (layer == 0 or rng.random() < 0.2):
                    shapes.append(kind(c, r))
    for _ in range(4):
        x, y, w, h = rng.uniform(0, 700), rng.uniform(0, 350), rng.uniform(5, 90), rng.uniform(5, 90)
        shapes.append([(x, y), (x + w, y), (x + w, y + h), (x, y + h)])
    return shapes


def test_the_merged_outlines_bound_exactly_the_union_shapely_computes():
    import shapely
    from shapely.geometry import Polygon

    for seed in range(5):
        shapes = _shapes(seed)
        union = shapely.union_all([Polygon(s) for s in shapes])
        rings = merge_outlines(shapes)
        expected_rings = sum(1 + len(p.interiors) for p in getattr(union, "geoms", [union]))
        assert len(rings) == expected_rings
        # Outer rings count their area, holes (clockwise) take theirs away: the total is the union's area.
        signed = sum(Polygon(r).area * (1 if _ccw(r) else -1) for r in rings)
        assert abs(signed - union.area) < 0.01 * len(rings)
        perimeter = sum(Polygon(r).exterior.length for r in rings)
        assert abs(perimeter - union.length) < 0.01 * len(rings)


def _ccw(ring):
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1])) > 0


def test_tiles_touching_only_at_a_corner_stay_two_outlines():
    rings = merge_outlines([square(0, 0), square(1, 1)])
    assert sorted(len(r) for r in rings) == [4, 4]


def test_rings_share_one_float_per_coordinate_and_keep_every_bit() -> None:
    """A large map repeats few coordinates: the rings' tuples share one float object for each (memory), and
    the numbers are the same bit for bit, 0.0 and -0.0 apart."""
    from engine.level.outlines import shared_rings

    points = np.array([[0.0, 32.0], [32.0, 32.0], [-0.0, 0.1 + 0.2], [32.0, 0.0], [0.0, 32.0], [1e-300, -0.0]])
    rings = shared_rings(points, [2, 3, 1])
    assert [len(r) for r in rings] == [2, 3, 1]
    flat = [p for ring in rings for p in ring]
    assert [struct.pack("<2d", *p) for p in flat] == [struct.pack("<2d", *p) for p in points.tolist()]
    assert all(type(p) is tuple and type(p[0]) is float for p in flat)
    assert flat[0][1] is flat[1][1] is flat[4][1] and flat[1][0] is flat[3][0]  # (one object for 32.0)
    assert flat[0][0] is not flat[2][0]  # (0.0 and -0.0: two numbers)


def test_a_large_random_map_keeps_few_float_objects() -> None:
    """Merged outlines of many random tiles: far fewer float objects than coordinates."""
    rng = np.random.default_rng(3)
    cells = [(x, y) for x in range(60) for y in range(30) if rng.random() < 0.5]
    rings = merge_outlines([[(x * 32.0, y * 32.0), (x * 32.0 + 32.0, y * 32.0), (x * 32.0 + 16.0, y * 32.0 + 32.0)]
                            for x, y in cells])
    coordinates = [c for ring in rings for p in ring for c in p]
    assert len(coordinates) > 1000
    assert len({id(c) for c in coordinates}) <= len(set(coordinates))


def test_overlapping_shapes_found_on_the_grid_are_those_the_spatial_index_finds():
    """The loader finds shapes to merge with shapely on a grid of tile-sized cells; the pairs must be exactly
    those of shapely's spatial index, for tiles, tiles with objects over them and scattered boxes of any size."""
    from engine.level.outlines import _overlaps_by_tree, _overlaps_on_grid

    rng = np.random.default_rng(7)
    checked = 0
    for trial in range(120):
        n = int(rng.integers(1, 300))
        if trial % 3 == 0:  # tiles and half tiles on a 32 px grid (some share a cell)
            cell = rng.integers(0, 20, (n, 2)) * 32.0
            lo, hi = cell + rng.choice([0.0, 16.0], (n, 2)), cell + 32.0
        elif trial % 3 == 1:  # boxes anywhere, of any size
            lo = rng.uniform(-500, 500, (n, 2))
            hi = lo + rng.exponential(40, (n, 2))
        else:  # boxes on a coarse grid, some of no width
            lo = rng.integers(-20, 20, (n, 2)) * 8.0
            hi = lo + rng.integers(0, 5, (n, 2)) * 8.0
        on_grid = _overlaps_on_grid(lo, hi)
        if on_grid is None:  # (too tangled for the grid: the index is used)
            continue
        by_tree = _overlaps_by_tree(lo, hi)
        assert set(zip(*(a.tolist() for a in on_grid))) == set(zip(*(a.tolist() for a in by_tree)))
        checked += 1
    assert checked > 100
