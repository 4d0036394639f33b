"""All side-by-side benchmarks in one command, with the results written into the README.

Run: ``.venv/bin/python tests/benchmarks/run_all.py [--quick] [--no-readme]``

Each scene runs Ledgekit and its reference back to back in this process (level load in a child process,
so its peak memory is its own), repeats, and reports medians and ratios:

* **controller**: a hero running and jumping over a 300-tile ground with 45-degree bumps for 2,000 steps;
  reference arcade ``PhysicsEnginePlatformer`` on the same tiles as sprites in a spatial hash (ramps with
  triangle hit boxes). Target: at most 0.5x.
* **controller scaling**: the same walk on levels of 1k, 10k and 100k segments. Target: 100k within 1.2x
  of 1k. A chart of cost against level size goes to ``assets/benchmarks/controller_scaling.png`` when
  matplotlib is installed (``pip install matplotlib``; optional).
* **crates**: 55- and 210-crate pyramids for 600 steps; reference pymunk. Target: at most 20x on the 210
  pyramid with every crate awake (the first second), with the pyramid still standing; and the median over
  all 600 steps (the pyramid sleeps once settled) far below the awake cost.
* **seams**: a 32 px crate launched at 600 px/s across 100 separate tiles and across one seamless floor,
  in both engines: distance against seamless, highest hop, largest tilt. Target: Ledgekit within 1 % of
  seamless, no tilt.
* **level load**: a 1000 x 200 tile map; reference arcade ``load_tilemap``. Target: at most 0.5x. And the
  same size of random slope, block and one-way tiles (the worst case for merging outlines). Target:
  ``load_level`` under 5 s.
* **memory**: peak resident memory of the level-load child process.

The table replaces the part of README.md between ``<!-- benchmarks:start -->`` and
``<!-- benchmarks:end -->``.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("ARCADE_HEADLESS", "1")
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import bench_controller  # noqa: E402
import bench_crates  # noqa: E402

START, END = "<!-- benchmarks:start -->", "<!-- benchmarks:end -->"


def median_of(runs: int, fn):
    values = [fn() for _ in range(runs)]
    return statistics.median(values)


def controller(repeats: int):
    runs = bench_controller.platform_runs(1_000)
    ours = median_of(repeats, lambda: statistics.median(bench_controller.run_ledgekit(runs)[0]) * 1e6)
    theirs = median_of(repeats, lambda: statistics.median(bench_controller.run_arcade(runs)[0]) * 1e6)
    return ours, theirs


def scaling(repeats: int):
    """Median us per step at each level size: (Ledgekit, arcade)."""
    out = {}
    for n in (1_000, 10_000, 100_000):
        runs = bench_controller.platform_runs(n)
        ours = median_of(repeats, lambda runs=runs: statistics.median(bench_controller.run_ledgekit(runs)[0]) * 1e6)
        theirs = statistics.median(bench_controller.run_arcade(runs)[0]) * 1e6
        out[n] = (ours, theirs)
    return out


def crates(repeats: int, steps: int):
    out = {}
    for base in (10, 20):
        ours = [bench_crates.run_ledgekit(base, steps) for _ in range(repeats)]
        theirs = [bench_crates.run_pymunk(base, steps) for _ in range(repeats)]
        out[base] = (
            statistics.median(statistics.median(t[0][:60]) for t in ours) * 1e3,
            statistics.median(statistics.median(t[0][:60]) for t in theirs) * 1e3,
            max(t[1] for t in ours),
            max(t[1] for t in theirs),
            statistics.median(statistics.median(t[0]) for t in ours) * 1e3,
            statistics.median(statistics.median(t[0]) for t in theirs) * 1e3,
        )
    return out


def seams():
    from tests.bodies.test_crates import slide as ledgekit_slide

    ours_tiled = ledgekit_slide(600.0, tiled=True)
    ours_flat = ledgekit_slide(600.0, tiled=False)
    theirs_tiled = pymunk_slide(600.0, tiled=True)
    theirs_flat = pymunk_slide(600.0, tiled=False)
    return ours_tiled, ours_flat, theirs_tiled, theirs_flat


def pymunk_slide(speed: float, tiled: bool):
    """The seam scene in pymunk: a 32 px box sliding over 100 static tile boxes (or one long box).
    pymunk multiplies the two shapes' friction; sqrt(0.6) each gives the 0.6 Ledgekit's scene has."""
    import pymunk

    friction = math.sqrt(0.6)
    space = pymunk.Space()
    space.gravity = (0.0, -1800.0)
    if tiled:
        for k in range(-2, 100):
            tile = pymunk.Poly(space.static_body, [(k * 32, -32), ((k + 1) * 32, -32), ((k + 1) * 32, 0), (k * 32, 0)])
            tile.friction = friction
            space.add(tile)
    else:
        floor = pymunk.Poly(space.static_body, [(-64, -32), (3200, -32), (3200, 0), (-64, 0)])
        floor.friction = friction
        space.add(floor)
    body = pymunk.Body(1024, pymunk.moment_for_box(1024, (32, 32)))
    body.position = (0.0, 16.0)
    body.velocity = (speed, 0.0)
    box = pymunk.Poly.create_box(body, (32, 32))
    box.friction = friction
    space.add(body, box)
    top, tilt = -math.inf, 0.0
    for _ in range(240):
        space.step(1 / 60)
        top = max(top, body.position.y)
        tilt = max(tilt, abs(body.angle))
    return body.position.x, top - 16.0, tilt


def level_load(repeats: int):
    """Load times from one child process, and each engine's peak memory from a child of its own."""
    import json

    def child(*flags: str) -> dict:
        done = subprocess.run([sys.executable, str(HERE / "bench_level_load.py"), "--json", *flags],
                              capture_output=True, text=True, check=True)
        return json.loads(done.stdout.strip().splitlines()[-1])

    times = child("--repeats", str(repeats))
    ours_only = child("--repeats", "1", "--ledgekit-only")
    scattered = child("--repeats", str(repeats), "--layout", "random")
    return {"ours": times["ours_ms"], "theirs": times["theirs_ms"], "rss": ours_only["peak_mib"],
            "rss_both": times["peak_mib"], "random_load": scattered["load_ms"], "random_theirs": scattered["theirs_ms"]}


