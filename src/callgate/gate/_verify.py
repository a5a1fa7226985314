"""verify: a write is read back from the target system before it counts as done."""

from __future__ import annotations

import dataclasses

from callgate.contract import Route, ToolResult
from callgate.gate import _outcome
from callgate.gate._attempt import Attempt, Next
from callgate.gate._hooks import confirm_write

__all__ = ["Verify"]


class Verify:
    """`completed` + a confirming `read_back` -> `verified`; not confirmed -> `failed`."""

    async def __call__(self, attempt: Attempt, call_next: Next) -> ToolResult:
        result = await call_next(attempt)
        hook = attempt.tool.read_back
        if hook is None or result.route is not Route.COMPLETED:
            return result
        arguments = {**attempt.prepared.arguments, **attempt.injected}
        value = result.structured if result.structured is not None else result.content
        if await confirm_write(hook, arguments, value, attempt.tool.name):
            return dataclasses.replace(
                result, route=Route.VERIFIED, reason="confirmed by read-back"
            )
        return _outcome.not_confirmed(attempt.call, attempt.tool.name, result.timings)
