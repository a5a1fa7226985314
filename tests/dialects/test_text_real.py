"""Text mode over the real broken outputs of `bfcl-result-dev` (the benchmark's data)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from callgate.contract import Tool, tool_from_declaration
from callgate.dialects import extract_calls
from callgate.schema import ArgumentError, parse_arguments


@pytest.mark.timeout(300)
def test_every_real_output_gives_calls_of_offered_tools_and_reasons(data_dir: Path) -> None:
    path = data_dir / "bfcl-result-dev" / "broken_outputs.jsonl.gz"
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh]
    assert len(rows) == 4152
    invalid = 0
    for row in rows:
        tools: dict[str, Tool] = {}
        for decl in row["tools"]:
            tool = tool_from_declaration(decl)
            tools.setdefault(tool.name, tool)
        for call in extract_calls(row["text"], tools.values()).calls:
            # A name no tool has is kept only inside call markup, for the gate to answer.
            assert call.name in tools or "<tool_call>" in row["text"], row["uid"]
            if isinstance(call.arguments, str):
                invalid += 1
                assert isinstance(parse_arguments(call.arguments), ArgumentError), row["uid"]
                assert call.repairs, row["uid"]
    # Calls whose arguments are not literals are kept, invalid, rather than dropped.
    assert invalid > 100
