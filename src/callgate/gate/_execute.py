"""execute: run one prepared call, bounded in time, with every failure turned into a route."""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Mapping
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import pydantic

from callgate._errors import ConflictError, ToolError, TransientError
from callgate.contract import CallContext, Context, Effect, Route, Timings, ToolResult
from callgate.gate import _outcome
from callgate.gate._bounded import Expired, run_bounded
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


async def execute(
    prepared: Prepared,
    context: Context,
    settings: ExecutionSettings,
    threads: Executor,
    *,
    idempotency_key: str | None = None,
    injected: Mapping[str, Any] | None = None,
    attempt: int = 1,
    budget: float | None = None,
) -> ToolResult:
    """Run the tool; exceptions, timeouts and broken output contracts become routes.

    `injected` are the server-side arguments (added after the model's arguments are bound,
    so they never pass through the model-facing schema); `budget` (seconds) replaces the
    tool's timeout when a retry has less of the call's time budget left.
    """
    tool = prepared.entry.tool
    call = prepared.call
    started, t0 = time.time(), time.perf_counter()
    timeout = budget or tool.timeout or settings.default_timeout
    # Only executors that declare a CallContext parameter get one: most tools never do.
    ctx = (
        CallContext(
            call_id=call.id,
            tool_name=tool.name,
            context=context,
            idempotency_key=idempotency_key,
            attempt=attempt,
        )
        if tool.context_parameter is not None
        else None
    )
    try:
        kwargs = tool.bind(dict(prepared.arguments), ctx)
    except pydantic.ValidationError as exc:
        return _outcome.invalid_arguments(
            call, tool.name, _pydantic_problem(exc), prepared.entry.example
        )
    if injected:
        kwargs.update(injected)
    outcome: Any
    try:
        if tool.executor is None:
            raise ToolError("this tool has no executor on this host")
        outcome = await run_bounded(
            tool.executor, kwargs, is_async=tool.is_async, seconds=timeout, threads=threads
        )
    except Expired:
        timings = _timings(started, t0)
        return _outcome.timed_out(
            call, tool.name, timeout, changes_state=tool.effect is not Effect.READ, timings=timings
        )
    except ConflictError as exc:
        return _outcome.conflict(call, tool.name, exc.message, _timings(started, t0))
    except TransientError as exc:
        return _outcome.transient(call, tool.name, exc.message, _timings(started, t0))
    except ToolError as exc:
        return _outcome.failed(call, tool.name, exc.message, _timings(started, t0))
    except Exception:
        reference = secrets.token_hex(4)
        log.exception("tool %s failed (call %s, reference %s)", tool.name, call.id, reference)
        return _outcome.masked_failure(call, tool.name, reference, _timings(started, t0))
    return _completed(prepared, outcome, settings, _timings(started, t0))


def _completed(
    prepared: Prepared, value: Any, settings: ExecutionSettings, timings: Timings
) -> ToolResult:
    call, entry = prepared.call, prepared.entry
    rendered = render_value(value, settings.max_result_chars)
    if entry.output is not None:
        problems = check(entry.output, rendered.value)
        if problems:
            return _outcome.contract_broken(call, entry.tool.name, problems, timings)
    return _outcome.result(
        call,
        Route.COMPLETED,
        rendered.content,
        name=entry.tool.name,
        structured=rendered.structured,
        timings=timings,
    )


def _timings(started: float, t0: float) -> Timings:
    elapsed = (time.perf_counter() - t0) * 1000
    return Timings(started_at=started, total_ms=elapsed, execute_ms=elapsed)


def _pydantic_problem(exc: pydantic.ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "(arguments)"
    return f"'{where}': {first.get('msg', 'invalid value')}"
