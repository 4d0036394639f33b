"""The README's code examples run, so they never rot."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def python_blocks():
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.DOTALL)


def test_readme_has_examples():
    assert len(python_blocks()) >= 2


def test_readme_examples_run(capsys):
    for block in python_blocks():
        exec(compile(block, str(README), "exec"), {})
    out = capsys.readouterr().out
    # The controller example runs the hero up the ramp to the far wall: standing, touching the wall.
    assert out.strip().endswith("True True")
