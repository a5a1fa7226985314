"""execute: run one checked call, bounded in time, with every failure turned into a route.

The last step of the chain. The concurrency cap lives here, around the tool itself, so
that calls waiting on the store or on a person hold no slot.
"""

from __future__ import annotations

import asyncio
import collections
import secrets
import time
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from typing import Any

import pydantic

from callgate._backoff import Clock
from callgate._errors import ConflictError, OutcomeUnknownError, ToolError, TransientError
from callgate._fast import fast_builder
from callgate._threads import Threads
from callgate.contract import CallContext, Effect, Timings, Tool
from callgate.gate import _outcome
from callgate.gate._attempt import Attempt, Outcome, Step, settled
from callgate.gate._bounded import Expired, finish_async, in_task, run_in_thread
from callgate.gate._log import GateLog
from callgate.gate._process import ProcessRunner
from callgate.gate._render import render_value
from callgate.schema import check_result

__all__ = ["Execute", "ExecutionSettings"]

# `asyncio.current_task` is a Python function around this C mapping's `get`: one call less
# per call where the mapping is there (CPython 3.11).
_TASKS = getattr(asyncio.tasks, "_current_tasks", None)
_current_task = _TASKS.get if isinstance(_TASKS, dict) else asyncio.current_task


@dataclass(frozen=True, kw_only=True, slots=True)
class ExecutionSettings:
    """How the gate runs tools."""

    default_timeout: float = 30.0
    """Seconds a tool may run when it declares no timeout of its own."""
    max_result_chars: int = 20_000
    """Longer results are cut, with a notice saying what was cut."""


