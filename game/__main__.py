"""``python -m game``: the demo. Not built yet: the playable game is its own issue, after the controller,
the rigid-body layer and the Tiled loader."""

import sys


def main() -> int:
    print(
        "Ledgekit's demo game is not built yet: so far the repository holds the geometry kernel "
        "(engine.geometry). Run the tests to see it at work."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
