"""Fixtures of the coding toolset tests: a workspace, and calls routed through a real gate."""

from __future__ import annotations

import itertools
import os
import stat
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from callgate import Approve, Context, Gate, ToolCall, ToolResult
from callgate.toolsets import CodingCatalog, coding_tools
from tests.conftest import skip_modules_without

pytest_pycollect_makemodule = skip_modules_without("pathspec", "regex", extra="coding")

_ids = itertools.count(1)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A small project beside a secret that lies outside it."""
    root = tmp_path / "repo"
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "src" / "pkg" / "app.py").write_text("def main():\n    return 1\n\n\nmain()\n")
    (root / "README.md").write_text("# Project\n\nRun the tests with pytest.\n")
    (root / ".env").write_text("API_KEY=sk-test-123\n")
    (root / "build").mkdir()
    (root / "build" / "out.py").write_text("def main():\n    pass\n")
    (root / ".gitignore").write_text("build/\n*.log\n")
    (root / "debug.log").write_text("def main() in a log\n")
    (tmp_path / "outside.txt").write_text("outside secret\n")
    return root


class Session:
    """One gate over one catalog; every call is a model's proposal in one run."""

    def __init__(self, catalog: CodingCatalog, gate: Gate, run_id: str) -> None:
        self.catalog = catalog
        self.gate = gate
        self.context = Context(principal="dev", run_id=run_id)

    async def call(self, name: str, **arguments: Any) -> ToolResult:
        return await self.call_raw(name, arguments)

    async def call_raw(self, name: str, arguments: str | dict[str, Any]) -> ToolResult:
        """Arguments as a model sent them: an object, or raw JSON text."""
        call = ToolCall(id=f"call_{next(_ids)}", name=name, arguments=arguments)
        return await self.gate.call(call, context=self.context)

    async def approve(self, held: ToolResult) -> ToolResult:
        assert held.route == "held", held
        assert held.approval_id is not None
        await self.gate.decide(held.approval_id, Approve(by="reviewer"))
        return await self.gate.resume(held.approval_id)


@pytest.fixture
async def session(workspace: Path) -> AsyncIterator[Callable[..., Session]]:
    """Builds sessions: `session(**coding_tools_options)`, gated by the toolset's policy
    (or `lean=True` for a gate with no policy at all)."""
    gates: list[Gate] = []

    def make(*, lean: bool = False, root: Path | None = None, **options: Any) -> Session:
        catalog = coding_tools(root or workspace, **options)
        gate = Gate(catalog) if lean else Gate(catalog, policy=catalog.policy())
        gates.append(gate)
        return Session(catalog, gate, run_id=f"run-{next(_ids)}")

    yield make
    for gate in gates:
        gate.close()


@pytest.fixture
def bin_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[[str, str], None]]:
    """Put small shell scripts on PATH (before the catalog is built, which looks them up)."""
    directory = tmp_path / "bin"
    directory.mkdir()
    monkeypatch.setenv("PATH", f"{directory}{os.pathsep}{os.environ.get('PATH', '')}")

    def script(name: str, body: str) -> None:
        path = directory / name
        path.write_text("#!/bin/sh\n" + body + "\n")
        path.chmod(path.stat().st_mode | stat.S_IXUSR)

    yield script
