"""The gate: every call a model proposes passes through here before it becomes an action."""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Coroutine, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from callgate._errors import UserError
from callgate.contract import Catalog, Context, Tool, ToolCall, ToolResult
from callgate.gate._execute import ExecutionSettings, execute
from callgate.gate._prepare import Prepared, prepare
from callgate.schema import Limits

__all__ = ["Gate"]

T = TypeVar("T")


class Gate:
    """Resolves, validates and executes the calls of a batch, one route per call.

    All calls of a batch run concurrently (async tools on the event loop, sync tools in
    worker threads) up to `max_concurrency`; a tool marked `sequential` runs alone.
    Results come back in the order of the calls, and one call's failure never hides another.
    """

    def __init__(
        self,
        catalog: Catalog | Iterable[Tool],
        *,
        context: Context | None = None,
        limits: Limits | None = None,
        max_concurrency: int = 16,
        default_timeout: float = 30.0,
        max_result_chars: int = 20_000,
    ) -> None:
        if max_concurrency < 1:
            raise UserError("max_concurrency must be at least 1")
        self.catalog = catalog if isinstance(catalog, Catalog) else Catalog(catalog)
        self.context = context or Context()
        self.limits = limits or Limits()
        self.max_concurrency = max_concurrency
        self.settings = ExecutionSettings(default_timeout=default_timeout,
                                          max_result_chars=max_result_chars)
        self._threads = ThreadPoolExecutor(max_concurrency, thread_name_prefix="callgate-tool")
        self._semaphores: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore]
        self._semaphores = weakref.WeakKeyDictionary()
        self._portal: _Portal | None = None

    async def call(self, call: ToolCall, *, context: Context | None = None) -> ToolResult:
        """Route one call."""
        prepared = prepare(self.catalog, call, self.limits)
        if isinstance(prepared, ToolResult):
            return prepared
        async with self._semaphore():
            return await self._execute(prepared, context or self.context)

    async def run_batch(self, calls: Sequence[ToolCall], *, context: Context | None = None
                        ) -> list[ToolResult]:
        """Route every call of one model turn; results in the order of `calls`."""
        ctx = context or self.context
        results: list[ToolResult | None] = [None] * len(calls)
        for group in _groups(self.catalog, calls):
            outcomes = await asyncio.gather(*(self.call(calls[i], context=ctx) for i in group))
            for i, outcome in zip(group, outcomes, strict=True):
                results[i] = outcome
        return [r for r in results if r is not None]

    def run_batch_sync(self, calls: Sequence[ToolCall], *, context: Context | None = None
                       ) -> list[ToolResult]:
        """`run_batch` for synchronous callers (not from inside a running event loop)."""
        return self._blocking(self.run_batch(calls, context=context))

    def call_sync(self, call: ToolCall, *, context: Context | None = None) -> ToolResult:
        """`call` for synchronous callers."""
        return self._blocking(self.call(call, context=context))

    def close(self) -> None:
        """Stop the worker threads and the background loop of the synchronous API."""
        if self._portal is not None:
            self._portal.close()
        self._threads.shutdown(wait=False, cancel_futures=True)

    def __enter__(self) -> Gate:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def _execute(self, prepared: Prepared, context: Context) -> ToolResult:
        return await execute(prepared, context, self.settings, self._threads)

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        sem = self._semaphores.get(loop)
        if sem is None:
            sem = self._semaphores[loop] = asyncio.Semaphore(self.max_concurrency)
        return sem

    def _blocking(self, coro: Coroutine[Any, Any, T]) -> T:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            pass
        else:
            coro.close()
            raise UserError("the synchronous API was called inside a running event loop; "
                            "use `await gate.run_batch(...)` there")
        if self._portal is None:
            self._portal = _Portal()
        return self._portal.run(coro)


def _groups(catalog: Catalog, calls: Sequence[ToolCall]) -> list[list[int]]:
    """Consecutive ordinary calls form one concurrent group; a sequential tool runs alone."""
    groups: list[list[int]] = []
    current: list[int] = []
    for i, call in enumerate(calls):
        tool = catalog.resolve(call.name)
        if tool is not None and tool.sequential:
            if current:
                groups.append(current)
                current = []
            groups.append([i])
        else:
            current.append(i)
    if current:
        groups.append(current)
    return groups


class _Portal:
    """One event loop in a daemon thread, shared by every synchronous call of a gate.

    Reusing a loop keeps the per-call cost of the synchronous API to a thread hand-off
    instead of creating and tearing down a loop each time.
    """

    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True,
                                        name="callgate-sync")
        self._thread.start()

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    def close(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)
        self._loop.close()
