"""``ledgekit check PATH...``: validate Tiled levels against Ledgekit's authoring conventions.

Prints every problem (errors and warnings) with the file, layer, object id, name and position, then a
summary line. Exit status: 0 when no file has errors, 1 when any has, 2 for a usage mistake.
Directories are searched for ``*.tmx`` files.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .level import check_level


def _maps(paths: list[str]) -> list[Path]:
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found.extend(sorted(path.rglob("*.tmx")))
        else:
            found.append(path)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ledgekit", description="Ledgekit tools for level authors.")
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", help="validate Tiled maps (.tmx files or folders of them)")
    check.add_argument("paths", nargs="+", metavar="PATH")
    args = parser.parse_args(argv)

    maps = _maps(args.paths)
    if not maps:
        print("ledgekit check: no .tmx files found", file=sys.stderr)
        return 2
    errors = warnings = 0
    for path in maps:
        problems = check_level(path)
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