def chart(points: dict[int, tuple[float, float]], path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(6, 3.2), dpi=110)
    sizes = sorted(points)
    ax.plot(sizes, [points[s][0] for s in sizes], marker="o", label="Ledgekit controller step")
    ax.plot(sizes, [points[s][1] for s in sizes], marker="s", label="arcade PhysicsEnginePlatformer.update")
    ax.set_xscale("log")
    ax.set_ylim(0, max(max(v) for v in points.values()) * 1.3)
    ax.set_xlabel("level size (segments)")
    ax.set_ylabel("median us per step")
    ax.set_title("Controller cost stays flat as the level grows")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one repeat each, 300 crate steps")
    parser.add_argument("--no-readme", action="store_true", help="print the table only")
    args = parser.parse_args()
    repeats = 1 if args.quick else 3
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"

    c_ours, c_theirs = controller(repeats)
    scale = scaling(repeats)
    crate_steps = 300 if args.quick else 600
    crate = crates(repeats, crate_steps)
    s_tiled, s_flat, p_tiled, p_flat = seams()
    load = level_load(repeats)
    drawn = chart(scale, ROOT / "assets" / "benchmarks" / "controller_scaling.png")

    where = f"{os.cpu_count()} cores, {platform.machine()}"

    def row(scene, ours, ref, ratio, target, ok):
        verdict = "met" if ok else "**missed**"
        return f"| {scene} | {ours} | {ref} | {ratio} | {target}: {verdict} | {where} |"

    seam_diff = abs(s_tiled[0] - s_flat[0]) / s_flat[0] * 100
    pym_diff = abs(p_tiled[0] - p_flat[0]) / p_flat[0] * 100
    rows = [
        "| scene | Ledgekit | reference | ratio | target | machine note |",
        "|---|---|---|---|---|---|",
        row("controller step, 300-tile level with slopes (1k segments)", f"{c_ours:.1f} us",
            f"arcade {c_theirs:.1f} us", f"{c_ours / c_theirs:.2f}x", "<= 0.5x", c_ours / c_theirs <= 0.5),
        row("controller scaling, 1k / 10k / 100k segments", " / ".join(f"{scale[n][0]:.1f}" for n in sorted(scale)) + " us",
            "arcade " + " / ".join(f"{scale[n][1]:.1f}" for n in sorted(scale)) + " us",
            f"{scale[100_000][0] / scale[1_000][0]:.2f}x (100k vs 1k)", "<= 1.2x",
            scale[100_000][0] / scale[1_000][0] <= 1.2),
        row("55-crate pyramid, step with all awake", f"{crate[10][0]:.2f} ms", f"pymunk {crate[10][1]:.3f} ms",
            f"{crate[10][0] / crate[10][1]:.0f}x", "none set", True),
        row("210-crate pyramid, step with all awake", f"{crate[20][0]:.2f} ms (max move {crate[20][2]:.1f} px)",
            f"pymunk {crate[20][1]:.3f} ms (max move {crate[20][3]:.1f} px)", f"{crate[20][0] / crate[20][1]:.0f}x",
            "<= 20x, standing", crate[20][0] / crate[20][1] <= 20 and crate[20][2] < 16),
        row(f"210-crate pyramid, median step of all {crate_steps} (asleep once settled)",
            f"{crate[20][4] * 1e3:.0f} us", f"pymunk {crate[20][5] * 1e3:.1f} us",
            f"{crate[20][4] / crate[20][5]:.0f}x", "far below the awake cost", crate[20][4] < 0.1 * crate[20][0]),
        row("crate slide over 100 tile seams at 600 px/s", f"{s_tiled[0]:.1f} px vs {s_flat[0]:.1f} seamless "
            f"({seam_diff:.3f} %), hop {s_tiled[1]:.3f} px, tilt {s_tiled[2]:.4f} rad",
            f"pymunk {p_tiled[0]:.1f} px vs {p_flat[0]:.1f} ({pym_diff:.1f} %), hop {p_tiled[1]:.2f} px, "
            f"tilt {p_tiled[2]:.2f} rad", "-", "within 1 %, no tilt", seam_diff <= 1.0 and s_tiled[2] < 0.01),
        row("level load, 1000 x 200 tiles", f"{load['ours']:.0f} ms", f"arcade load_tilemap {load['theirs']:.0f} ms",
            f"{load['ours'] / load['theirs']:.2f}x", "<= 0.5x", load["ours"] / load["theirs"] <= 0.5),
        row("level load, 1000 x 200 random slope / block / one-way tiles (load_level only)",
            f"{load['random_load']:.0f} ms", f"arcade load_tilemap {load['random_theirs']:.0f} ms",
            f"{load['random_load'] / load['random_theirs']:.2f}x", "load_level < 5 s", load["random_load"] < 5000),
        row("peak memory, level-load process", f"{load['rss']:.0f} MiB", f"{load['rss_both']:.0f} MiB with arcade's "
            "load in the same process too", "-", "report only", True),
    ]
    table = "\n".join(rows)
    note = f"Measured with `tests/benchmarks/run_all.py` on {machine}; medians of {repeats} run(s) in one process."
    if drawn:
        note += "\n\n![controller cost against level size](assets/benchmarks/controller_scaling.png)"
    block = f"{START}\n{table}\n\n{note}\n{END}"
    print(block)
    if not args.no_readme:
        readme = ROOT / "README.md"
        text = readme.read_text()
        if START in text and END in text:
            text = text[: text.index(START)] + block + text[text.index(END) + len(END):]
        else:
            text = text.rstrip() + "\n\n## Benchmarks\n\n" + block + "\n"
        readme.write_text(text)


if __name__ == "__main__":
    main()
