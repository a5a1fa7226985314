"""What the model is told for each route: what happened, and what to do next.

Internal exception details never appear here unless a tool raised `ToolError` on purpose.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from callgate.contract import Route, Timings, ToolCall, ToolResult
from callgate.schema import FieldError

__all__ = [
    "conflict",
    "contract_broken",
    "failed",
    "invalid_arguments",
    "masked_failure",
    "result",
    "timed_out",
    "unknown_tool",
]


def result(call: ToolCall, route: Route, content: str, *, name: str | None = None,
           timings: Timings | None = None, **extra: Any) -> ToolResult:
    return ToolResult(call_id=call.id, name=name or call.name, route=route, content=content,
                      is_error=route.is_error, timings=timings, **extra)


def unknown_tool(call: ToolCall, suggestions: Sequence[str], available: Sequence[str]
                 ) -> ToolResult:
    if suggestions:
        hint = f" Did you mean {' or '.join(repr(s) for s in suggestions)}?"
    else:
        shown = ", ".join(available[:20]) + (", ..." if len(available) > 20 else "")
        hint = f" Available tools: {shown}." if available else " No tools are available."
    return result(call, Route.INVALID, f"Unknown tool {call.name!r}.{hint} "
                  "Call one of the available tools by its exact name.",
                  reason="unknown tool")


def invalid_arguments(call: ToolCall, tool: str, problems: Sequence[FieldError] | str,
                      example: Any) -> ToolResult:
    text = problems if isinstance(problems, str) else "; ".join(p.message for p in problems)
    tail = (f" Example of a valid call: {json.dumps(example, ensure_ascii=False)}"
            if example is not None else "")
    end = "" if text.endswith(("?", ".")) else "."
    return result(call, Route.INVALID,
                  f"Invalid arguments for {tool}: {text}{end} Fix the arguments and call "
                  f"again.{tail}",
                  name=tool, reason="invalid arguments")


def failed(call: ToolCall, tool: str, message: str, timings: Timings) -> ToolResult:
    return result(call, Route.FAILED, f"{tool} failed: {message}", name=tool, timings=timings,
                  reason="tool error")


def masked_failure(call: ToolCall, tool: str, reference: str, timings: Timings) -> ToolResult:
    return result(
        call, Route.FAILED,
        f"{tool} failed because of an internal error (reference {reference}). Do not repeat "
        "the same call; try another approach or tell the user the tool is failing.",
        name=tool, timings=timings, reference=reference, reason="unhandled exception",
    )


def timed_out(call: ToolCall, tool: str, seconds: float, *, changes_state: bool,
              timings: Timings) -> ToolResult:
    if changes_state:
        return result(
            call, Route.UNKNOWN_OUTCOME,
            f"{tool} did not finish within {seconds:g}s and may or may not have taken effect. "
            "Do not call it again: its status will be checked before any retry.",
            name=tool, timings=timings, reason="timeout during a write")
    return result(call, Route.TIMEOUT,
                  f"{tool} did not answer within {seconds:g}s; nothing was changed. You may "
                  "retry once, ask for less, or try another approach.",
                  name=tool, timings=timings, reason="timeout")


def conflict(call: ToolCall, tool: str, message: str, timings: Timings) -> ToolResult:
    return result(call, Route.CONFLICT,
                  f"{tool} was not applied: {message}. Re-read the object and propose the "
                  "change again.", name=tool, timings=timings, reason="conflict")


def contract_broken(call: ToolCall, tool: str, problems: Sequence[FieldError],
                    timings: Timings) -> ToolResult:
    detail = "; ".join(p.message for p in problems[:3])
    return result(call, Route.FAILED,
                  f"{tool} returned a result that breaks its declared output schema ({detail}); "
                  "the result was withheld. Do not rely on this tool's output; tell the user.",
                  name=tool, timings=timings, reason="output schema violated")
