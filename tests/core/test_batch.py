"""A batch: concurrent, bounded, in call order, one failure never hides another."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import threading
import time
from typing import Any

import pytest
from pydantic import BaseModel

from callgate import (
    ConflictError,
    Effect,
    ExecutionSettings,
    Gate,
    Tool,
    ToolCall,
    ToolError,
    UserError,
    tool,
)


@tool(effect="read", timeout=0.3)
async def slow_search(query: str) -> str:
    """Search slowly."""
    await asyncio.sleep(30)
    return query


@tool(effect="read")
def broken(query: str) -> str:
    """Fail with a secret in the message."""
    raise RuntimeError("password=hunter2 at db-7")


@tool(effect="read")
async def get_order(order_id: str) -> dict[str, Any]:
    """Get an order."""
    await asyncio.sleep(0.05)
    return {"order_id": order_id, "customer": "Анна"}


def calls(*names: str) -> list[ToolCall]:
    return [
        ToolCall(
            id=f"call_{i}",
            name=n,
            arguments={"query": "q", "order_id": "o1"} if n == "get_order" else {"query": "q"},
        )
        for i, n in enumerate(names)
    ]


async def test_failing_slow_and_normal_in_one_batch(caplog: pytest.LogCaptureFixture) -> None:
    gate = Gate([slow_search, broken, get_order])
    batch = [
        ToolCall(id="a", name="broken", arguments={"query": "q"}),
        ToolCall(id="b", name="slow_search", arguments={"query": "q"}),
        ToolCall(id="c", name="get_order", arguments={"order_id": "o1"}),
    ]
    started = time.perf_counter()
    with caplog.at_level(logging.ERROR, logger="callgate.gate"):
        results = await gate.run_batch(batch)
    elapsed = time.perf_counter() - started
    assert [r.call_id for r in results] == ["a", "b", "c"]
    assert [r.route for r in results] == ["failed", "timeout", "completed"]
    # Concurrent: the batch takes about the longest timeout, not the sum of the calls.
    assert elapsed < 0.3 + 0.25
    failed = results[0]
    assert failed.reference is not None
    assert "hunter2" not in failed.content and failed.reference in failed.content
    # The details go to the log under the reference, with the secret redacted there too.
    assert "db-7" in caplog.text and failed.reference in caplog.text
    assert "hunter2" not in caplog.text
    assert results[2].content == '{"order_id": "o1", "customer": "Анна"}'
    assert results[2].structured == {"order_id": "o1", "customer": "Анна"}
    gate.close()


def test_sync_tools_run_in_threads_concurrently() -> None:
    barrier = threading.Barrier(3, timeout=5)

    @tool(effect="read")
    def meet(query: str) -> str:
        """Wait until three calls run at once."""
        barrier.wait()
        return threading.current_thread().name

    with Gate([meet]) as gate:
        results = gate.run_batch_sync(calls("meet", "meet", "meet"))
    assert [r.route for r in results] == ["completed"] * 3
    assert all(r.content.startswith("callgate-tool") for r in results)


def test_concurrency_cap() -> None:
    running = 0
    peak = 0
    lock = threading.Lock()

    @tool(effect="read")
    def work(query: str) -> str:
        """Work a little."""
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
        time.sleep(0.02)
        with lock:
            running -= 1
        return "done"

    with Gate([work], max_concurrency=2) as gate:
        results = gate.run_batch_sync(calls(*["work"] * 8))
    assert [r.route for r in results] == ["completed"] * 8
    assert peak == 2


def test_sequential_tools_run_alone() -> None:
    log: list[str] = []

    @tool(effect="read")
    async def reader(query: str) -> str:
        """Read."""
        log.append("start-read")
        await asyncio.sleep(0.02)
        log.append("end-read")
        return "r"

    @tool(effect="write", sequential=True)
    async def writer(query: str) -> str:
        """Write."""
        log.append("start-write")
        await asyncio.sleep(0.02)
        log.append("end-write")
        return "w"

    with Gate([reader, writer]) as gate:
        gate.run_batch_sync(calls("reader", "reader", "writer", "reader"))
    write_at = log.index("start-write")
    assert log[write_at + 1] == "end-write"
    assert log[:write_at].count("end-read") == 2


def test_write_timeout_is_unknown_outcome_not_timeout() -> None:
    @tool(effect="write", timeout=0.1)
    def transfer(query: str) -> str:
        """Move money."""
        time.sleep(0.5)
        return "moved"

    with Gate([transfer]) as gate:
        result = gate.call_sync(calls("transfer")[0])
    assert result.route == "unknown_outcome"
    assert "Do not call it again" in result.content


def test_a_write_whose_deadline_passed_while_no_thread_was_free_never_runs() -> None:
    release = threading.Event()
    moved: list[str] = []

    @tool(effect="read", timeout=0.05)
    def stuck(query: str) -> str:
        """Hang past the deadline, keeping the one worker thread."""
        release.wait(5)
        return "late"

    @tool(effect="write", timeout=0.1)
    def transfer(query: str) -> str:
        """Move money."""
        moved.append(query)
        return "moved"

    with Gate([stuck, transfer], max_concurrency=1) as gate:
        assert gate.call_sync(calls("stuck")[0]).route == "timeout"
        result = gate.call_sync(calls("transfer")[0])
        release.set()
        time.sleep(0.1)  # the thread is free again: the given-up write must still not run
    assert result.route == "unknown_outcome"
    assert moved == []


def test_a_timeout_error_raised_by_the_tool_is_not_the_gate_deadline() -> None:
    @tool(effect="read", timeout=10)
    def upstream(query: str) -> str:
        """Call an upstream."""
        raise TimeoutError("upstream timed out")

    with Gate([upstream]) as gate:
        result = gate.call_sync(calls("upstream")[0])
    assert result.route == "failed"


def test_deliberate_tool_errors_reach_the_model() -> None:
    @tool(effect="write")
    def refund(query: str) -> str:
        """Refund."""
        raise ToolError("the order was already refunded on 2026-01-02")

    @tool(effect="write")
    def update(query: str) -> str:
        """Update."""
        raise ConflictError("version 3 is stale, current is 4")

    with Gate([refund, update]) as gate:
        results = gate.run_batch_sync(calls("refund", "update"))
    assert results[0].route == "failed"
    assert results[0].content == "refund failed: the order was already refunded on 2026-01-02"
    assert results[1].route == "conflict" and "Re-read the object" in results[1].content


@dataclasses.dataclass
class Point:
    x: int
    label: str


class Reading(BaseModel):
    value: float
    unit: str


@pytest.mark.parametrize(
    ("value", "content", "structured"),
    [
        ("plain text", "plain text", None),
        ({"a": "ü"}, '{"a": "ü"}', {"a": "ü"}),
        ([1, 2], "[1, 2]", [1, 2]),
        (Point(x=1, label="p"), '{"x": 1, "label": "p"}', {"x": 1, "label": "p"}),
        (
            Reading(value=1.5, unit="°C"),
            '{"value": 1.5, "unit": "°C"}',
            {"value": 1.5, "unit": "°C"},
        ),
        (42, "42", None),
    ],
)
def test_results_become_json(value: Any, content: str, structured: Any) -> None:
    made = Tool(
        name="produce",
        description="d",
        input_schema={"type": "object"},
        executor=lambda: value,
        effect=Effect.READ,
    )
    with Gate([made]) as gate:
        result = gate.call_sync(ToolCall(id="1", name="produce"))
    assert (result.content, result.structured) == (content, structured)


class Out(BaseModel):
    total: int


def test_output_schema_violation_is_a_broken_contract() -> None:
    @tool(effect="read")
    def total(query: str) -> Out:
        """Total."""
        return {"total": "many"}  # type: ignore[return-value]

    assert total.output_schema is not None
    with Gate([total]) as gate:
        result = gate.call_sync(calls("total")[0])
    assert result.route == "failed" and "breaks its declared output schema" in result.content
    assert "many" not in result.content.split("(")[0]


def test_oversized_results_are_cut_with_a_notice() -> None:
    @tool(effect="read")
    def dump(query: str) -> str:
        """Dump."""
        return "x" * 1000

    with Gate([dump], execution=ExecutionSettings(max_result_chars=100)) as gate:
        result = gate.call_sync(calls("dump")[0])
    assert result.route == "completed"
    assert result.content.startswith("x" * 100)
    assert "[truncated: showing 100 of 1000 characters" in result.content


async def test_sync_api_refuses_to_run_inside_a_loop() -> None:
    gate = Gate([get_order])
    with pytest.raises(UserError, match=r"await gate\.run_batch"):
        gate.run_batch_sync(calls("get_order"))
    gate.close()


def test_empty_batch() -> None:
    with Gate([get_order]) as gate:
        assert gate.run_batch_sync([]) == []


@tool(effect="read")
async def needs_a_task(query: str) -> str:
    """Arm a timeout and ask for the current task before the first await."""
    async with asyncio.timeout(5):
        task = asyncio.current_task()
        await asyncio.sleep(0)
    return f"{query} in a task" if task is not None else f"{query} outside any task"


def test_an_async_tool_runs_in_a_task_from_the_sync_api() -> None:
    """asyncio.timeout, anyio and httpx need a current task before the tool first awaits."""
    with Gate([needs_a_task]) as gate:
        result = gate.call_sync(ToolCall(id="c1", name="needs_a_task", arguments={"query": "q"}))
        [batched] = gate.run_batch_sync(
            [ToolCall(id="c2", name="needs_a_task", arguments={"query": "r"})]
        )
    assert (result.route, result.content) == ("completed", "q in a task")
    assert (batched.route, batched.content) == ("completed", "r in a task")
