"""Level load benchmark (not a test): a 1000 x 200 tile map, Ledgekit against arcade's ``load_tilemap``.

Run: ``.venv/bin/python tests/benchmarks/bench_level_load.py [--repeats N] [--layout terrain|random] [--size WxH]``

The map (written to a temporary folder, with the shipped tileset) is either ``terrain`` (the default): rolling
ground with slopes, floating platforms and one-way ledges, or ``random``: every one of the 200,000 cells a
random slope, block, half block, one-way tile or nothing (seeded), the worst case for merging outlines (tens
of thousands of separate pieces and holes). ``load_ms`` in the JSON is ``load_level`` alone; for the random
layout only that is timed unless ``--with-world``.

Ledgekit's time (``ours_ms``) covers what a game does before its first frame: reading the map (pytmx and
the object pass), merging the solid tiles into outlines, building the world and its broad phase, and the
render set-up, ``engine.render.LevelRenderer`` (a sprite for every tile; headless, ``ARCADE_HEADLESS=1``).
arcade's covers ``arcade.load_tilemap`` (sprites and hit boxes for every tile, spatial hash on). After an
untimed warm-up of both on a tiny map (imports, caches), the repeats alternate the engines (Ledgekit,
arcade, Ledgekit, ...) on the same map in one process; medians of the thread's CPU time
(``time.thread_time``: what this process computed, not what others on a busy machine took from it) are
reported, and the peak resident memory of the process at the end.

For memory readings of one side alone (each in a process of its own, as the runner starts them):
``--ledgekit-only`` (Ledgekit's whole load, renderer included), ``--world-only`` (``load_level`` and the
world with its broad phase, no renderer and no arcade import: the physics side's peak) and
``--arcade-only`` (``import arcade`` and ``load_tilemap`` only, no Ledgekit import). So that the reading
holds only its own side, such a process loads a map written before by another (``--write-map FOLDER`` writes
it, with the tileset and images, and prints its path; ``--map PATH`` loads it, without the warm-up): the map
writer imports ``game`` (and through it parts of ``engine``).
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


def ledgekit_load(path: Path, world_too: bool, renderer: bool = True) -> tuple[float, float, int]:
    """Seconds (thread CPU) for ``load_level`` alone, and with the world (broad phase built) and
    ``LevelRenderer`` (the sprites of every tile; not if ``renderer`` is false) too; and the world's segment
    count (the outlines' vertex count without the world)."""
    from engine.level.level import load_level

    t0 = time.thread_time()
    level = load_level(path)
    loaded = time.thread_time() - t0
    if not world_too:
        return loaded, float("nan"), sum(len(r) for r in level.solid_rings)
    world = level.build_world()
    world.static.broadphase  # noqa: B018 - builds the broad phase
    if renderer:
        from engine.render import LevelRenderer

        LevelRenderer(level, world)
    return loaded, time.thread_time() - t0, len(world.static)


def arcade_load(path: Path) -> float:
    import arcade

    t0 = time.thread_time()
    arcade.load_tilemap(str(path), use_spatial_hash=True)
    return time.thread_time() - t0


def write_map(root: Path, layout: list[str]) -> Path:
    """The map, the shipped tileset and the images it and the map's parallax backgrounds use in ``root``; returns
    the map's path."""
    from game.mapmaker import map_xml

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
    side = parser.add_mutually_exclusive_group()
    side.add_argument("--ledgekit-only", action="store_true", help="skip arcade (for a memory reading)")
    side.add_argument("--world-only", action="store_true",
                      help="Ledgekit's load_level and world only: no renderer, no arcade (for a memory reading)")
    side.add_argument("--arcade-only", action="store_true", help="arcade's load_tilemap only (for a memory reading)")
    parser.add_argument("--layout", choices=("terrain", "random"), default="terrain")
    parser.add_argument("--size", default=f"{WIDTH}x{HEIGHT}", help="map size in tiles, WIDTHxHEIGHT")
    parser.add_argument("--with-world", action="store_true",
                        help="random layout: time build_world and LevelRenderer too (~300k segments)")
    parser.add_argument("--write-map", type=Path, metavar="FOLDER",
                        help="only write the map (layout and size as given) into FOLDER and print its path")
    parser.add_argument("--map", type=Path, help="load this map (written by --write-map) without a warm-up")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    if args.write_map:
        print(write_map(args.write_map, big_layout(width, height) if args.layout == "terrain"
                        else random_layout(width, height)))
        return
    root = Path(tempfile.mkdtemp(prefix="ledgekit-bench-"))
    try:
        if args.map:
            path = args.map
        else:
            layout = big_layout(width, height) if args.layout == "terrain" else random_layout(width, height)
            path = write_map(root, layout)
        world_too = args.layout == "terrain" or args.with_world or args.world_only
        renderer = not args.world_only
        ours_too = not args.arcade_only
        arcade_too = not (args.ledgekit_only or args.world_only)
        if not args.map:
            warm_up = write_map(root / "warm-up", big_layout(20, 10))  # imports and caches, untimed
            if ours_too:
                ledgekit_load(warm_up, True, renderer)
            if arcade_too:
                arcade_load(warm_up)
        loads, ours, theirs = [], [], []
        segments = 0
        for _ in range(args.repeats):  # interleaved: Ledgekit, arcade, Ledgekit, arcade, ...
            if ours_too:
                loaded, total, segments = ledgekit_load(path, world_too, renderer)
                loads.append(loaded)
                ours.append(total)
            if arcade_too:
                theirs.append(arcade_load(path))
        m_ours = statistics.median(ours) if ours else float("nan")
        m_theirs = statistics.median(theirs) if theirs else float("nan")
        m_loads = statistics.median(loads) if loads else float("nan")
        peak = peak_mib()
        if args.json:
            print(json.dumps({"segments": segments, "ours_ms": m_ours * 1e3, "theirs_ms": m_theirs * 1e3,
                              "load_ms": m_loads * 1e3, "peak_mib": peak, "tiles": f"{width} x {height}",
                              "imported": sorted({"engine", "game", "arcade"} & set(sys.modules)),
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
