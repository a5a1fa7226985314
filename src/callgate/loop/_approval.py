"""Asking a person about held calls, and how a decided call goes back through the gate.

The approver answers with the one decision vocabulary (`Approve`, `Decline`, `Edit`); the
gate checks edited arguments like a proposal, so an edit can never smuggle in a call the
schema or the policy refuses.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from callgate.contract import ApprovalDecision, Context, Edit, ToolCall, ToolResult
from callgate.gate import Gate

__all__ = ["Approver", "BatchApprover", "HeldCall", "ask_batch", "one_by_one", "settle_held"]

Approver = Callable[[ToolCall, ToolResult], Awaitable[ApprovalDecision | None]]
"""Asked in-process for each held call (`callgate chat` asks in the terminal); returning
None leaves the call held, and the run pauses."""


@dataclass(frozen=True, kw_only=True, slots=True)
class HeldCall:
    """One call of a model step that waits for a person: the call as proposed, and its
    `held` result (its reason names every value no trusted source gave)."""

    call: ToolCall
    held: ToolResult


BatchApprover = Callable[[tuple[HeldCall, ...]], Awaitable[Mapping[str, ApprovalDecision | None]]]
"""Asked once for all the calls one model step left held, shown together; answers with a
decision per call id (approve all, decline all, or each its own). A call it leaves out,
or answers None, stays held; a decision for a call id it was not shown is ignored."""


def one_by_one(approver: Approver) -> BatchApprover:
    """`approver` asked about each held call of a step in turn, as one batch."""

    async def ask(held: tuple[HeldCall, ...]) -> dict[str, ApprovalDecision | None]:
        return {h.call.id: await approver(h.call, h.held) for h in held}

    return ask


async def ask_batch(
    approver: BatchApprover, held: tuple[HeldCall, ...]
) -> dict[str, ApprovalDecision]:
    """`approver`'s decisions by approval id, for the calls of `held` and no others."""
    answers = await approver(held)
    decisions: dict[str, ApprovalDecision] = {}
    for h in held:
        # None leaves the call held, as with the one-call approver; identical calls share an
        # approval id, and the first decision for it is the one recorded.
        answer = answers.get(h.call.id)
        if answer is not None and h.held.approval_id is not None:
            decisions.setdefault(h.held.approval_id, answer)
    return decisions


async def settle_held(
    gate: Gate,
    call: ToolCall,
    approval_id: str,
    decision: ApprovalDecision | None,
    context: Context,
    *,
    request_id: str | None = None,
    batch_id: str | None = None,
) -> ToolResult:
    """Record `decision` (if any) for the held call and route the call again: it runs once
    if approved, comes back `declined` if declined, `held` while nobody decided."""
    if decision is not None:
        await gate.decide(approval_id, decision, context=context)
        if isinstance(decision, Edit):
            # The edited call itself: its arguments are stored redacted when they hold a
            # secret, so the store alone cannot always give them back.
            call = dataclasses.replace(call, arguments=dict(decision.arguments))
    return await gate.resume(
        call, approval_id=approval_id, context=context, request_id=request_id, batch_id=batch_id
    )
