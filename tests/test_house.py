"""The house rules that keep the framework extensible, checked on the source itself.

- The everyday names come from ``engine`` directly.
- ``engine`` has no import cycle (a module importing a submodule of a package from outside it also runs
  that package's ``__init__``, which counts as an import).
- No function in ``engine`` is longer than about a screen (80 lines).
- ``game/`` uses no private name of the engine (ruff's SLF001 finds ``obj._name`` reached from outside).
- A kernel's ``@inlined`` part is called from one place only (numba copies its code into every caller).
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "engine"

EVERYDAY = [
    "World", "RigidBody", "KinematicBody", "Sensor", "Character", "PlatformerController", "PlatformerInput",
    "PlatformerConfig", "MoverConfig", "PhysicsConfig", "RoundedPolygon", "Transform", "load_level", "Level",
    "LevelObject", "LevelError", "CollisionFilter",
]


@pytest.mark.parametrize("name", EVERYDAY)
def test_everyday_name_imports_from_engine(name):
    import engine

    assert name in engine.__all__
    namespace: dict = {}
    exec(f"from engine import {name}", namespace)
    assert namespace[name] is getattr(engine, name)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, name: str) -> set[str]:
    """Engine modules ``path`` (module ``name``) imports, at any depth of its code."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("engine"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("engine"):
                found.add(target)
                found.update(f"{target}.{alias.name}" for alias in node.names)
    return found


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in ENGINE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges = set()
        for target in _imports(path, name):
            if target not in modules:
                continue
            edges.add(target)
            # Importing engine.a.b from outside engine.a runs engine/a/__init__.py first.
            parent = target.rpartition(".")[0]
            while parent and parent != "engine" and not name.startswith(parent + ".") and name != parent:
                edges.add(parent)
                parent = parent.rpartition(".")[0]
        edges.discard(name)
        graph[name] = edges
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        state[node] = 2
        stack.pop()
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_engine_has_no_import_cycle():
    graph = _graph()
    assert "engine.world.world" in graph and "engine.character" in graph["engine.world.world"]
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_no_engine_function_is_longer_than_a_screen():
    long = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > 80:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({length} lines)")
    assert not long, long


KERNELS = ENGINE / "world" / "kernels"


def _inlined_parts_and_calls() -> tuple[set[str], dict[str, list[str]]]:
    """The kernels' functions decorated ``@inlined``, and where each name of a kernel function is called."""
    parts: set[str] = set()
    calls: dict[str, list[str]] = {}
    for path in sorted(KERNELS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and any(
                    isinstance(d, ast.Name) and d.id == "inlined" for d in node.decorator_list):
                parts.add(node.name)
            if isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
                calls.setdefault(name, []).append(f"{path.name}:{node.lineno}")
    return parts, calls


def test_an_inlined_kernel_part_is_called_from_one_place():
    parts, calls = _inlined_parts_and_calls()
    assert {"gather", "solve"} <= parts  # (the check sees the decorator)
    copied = {name: calls.get(name, []) for name in parts if len(calls.get(name, [])) != 1}
    assert not copied, copied


def test_game_uses_no_private_engine_name():
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if not Path(ruff).exists():
        pytest.skip("ruff is installed by the test extra")
    done = subprocess.run([ruff, "check", "--select", "SLF001", "--output-format", "concise", "game"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


def test_ci_runs_the_slow_tests_too():
    """``slow`` marks long fuzz and equivalence tests for a quick local run (``-m "not slow"``); CI deselects
    nothing, and the marker is registered (a typo such as ``@pytest.mark.slwo`` would otherwise pass silently)."""
    import tomllib

    ci = (ROOT / ".ci" / "run").read_text()
    pytest_line = next(line for line in ci.splitlines() if "-m pytest" in line)
    assert " -m pytest" in pytest_line and "-m \"not" not in pytest_line and "-k" not in pytest_line.split("pytest")[-1]
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert any(marker.startswith("slow:") for marker in config["markers"])
