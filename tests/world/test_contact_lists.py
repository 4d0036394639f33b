"""The contact set's participant lists (made on first use, :class:`engine.world.contacts.DeferredList`) name
the same objects as its arrays: B is the body at ``b_index``, A the body at ``a_index``, the static segment
its key names, or the kinematic body or character; also when read steps later, after bodies were added."""

from __future__ import annotations

from engine import KinematicBody, PhysicsConfig, RigidBody, RoundedPolygon, World
from engine.world.contacts import CHARACTER, DYNAMIC, KINEMATIC, STATIC, DeferredList, TouchingPairs, pick

import numpy as np
import pytest


def crate_world(movers):
    """Crates on a walled floor; with ``movers``, a moving lift and a character among them (their contacts
    take the Python paths, which read the lists whole)."""
    world = World(physics=PhysicsConfig(enable_sleep=movers))
    world.add_chain([(-200, 300), (-200, 0), (200, 0), (200, 300)], radius=2.0)
    lift = world.add_kinematic(KinematicBody(RoundedPolygon.box(40, 6), (-120, 40), velocity=(30.0, 0.0))) \
        if movers else None
    for i in range(12):
        world.add_body(RigidBody(RoundedPolygon.box(10, 10, radius=1), (-150 + 22 * i, 20 + 25 * (i % 3))))
    hero = world.add_character(RoundedPolygon.box(8, 16), (100, 120)) if movers else None
    return world, lift, hero


def check(contacts, bodies, lift, hero):
    assert len(contacts.a) == len(contacts.b) == len(contacts.keys)
    for i, (a, b) in enumerate(zip(contacts.a, contacts.b)):
        assert b is bodies[contacts.b_index[i]]
        kind = int(contacts.keys[i]) >> 58
        if kind == DYNAMIC:
            assert a is bodies[contacts.a_index[i]]
        elif kind == STATIC:
            assert a == (int(contacts.keys[i]) >> 29) & (2**29 - 1)
        else:
            assert a is (lift if kind == KINEMATIC else hero) and kind in (KINEMATIC, CHARACTER)


