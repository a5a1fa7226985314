"""The values that travel through the gate's chain of steps.

A `Request` goes in; the first step checks it and hands an `Attempt` (a call whose tool
exists and whose arguments passed the schema) down; every step hands back an `Outcome` (the
result, the attempt as the innermost step saw it, and what the record step must still
write). Values are passed down and results passed up: no step reaches into another's state.

These records are made on every call's path and never leave the gate, so they are plain
slotted dataclasses (a frozen one sets each field through `object.__setattr__`, which costs
more than the validation of a call): no step changes one it was handed; a step that needs
other values makes a new one (`dataclasses.replace`). For the same reason their fields may be
passed by position, in the order declared: the call's path does so (matching seven keywords
to their parameters costs more than making the record), every other place names them.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from callgate._errors import shown
from callgate.contract import CompiledTool, Context, Tool, ToolCall, ToolResult
from callgate.gate._decision import Decision
from callgate.schema import content_hash
from callgate.store import Approval

__all__ = [
    "Attempt",
    "Claimed",
    "Handler",
    "Outcome",
    "Refusal",
    "Request",
    "Step",
    "derive_key",
    "identity",
    "once_key",
    "request_hash",
    "settled",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class Refusal:
    """The host refuses a call without running it (the agent loop's limits and circuit
    breaker, a gateway's quarantined tool): routed `denied` under `rule_id`, recorded like
    every other route."""

    kind: Literal["stopped", "limit", "unavailable"]
    """`stopped`: the tool is stopped for the run; `limit`: the run reached a limit;
    `unavailable`: the tool cannot be used now (`detail` says why, e.g. quarantined)."""
    rule_id: str
    detail: str
    """Why, in words (the breaker's reason, or the limit's name)."""

    def announce(self, result: ToolResult) -> ToolResult:
        """The result that led to a `stopped` refusal, telling the model that the tool is
        stopped from now on (the calls after it are refused)."""
        from callgate.gate._outcome import stopped_notice

        return stopped_notice(result, self.detail)


@dataclass(slots=True)
class Request:
    """One proposed call as it enters the gate."""

    call: ToolCall
    context: Context
    received_at: float
    """Unix time when the gate received the call."""
    request_id: str | None = None
    """The caller's id for this request (part of the idempotency key)."""
    approval: Approval | None = None
    """The approval a resume names."""
    batch_id: str | None = None
    refusal: Refusal | None = None


@dataclass(slots=True)
class Attempt:
    """A valid call and what the steps before this one decided about it."""

    request: Request
    entry: CompiledTool
    arguments: Mapping[str, Any]
    """The model's arguments after validation, defaults filled."""
    injected: Mapping[str, Any]
    """Server-side arguments taken from the context."""
    request_hash: str
    """Binds approvals, claims and receipts to this exact request ("" in a gate with
    nothing to bind: no store)."""
    key: str | None
    """The idempotency key of a call that changes something."""
    deadline: float
    """`clock.monotonic()` after which no retry starts (the call's time budget)."""
    decision: Decision | None = None
    approval_id: str | None = None
    number: int = 1
    """Attempt number passed to the executor (`CallContext.attempt`)."""

    @property
    def tool(self) -> Tool:
        return self.entry.tool

    @property
    def call(self) -> ToolCall:
        return self.request.call

    @property
    def context(self) -> Context:
        return self.request.context

    def all_arguments(self) -> dict[str, Any]:
        """What the executor, the policy and read-back see: model's and host's values."""
        return {**self.arguments, **self.injected}


@dataclass(kw_only=True, slots=True)
class Claimed:
    """A key the dedupe step claimed: the record step finishes it with the receipt."""

    key: str
    owner: str


@dataclass(slots=True)
class Outcome:
    """What a step hands back up."""

    result: ToolResult
    attempt: Attempt | None = None
    """The checked call as the innermost step that handled it saw it (None when the call
    never became valid)."""
    claimed: Claimed | None = None
    transient: bool = False
    """The target system called the failure temporary (`TransientError`)."""
    store_down: bool = False
    """The store could not be reached: nothing more can be written for this call."""


Step = Outcome | Awaitable[Outcome]
"""What a step hands back: the outcome itself when the step finished without suspending
(a tool that returned at its first step), else an awaitable of it. A call that never
suspends so passes through no coroutine but the caller's."""
Handler = Callable[[Attempt], Step]
"""The rest of the chain below a step."""


async def settled(step: Step) -> Outcome:
    """The outcome of a step, awaited if it is not there yet."""
    return step if isinstance(step, Outcome) else await step


def identity(context: Context) -> dict[str, Any]:
    """Who a request is for, as every request hash binds it."""
    return {"principal": context.principal, "tenant": context.tenant, "run": context.run_id}


def request_hash(tool: Tool | None, name: str, arguments: Any, context: Context) -> str:
    """sha256 over the tool's fingerprint (or, for a name no tool has, the name), the
    canonical arguments and who the call is for. Arguments that are not JSON (a model's
    broken text) are hashed as their text."""
    subject = {"tool": tool.fingerprint} if tool is not None else {"name": name}
    try:
        return content_hash({**subject, "arguments": arguments, **identity(context)})
    except (TypeError, ValueError, RecursionError):
        return content_hash({**subject, "arguments": shown(arguments), **identity(context)})


def derive_key(tool: Tool, call: ToolCall, context: Context, request_id: str | None) -> str | None:
    """`tenant:request_id:tool`; without a request id, `run_id/call_id` stands in for it.

    A call with neither has no key of its own (see `once_key`)."""
    if request_id is None:
        if context.run_id is None:
            return None
        request_id = f"{context.run_id}/{call.id}"
    return f"{context.tenant or '-'}:{request_id}:{tool.name}"


def once_key(tool: Tool, context: Context) -> str:
    """A fresh key for a write that has none: nothing ties a retry to it, but its claim is
    written before the tool runs, so the write never runs unrecorded."""
    return f"{context.tenant or '-'}:once/{uuid.uuid4().hex}:{tool.name}"
