"""The benchmarks' MCP load generator: SDK `Client` sessions spread over several processes
(spawned, each with its own event loop), all calling one tool until a shared count of calls
is spent; latencies and the span of the measured calls are gathered back.

One Python process running the SDK client tops out near 100 calls/s on this machine, below
what a gateway process can serve; spreading the sessions over processes lets the load reach
what the server (or the machine) can take, and the same load against the upstream directly
shows the load generator's own ceiling beside the numbers it measures.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import statistics
import time
import traceback
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from multiprocessing.queues import Queue
from multiprocessing.sharedctypes import Synchronized
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

from tests.mcp._support import http_client

WARMUP = 10
"""Calls per session before the measurement: connections open, tool schemas listed."""
WAIT = 120.0
"""Seconds a process may take to start its sessions, or to finish its calls."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Target:
    """Where the calls go: over HTTP, session `i` to `urls[i % len(urls)]` with `token`;
    over stdio, every session spawns its own server with `stdio`."""

    tool: str
    arguments: dict[str, Any]
    urls: tuple[str, ...] = ()
    token: str | None = None
    stdio: StdioServerParameters | None = None

    def client(self, index: int) -> Client:
        if self.stdio is not None:
            return Client(self.stdio)
        return http_client(self.urls[index % len(self.urls)], self.token)


@dataclass(frozen=True, kw_only=True, slots=True)
class Load:
    """`calls` calls with `in_flight` at a time over `sessions` sessions (round robin),
    the sessions spread over `processes` processes."""

    calls: int
    in_flight: int
    sessions: int
    processes: int = 1


@dataclass(frozen=True, kw_only=True, slots=True)
class Measured:
    p50_ms: float
    p99_ms: float
    calls_per_s: float
    cpu_busy: float
    """Share of all the machine's CPU time that was busy during the calls (any process)."""
    load_average: float
    """The machine's 1-minute load average when the calls began."""


def measure(target: Target, load: Load) -> Measured:
    """Run `load` against `target` in `load.processes` spawned processes. The machine's CPU
    share is taken from the release of the warm sessions until every process has reported."""
    processes = min(load.processes, load.sessions)  # a process without a session idles
    context = multiprocessing.get_context("spawn")
    remaining = context.Value("q", load.calls)
    go = context.Event()
    messages: Queue[Any] = context.Queue()
    children = [
        context.Process(
            target=_process,
            args=(target, _share(load, processes, i), remaining, go, messages),
            daemon=True,
        )
        for i in range(processes)
    ]
    for child in children:
        child.start()
    try:
        _gather(messages, children)  # every session open and warm
        load_average = os.getloadavg()[0]
        busy = _CpuBusy()
        go.set()
        gathered = _gather(messages, children)
        cpu = busy.share()
    finally:
        for child in children:
            child.join(WAIT)
            if child.is_alive():
                child.kill()
                child.join()
    return _summary(gathered, cpu, load_average)


def _gather(messages: Queue[Any], children: Sequence[BaseProcess]) -> list[dict[str, Any]]:
    """One message from each child; a child's error, or a child gone silent, is raised."""
    gathered: list[dict[str, Any]] = []
    deadline = time.monotonic() + WAIT
    while len(gathered) < len(children):
        try:
            message = messages.get(timeout=1.0)
        except queue.Empty:
            # A child's messages are flushed before it exits: one dead now sent all it will.
            if any(not child.is_alive() for child in children) or time.monotonic() > deadline:
                raise RuntimeError("a load process exited or stalled without a result") from None
            continue
        if isinstance(message, str):
            raise RuntimeError(f"a load process failed:\n{message}")
        gathered.append(message)
    return gathered


def _share(load: Load, processes: int, index: int) -> tuple[int, int, int]:
    """Process `index`'s (first session index, sessions, calls in flight)."""

    def part(total: int, i: int) -> int:
        return total // processes + (1 if i < total % processes else 0)

    first = sum(part(load.sessions, i) for i in range(index))
    return first, part(load.sessions, index), part(load.in_flight, index)


def _summary(gathered: list[dict[str, Any]], cpu: float, load_average: float) -> Measured:
    latencies = sorted(t for g in gathered for t in g["latencies"])
    elapsed = max(g["ended"] for g in gathered) - min(g["began"] for g in gathered)
    return Measured(
        p50_ms=1000 * statistics.median(latencies),
        p99_ms=1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))],
        calls_per_s=len(latencies) / elapsed,
        cpu_busy=cpu,
        load_average=load_average,
    )


def _process(
    target: Target,
    share: tuple[int, int, int],
    remaining: Synchronized[int],
    go: Event,
    messages: Queue[Any],
) -> None:
    try:
        anyio.run(_calls, target, share, remaining, go, messages)
    except BaseException:  # the parent reports it
        messages.put(traceback.format_exc())


async def _calls(
    target: Target,
    share: tuple[int, int, int],
    remaining: Synchronized[int],
    go: Event,
    messages: Queue[Any],
) -> None:
    first, sessions, in_flight = share
    latencies: list[float] = []

    def take() -> bool:
        with remaining.get_lock():
            remaining.value -= 1
            return remaining.value >= 0

    async def worker(client: Client) -> None:
        while take():
            start = time.perf_counter()
            result = await client.call_tool(target.tool, target.arguments)
            latencies.append(time.perf_counter() - start)
            if result.is_error:
                raise RuntimeError(f"{target.tool} failed: {result.content}")

    async with _sessions(target, first, sessions) as clients:
        for client in clients:
            for _ in range(WARMUP):
                await client.call_tool(target.tool, target.arguments)
        messages.put({"ready": True})
        if not await anyio.to_thread.run_sync(go.wait, WAIT):
            raise TimeoutError("no start signal")
        # perf_counter is CLOCK_MONOTONIC, one clock for every process of the machine.
        began = time.perf_counter()
        async with anyio.create_task_group() as tasks:
            for i in range(in_flight):
                tasks.start_soon(worker, clients[i % len(clients)])
        ended = time.perf_counter()
        # Reported before the sessions close, so that closing is not in the CPU share.
        messages.put({"latencies": latencies, "began": began, "ended": ended})


@contextlib.asynccontextmanager
async def _sessions(target: Target, first: int, count: int) -> AsyncIterator[list[Client]]:
    async with contextlib.AsyncExitStack() as stack:
        yield [await stack.enter_async_context(target.client(first + i)) for i in range(count)]


class _CpuBusy:
    """The machine's busy CPU share from `/proc/stat` between construction and `share()`."""

    def __init__(self) -> None:
        self._start = _cpu_times()

    def share(self) -> float:
        busy0, total0 = self._start
        busy1, total1 = _cpu_times()
        return (busy1 - busy0) / max(1, total1 - total0)


def _cpu_times() -> tuple[int, int]:
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return sum(fields) - idle, sum(fields)