@pytest.mark.parametrize("movers", [False, True])
def test_participant_lists_name_the_objects_of_the_arrays(movers):
    world, lift, hero = crate_world(movers)
    kept = []
    kinds = set()
    for step in range(240):
        if hero is not None:
            hero.velocity = (-80.0 if (step // 60) % 2 else 80.0, -200.0)
        world.step(1 / 60)
        contacts = world.contacts_of_last_step
        kinds |= {int(k) >> 58 for k in contacts.keys}
        if step % 7 == 0:
            kept.append((contacts, list(world.bodies)))  # read later
        else:  # some picked before the lists are made (straight from the step's arrays), then all of them
            rows = np.arange(len(contacts.keys)) if step % 2 else np.flatnonzero(np.arange(len(contacts.keys)) % 3 == 1)
            early_a, early_b = pick(contacts.a, rows), pick(contacts.b, rows)
            check(contacts, world.bodies, lift, hero)
            assert all(x is y for x, y in zip(early_a, pick(list(contacts.a), rows))) and len(early_a) == len(rows)
            assert all(x is y for x, y in zip(early_b, pick(list(contacts.b), rows))) and len(early_b) == len(rows)
        if step == 100:  # bodies added: the kept sets' lists, made now, still name the bodies of their step
            world.add_body(RigidBody(RoundedPolygon.box(10, 10, radius=1), (0, 200)))
    assert kinds == ({STATIC, KINEMATIC, CHARACTER, DYNAMIC} if movers else {STATIC, DYNAMIC})
    for contacts, bodies in kept:
        check(contacts, bodies, lift, hero)


def test_a_deferred_list_is_made_once_and_picks_like_a_list():
    made = []

    def make():
        made.append(1)
        return ["a", "b", "c"]

    items = DeferredList(make)
    assert not made
    assert pick(items, np.array([2, 0])) == ["c", "a"] and items[1] == "b" and list(items) == ["a", "b", "c"]
    assert len(items) == 3 and made == [1]
    picked = DeferredList(make, lambda index: [f"picked {i}" for i in index.tolist()])
    assert pick(picked, np.array([1])) == ["picked 1"] and len(made) == 1  # (the picker: nothing made)
    assert list(picked) == ["a", "b", "c"] and pick(picked, np.array([1])) == ["b"]  # (made: picked from it)


def test_carried_contacts_participants_follow_the_new_ones_and_pick_as_a_list():
    """A contact set extended by a sleeping pile's carried contacts lists its own participants, then the carried
    ones; picking from it (the carried ones as a list already, the new ones not made) gives what picking from
    that whole list gives, in any order of rows."""
    from engine.world.contacts import _followed_by
    made = []
    first = DeferredList(lambda: made.append(1) or ["a", "b", "c"], lambda index: [["a", "b", "c"][i] for i in index])
    joined = _followed_by(first, 3, ["x", "y"])
    whole = ["a", "b", "c", "x", "y"]
    for rows in ([4, 0, 3, 2], [1, 2], [3], [], [0, 4, 1, 3]):
        assert pick(joined, np.array(rows, dtype=np.int64)) == [whole[i] for i in rows]
    assert not made  # (picked without making the list)
    assert list(joined) == whole and made == [1]


def test_the_touching_pairs_are_those_of_the_touching_contacts_in_their_order():
    """The touching pairs kept as rows of a contact set (:class:`engine.world.contacts.TouchingPairs`) read
    as the dict of the touching contacts' keys and participants that they replaced, in the same order; and
    the pairs of some keys come in that order too."""
    world, _, _ = crate_world(False)
    made = 0
    for _ in range(200):
        world.step(1 / 60)
        touching, contacts = world._rigid.touching, world.contacts_of_last_step
        rows = np.flatnonzero(contacts.touching)
        reference = {int(contacts.keys[i]): (contacts.a[i], contacts.b[i]) for i in rows.tolist()}
        assert set(touching) == set(reference) and len(touching) == len(reference)
        assert all(touching[key][0] is a and touching[key][1] is b for key, (a, b) in reference.items())
        if isinstance(touching, TouchingPairs):
            made += 1
            keys = list(touching)
            assert keys == touching.key_array.tolist() and list(touching.keys()) == keys
            some = np.array(keys[::2], dtype=np.int64)
            expected = [touching[key] for key in keys if key in set(some.tolist())]
            assert [(a, b) for a, b in touching.pairs_of(some[::-1])] == expected
            if touching.made_of(contacts):  # (the pairs by their rows: as by their keys)
                some_rows = rows[np.isin(contacts.keys[rows], some)]
                assert [(a, b) for a, b in touching.pairs_at(some_rows)] == expected
    assert made


def test_a_resting_pile_beside_a_moving_crate_keeps_no_earlier_steps_contacts_alive():
    """Sleeping crates' contacts are carried from step to step; their participant lists, made on use, must not
    hold on to the lists of every earlier step (a level left running would grow and slow down)."""
    import gc
    world = World()
    world.add_chain([(-200, 300), (-200, 0), (200, 0), (200, 300)], radius=2.0)
    for i in range(8):
        world.add_body(RigidBody(RoundedPolygon.box(10, 10, radius=1), (-150 + 22 * i, 12)))
    # One crate rides a lift far from the others, so it stays awake while they sleep: their contacts are carried.
    world.add_kinematic(KinematicBody(RoundedPolygon.box(20, 4), (150, 100), velocity=(0.0, 10.0)))
    world.add_body(RigidBody(RoundedPolygon.box(10, 10, radius=1), (150, 116)))

    def lists_alive() -> int:
        gc.collect()
        return sum(isinstance(thing, DeferredList) for thing in gc.get_objects())

    for _ in range(120):
        world.step(1 / 60)
    assert sum(body.sleeping for body in world.bodies) == 8 and not world.bodies[-1].sleeping
    before = lists_alive()
    for _ in range(200):
        world.step(1 / 60)
    assert lists_alive() <= before + 4
