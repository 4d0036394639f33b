"""Tile layers' collision is placed gid by gid, all cells at once; the result must be what a walk over the
cells makes (row by row, left to right; a run of whole-cell blocks one rectangle where it ends), so that the
union and every segment index stay the same whatever the map."""

import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import bench_level_load  # noqa: E402

from engine.level.model import TileLayer  # noqa: E402
from engine.level.outlines import merge_outlines, merge_packed  # noqa: E402
from engine.level.tiles import TileGeometry, TilePlacer  # noqa: E402
from engine.level.tmx import read_map  # noqa: E402


def walked(placer: TilePlacer, layer: TileLayer) -> tuple[list, list]:
    """The reference: every cell in turn (solid polygons, one-way tops)."""
    tw, th = placer.tiled.tilewidth, placer.tiled.tileheight
    dx, dy = layer.offset[0], -layer.offset[1]
    polygons, tops = [], []
    for row, cells in enumerate(layer.cells):
        y = placer.map_h - (row + 1) * th + dy
        run = -1
        for col, raw in enumerate([*cells, 0]):
            if raw in placer.full_blocks:
                run = col if run < 0 else run
                continue
            if run >= 0:
                x0, x1 = run * tw + dx, col * tw + dx
                polygons.append([(x0, y), (x1, y), (x1, y + th), (x0, y + th)])
                run = -1
            shapes = placer.shapes(raw) if raw else None
            for poly in shapes.polygons if shapes else []:
                placed = [(col * tw + dx + px, y + py) for px, py in poly]
                if shapes.one_way:
                    tops.append((min(p[0] for p in placed), max(p[0] for p in placed), max(p[1] for p in placed)))
                else:
                    polygons.append(placed)
    return polygons, tops


def test_a_random_map_places_the_same_polygons_in_the_same_order_as_a_walk_over_its_cells(tmp_path):
    path = bench_level_load.write_map(tmp_path, bench_level_load.random_layout(60, 25, seed=11))
    tiled = read_map(path)
    placer = TilePlacer(tiled)
    layers = [layer for layer in tiled.layers if isinstance(layer, TileLayer)]
    geometry, expected, expected_tops = TileGeometry(), [], []
    for layer in layers:
        placer.layer(layer, geometry)
        polygons, tops = walked(placer, layer)
        expected += polygons
        expected_tops += tops
    points, sizes = geometry.all_polygons()
    got = [[tuple(p) for p in ring.tolist()] for ring in np.split(points, np.cumsum(sizes)[:-1])]
    assert len(expected) > 500 and len(expected_tops) > 50  # blocks, runs, slopes and one-way tiles all there
    assert got == expected
    assert geometry.one_way_tops == expected_tops


def test_packed_polygons_merge_as_listed_ones_leaving_out_short_and_broken_ones():
    rng = random.Random(3)
    rings = [[(x, y), (x + 32.0, y), (x + 32.0, y + 32.0)][: rng.choice((2, 3, 3, 3))]
             for x, y in ((rng.randrange(40) * 32.0, rng.randrange(10) * 32.0) for _ in range(200))]
    rings[5] = [(0.0, 0.0), (float("nan"), 1.0), (float("inf"), 1.0)]
    points = np.array([p for ring in rings for p in ring])
    kept = [ring for k, ring in enumerate(rings) if len(ring) >= 3 and k != 5]
    assert merge_packed(points, np.array([len(ring) for ring in rings])) == merge_outlines(kept)
    assert merge_packed(np.zeros((0, 2)), np.zeros(0, dtype=int)) == []
