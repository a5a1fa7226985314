"""The path of a call that does not suspend: steps hand their outcome up as it is (no
coroutine but `Gate.call`'s), a step with nothing to do is not in the chain, and `call_sync`
ends such a call without turning its loop, yet keeps the loop's order for what waits on it."""

from __future__ import annotations

import asyncio
import inspect
import sys
from collections.abc import Iterator
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


def _turns(gate: Gate, call: ToolCall) -> tuple[Any, int]:
    """The result of `call_sync(call)` and how often the event loop turned meanwhile."""
    with calls_made() as frames:
        result = gate.call_sync(call)
    return result, sum(1 for f in frames if f.f_code.co_name == "_run_once")


@pytest.mark.parametrize("name", ["forecast", "forecast_inline"])
def test_call_sync_ends_a_call_that_does_not_suspend_without_turning_the_loop(name: str) -> None:
    with Gate([forecast, forecast_inline, later]) as gate:
        gate.call_sync(ToolCall(id="c0", name=name, arguments=ARGS))
        result, turns = _turns(gate, ToolCall(id="c1", name=name, arguments=ARGS))
        assert result.route is Route.COMPLETED and result.content == "Oslo: sunny for 2 days"
        assert turns == 0
        waited, turns = _turns(gate, ToolCall(id="c2", name="later", arguments={"city": "Oslo"}))
        assert waited.route is Route.COMPLETED and waited.content == "Oslo: later"
        assert turns >= 1


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
    # Each callback ran on the loop before the next call's tool, as a loop would order them.
    assert events == ["tool a", "callback a", "tool b", "callback b", "tool c"]


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
