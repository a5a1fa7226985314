"""docs/loop.md's first example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

from callgate.loop import RunResult

ROOT = Path(__file__).resolve().parents[2]


def test_loop_doc_example_runs() -> None:
    text = (ROOT / "docs" / "loop.md").read_text()
    block = re.search(r"```python\n(.*?)```", text, re.S)
    assert block is not None
    namespace: dict[str, object] = {"__name__": "docs_loop"}
    exec(compile(block.group(1), "docs/loop.md", "exec"), namespace)
    result = namespace["result"]
    assert isinstance(result, RunResult)
    assert result.answer == "Sunny in Malmö for the next three days."
    routes = [r.route.value for r in result.calls]
    assert routes == ["invalid", "completed"]  # the model corrected its call
