"""examples/coding_agent.py runs offline and shows what the gate decided for each call."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("python") is None, reason="needs `python` on PATH")
def test_the_coding_agent_example_runs() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "coding_agent.py")],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.splitlines()
    assert [line.split() for line in out] == [
        ["search_text", "completed", "default:read"],
        ["edit_file", "completed", "toolset:workspace"],
        ["run_command", "completed", "toolset:allowlist"],
        ["run_command", "held", "toolset:command"],
        ["paused", "return", "a", "+", "b"],
    ]


@pytest.mark.parametrize("doc", ["docs/toolsets.md", "README.md"])
def test_the_docs_show_the_example_as_it_is(doc: str) -> None:
    example = (ROOT / "examples" / "coding_agent.py").read_text()
    body = example.split('"""', 2)[2].strip()
    assert body in (ROOT / doc).read_text()
