"""Level load benchmark (not a test): a 1000 x 200 tile map, Ledgekit against arcade's ``load_tilemap``.

Run: ``.venv/bin/python tests/benchmarks/bench_level_load.py [--repeats N] [--layout terrain|random] [--size WxH]``

The map (written to a temporary folder, with the shipped tileset) is either ``terrain`` (the default): rolling
ground with slopes, floating platforms and one-way ledges, or ``random``: every one of the 200,000 cells a
random slope, block, half block, one-way tile or nothing (seeded), the worst case for merging outlines (tens
of thousands of separate pieces and holes). ``load_ms`` in the JSON is ``load_level`` alone; for the random
layout only that is timed unless ``--with-world`` (building the world's ~300k segments takes minutes in
``World.add_chain``, which is outside the level loader).

Ledgekit's time (``ours_ms``) covers what a game does before its first frame: reading the map (pytmx and
the object pass), merging the solid tiles into outlines, building the world and its broad phase, and the
render set-up, ``engine.render.LevelRenderer`` (a sprite for every tile; headless, ``ARCADE_HEADLESS=1``).
arcade's covers ``arcade.load_tilemap`` (sprites and hit boxes for every tile, spatial hash on). After an
untimed warm-up of both on a tiny map (imports, caches), the repeats alternate the engines (Ledgekit,
arcade, Ledgekit, ...) on the same map in one process; medians are reported, and the peak resident memory
of the process at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("ARCADE_HEADLESS", "1")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.level.level import load_level  # noqa: E402
from game.mapmaker import map_xml  # noqa: E402

WIDTH, HEIGHT = 1000, 200


def big_layout(width: int = WIDTH, height: int = HEIGHT, seed: int = 3) -> list[str]:
    rng = random.Random(seed)
    rows = [[" "] * width for _ in range(height)]
    low, high = height - max(2, height // 40), height - max(3, height * 3 // 10)
    ground = height - max(3, height // 10)
    for x in range(width):
        step = rng.choice((-1, 0, 0, 0, 1)) if x % 4 == 0 else 0
        ground = min(low, max(high, ground + step))
        for y in range(ground, height):
            rows[y][x] = "#"
        if step < 0 and x > 0:
            rows[ground][x - 1] = "/"
        if x % 37 == 0:
            level = max(0, ground - rng.randint(3, 6))
            for k in range(rng.randint(2, 6)):
                if x + k < width:
                    rows[level][x + k] = "-" if k % 2 else "#"
    return ["".join(r) for r in rows]


def random_layout(width: int = WIDTH, height: int = HEIGHT, seed: int = 5) -> list[str]:
    """Every cell a random tile of the shipped set (or empty), the same map for the same seed."""
    rng = random.Random(seed)
    return ["".join(rng.choice("#/\\abcd=- ") for _ in range(width)) for _ in range(height)]


def peak_mib() -> float:
    """This process's peak resident memory. /proc's VmHWM starts afresh at exec; getrusage's ru_maxrss
    carries the parent's peak into a child process, so it is only the fallback."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def ledgekit_load(path: Path, world_too: bool) -> tuple[float, float, int]:
    """Seconds for ``load_level`` alone, and with the world (broad phase built) and ``LevelRenderer`` (the
    sprites of every tile) too; and the world's segment count (the outlines' vertex count without it)."""
    from engine.render import LevelRenderer

    t0 = time.perf_counter()
    level = load_level(path)
    loaded = time.perf_counter() - t0
    if not world_too:
        return loaded, float("nan"), sum(len(r) for r in level.solid_rings)
    world = level.build_world()
    world.static.broadphase  # noqa: B018 - builds the broad phase
    LevelRenderer(level, world)
    return loaded, time.perf_counter() - t0, len(world.static)


def arcade_load(path: Path) -> float:
    import arcade

    t0 = time.perf_counter()
    arcade.load_tilemap(str(path), use_spatial_hash=True)
    return time.perf_counter() - t0


def write_map(root: Path, layout: list[str]) -> Path:
    """The map, the shipped tileset and the images it and the map's parallax backgrounds use in ``root``; returns
    the map's path."""
    folder = root / "levels"
    folder.mkdir(parents=True)
    (root / "assets").mkdir()
    shutil.copy(ROOT / "levels" / "tiles.tsx", folder / "tiles.tsx")
    for image in ("tiles.png", "sky.png", "hills.png", "trees.png"):
        shutil.copy(ROOT / "assets" / image, root / "assets" / image)
    path = folder / "big.tmx"
    path.write_text(map_xml(layout, [{"name": "start", "cls": "Spawn", "kind": "point", "x": 40, "y": 40}], {}))
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    parser.add_argument("--ledgekit-only", action="store_true", help="skip arcade (for a memory reading)")
    parser.add_argument("--layout", choices=("terrain", "random"), default="terrain")
    parser.add_argument("--size", default=f"{WIDTH}x{HEIGHT}", help="map size in tiles, WIDTHxHEIGHT")
    parser.add_argument("--with-world", action="store_true",
                        help="random layout: time build_world and LevelRenderer too (minutes: World.add_chain on "
                             "~300k segments)")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    root = Path(tempfile.mkdtemp(prefix="ledgekit-bench-"))
    try:
        layout = big_layout(width, height) if args.layout == "terrain" else random_layout(width, height)
        path = write_map(root, layout)
        world_too = args.layout == "terrain" or args.with_world
        warm_up = write_map(root / "warm-up", big_layout(20, 10))  # imports and caches, untimed
        ledgekit_load(warm_up, True)
        if not args.ledgekit_only:
            arcade_load(warm_up)
        loads, ours, theirs = [], [], []
        segments = 0
        for _ in range(args.repeats):  # interleaved: Ledgekit, arcade, Ledgekit, arcade, ...
            loaded, total, segments = ledgekit_load(path, world_too)
            loads.append(loaded)
            ours.append(total)
            if not args.ledgekit_only:
                theirs.append(arcade_load(path))
        m_ours = statistics.median(ours)
        m_theirs = statistics.median(theirs) if theirs else float("nan")
        m_loads = statistics.median(loads)
        peak = peak_mib()
        if args.json:
            print(json.dumps({"segments": segments, "ours_ms": m_ours * 1e3, "theirs_ms": m_theirs * 1e3,
                              "load_ms": m_loads * 1e3, "peak_mib": peak, "tiles": f"{width} x {height}",
                              "rounds": {"ours_ms": [t * 1e3 for t in ours], "load_ms": [t * 1e3 for t in loads],
                                         "theirs_ms": [t * 1e3 for t in theirs]}}))
            return
        print(f"{args.layout} map {width}x{height} tiles -> {segments} {'segments' if world_too else 'outline vertices'}")
        print(f"  ledgekit load_level                                 {m_loads * 1e3:9.1f} ms")
        if world_too:
            print(f"  ledgekit load_level + build_world + LevelRenderer   {m_ours * 1e3:9.1f} ms (median of {args.repeats})")
        if theirs:
            print(f"  arcade load_tilemap                                 {m_theirs * 1e3:9.1f} ms")
            ratio = (m_ours if world_too else m_loads) / m_theirs
            print(f"  ratio                                               {ratio:9.2f}")
        print(f"  peak resident memory of this process: {peak:.0f} MiB")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
