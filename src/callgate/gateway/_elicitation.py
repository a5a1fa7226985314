"""Approvals asked of the client: a held call shown to the person at the client (MCP form
elicitation), decided with their answer, and resumed.

Where the client declared the elicitation capability, a held call is not answered `held`
at once: the gateway shows the tool, its upstream server, the arguments (as the approval
stores them, redacted) and the rule that holds it, and asks for a yes or no.

- Handshake-era clients (up to 2025-11-25) get an `elicitation/create` request in the
  middle of the call. While it waits, the gateway also watches the approval in the store,
  so a decision made from the command line or by another process ends the wait at once;
  after `elicitation_timeout` seconds without an answer the call returns `held` as for a
  client that cannot be asked.
- 2026-07-28 clients get an `InputRequiredResult` whose `requestState` names the approval;
  their retry carries the answer. The answer counts only if the retry is the same request:
  the gate must find this very approval again by the request's hash, so a `requestState`
  copied onto another call (or another principal's) approves nothing, and a used one only
  replays the outcome. The state needs no secret: nothing in it is trusted.

The answer is recorded with `Gate.decide` (an approval is decided once; a decision that
came first from elsewhere stands) and the call resumed with `Gate.resume`: the approved call
runs once, a declined one is `declined`, a dismissed question leaves it `held`.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import anyio
import mcp_types
from mcp.server.context import ServerRequestContext
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from callgate._visible import visible
from callgate.contract import Approve, Context, Decline, Route, ToolCall, ToolResult
from callgate.gate import Gate, values_to_check
from callgate.store import Approval, AsyncStore, RecordNotFound, StoreConflict

__all__ = [
    "APPROVAL_INPUT",
    "APPROVAL_SCHEMA",
    "Elicitation",
    "Held",
    "can_elicit",
    "is_held",
    "question",
]

APPROVAL_INPUT = "callgate/approval"
"""The key of the approval question in an `InputRequiredResult`."""
APPROVAL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "approve": {
            "type": "boolean",
            "title": "Approve",
            "description": "Run this call once, exactly as shown.",
        },
        "note": {"type": "string", "title": "Note", "description": "Why (optional)."},
    },
    "required": ["approve"],
}
_MAX_SHOWN = 4_000
_POLL = 0.5


Asked = (
    mcp_types.CallToolRequestParams
    | mcp_types.ReadResourceRequestParams
    | mcp_types.GetPromptRequestParams
)
"""The requests whose held call can be asked: a tool call, a resource read, a prompt."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Held:
    """A call the gate held, as the gateway routed it (what resuming it needs)."""

    call: ToolCall
    context: Context
    request_id: str
    result: ToolResult
    source: str | None = None
    """The upstream server of the tool, when it has one."""

    @property
    def approval_id(self) -> str:
        assert self.result.approval_id is not None
        return self.result.approval_id


def can_elicit(ctx: ServerRequestContext[Any, Any]) -> bool:
    """The client declared form elicitation, and this request can carry a question."""
    capabilities = ctx.session.client_capabilities
    elicitation = capabilities.elicitation if capabilities is not None else None
    if elicitation is None or (elicitation.form is None and elicitation.url is not None):
        return False
    return modern(ctx) or ctx.session.can_send_request


def modern(ctx: ServerRequestContext[Any, Any]) -> bool:
    return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS


