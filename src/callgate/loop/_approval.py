"""Decisions on held calls, and how a decided call goes back through the gate.

The approver may approve, decline, or approve edited arguments; the gate validates edited
arguments again, so an edit can never smuggle in a call the schema or the policy refuses.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from callgate.contract import Context, ToolCall, ToolResult
from callgate.gate import Gate

__all__ = ["ApprovalDecision", "Approve", "Approver", "Decline", "Edit", "settle_held"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Approve:
    """Run the call as proposed."""

    by: str = "user"
    note: str | None = None
    for_run: bool = False
    """Also allow this tool for the rest of the run without asking again."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Decline:
    """Do not run the call; `reason` is shown to the model."""

    by: str = "user"
    reason: str | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class Edit:
    """Run the call with these arguments instead (validated again before it runs)."""

    arguments: Mapping[str, Any] = field(default_factory=dict)
    by: str = "user"
    note: str | None = None


ApprovalDecision = Approve | Decline | Edit

Approver = Callable[[ToolCall, ToolResult], Awaitable[ApprovalDecision | None]]
"""Asked in-process for each held call (`callgate chat` asks in the terminal); returning
None leaves the call held, and the run pauses."""


async def settle_held(
    gate: Gate,
    call: ToolCall,
    held: ToolResult,
    decision: ApprovalDecision | None,
    context: Context,
) -> ToolResult:
    """Record `decision` (if any) for the held call and route the call again: it runs once
    if approved, comes back `declined` if declined, `held` while nobody decided."""
    if held.approval_id is None:  # pragma: no cover - the gate always names the approval
        raise ValueError(f"held call {call.id} has no approval id")
    if decision is None:
        return await gate.resume(call, approval_id=held.approval_id, context=context)
    await gate.decide(
        held.approval_id,
        approve=not isinstance(decision, Decline),
        decided_by=decision.by,
        note=_note(decision),
        edited_arguments=decision.arguments if isinstance(decision, Edit) else None,
        grant=isinstance(decision, Approve) and decision.for_run,
        context=context,
    )
    return await gate.resume(call, approval_id=held.approval_id, context=context)


def _note(decision: ApprovalDecision) -> str | None:
    return decision.reason if isinstance(decision, Decline) else decision.note