class Execute:
    """Runs the executor; exceptions, timeouts and broken output contracts become routes."""

    def __init__(
        self,
        *,
        settings: ExecutionSettings,
        max_concurrency: int,
        threads: Threads,
        processes: ProcessRunner,
        clock: Clock,
        log: GateLog,
    ) -> None:
        self.settings = settings
        self.max_concurrency = max_concurrency
        self.clock = clock
        self.threads = threads
        self.processes = processes
        self.log = log
        self._loop: asyncio.AbstractEventLoop | None = None
        self._slots: Slots | None = None
        self._by_loop: dict[asyncio.AbstractEventLoop, Slots] = {}

    def __call__(self, attempt: Attempt) -> Step:
        # Not a coroutine: a tool that returns at its first step (an async one that never
        # suspends, an inline one) is run right here and its outcome handed back as it is;
        # only a call that waits (for a slot, a task, a thread, a suspended tool) is awaited.
        tool = attempt.entry.tool
        t0 = time.perf_counter()
        # Later attempts get what is left of the call's budget; the first gets it all.
        seconds = tool.timeout or self.settings.default_timeout
        if attempt.number > 1:
            seconds = max(attempt.deadline - self.clock.monotonic(), 0.001)
        arguments = attempt.arguments
        plain = tool.arguments_model is None and tool.context_parameter is None
        if plain and not attempt.injected:
            for name, kind in tool.numbers.items():  # each number already of its declared type
                value = arguments.get(name)
                if value is not None and type(value) is not kind:
                    plain = False
                    break
        kwargs: Mapping[str, Any] = arguments  # unpacking gives the executor its own copy
        if not plain or attempt.injected:
            converted = self._arguments(attempt)
            if isinstance(converted, Outcome):
                return converted
            kwargs = converted
        loop = asyncio.get_running_loop()
        slots = self._slots if loop is self._loop and self._slots is not None else self._slot()
        # An async tool's first step needs a task (asyncio.timeout, anyio and so httpx look
        # for one); a gate call stepped outside any task (by hand) has none until it suspends.
        if (
            slots.free > 0
            and not slots.waiters
            and (not tool.is_async or _current_task(loop) is not None)
        ):
            slots.free -= 1  # the uncontended case, without a call
            return self._step(attempt, kwargs, seconds, t0, slots)
        return self._queued(attempt, kwargs, seconds, t0, slots)

    async def _queued(
        self,
        attempt: Attempt,
        kwargs: Mapping[str, Any],
        seconds: float,
        t0: float,
        slots: Slots,
    ) -> Outcome:
        """A call that must wait before its tool starts: for a slot, or to be in a task."""
        if attempt.entry.tool.is_async:
            await in_task()
        await slots.acquire()
        return await settled(self._step(attempt, kwargs, seconds, t0, slots))

    def _step(
        self,
        attempt: Attempt,
        kwargs: Mapping[str, Any],
        seconds: float,
        t0: float,
        slots: Slots,
    ) -> Step:
        """The tool's first step, with a slot taken: the outcome when the tool returned, else
        the awaitable of the rest, which gives the slot back as it ends."""
        tool = attempt.entry.tool
        executor = tool.executor
        try:
            if tool.is_async and executor is not None:
                # A tool that never suspends costs no more frames, and its deadline is
                # armed only if it does suspend (see `_bounded`).
                coro = executor(**kwargs)
                try:
                    pending = coro.send(None)
                except StopIteration as done:
                    value = done.value
                else:
                    left = seconds - (time.perf_counter() - t0)
                    return self._rest(
                        attempt, finish_async(coro, pending, left), seconds, t0, slots
                    )
            elif tool.run_in == "inline" and executor is not None:
                # Declared non-blocking: it runs right here, and no deadline can interrupt it.
                value = executor(**kwargs)
            else:
                waited = self._invoke_sync(tool, kwargs, seconds)
                return self._rest(attempt, waited, seconds, t0, slots)
        except Exception as exc:
            slots.give_back()
            return self._failure(attempt, exc, seconds, t0)
        except BaseException:
            slots.give_back()
            raise
        if slots.waiters:
            slots.release()
        else:
            slots.free += 1  # `give_back`, without a call
        return self._completed(attempt, value, t0)

    async def _rest(
        self,
        attempt: Attempt,
        waited: Awaitable[Any],
        seconds: float,
        t0: float,
        slots: Slots,
    ) -> Outcome:
        """The rest of a call whose tool suspended (or runs elsewhere), holding its slot."""
        try:
            value = await waited
        except Exception as exc:
            return self._failure(attempt, exc, seconds, t0)
        finally:
            slots.give_back()
        return self._completed(attempt, value, t0)

    def _arguments(self, attempt: Attempt) -> dict[str, Any] | Outcome:
        """The executor's keyword arguments, typed by the function's own model, with the
        `CallContext` and the server-side values (for a tool that has any of them)."""
        tool = attempt.entry.tool
        ctx = None
        if tool.context_parameter is not None:
            ctx = CallContext(
                call_id=attempt.call.id,
                tool_name=tool.name,
                context=attempt.context,
                idempotency_key=attempt.key,
                attempt=attempt.number,
            )
        try:
            kwargs = tool.bind(dict(attempt.arguments), ctx)
        except pydantic.ValidationError as exc:
            problem = _pydantic_problem(exc)
            result = _outcome.invalid_arguments(
                attempt.call, tool.name, problem, attempt.entry.example
            )
            return Outcome(result=result, attempt=attempt)
        kwargs.update(attempt.injected)
        return kwargs

    async def _invoke_sync(self, tool: Tool, kwargs: Mapping[str, Any], seconds: float) -> Any:
        executor = tool.executor
        if executor is None:
            raise ToolError("this tool has no executor on this host")
        if tool.run_in == "process":
            return await self.processes.run(executor, kwargs, seconds=seconds)
        return await run_in_thread(executor, kwargs, seconds, self.threads)

    def _failure(self, attempt: Attempt, exc: Exception, seconds: float, t0: float) -> Outcome:
        """The route of an exception raised by (or instead of) the executor."""
        tool, call = attempt.tool, attempt.call
        timings = _timings(attempt.request.received_at, t0)
        transient = False
        if isinstance(exc, Expired):
            changes = tool.effect is not Effect.READ
            result = _outcome.timed_out(
                call, tool.name, seconds, changes_state=changes, timings=timings
            )
        elif isinstance(exc, OutcomeUnknownError) and tool.effect is not Effect.READ:
            result = _outcome.outcome_unknown(call, tool.name, exc.message, timings)
        elif isinstance(exc, ConflictError):
            result = _outcome.conflict(call, tool.name, exc.message, timings)
        elif isinstance(exc, TransientError):
            result, transient = _outcome.transient(call, tool.name, exc.message, timings), True
        elif isinstance(exc, ToolError):
            result = _outcome.failed(call, tool.name, exc.message, timings)
        else:
            reference = secrets.token_hex(4)
            self.log.exception(
                "tool %s failed (call %s, reference %s)", tool.name, call.id, reference
            )
            result = _outcome.masked_failure(call, tool.name, reference, timings)
        return Outcome(result=result, attempt=attempt, transient=transient)

    def _completed(self, attempt: Attempt, value: Any, t0: float) -> Outcome:
        """What the tool returned, rendered and checked against its output schema."""
        call, entry = attempt.request.call, attempt.entry
        elapsed = (time.perf_counter() - t0) * 1000
        timings = _build_timings(attempt.request.received_at, elapsed, elapsed)
        limit = self.settings.max_result_chars
        if type(value) is str and len(value) <= limit:
            content, structured, checked = value, None, value  # render_value's first case
        else:
            content, structured, checked = render_value(value, limit)
        if entry.output is not None:
            problems = check_result(entry.output, checked)
            if problems:
                result = _outcome.contract_broken(call, entry.tool.name, problems, timings)
                return Outcome(result, attempt)
        return Outcome(
            _outcome.completed(call.id, entry.tool.name, content, structured, timings), attempt
        )

    def _slot(self) -> Slots:
        """This event loop's concurrency cap (a gate may serve several loops)."""
        loop = asyncio.get_running_loop()
        if loop is self._loop and self._slots is not None:
            return self._slots
        slots = self._by_loop.get(loop)
        if slots is None:
            slots = self._by_loop[loop] = Slots(self.max_concurrency)
            for old in [other for other in self._by_loop if other.is_closed()]:
                del self._by_loop[old]
        self._loop, self._slots = loop, slots
        return slots


