"""The compiler stays where it belongs: loading levels and checking them never imports numba, and the engine
uses numba's documented public API only (``njit`` and its documented options)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_loading_and_checking_a_level_never_imports_numba():
    code = ("import sys; import engine.level; from engine import load_level; load_level('levels/demo.tmx'); "
            "from engine.level.cli import main; main(['check', 'levels/1_hills_and_ledges.tmx']); "
            "print('numba' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "False"


PRIVATE = re.compile(r"numba\.(core|np|experimental|extending|typed|cpython|misc)\b|_nrt\s*=|\bintrinsic\b|"
                     r"structref|\.overloads\[|entry_point|_cache_path|FunctionCache")


def test_the_engine_uses_only_numbas_public_api():
    found = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if PRIVATE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


def test_only_the_kernels_compile_module_imports_numba():
    importers = [str(path.relative_to(ROOT)) for path in sorted((ROOT / "engine").rglob("*.py"))
                 if re.search(r"^\s*(import numba|from numba)", path.read_text(), flags=re.MULTILINE)]
    assert importers == ["engine/world/kernels/compile.py"]
