"""The mover is a class that owns its state: nothing in ``engine.character`` reaches into another object's private
fields (the move-and-slide once was module functions reading and writing a ``Character``'s ``_candidates``,
``_needs_recovery``, ``_dropping``...), and the ``Scene`` the mover talks to has no ``compiled_*`` methods."""

import ast
import inspect
from pathlib import Path

import engine.character
from engine import Character, RoundedPolygon, World
from engine.types import Scene

SOURCE = Path(engine.character.__file__)


def test_engine_character_touches_no_private_field_but_its_own():
    reached = []
    for node in ast.walk(ast.parse(SOURCE.read_text())):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "Character"):
                continue
            reached.append(f"{SOURCE.name}:{node.lineno} {ast.unparse(node)}")
    assert reached == []


def test_the_move_state_lives_in_the_characters_mover():
    world = World()
    world.add_segments([(-100.0, 0.0)], [(100.0, 0.0)])
    hero = world.add_character(Character(RoundedPolygon.box(10, 16, radius=2), (0.0, 30.0)))
    for _ in range(30):
        hero.velocity = (0.0, -300.0)  # (a character falls only as fast as its game says)
        world.step(1 / 60)
    assert hero.on_floor and hero.floor_point is not None
    for name in ("_candidates", "_needs_recovery", "_dropping", "_floor_gap", "_floor_point", "_came_from"):
        assert not hasattr(hero, name), name


def test_the_scene_protocol_has_no_compiled_methods():
    names = [name for name, _ in inspect.getmembers(Scene) if not name.startswith("__")]
    assert [name for name in names if name.startswith("compiled")] == []
    assert {"slide", "touching", "first_hit"} <= set(names)
    # One route for a move: the mover's own, step by step (no whole move or probe made elsewhere in one call).
    assert not {"move", "probe"} & set(names)