class Slots:
    """A counting semaphore whose uncontended acquire is one comparison, done inline by the
    caller (`asyncio.Semaphore` takes a chain of calls that costs more than a trivial tool).
    A released slot goes straight to the longest waiter."""

    __slots__ = ("free", "waiters")

    def __init__(self, size: int) -> None:
        self.free = size
        self.waiters: collections.deque[asyncio.Future[None]] = collections.deque()

    async def acquire(self) -> None:
        if self.free > 0 and not self.waiters:
            self.free -= 1
            return
        waiter = asyncio.get_running_loop().create_future()
        self.waiters.append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.release()  # handed a slot as it was cancelled: pass it on
            else:
                self.waiters.remove(waiter)
            raise

    def give_back(self) -> None:
        """Return a slot taken by the caller (inline, or by `acquire`)."""
        if self.waiters:
            self.release()
        else:
            self.free += 1

    def release(self) -> None:
        while self.waiters:
            waiter = self.waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return
        self.free += 1


_build_timings = fast_builder(Timings, "started_at", "total_ms", "execute_ms")


def _timings(started: float, t0: float) -> Timings:
    elapsed = (time.perf_counter() - t0) * 1000
    return Timings(started_at=started, total_ms=elapsed, execute_ms=elapsed)


def _pydantic_problem(exc: pydantic.ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "(arguments)"
    return f"'{where}': {first.get('msg', 'invalid value')}"
