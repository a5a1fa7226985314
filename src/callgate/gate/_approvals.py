"""Deciding held calls: list, show, decide (approve, edit, decline, grant for the run). Used
by people through the command line and by hosts in Python (`Gate.decide`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from callgate._errors import UserError
from callgate._visible import visible
from callgate.contract import ApprovalDecision, Approve, Catalog, Context, Decline, Edit
from callgate.gate._arguments import Rejected, check_arguments
from callgate.gate._attempt import identity, request_hash
from callgate.gate._redact import Redactor
from callgate.schema import ArgumentLimits
from callgate.store import Approval, RecordNotFound, Store

__all__ = ["Approvals", "approval_context", "values_to_check"]


def approval_context(approval: Approval, base: Context) -> Context:
    """`base` for the principal, tenant and run the approval was filed for."""
    return dataclasses.replace(
        base, principal=approval.principal, tenant=approval.tenant, run_id=approval.run_id
    )


def values_to_check(approval: Approval) -> str:
    """The values no trusted source gave that a held call carries, as every surface that
    asks shows them: each whole on its own line, before the arguments (which a surface may
    cut). These, and no others, are what approving the call vouches for. Empty when the
    call carries none."""
    values = approval.foreign_values
    if not values:
        return ""
    scope = f"the rest of run {approval.run_id}" if approval.run_id else "this call"
    lines = "".join(f"\n  {visible(value)}" for value in values)
    return (
        f"It carries {len(values)} value(s) no trusted source gave; check each (approving "
        f"vouches for them for {scope}):{lines}"
    )


class Approvals:
    """The approval queue of one store. `catalog` is needed only to check edits.

    A decision never runs the call: the host (or the agent loop) resumes it with
    `Gate.resume(approval_id)`, or by proposing the same call again.
    """

    def __init__(
        self,
        store: Store,
        catalog: Catalog | None = None,
        *,
        limits: ArgumentLimits | None = None,
        redactor: Redactor | None = None,
    ) -> None:
        self.store = store
        self.catalog = catalog
        self.limits = limits or ArgumentLimits()
        self.redactor = redactor or Redactor()

    def list(self, *, pending_only: bool = True, limit: int = 100) -> list[Approval]:
        return self.store.approvals.list(pending_only=pending_only, limit=limit)

    def get(self, approval_id: str) -> Approval:
        found = self.store.approvals.get(approval_id)
        if found is None:
            raise RecordNotFound("approval", approval_id)
        return found

    def decide(
        self, approval_id: str, decision: ApprovalDecision, *, context: Context | None = None
    ) -> Approval:
        """Record `decision` once. An `Edit` passes the same argument check as a proposal
        and binds the approval to the edited request; a grant needs the approval's run.
        `context`, when given, must be the one the call was held under."""
        approval = self.get(approval_id)
        if context is not None and identity(context) != identity(
            approval_context(approval, context)
        ):
            raise UserError(
                f"approval {approval_id} was filed for another principal, tenant or run"
            )
        _check_grant(approval, decision)
        edited_hash = None
        if isinstance(decision, Edit):
            decision, edited_hash = self._edit(approval, decision)
        return self.store.approvals.decide(approval_id, decision, edited_request_hash=edited_hash)

    def decide_all(
        self, approval_ids: Sequence[str], decision: Approve | Decline
    ) -> tuple[Approval, ...]:
        """Record `decision` for every one of `approval_ids` in one transaction, or for
        none: a typo, an approval no longer pending or a grant for one without a run
        decides nothing."""
        for approval_id in approval_ids:
            _check_grant(self.get(approval_id), decision)
        return self.store.approvals.decide_all(approval_ids, decision)

    def _edit(self, approval: Approval, edit: Edit) -> tuple[Edit, str]:
        """The edit as stored (checked, defaults filled, secrets redacted) and the hash of
        the request it authorizes."""
        if self.catalog is None:
            raise UserError(
                "editing the arguments of an approval needs the tool catalog (use "
                "Gate.approvals, or `callgate approvals approve --edit ... --tools mod:attr`)"
            )
        entry = self.catalog.compiled(approval.tool_name)
        if entry is None:
            raise UserError(f"tool {approval.tool_name!r} is no longer in the catalog")
        checked = check_arguments(entry, edit.arguments, self.limits)
        if isinstance(checked, Rejected):
            raise UserError(f"edited arguments are invalid: {checked.message()}")
        context = approval_context(approval, Context())
        digest = request_hash(entry.tool, entry.tool.name, checked, context)
        return dataclasses.replace(edit, arguments=self.redactor.value(checked)), digest


def _check_grant(approval: Approval, decision: ApprovalDecision) -> None:
    if not isinstance(decision, Decline) and decision.grant and approval.run_id is None:
        raise UserError(f"approval {approval.id} belongs to no run: a grant needs a run id")
