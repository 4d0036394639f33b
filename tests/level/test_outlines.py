"""Outline merging: tiles become seamless outlines."""

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
