"""Once the kernels are ready, the compiler's clean code pages go back to the system (issue 32's memory): only
pages never written, of the compiler's library only; the kernels, and a compile afterwards, work as before."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from engine.world.resident import _clean_mappings

SMAPS = """\
7f0000000000-7f0000100000 r--p 00000000 08:01 42     /venv/llvmlite/binding/libllvmlite.so
Rss:                1024 kB
Private_Clean:      1024 kB
Private_Dirty:         0 kB
Anonymous:             0 kB
7f0000100000-7f0000900000 r-xp 00100000 08:01 42     /venv/llvmlite/binding/libllvmlite.so
Rss:                4096 kB
Shared_Dirty:          0 kB
Private_Dirty:         0 kB
Anonymous:             0 kB
7f0000900000-7f0000a00000 r--p 00900000 08:01 42     /venv/llvmlite/binding/libllvmlite.so
Rss:                1024 kB
Private_Dirty:      1024 kB
Anonymous:          1024 kB
7f0000a00000-7f0000a10000 rw-p 00a00000 08:01 42     /venv/llvmlite/binding/libllvmlite.so
Private_Dirty:         8 kB
7f0000b00000-7f0000c00000 r-xp 00000000 08:01 43     /usr/lib/libpython3.11.so
Private_Dirty:         0 kB
7f0000c00000-7f0000d00000 rw-p 00000000 00:00 0
Private_Dirty:       100 kB
"""


def test_only_the_compilers_read_only_mappings_never_written_are_let_go():
    assert _clean_mappings(SMAPS, "libllvmlite") == [(0x7F0000000000, 0x7F0000100000),
                                                     (0x7F0000100000, 0x7F0000900000)]


AFTER = """
import numba, numpy as np
from engine import RigidBody, RoundedPolygon, World, warm_up
from engine.world.resident import release_compiler_pages

def drop():
    world = World(gravity=(0.0, -1800.0))
    world.add_chain([(-100.0, 0.0), (100.0, 0.0)])
    crate = world.add_body(RigidBody(RoundedPolygon.box(16.0, 16.0, radius=1.0), (0.0, 40.0), angle=0.3))
    for _ in range(90):
        world.step(1 / 60)
    return crate.position, crate.angle

warm_up()  # (the compiler's pages go at its end)
first = drop()
release_compiler_pages(again=True)  # (and again: nothing breaks)
assert drop() == first
add = numba.njit(lambda a: a.sum() + 1.0)  # (a compile after: the compiler runs from pages read again)
assert add(np.arange(4.0)) == 7.0
print("ok")
"""


def test_kernels_and_a_new_compile_work_after_the_compilers_pages_are_let_go():
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(AFTER)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
