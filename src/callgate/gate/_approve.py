"""approve: a call the policy (or the Rule of Two) asks about waits for a human decision
bound to the exact request hash; an approval is used once, before it expires."""

from __future__ import annotations

import dataclasses
import time

from callgate.gate import _outcome
from callgate.gate._arguments import Rejected, check_arguments
from callgate.gate._attempt import Attempt, Handler, Outcome, settled
from callgate.gate._prepare import with_arguments
from callgate.gate._provenance import RUN_HOLDS, carried, seen_whole
from callgate.gate._redact import Redactor
from callgate.schema import ArgumentLimits
from callgate.store import Approval, ApprovalDraft, AsyncStore, StoreUnavailable

__all__ = ["Approve"]


class Approve:
    """Files, finds and consumes approvals; passes on only calls a human has approved."""

    def __init__(
        self,
        next: Handler,
        *,
        store: AsyncStore,
        ttl: float,
        redactor: Redactor,
        limits: ArgumentLimits,
    ) -> None:
        self.next = next
        self.store = store
        self.ttl = ttl
        self.redactor = redactor
        self.limits = limits

    async def __call__(self, attempt: Attempt) -> Outcome:
        decision = attempt.decision
        if decision is None or decision.action != "ask":
            return await settled(self.next(attempt))
        try:
            found = await self._decided(attempt)
        except StoreUnavailable:
            return Outcome(
                result=_outcome.store_unavailable(attempt.call, attempt.tool.name),
                attempt=attempt,
                store_down=True,
            )
        if isinstance(found, Outcome):
            return found
        return await settled(self.next(found))

    async def _decided(self, attempt: Attempt) -> Attempt | Outcome:
        """The attempt to run (approved), or the outcome that stops it here."""
        approval = await self._existing(attempt)
        if approval is None or approval.state != "denied":  # a "no" to this very request
            granted = await self._grant(attempt)  # stands against a run grant
            if granted is not None:
                return dataclasses.replace(attempt, approval_id=granted)
        if approval is not None:
            used = await self._use(approval, attempt)
            if used is not None:
                return used
        return await self._file(attempt)

    async def _grant(self, attempt: Attempt) -> str | None:
        run_id, decision = attempt.context.run_id, attempt.decision
        if run_id is None or decision is None or decision.rule_id in RUN_HOLDS:
            return None  # a grant lifts policy asks, never what the run's labels hold
        approvals = self.store.store.approvals
        grant = await self.store.run(approvals.grant_for, run_id, attempt.tool.name)
        return grant.approval_id if grant is not None else None

    async def _existing(self, attempt: Attempt) -> Approval | None:
        approvals = self.store.store.approvals
        named = attempt.request.approval
        if named is not None:
            found = await self.store.run(approvals.get, named.id)
        else:
            found = await self.store.run(approvals.find, attempt.request_hash)
        if found is None or attempt.request_hash not in (
            found.request_hash,
            found.edited_request_hash,
        ):
            return None
        return found

    async def _use(self, approval: Approval, attempt: Attempt) -> Attempt | Outcome | None:
        call, name, rule = attempt.call, attempt.tool.name, approval.rule_id
        if approval.state == "pending":
            held = _outcome.held(call, name, approval.reason, approval_id=approval.id, rule_id=rule)
            return Outcome(result=held, attempt=attempt)
        if approval.state == "denied":
            declined = _outcome.declined(
                call, name, approval_id=approval.id, note=approval.note, rule_id=rule
            )
            return Outcome(result=declined, attempt=attempt)
        if approval.state not in ("approved", "used"):
            return None  # expired: a new decision is needed
        edited = self._as_decided(approval, attempt)
        if isinstance(edited, Outcome):
            return edited
        edited = dataclasses.replace(edited, approval_id=approval.id)
        if not _showed(approval, attempt, edited):
            # It would act on a value its approver was not shown. Asking again could ask
            # forever (a value no approval can cover): a decision that does not cover the
            # call denies it.
            why = _outcome.approval_not_covering(approval.id)
            denied = _outcome.denied(call, name, why, rule_id=rule)
            return Outcome(result=denied, attempt=attempt)
        if approval.state == "used":
            # Used already: only a duplicate of the call it ran goes on, to the dedupe
            # step's replay; anything else needs a new decision.
            return edited if await self._already_run(edited) else None
        approvals = self.store.store.approvals
        used = await self.store.run(
            approvals.consume, approval.id, request_hash=edited.request_hash
        )
        return edited if used.status == "consumed" else None

    def _as_decided(self, approval: Approval, attempt: Attempt) -> Attempt | Outcome:
        """The attempt as the approver decided it: with the edited arguments, checked again
        (the catalog may have changed since)."""
        if (
            approval.edited_arguments is None
            or attempt.request_hash == approval.edited_request_hash
        ):
            return attempt
        checked = check_arguments(attempt.entry, approval.edited_arguments, self.limits)
        if isinstance(checked, Rejected):
            return Outcome(
                result=_outcome.rejected(attempt.call, attempt.entry, checked), attempt=attempt
            )
        edited = with_arguments(attempt, checked)
        if edited.request_hash != approval.edited_request_hash:
            # The stored edit was redacted (it held a secret): it is not what was approved.
            return Outcome(
                result=_outcome.edit_unavailable(attempt.call, attempt.tool.name, approval.id),
                attempt=attempt,
            )
        return edited

    async def _already_run(self, attempt: Attempt) -> bool:
        if attempt.key is None:
            return False
        record = await self.store.run(self.store.store.idempotency.get, attempt.key)
        return record is not None

    async def _file(self, attempt: Attempt) -> Outcome:
        decision, ctx = attempt.decision, attempt.context
        assert decision is not None
        draft = ApprovalDraft(
            request_hash=attempt.request_hash,
            tool_name=attempt.tool.name,
            arguments=self.redactor.value(dict(attempt.arguments)),
            principal=ctx.principal,
            tenant=ctx.tenant,
            run_id=ctx.run_id,
            call_id=attempt.call.id,
            reason=decision.reason,
            rule_id=decision.rule_id,
            expires_at=time.time() + self.ttl,
            foreign_values=decision.values,
        )
        approval = await self.store.run(self.store.store.approvals.create, draft)
        held = _outcome.held(
            attempt.call,
            attempt.tool.name,
            decision.reason,
            approval_id=approval.id,
            rule_id=decision.rule_id,
        )
        return Outcome(result=held, attempt=dataclasses.replace(attempt, approval_id=approval.id))


def _showed(approval: Approval, held: Attempt, running: Attempt) -> bool:
    """Every foreign value the approved call would act on was shown to its approver whole
    (or written by them in an edit). `held`'s decision judged the call as proposed; what
    runs is `running`, the edited call when the approver edited it."""
    decision = held.decision
    foreign = set(decision.values) if decision is not None else set()
    return foreign & carried(running.arguments) <= seen_whole(approval)
