"""The ``ledgekit`` command: ``ledgekit check PATH...`` validates Tiled levels against Ledgekit's authoring
conventions; ``ledgekit new DIR`` writes a starter game (:mod:`engine.level.starter`); ``ledgekit warmup``
compiles the physics kernels ahead (see :func:`engine.warm_up`).

``check``:
Prints every problem (errors and warnings) with the file, layer, object id, name and position, then a
summary line. Exit status: 0 when no file has errors, 1 when any has, 2 for a usage mistake.
Directories are searched for ``*.tmx`` and ``*.tmj`` maps; a ``.world`` file stands for the maps it lists; a
name that is no file but a shipped level's (``demo``) stands for that level, and ``--shipped`` for every level
the installed Ledgekit ships (the demo's, package data of ``game.levels``). Each map gets exactly the checks
the game's load runs (:func:`engine.level.level.check_level`).

``check --reach``: besides, each map without errors is played by a search from its Spawn with the real physics
(:mod:`engine.level.reach`): the Goal out of reach is an error, a pickup or checkpoint out of reach a warning
(each with where the search came closest), and what the CPU budget (``--reach-budget SECONDS``, 30 by
default, per map) cut short is a warning saying "not decided within the budget". ``--route FILE`` writes the
route found to the Goal as an input file for ``python -m game --headless --level MAP --input FILE`` (with
several maps, FILE is a folder and each route is ``MAP-NAME.json`` in it). A progress line goes to stderr.
"""

from __future__ import annotations

import argparse
import sys
from importlib.resources import files
from pathlib import Path

from .find import find_map, maps_in
from .level import LevelError, Problem, check_level

MAP_PATTERNS = ("*.tmx", "*.tmj")
DEFAULT_REACH_BUDGET = 30.0
"""CPU seconds ``--reach`` may search each map for, unless ``--reach-budget`` says otherwise."""


def shipped_folder() -> Path | None:
    """The folder of the levels the installed Ledgekit ships (the demo's), or ``None`` without them.

    Found by package name only: the engine imports nothing from the demo game.
    """
    try:
        folder = files("game.levels")
    except ModuleNotFoundError:
        return None
    return folder if isinstance(folder, Path) else None


def _maps(paths: list[str]) -> tuple[list[Path], list[Problem]]:
    """The map files named (folders searched, worlds expanded) and the problems of unreadable worlds."""
    from .tiled_json import read_world

    found: list[Path] = []
    problems: list[Problem] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found.extend(sorted(p for pattern in MAP_PATTERNS for p in path.rglob(pattern)))
        elif path.suffix.lower() == ".world":
            try:
                found.extend(map_path for map_path, _ in read_world(path))
            except LevelError as error:
                problems.append(Problem("error", str(path), str(error).removeprefix(f"{path}: ")))
        elif path.exists() or (shipped := shipped_folder()) is None:
            found.append(path)
        else:
            try:
                found.append(find_map(name, [shipped]))
            except LevelError:
                found.append(path)  # checking it reports the missing file with its name
    return found, problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ledgekit", description="Ledgekit tools for level authors.")
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", help="validate Tiled maps (.tmx, .tmj, .world files or folders of them)")
    check.add_argument("paths", nargs="*", metavar="PATH")
    check.add_argument("--shipped", action="store_true", help="also check every level Ledgekit ships (the demo's)")
    check.add_argument("--reach", action="store_true",
                       help="also search, with the real physics, whether the Goal, pickups and checkpoints can be reached")
    check.add_argument("--reach-budget", type=float, metavar="SECONDS",
                       help="CPU seconds the --reach search may take per map (default 30)")
    check.add_argument("--route", type=Path, metavar="FILE",
                       help="with --reach: write the route to the Goal as a --input file (a folder for several maps)")
    commands.add_parser("warmup", help="compile the physics kernels now (once per machine; later starts load them)")
    new = commands.add_parser("new", help="write a starter game (a level, tileset, Tiled project and main.py) into DIR")
    new.add_argument("folder", metavar="DIR")
    args = parser.parse_args(argv)
    if args.command == "warmup":
        return _warm_up()
    if args.command == "new":
        return _new(Path(args.folder))
    if not args.paths and not args.shipped:
        check.error("name the maps to check (PATH...), or --shipped for the levels Ledgekit ships")
    shipped = shipped_folder()
    if args.shipped and shipped is None:
        print("ledgekit check: this installation ships no levels (game.levels is missing)", file=sys.stderr)
        return 2
    if (args.route is not None or args.reach_budget is not None) and not args.reach:
        check.error("--route and --reach-budget go with --reach")
    budget = DEFAULT_REACH_BUDGET if args.reach_budget is None else args.reach_budget
    if not 0 < budget < float("inf"):
        check.error(f"--reach-budget must be a positive number of seconds, got {args.reach_budget!r}")
    reach = _Reach(budget, args.route) if args.reach else None
    return _check(args.paths, maps_in(shipped) if args.shipped and shipped is not None else [], reach)


