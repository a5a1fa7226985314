"""The synchronous API (`call_sync`) on the caller's own thread and event loop."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from callgate import Gate, ToolCall, tool
from callgate.contract import Route


def _interrupt() -> None:
    raise KeyboardInterrupt


def test_a_call_interrupted_by_ctrl_c_is_cancelled_and_the_next_call_runs() -> None:
    events: list[str] = []

    @tool(effect="read")
    async def slow() -> str:
        """Wait long enough to be interrupted."""
        # Ctrl-C lands in the loop, outside the call's task, as a signal would.
        asyncio.get_running_loop().call_soon(_interrupt)
        try:
            await asyncio.sleep(0.3)
        except asyncio.CancelledError:
            events.append("first cancelled")
            raise
        events.append("first finished")
        return "slow"

    @tool(effect="read")
    async def quick() -> str:
        """Answer after one turn of the loop."""
        await asyncio.sleep(0.05)
        return "quick"

    with Gate([slow, quick]) as gate:
        with pytest.raises(KeyboardInterrupt):
            gate.call_sync(ToolCall(id="a", name="slow", arguments={}))
        assert events == ["first cancelled"]
        result = gate.call_sync(ToolCall(id="b", name="quick", arguments={}))
        assert result.route is Route.COMPLETED, result.content
        assert result.content == "quick"
        again = gate.call_sync(ToolCall(id="c", name="quick", arguments={}))
    assert again.route is Route.COMPLETED, again.content
    assert events == ["first cancelled"]


def test_closing_the_gate_finishes_an_async_generator_a_tool_left_open() -> None:
    events: list[str] = []
    held: list[AsyncIterator[int]] = []  # alive at close, as a tool's cache would keep it

    async def numbers() -> AsyncIterator[int]:
        try:
            yield 1
            yield 2
        finally:
            events.append("generator finished")

    @tool(effect="read")
    async def first() -> int:
        """Take the first of a stream and leave the rest."""
        stream = numbers()
        held.append(stream)
        return await anext(stream)

    with Gate([first]) as gate:
        result = gate.call_sync(ToolCall(id="a", name="first", arguments={}))
        assert result.route is Route.COMPLETED, result.content
        assert events == []
    assert events == ["generator finished"]
