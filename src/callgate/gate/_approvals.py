"""Deciding held calls: list, show, approve (optionally with edited arguments or a grant for
the rest of the run) and deny. Used by people through the CLI and by hosts in Python."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from callgate._errors import UserError
from callgate.contract import Catalog, Context
from callgate.gate._attempt import request_hash
from callgate.gate._inject import supplied_by_model
from callgate.schema import ArgumentError, check, fill_defaults, parse_arguments
from callgate.store import Approval, RecordNotFound, Store

__all__ = ["Approvals"]


class Approvals:
    """The approval queue of one store. `catalog` is needed only to edit arguments.

    A decision never runs the call: the host (or the agent loop) resumes it with
    `Gate.resume(approval_id)`, or by proposing the same call again.
    """

    def __init__(self, store: Store, catalog: Catalog | None = None) -> None:
        self.store = store
        self.catalog = catalog

    def list(self, *, pending_only: bool = True, limit: int = 100) -> list[Approval]:
        return self.store.approvals.list(pending_only=pending_only, limit=limit)

    def get(self, approval_id: str) -> Approval:
        found = self.store.approvals.get(approval_id)
        if found is None:
            raise RecordNotFound("approval", approval_id)
        return found

    def approve(
        self,
        approval_id: str,
        *,
        by: str,
        note: str | None = None,
        arguments: Mapping[str, Any] | str | None = None,
        grant: bool = False,
    ) -> Approval:
        """Approve once. `arguments` replaces the call's arguments (validated again, new
        request hash); `grant` allows the tool for the rest of the approval's run."""
        edited, edited_hash = None, None
        if arguments is not None:
            edited, edited_hash = self._edit(self.get(approval_id), arguments)
        if grant and self.get(approval_id).run_id is None:
            raise UserError(f"approval {approval_id} belongs to no run: a grant needs a run id")
        return self.store.approvals.decide(
            approval_id,
            approve=True,
            decided_by=by,
            note=note,
            edited_arguments=edited,
            edited_request_hash=edited_hash,
            grant=grant,
        )

    def deny(self, approval_id: str, *, by: str, note: str | None = None) -> Approval:
        """Decline: the model is told "do not retry; ask the user"."""
        return self.store.approvals.decide(approval_id, approve=False, decided_by=by, note=note)

    def _edit(self, approval: Approval, raw: Mapping[str, Any] | str) -> tuple[dict[str, Any], str]:
        if self.catalog is None:
            raise UserError(
                "editing the arguments of an approval needs the tool catalog "
                "(use Gate.approvals, which has it)"
            )
        entry = self.catalog.compiled(approval.tool_name)
        if entry is None:
            raise UserError(f"tool {approval.tool_name!r} is no longer in the catalog")
        arguments = parse_arguments(raw)
        if isinstance(arguments, ArgumentError):
            raise UserError(f"edited arguments: {arguments.message}")
        sent = supplied_by_model(entry.tool, arguments)
        problems = [p.message for p in check(entry.input, arguments)]
        if sent:
            problems.append(f"{', '.join(sent)} is set by the host")
        if problems:
            raise UserError(f"edited arguments are invalid: {'; '.join(problems)}")
        arguments = fill_defaults(entry.tool.input_schema, arguments)
        context = Context(
            principal=approval.principal, tenant=approval.tenant, run_id=approval.run_id
        )
        return arguments, request_hash(entry.tool, arguments, context)
