"""Small hand-written maps for the level tests: a map text around the fixture tileset, written to a folder."""

from __future__ import annotations

import shutil
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"

HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'


def map_text(body: str, *, w: int = 8, h: int = 4, attrs: str = 'orientation="orthogonal"', props: str = "",
             tileset: str = '<tileset firstgid="1" source="tiles.tsx"/>', head: str = HEAD,
             spawn: bool = True) -> str:
    """A ``w`` x ``h`` map of 32 px tiles: the fixture tileset (gid 1 block, 2 slope, 3 half block, 4 one-way),
    ``body`` (layers and object groups) and, unless ``spawn`` is false, a Spawn point in its own layer."""
    spawn_layer = ('<objectgroup id="90" name="spawn"><object id="90" class="Spawn" x="16" y="16"><point/></object>'
                   "</objectgroup>") if spawn else ""
    return (f'{head}<map version="1.10" {attrs} width="{w}" height="{h}" tilewidth="32" tileheight="32" '
            f'infinite="0">{props}{tileset}{body}{spawn_layer}</map>\n')


def csv_layer(rows: list[list[int]], name: str = "ground", extra: str = "", lid: int = 1) -> str:
    data = ",\n".join(",".join(str(v) for v in row) for row in rows)
    return (f'<layer id="{lid}" name="{name}" width="{len(rows[0])}" height="{len(rows)}" {extra}>'
            f'<data encoding="csv">{data}</data></layer>')


def objects(body: str, name: str = "things") -> str:
    return f'<objectgroup id="2" name="{name}">{body}</objectgroup>'


def write_map(folder: Path, text: str, name: str = "m.tmx") -> Path:
    """Write ``text`` as ``folder/name`` beside a copy of the fixture tileset and its image."""
    folder.mkdir(parents=True, exist_ok=True)
    for extra in ("tiles.tsx", "tiles.png", "crate.tx"):
        if not (folder / extra).exists():
            shutil.copy(FIXTURES / extra, folder / extra)
    path = folder / name
    path.write_text(text)
    return path