def _new(folder: Path) -> int:
    """``ledgekit new DIR``: write the starter game and say how to play, run and check it."""
    from .starter import write_starter

    try:
        written = write_starter(folder)
    except (FileExistsError, OSError) as error:
        print(f"ledgekit new: {error}", file=sys.stderr)
        return 2
    print(f"wrote {', '.join(p.name for p in written)} in {folder}\n"
          f"  play it:      python {folder / 'main.py'}\n"
          f"  no window:    python {folder / 'main.py'} --headless --frames 60\n"
          f"  edit it:      open {folder / 'game.tiled-project'} in Tiled, then {folder / 'level1.tmx'}\n"
          f"  check it:     ledgekit check {folder}")
    return 0


def _warm_up() -> int:
    """Compile (or load) every physics kernel, printing each stage as it is ready."""
    from ..warmup import first_start, warm_up

    def report(fraction: float, stage: str) -> None:
        print(f"  {fraction:4.0%}  {stage}", flush=True)

    doing = "compiling the physics kernels (the first time takes a while)" if first_start() else \
        "loading the physics kernels (compiled before on this machine)"
    print(f"ledgekit warmup: {doing}", flush=True)
    seconds = warm_up(report)
    print(f"ready in {seconds:.1f} s")
    return 0


class _Reach:
    """``--reach``: the search's problems for a map that loads, its summary line and its route file."""

    def __init__(self, budget: float, route: Path | None) -> None:
        self.budget = budget
        self.route = route
        self.tty = sys.stderr.isatty()

    def problems(self, path: Path, several: bool) -> list[Problem]:
        from ..types import WorldError
        from .reach import reach_problems, search_reach, summary, write_route

        try:
            result = search_reach(path, self.budget, progress=self._progress)
        except (LevelError, WorldError) as error:  # (a factory refusing an object: only building finds it)
            return [Problem("error", str(path), f"--reach cannot build the level: {error}")]
        finally:
            if self.tty:
                print("\r\033[K", end="", file=sys.stderr, flush=True)
        print(summary(result))
        problems = reach_problems(result)
        if self.route is not None and result.route:
            target = self.route / f"{path.stem}.json" if several else self.route
            try:
                write_route(result, target)
                print(f"route: {target} ({len(result.route)} steps)")
            except OSError as error:
                problems.append(Problem("error", str(path), f"cannot write the route to {target}: {error.strerror}"))
        return problems

    def _progress(self, line: str) -> None:
        print(f"\r\033[Kreach: {line}" if self.tty else f"reach: {line}", end="" if self.tty else "\n",
              file=sys.stderr, flush=True)


def _check(paths: list[str], shipped: list[Path], reach: _Reach | None = None) -> int:
    """``ledgekit check``: print every problem of the maps named (and the shipped ones); 1 when any has errors."""
    maps, world_problems = _maps(paths)
    maps += shipped
    if not maps and not world_problems:
        print("ledgekit check: no .tmx or .tmj maps found", file=sys.stderr)
        return 2
    if reach is not None and reach.route is not None and len(maps) > 1 and not reach.route.is_dir():
        print(f"ledgekit check: --route {reach.route} must be a folder when several maps are checked",
              file=sys.stderr)
        return 2
    for problem in world_problems:
        print(problem)
    errors, warnings = len(world_problems), 0
    for path in maps:
        problems = check_level(path)
        if reach is not None and not any(p.severity == "error" for p in problems):
            problems = problems + reach.problems(path, len(maps) > 1)
        for problem in problems:
            print(problem)
        file_errors = sum(p.severity == "error" for p in problems)
        errors += file_errors
        warnings += len(problems) - file_errors
        if not problems:
            print(f"ok: {path}")
    print(f"{len(maps)} map(s) checked: {errors} error(s), {warnings} warning(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
