"""The README's first example and the quickstart script run as written."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from callgate import Gate, ToolResult

ROOT = Path(__file__).resolve().parents[1]


def test_readme_first_python_block_runs() -> None:
    text = (ROOT / "README.md").read_text()
    block = re.search(r"```python\n(.*?)```", text, re.S)
    assert block is not None
    namespace: dict[str, object] = {"__name__": "readme"}
    exec(compile(block.group(1), "README.md", "exec"), namespace)
    result = namespace["result"]
    assert isinstance(result, ToolResult)
    assert result.route == "invalid"
    assert "'days' must be <= 7 (got 9)" in result.content
    gate = namespace["gate"]
    assert isinstance(gate, Gate)
    gate.close()


def test_quickstart_shows_every_route_of_the_core() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "quickstart.py")],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    routes = re.findall(r"^call_\d+\s+(\w+)", out, re.M)
    assert routes == ["completed", "invalid", "invalid", "failed", "timeout", "invalid"]
    assert 'did you mean "CANCELLED"?' in out
