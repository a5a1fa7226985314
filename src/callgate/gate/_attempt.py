"""One call on its way through the gate's steps, and how the steps are chained.

Each cross-cutting concern (authorize, approve, dedupe, retry, verify, record) is a small
step `async (attempt, call_next) -> ToolResult` that may stop the call with a route of its
own, change the attempt for the steps after it, or look at the result on the way back.
The gate builds the chain once from its configuration; with no policy and no store the
chain is empty and a call goes straight to execution.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from callgate.contract import Context, Effect, Tool, ToolCall, ToolResult
from callgate.gate._decision import Decision
from callgate.gate._prepare import Prepared
from callgate.schema import content_hash

__all__ = [
    "Attempt",
    "Next",
    "Settlement",
    "Step",
    "annotate",
    "chain",
    "derive_key",
    "request_hash",
]


@dataclass(kw_only=True, slots=True)
class Settlement:
    """An idempotency record to finish together with the call's receipt.

    The dedupe step fills it instead of finishing the record itself; the record step then
    stores outcome and receipt in one transaction (both exist, or neither does).
    """

    key: str | None = None
    owner: str | None = None
    state: Literal["completed", "failed"] | None = None


@dataclass(kw_only=True, slots=True)
class Attempt:
    """A valid call and everything the steps learned about it so far.

    Working state of one call, owned by it alone: steps set fields in place (cheaper than
    copying a frozen value at every step, which showed in the durable gate's profile).
    """

    prepared: Prepared
    context: Context
    injected: Mapping[str, Any]
    """Server-side arguments taken from the context."""
    request_hash: str
    """Binds approvals and receipts to this exact request."""
    idempotency_key: str | None
    started_at: float
    """Unix time when the gate received the call."""
    deadline: float
    """`time.monotonic()` after which no retry starts (the call's time budget)."""
    decision: Decision | None = None
    approval_id: str | None = None
    """The approval to use: set by `Gate.resume`, then by the approve step."""
    number: int = 1
    """Attempt number passed to the executor (`CallContext.attempt`)."""
    settlement: Settlement | None = None
    """Set by the record step when the store can finish a record with its receipt."""

    @property
    def tool(self) -> Tool:
        return self.prepared.entry.tool

    @property
    def call(self) -> ToolCall:
        return self.prepared.call


Next = Callable[[Attempt], Awaitable[ToolResult]]


class Step(Protocol):
    """A cross-cutting piece of the path of one call."""

    async def __call__(self, attempt: Attempt, call_next: Next) -> ToolResult: ...


def annotate(result: ToolResult, attempt: Attempt) -> ToolResult:
    """Fill in, once, what the steps decided: rule, approval and idempotency key."""
    decision, key = attempt.decision, attempt.idempotency_key
    rule_id = result.rule_id or (decision.rule_id if decision is not None else None)
    approval_id = result.approval_id or attempt.approval_id
    if attempt.tool.effect is Effect.READ:
        key = result.idempotency_key
    else:
        key = result.idempotency_key or key
    if (rule_id, approval_id, key) == (result.rule_id, result.approval_id, result.idempotency_key):
        return result
    return dataclasses.replace(
        result, rule_id=rule_id, approval_id=approval_id, idempotency_key=key
    )


def chain(steps: Sequence[Step], terminal: Next) -> Next:
    """`steps[0]` runs first and sees the result last."""
    handler = terminal
    for step in reversed(steps):
        handler = _bind(step, handler)
    return handler


def _bind(step: Step, call_next: Next) -> Next:
    async def run(attempt: Attempt) -> ToolResult:
        return await step(attempt, call_next)

    return run


def request_hash(tool: Tool, arguments: Mapping[str, Any], context: Context) -> str:
    """sha256 over the tool fingerprint, canonical arguments, principal, tenant and run."""
    return content_hash(
        {
            "tool": tool.fingerprint,
            "arguments": arguments,
            "principal": context.principal,
            "tenant": context.tenant,
            "run": context.run_id,
        }
    )


def derive_key(tool: Tool, call: ToolCall, context: Context, request_id: str | None) -> str | None:
    """`tenant:request_id:tool`; without a request id, `run_id/call_id` stands in for it.

    A call with neither has no key: nothing ties a retry to the first attempt.
    """
    if request_id is None:
        if context.run_id is None:
            return None
        request_id = f"{context.run_id}/{call.id}"
    return f"{context.tenant or '-'}:{request_id}:{tool.name}"