class Elicitation:
    """Asks clients about held calls (see the module docstring)."""

    def __init__(self, gate: Gate, io: AsyncStore, *, timeout: float) -> None:
        self.gate = gate
        self.io = io
        self.timeout = timeout

    async def ask(
        self,
        ctx: ServerRequestContext[Any, Any],
        held: Held,
        params: Asked,
    ) -> ToolResult | mcp_types.InputRequiredResult:
        """The outcome once the client answered (or the wait ended), or, for a 2026-07-28
        client that has not answered this approval yet, the question to return."""
        if modern(ctx):
            answer = _answer(params, held.approval_id)
            if answer is None:
                return await self._question(held)
            return await self._settle(held, answer)
        return await self._wait(ctx, held)

    async def _question(self, held: Held) -> mcp_types.InputRequiredResult:
        message = await self._message(held)
        return mcp_types.InputRequiredResult(
            input_requests={
                APPROVAL_INPUT: mcp_types.ElicitRequest(
                    params=mcp_types.ElicitRequestFormParams(
                        message=message, requested_schema=APPROVAL_SCHEMA
                    )
                )
            },
            request_state=json.dumps({"approval": held.approval_id}),
        )

    async def _wait(self, ctx: ServerRequestContext[Any, Any], held: Held) -> ToolResult:
        message = await self._message(held)
        answer: list[mcp_types.ElicitResult] = []
        with anyio.move_on_after(self.timeout):
            async with anyio.create_task_group() as tasks:

                async def asked() -> None:
                    # An error answer or a client that left: not asked, still held.
                    with contextlib.suppress(Exception):
                        answer.append(
                            await ctx.session.elicit_form(
                                message, APPROVAL_SCHEMA, related_request_id=ctx.request_id
                            )
                        )
                    tasks.cancel_scope.cancel()

                async def decided_elsewhere() -> None:
                    await self._decided(held.approval_id)
                    tasks.cancel_scope.cancel()

                tasks.start_soon(asked)
                tasks.start_soon(decided_elsewhere)
        if answer:
            return await self._settle(held, answer[0])
        return await self._resume(held)  # decided elsewhere, or still held after the wait

    async def _decided(self, approval_id: str) -> None:
        """Until the approval is no longer pending."""
        while True:
            found = await self.io.run(self.io.store.approvals.get, approval_id)
            if found is None or found.state != "pending":
                return
            await anyio.sleep(_POLL)

    async def _settle(self, held: Held, answer: mcp_types.ElicitResult) -> ToolResult:
        decision = _decision(answer, by=f"{held.context.principal} (asked by the gateway)")
        if decision is not None:
            # Decided (or expired) meanwhile: that decision stands.
            with contextlib.suppress(StoreConflict, RecordNotFound):
                await self.gate.decide(held.approval_id, decision, context=held.context)
        return await self._resume(held)

    async def _resume(self, held: Held) -> ToolResult:
        return await self.gate.resume(
            held.call,
            approval_id=held.approval_id,
            context=held.context,
            request_id=held.request_id,
        )

    async def _message(self, held: Held) -> str:
        approval = await self.io.run(self.io.store.approvals.get, held.approval_id)
        return question(held, approval)


def question(held: Held, approval: Approval | None) -> str:
    """What the person at the client is asked: who, which tool of which server, why it is
    held, every value no trusted source gave (whole: approving vouches for them), then the
    arguments as stored (redacted), cut at `_MAX_SHOWN` characters."""
    result = held.result
    where = f" (upstream server {held.source})" if held.source else ""
    arguments = approval.arguments if approval is not None else held.call.arguments
    shown = json.dumps(arguments, ensure_ascii=False, indent=2, sort_keys=True, default=str)
    if len(shown) > _MAX_SHOWN:
        shown = shown[:_MAX_SHOWN] + "\n[... cut: the arguments are longer]"
    rule = f" (rule {result.rule_id})" if result.rule_id else ""
    values = values_to_check(approval) + "\n" if approval is not None else ""
    asks = visible(  # a reason may carry a model's call id: no line of it starts a question
        f"{held.context.principal} asks to run {result.name}{where}. It needs approval: "
        f"{result.reason}{rule}."
    )
    return (
        f"{asks}\n{values}The arguments:\n{visible(shown, lines=True)}\n"
        f"Approve it to run it once, exactly as shown (approval {result.approval_id})."
    )


def _answer(params: Asked, approval_id: str) -> mcp_types.ElicitResult | None:
    """The client's answer to the question about `approval_id`, if this retry carries one."""
    responses = params.input_responses or {}
    answer = responses.get(APPROVAL_INPUT)
    if not isinstance(answer, mcp_types.ElicitResult):
        return None
    try:
        state = json.loads(params.request_state or "")
    except (ValueError, RecursionError):
        return None
    if not isinstance(state, Mapping) or state.get("approval") != approval_id:
        return None
    return answer


def _decision(answer: mcp_types.ElicitResult, *, by: str) -> Approve | Decline | None:
    """Approve or Decline from an answer; None when the person dismissed the question."""
    content = answer.content or {}
    note = content.get("note")
    text = note[:1000] if isinstance(note, str) and note else None
    approve = content.get("approve")
    if answer.action == "decline" or (answer.action == "accept" and approve is False):
        return Decline(by=by, note=text or "declined when asked")
    if answer.action == "accept" and approve is True:
        return Approve(by=by, note=text)
    return None  # dismissed, or an answer that says neither yes nor no


def is_held(result: ToolResult) -> bool:
    """Held with an approval a person can decide."""
    return result.route is Route.HELD and result.approval_id is not None
