"""The path of a call that does not suspend: steps hand their outcome up as it is (no
coroutine but `Gate.call`'s), a step with nothing to do is not in the chain, and `call_sync`
turns its loop for every call, so what waits on the loop runs in the loop's order."""

from __future__ import annotations

import asyncio
import gc
import inspect
import socket
import sys
import warnings
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

import pytest

from callgate import Route, ToolCall, TransientError, tool
from callgate.gate import Gate, RetrySettings
from callgate.testing import ManualClock


@tool(effect="read")
async def forecast(city: str, days: int = 3) -> str:
    """Forecast the weather."""
    return f"{city}: sunny for {days} days"


@tool(effect="read", run_in="inline", name="forecast_inline")
def forecast_inline(city: str, days: int = 3) -> str:
    """Forecast the weather, without blocking."""
    return f"{city}: sunny for {days} days"


@tool(effect="read")
async def later(city: str) -> str:
    """Forecast after a wait."""
    await asyncio.sleep(0.01)
    return f"{city}: later"


ARGS = '{"city": "Oslo", "days": 2}'


@contextmanager
def calls_made() -> Iterator[list[FrameType]]:
    """Every Python frame entered (or a coroutine resumed) in this thread meanwhile."""
    frames: list[FrameType] = []

    def profiler(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            frames.append(frame)

    sys.setprofile(profiler)
    try:
        yield frames
    finally:
        sys.setprofile(None)


def _coroutines(frames: list[FrameType]) -> list[str]:
    return [f.f_code.co_qualname for f in frames if f.f_code.co_flags & inspect.CO_COROUTINE]


@pytest.mark.parametrize("name", ["forecast", "forecast_inline"])
async def test_a_tool_that_returns_at_once_runs_in_no_coroutine_but_the_gates(name: str) -> None:
    with Gate([forecast, forecast_inline]) as gate:
        call = ToolCall(id="c1", name=name, arguments=ARGS)
        await gate.call(call)  # warmed up: the loop's slots exist
        with calls_made() as frames:
            result = await gate.call(call)
    assert result.route is Route.COMPLETED and result.content == "Oslo: sunny for 2 days"
    expected = ["Gate.call", "forecast"] if name == "forecast" else ["Gate.call"]
    assert _coroutines(frames) == expected


async def test_a_tool_that_suspends_is_awaited_under_its_deadline() -> None:
    @tool(effect="read", timeout=0.05)
    async def stuck(city: str) -> str:
        """Never answer."""
        await asyncio.sleep(5)
        return city

    with Gate([later, stuck]) as gate:
        done = await gate.call(ToolCall(id="c1", name="later", arguments={"city": "Oslo"}))
        late = await gate.call(ToolCall(id="c2", name="stuck", arguments={"city": "Oslo"}))
    assert done.route is Route.COMPLETED and done.content == "Oslo: later"
    assert late.route is Route.TIMEOUT


async def test_an_inline_transient_failure_is_retried_through_the_same_chain() -> None:
    tries: list[int] = []

    @tool(effect="read", run_in="inline")
    def flaky(city: str) -> str:
        """Fail once, then answer."""
        tries.append(1)
        if len(tries) == 1:
            raise TransientError("briefly down")
        return f"{city}: fine"

    clock = ManualClock()
    with Gate([flaky], clock=clock) as gate:
        result = await gate.call(ToolCall(id="c1", name="flaky", arguments={"city": "Oslo"}))
    assert result.route is Route.COMPLETED and result.content == "Oslo: fine"
    assert len(tries) == 2 and len(clock.sleeps) == 1


async def test_a_gate_that_never_retries_has_no_retry_step() -> None:
    tries: list[int] = []

    @tool(effect="read", run_in="inline")
    def flaky(city: str) -> str:
        """Always briefly down."""
        tries.append(1)
        raise TransientError("briefly down")

    with Gate([flaky], retry=RetrySettings(max_attempts=1)) as gate:
        steps: list[str] = []
        step: object = gate._chain
        while step is not None:
            steps.append(type(step).__name__)
            step = getattr(step, "next", None)
        result = await gate.call(ToolCall(id="c1", name="flaky", arguments={"city": "Oslo"}))
    assert steps == ["Prepare", "Untrusted", "Verify", "Execute"]
    assert result.route is Route.FAILED and "briefly down" in result.content
    assert len(tries) == 1


def test_call_sync_runs_a_timer_that_came_due_before_the_next_call() -> None:
    events: list[str] = []

    @tool(effect="read")
    async def arm() -> str:
        """Arm a timer that is due at once."""
        asyncio.get_running_loop().call_later(0, events.append, "timer fired")
        return "armed"

    @tool(effect="read")
    async def fast() -> str:
        """Answer at once."""
        events.append("fast ran")
        return "ok"

    with Gate([arm, fast]) as gate:
        gate.call_sync(ToolCall(id="a", name="arm", arguments={}))
        for n in range(2):
            result = gate.call_sync(ToolCall(id=f"f{n}", name="fast", arguments={}))
            assert result.route is Route.COMPLETED
    assert events == ["fast ran", "timer fired", "fast ran"]


def test_call_sync_runs_a_reader_whose_data_arrived_before_the_next_call() -> None:
    events: list[str] = []
    near, far = socket.socketpair()

    @tool(effect="read")
    async def watch() -> str:
        """Watch a socket."""
        asyncio.get_running_loop().add_reader(near, lambda: events.append(near.recv(8).decode()))
        return "watching"

    @tool(effect="read")
    async def fast() -> str:
        """Answer at once."""
        events.append("fast ran")
        return "ok"

    try:
        with Gate([watch, fast]) as gate:
            gate.call_sync(ToolCall(id="w", name="watch", arguments={}))
            far.sendall(b"data")
            for n in range(2):
                gate.call_sync(ToolCall(id=f"f{n}", name="fast", arguments={}))
    finally:
        near.close()
        far.close()
    assert "data" in events[:2] and events.count("fast ran") == 2


def test_call_sync_runs_an_async_tool_on_a_running_loop_with_async_generator_hooks() -> None:
    cleaned: list[str] = []

    async def rows() -> AsyncIterator[int]:
        try:
            for n in range(10):
                yield n
        finally:
            await asyncio.sleep(0)  # an async cleanup, as closing a connection is
            cleaned.append("closed")

    @tool(effect="read")
    async def first_match() -> str:
        """Stop reading rows early."""
        async for row in rows():
            if row == 2:
                return str(asyncio.get_running_loop().is_running())
        return "none"

    @tool(effect="read")
    async def fast() -> str:
        """Answer at once."""
        return "ok"

    with Gate([first_match, fast]) as gate:
        result = gate.call_sync(ToolCall(id="m", name="first_match", arguments={}))
        assert result.route is Route.COMPLETED and result.content == "True"
        gc.collect()  # the generator's finalizer hands its `aclose()` to the loop
        for n in range(5):  # each call turns the loop; the cleanup takes a few turns
            if cleaned:
                break
            gate.call_sync(ToolCall(id=f"f{n}", name="fast", arguments={}))
    assert cleaned == ["closed"]


def test_call_sync_interrupted_before_its_first_step_is_cancelled_cleanly() -> None:
    loops: list[asyncio.AbstractEventLoop] = []

    @tool(effect="read")
    async def fast() -> str:
        """Answer at once, noting the loop."""
        loops.append(asyncio.get_running_loop())
        return "ok"

    with Gate([fast]) as gate:
        gate.call_sync(ToolCall(id="w", name="fast", arguments={}))
        loop = loops[0]
        turn = loop._run_once  # type: ignore[attr-defined]
        armed = [True]

        def interrupted() -> None:
            if armed.pop() if armed else False:
                raise KeyboardInterrupt  # as if Ctrl-C landed before the call's step ran
            turn()

        loop._run_once = interrupted  # type: ignore[attr-defined]
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                with pytest.raises(KeyboardInterrupt):
                    gate.call_sync(ToolCall(id="c", name="fast", arguments={}))
                gc.collect()
        finally:
            del loop._run_once  # type: ignore[attr-defined]
        assert not [t for t in asyncio.all_tasks(loop) if not t.done()]
        assert not [w for w in caught if "never awaited" in str(w.message)]
        result = gate.call_sync(ToolCall(id="n", name="fast", arguments={}))
    assert result.route is Route.COMPLETED and len(loops) == 2


def test_call_sync_runs_what_a_call_left_on_its_loop_before_the_next_call() -> None:
    events: list[str] = []

    @tool(effect="read")
    async def leaves(label: str) -> str:
        """Answer at once, leaving a callback on the loop."""
        events.append(f"tool {label}")
        asyncio.get_running_loop().call_soon(events.append, f"callback {label}")
        return label

    with Gate([leaves]) as gate:
        for label in ("a", "b", "c"):
            result = gate.call_sync(ToolCall(id=label, name="leaves", arguments={"label": label}))
            assert result.route is Route.COMPLETED and result.content == label
    # Each callback ran on the loop before the next call's tool, as a loop would order them;
    # the last one runs when the gate closes, as it would at the end of `asyncio.run`.
    assert events == ["tool a", "callback a", "tool b", "callback b", "tool c", "callback c"]


def test_call_sync_of_a_tool_interrupted_in_its_first_step_leaves_the_loop_usable() -> None:
    @tool(effect="read")
    async def interrupted() -> str:
        """Interrupted before it can answer."""
        raise KeyboardInterrupt

    with Gate([interrupted, forecast]) as gate:
        with pytest.raises(KeyboardInterrupt):
            gate.call_sync(ToolCall(id="c1", name="interrupted", arguments={}))
        result = gate.call_sync(ToolCall(id="c2", name="forecast", arguments=ARGS))
    assert result.route is Route.COMPLETED and result.content == "Oslo: sunny for 2 days"
