"""execute: run one prepared call, bounded in time, with every failure turned into a route."""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import time
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import pydantic

from callgate._errors import ConflictError, ToolError
from callgate.contract import CallContext, Context, Effect, Route, Timings, ToolResult
from callgate.gate import _outcome
from callgate.gate._prepare import Prepared
from callgate.gate._render import render_value
from callgate.schema import check

__all__ = ["ExecutionSettings", "execute"]

log = logging.getLogger("callgate.gate")


@dataclass(frozen=True, kw_only=True, slots=True)
class ExecutionSettings:
    default_timeout: float = 30.0
    """Seconds a tool may run when it declares no timeout of its own."""
    max_result_chars: int = 20_000
    """Longer results are cut, with a notice saying what was cut."""


async def execute(prepared: Prepared, context: Context, settings: ExecutionSettings,
                  threads: Executor, *, idempotency_key: str | None = None) -> ToolResult:
    """Run the tool; exceptions, timeouts and broken output contracts become routes."""
    tool = prepared.entry.tool
    call = prepared.call
    started, t0 = time.time(), time.perf_counter()
    timeout = tool.timeout or settings.default_timeout
    ctx = CallContext(call_id=call.id, tool_name=tool.name, context=context,
                      idempotency_key=idempotency_key)
    try:
        kwargs = tool.bind(dict(prepared.arguments), ctx)
    except pydantic.ValidationError as exc:
        return _outcome.invalid_arguments(call, tool.name, _pydantic_problem(exc),
                                          prepared.entry.example)
    outcome: Any
    try:
        outcome = await _run(tool.executor, kwargs, tool.is_async, timeout, threads)
    except _Expired:
        timings = _timings(started, t0)
        return _outcome.timed_out(call, tool.name, timeout,
                                  changes_state=tool.effect is not Effect.READ, timings=timings)
    except ConflictError as exc:
        return _outcome.conflict(call, tool.name, exc.message, _timings(started, t0))
    except ToolError as exc:
        return _outcome.failed(call, tool.name, exc.message, _timings(started, t0))
    except Exception:
        reference = secrets.token_hex(4)
        log.exception("tool %s failed (call %s, reference %s)", tool.name, call.id, reference)
        return _outcome.masked_failure(call, tool.name, reference, _timings(started, t0))
    return _completed(prepared, outcome, settings, _timings(started, t0))


class _Expired(Exception):
    """The gate's own deadline passed (as opposed to a TimeoutError raised by the tool)."""


async def _run(executor: Any, kwargs: dict[str, Any], is_async: bool, seconds: float,
               threads: Executor) -> Any:
    if executor is None:
        raise ToolError("this tool has no executor on this host")
    try:
        async with asyncio.timeout(seconds) as deadline:
            if is_async:
                return await executor(**kwargs)
            loop = asyncio.get_running_loop()
            # A sync tool that overruns keeps its worker thread until it returns: Python
            # cannot stop a thread. The gate stops waiting and reports the timeout.
            return await loop.run_in_executor(threads, functools.partial(executor, **kwargs))
    except TimeoutError:
        if deadline.expired():
            raise _Expired() from None
        raise


def _completed(prepared: Prepared, value: Any, settings: ExecutionSettings,
               timings: Timings) -> ToolResult:
    call, entry = prepared.call, prepared.entry
    rendered = render_value(value, settings.max_result_chars)
    if entry.output is not None:
        problems = check(entry.output, rendered.value)
        if problems:
            return _outcome.contract_broken(call, entry.tool.name, problems, timings)
    return _outcome.result(call, Route.COMPLETED, rendered.content, name=entry.tool.name,
                           structured=rendered.structured, timings=timings)


def _timings(started: float, t0: float) -> Timings:
    elapsed = (time.perf_counter() - t0) * 1000
    return Timings(started_at=started, total_ms=elapsed, execute_ms=elapsed)


def _pydantic_problem(exc: pydantic.ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "(arguments)"
    return f"'{where}': {first.get('msg', 'invalid value')}"
