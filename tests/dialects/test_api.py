"""The package's public surface and its documentation."""

from __future__ import annotations

import re
from pathlib import Path

import callgate.dialects as dialects

ROOT = Path(__file__).resolve().parents[2]


def _isort_key(name: str) -> tuple[int, str]:
    kind = 0 if name.isupper() else 1 if name[:1].isupper() else 2
    return kind, name


def test_all_is_sorted_and_complete() -> None:
    exported = dialects.__all__
    assert exported == sorted(exported, key=_isort_key)
    # isidentifier: pytest rewrites a plugin distribution's modules, adding "@py_builtins"
    public = {n for n in vars(dialects) if not n.startswith("_") and n.isidentifier()}
    assert set(exported) == public


def test_docs_example_runs() -> None:
    text = (ROOT / "docs" / "dialects.md").read_text()
    block = re.search(r"```python\n(.*?)```", text, re.S)
    assert block is not None
    namespace: dict[str, object] = {"__name__": "docs_dialects"}
    exec(compile(block.group(1), "docs/dialects.md", "exec"), namespace)
    follow_up = namespace["follow_up"]
    assert follow_up == [
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_01", "content": "18 C in Oslo"}
            ],
        }
    ]
    namespace["gate"].close()  # type: ignore[attr-defined]


def test_docs_matrix_names_every_dialect() -> None:
    text = (ROOT / "docs" / "dialects.md").read_text()
    assert "## Dialect matrix" in text
    for dialect in dialects.Dialect:
        assert f"`{dialect.value}`" in text
