"""A character's box and transform are kept per placement (gathers ask for them dozens of times a step), yet
always say where it is now: after a move, a teleport, a position or shape set by game code."""

from engine import Character, RoundedPolygon, World


def _hero_on_floor() -> tuple[World, Character]:
    world = World()
    world.add_segments([(-500.0, 0.0)], [(500.0, 0.0)])
    return world, world.add_character(Character(RoundedPolygon.box(10, 16, radius=2), (0.0, 30.0)))


def test_box_and_transform_follow_every_placement():
    world, hero = _hero_on_floor()
    assert tuple(hero.aabb()) == (-10.0, 14.0, 10.0, 46.0)
    hero.velocity = (120.0, 0.0)
    for _ in range(30):
        world.step(1 / 60)
    x, y = hero.position
    assert x > 10.0
    assert tuple(hero.aabb()) == (x - 10, y - 16, x + 10, y + 16)
    assert hero.transform.position == hero.position
    hero.position = (200.0, 50.0)
    assert tuple(hero.aabb()) == (190.0, 34.0, 210.0, 66.0)
    assert hero.transform.position == (200.0, 50.0)
    hero.teleport((-300.0, 40.0))
    assert tuple(hero.aabb()) == (-310.0, 24.0, -290.0, 56.0)
    hero.shape = RoundedPolygon.box(10, 8, radius=2)  # a crouch: same place, smaller box
    assert tuple(hero.aabb()) == (-310.0, 32.0, -290.0, 48.0)


def test_a_gather_finds_a_character_where_it_was_placed_not_where_it_was():
    world, hero = _hero_on_floor()
    other = world.add_character(Character(RoundedPolygon.box(10, 10, radius=2), (300.0, 20.0)))
    near_hero = (-20.0, 10.0, 20.0, 50.0)
    assert [n for n in world.gather(near_hero, ignore=(hero,)) if n.collider.body is other] == []
    other.aabb()  # (its box kept where it was)
    other.position = (0.0, 40.0)
    found = [n for n in world.gather(near_hero, ignore=(hero,)) if n.collider.body is other]
    assert len(found) == 1 and found[0].box == (-10.0, 30.0, 10.0, 50.0)
    assert found[0].transform.position == (0.0, 40.0)
