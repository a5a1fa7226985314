"""approve: a call the policy (or the Rule of Two) asks about waits for a human decision
bound to the exact request hash; an approval is used once, before it expires."""

from __future__ import annotations

import dataclasses
import time

from callgate.contract import ToolResult
from callgate.gate import _outcome
from callgate.gate._attempt import Attempt, Next, request_hash
from callgate.gate._authorize import RULE_OF_TWO
from callgate.gate._redact import Redactor
from callgate.gate._store_io import StoreIO
from callgate.schema import check, fill_defaults
from callgate.store import Approval, ApprovalDraft

__all__ = ["Approve"]


class Approve:
    """Files, finds and consumes approvals; passes on only calls a human has approved."""

    def __init__(self, io: StoreIO, *, ttl: float, redactor: Redactor) -> None:
        self.io = io
        self.ttl = ttl
        self.redactor = redactor

    async def __call__(self, attempt: Attempt, call_next: Next) -> ToolResult:
        decision = attempt.decision
        if decision is None or decision.action != "ask":
            return await call_next(attempt)
        approval = await self._existing(attempt)
        if approval is None or approval.state != "denied":  # a "no" to this very request
            granted = await self._grant(attempt)  # stands against a run grant
            if granted is not None:
                return await _approved(call_next, attempt, granted)
        if approval is not None:
            outcome = await self._use(approval, attempt, call_next)
            if outcome is not None:
                return outcome
        return await self._file(attempt)

    async def _grant(self, attempt: Attempt) -> str | None:
        run_id = attempt.context.run_id
        if run_id is None or attempt.decision is None or attempt.decision.rule_id == RULE_OF_TWO:
            return None  # a grant lifts policy asks, never the Rule of Two
        grant = await self.io(self.io.store.approvals.grant_for, run_id, attempt.tool.name)
        return grant.approval_id if grant is not None else None

    async def _existing(self, attempt: Attempt) -> Approval | None:
        approvals = self.io.store.approvals
        if attempt.approval_id is not None:
            found = await self.io(approvals.get, attempt.approval_id)
        else:
            found = await self.io(approvals.find, attempt.request_hash)
        if found is None or attempt.request_hash not in (
            found.request_hash,
            found.edited_request_hash,
        ):
            return None
        return found

    async def _use(
        self, approval: Approval, attempt: Attempt, call_next: Next
    ) -> ToolResult | None:
        call, name, rule = attempt.call, attempt.tool.name, approval.rule_id
        if approval.state == "pending":
            return _outcome.held(call, name, approval.reason, approval_id=approval.id, rule_id=rule)
        if approval.state == "denied":
            return _outcome.declined(
                call, name, approval_id=approval.id, note=approval.note, rule_id=rule
            )
        if approval.state == "used" and await self._already_run(attempt):
            return await _approved(call_next, attempt, approval.id)
        if approval.state != "approved":
            return None  # expired or used: a new decision is needed
        approved = self._as_approved(approval, attempt)
        if isinstance(approved, ToolResult):
            return approved
        used = await self.io(
            self.io.store.approvals.consume, approval.id, request_hash=approved.request_hash
        )
        if used.status != "consumed":
            return None
        return await _approved(call_next, approved, approval.id)

    async def _already_run(self, attempt: Attempt) -> bool:
        """A used approval lets a duplicate through only to the dedupe step's replay."""
        key = attempt.idempotency_key
        if key is None:
            return False
        record = await self.io(self.io.store.idempotency.get, key)
        return record is not None

    def _as_approved(self, approval: Approval, attempt: Attempt) -> Attempt | ToolResult:
        """The attempt to run: with the approver's edited arguments, validated again."""
        if approval.edited_arguments is None:
            return attempt
        entry = attempt.prepared.entry
        arguments = dict(approval.edited_arguments)
        problems = check(entry.input, arguments)
        if problems:
            return _outcome.invalid_arguments(
                attempt.call, entry.tool.name, problems, entry.example
            )
        arguments = fill_defaults(entry.tool.input_schema, arguments)
        attempt.prepared = dataclasses.replace(attempt.prepared, arguments=arguments)
        attempt.request_hash = request_hash(entry.tool, arguments, attempt.context)
        return attempt

    async def _file(self, attempt: Attempt) -> ToolResult:
        decision, ctx = attempt.decision, attempt.context
        assert decision is not None
        draft = ApprovalDraft(
            request_hash=attempt.request_hash,
            tool_name=attempt.tool.name,
            arguments=self.redactor.value(attempt.prepared.arguments),
            principal=ctx.principal,
            tenant=ctx.tenant,
            run_id=ctx.run_id,
            call_id=attempt.call.id,
            reason=decision.reason,
            rule_id=decision.rule_id,
            expires_at=time.time() + self.ttl,
        )
        approval = await self.io(self.io.store.approvals.create, draft)
        return _outcome.held(
            attempt.call,
            attempt.tool.name,
            decision.reason,
            approval_id=approval.id,
            rule_id=decision.rule_id,
        )


async def _approved(call_next: Next, attempt: Attempt, approval_id: str) -> ToolResult:
    attempt.approval_id = approval_id
    return await call_next(attempt)
