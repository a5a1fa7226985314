"""Process-isolated sync tools: a tool that loops forever is killed at its deadline, with the
route a read or a write gets, and the gate's other calls are unaffected."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from callgate import Route, ToolCall, UserError, tool
from callgate.gate import Gate
from tests.gate import _process_tools as tools


def _alive(pid: int) -> bool:
    """True while `pid` runs (a reaped or zombie process does not count)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _pid(path: Path) -> int:
    return int(path.read_text())


async def test_a_hanging_tool_is_killed_at_its_deadline_and_others_go_on(tmp_path: Path) -> None:
    files = {name: tmp_path / f"{name}.pid" for name in ("a", "b", "c", "d")}
    with Gate([tools.spin, tools.spin_write, tools.worker_pid]) as gate:
        hung, wrote, other = await gate.run_batch(
            [
                ToolCall(id="a", name="spin", arguments={"pidfile": str(files["a"])}),
                ToolCall(id="b", name="spin_write", arguments={"pidfile": str(files["b"])}),
                ToolCall(
                    id="c",
                    name="worker_pid",
                    arguments={"pidfile": str(files["c"]), "delay": 0.1},
                ),
            ]
        )
        assert hung.route is Route.TIMEOUT and "did not answer within 0.5s" in hung.content
        assert wrote.route is Route.UNKNOWN_OUTCOME
        assert other.route is Route.COMPLETED and int(other.content) != os.getpid()
        assert not _alive(_pid(files["a"])) and not _alive(_pid(files["b"]))
        assert _alive(_pid(files["c"]))  # a worker that answered stays for the next call
        again = await gate.call(
            ToolCall(id="d", name="worker_pid", arguments={"pidfile": str(files["d"])})
        )
        assert again.route is Route.COMPLETED
    assert not _alive(_pid(files["c"])) and not _alive(_pid(files["d"]))  # close() kills them


async def test_an_error_in_a_worker_is_masked_like_any_tool_error() -> None:
    with Gate([tools.explode]) as gate:
        result = await gate.call(
            ToolCall(id="e", name="explode", arguments={"message": "db-7 down"})
        )
    assert result.route is Route.FAILED and result.reference is not None
    assert "db-7" not in result.content


def test_process_isolation_needs_a_module_level_function() -> None:
    with pytest.raises(UserError, match="module-level function"):

        @tool(effect="read", run_in="process")
        def nested(x: int) -> int:
            """A nested function."""
            return x
