"""The inbox: held calls, why they are held, and the decisions on them.

A decision goes through `Approvals.decide` like every other decision (the command line's,
`Gate.decide`): the store binds it to the request hash and takes it once; an `Edit` passes
the gate's own argument check and is bound to the edited request. The page never runs a
call: the waiting host does, when it resumes (an `Agent` run) or repeats (a gateway or
command-line call) it.

An identity with a tenant sees and decides only that tenant's calls.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from callgate.contract import LABELS, ApprovalDecision, Approve, Decline, Edit
from callgate.gate import REDACTED, RULE_OF_TWO
from callgate.schema import ArgumentError, parse_arguments
from callgate.store import Approval
from callgate.ui._forms import MAX_FORM_BYTES, Form, read_form
from callgate.ui._inert import DiffLine, Inert, diff, inert
from callgate.ui._page import Pages
from callgate.ui._refusal import Refused
from callgate.ui._sessions import Session

__all__ = ["Held", "InboxViews"]

_MAX_LISTED = 500
_MAX_NOTE = 2_000
_MAX_ID = 100


@dataclass(frozen=True, kw_only=True, slots=True)
class Held:
    """An approval as the page shows it."""

    approval: Approval
    arguments: Inert
    trail: tuple[tuple[str, str], ...] = ()
    """For the Rule of Two: the run's labels, each with the call that brought it in."""
    edit_refusal: str | None = None
    """Why the arguments cannot be edited here, when they cannot."""
    edited: tuple[DiffLine, ...] = ()
    """A decided edit: the held arguments against the edited ones."""

    @property
    def grantable(self) -> bool:
        """A grant allows the tool for the rest of the run; it never lifts the Rule of Two,
        so it is not offered for a call the Rule of Two held."""
        return _grantable(self.approval)


class InboxViews:
    def __init__(self, pages: Pages) -> None:
        self.pages = pages

    async def inbox(self, request: Request) -> Response:
        session = self.pages.session(request)
        found = await self.pages.call(
            self.pages.store.approvals.list, pending_only=True, limit=_MAX_LISTED
        )
        mine = [a for a in found if _visible(session, a)]
        held = [await self._held(a) for a in mine]
        return self.pages.render(
            request, "inbox.html", session=session, held=held, capped=len(found) >= _MAX_LISTED
        )

    async def approval(self, request: Request) -> Response:
        session = self.pages.session(request)
        held = await self._held(await self._approval(request, session))
        return self.pages.render(request, "approval.html", session=session, item=held)

    async def edit(self, request: Request) -> Response:
        session = self.pages.session(request)
        approval = await self._approval(request, session)
        return self._edit_page(request, session, approval, _editable_text(approval.arguments))

    async def preview(self, request: Request) -> Response:
        """The edit as a diff against the held arguments, to confirm or change."""
        session, form = await self._decider(request)
        approval = await self._approval(request, session)
        text = form.text("arguments", limit=MAX_FORM_BYTES)
        parsed = self._parse_edit(text)
        if isinstance(parsed, str):
            return self._edit_page(request, session, approval, text, error=parsed)
        return self._edit_page(
            request,
            session,
            approval,
            text,
            changes=diff(approval.arguments, parsed),
            note=form.text("note", limit=_MAX_NOTE),
            grant=_grant(form, approval),
        )

    async def decide(self, request: Request) -> Response:
        session, form = await self._decider(request)
        approval = await self._approval(request, session)
        action = form.text("action", limit=20)
        note = form.text("note", limit=_MAX_NOTE) or None
        by = session.identity.principal
        grant = _grant(form, approval)
        decision: ApprovalDecision
        if action == "approve":
            decision = Approve(by=by, note=note, grant=grant)
        elif action == "decline":
            decision = Decline(by=by, note=note)
        elif action == "edit":
            text = form.text("arguments", limit=MAX_FORM_BYTES)
            parsed = self._parse_edit(text)
            if isinstance(parsed, str):
                return self._edit_page(request, session, approval, text, error=parsed)
            decision = Edit(arguments=parsed, by=by, note=note, grant=grant)
        else:
            raise Refused(400, "the decision must be approve, decline or edit")
        try:
            await self.pages.call(self.pages.approvals.decide, approval.id, decision)
        except Refused as refused:
            if not isinstance(decision, Edit) or refused.status != 400:
                raise
            return self._edit_page(request, session, approval, text, error=refused.message)
        return self.pages.redirect(request, "/approvals", approval.id)

    # -- parts --------------------------------------------------------------------------------

    async def _decider(self, request: Request) -> tuple[Session, Form]:
        """The session and form of a decision: CSRF checked, the approver role required."""
        session = self.pages.session(request)
        form = await read_form(request)
        if not session.csrf_matches(form.get("csrf", limit=200)):
            raise Refused(403, "the form's CSRF token is missing or wrong; reload the page")
        if not session.can_decide:
            raise Refused(
                403,
                f"{session.identity.principal} may read but not decide: deciding "
                "needs the approver role",
            )
        return session, form

    async def _approval(self, request: Request, session: Session) -> Approval:
        approval_id = request.path_params["approval_id"]
        found = None
        if len(approval_id) <= _MAX_ID:
            found = await self.pages.call(self.pages.store.approvals.get, approval_id)
        if found is None or not _visible(session, found):
            raise Refused(404, "no such approval")
        return found

    async def _held(self, approval: Approval) -> Held:
        trail: tuple[tuple[str, str], ...] = ()
        if approval.rule_id == RULE_OF_TWO and approval.run_id is not None:
            labels = await self.pages.call(self.pages.store.labels.of, approval.run_id)
            # The run's other rows (its spotlight boundary, a suspicion) are not labels.
            trail = tuple(sorted((k, v) for k, v in labels.items() if k in LABELS))
        edited: tuple[DiffLine, ...] = ()
        if approval.edited_arguments is not None:
            edited = tuple(diff(approval.arguments, approval.edited_arguments))
        return Held(
            approval=approval,
            arguments=self.pages.shown(approval.arguments),
            trail=trail,
            edit_refusal=self._edit_refusal(approval),
            edited=edited,
        )

    def _edit_refusal(self, approval: Approval) -> str | None:
        catalog = self.pages.catalog
        if catalog is None:
            return (
                "Editing needs the tool catalog, to check the new arguments against the "
                "tool's schema: start the page with --tools MODULE:CATALOG."
            )
        if catalog.compiled(approval.tool_name) is None:
            return "This tool is not in the catalog the page was started with."
        text = _editable_text(approval.arguments)
        if text is None:
            return "These arguments cannot be written as JSON text."
        limit = self.pages.approvals.limits.max_bytes
        if len(text) > limit:
            return f"These arguments are longer than the {limit:,} bytes a call may carry."
        return None

    def _parse_edit(self, text: str) -> dict[str, Any] | str:
        """The edited arguments, or why they cannot be used (the schema is checked when
        the decision is recorded)."""
        parsed = parse_arguments(text, self.pages.approvals.limits)
        if isinstance(parsed, ArgumentError):
            return f"The arguments cannot be used: {parsed.message}"
        if _holds_redacted(parsed):
            return (
                f"The arguments still hold {REDACTED}: that value was removed before the "
                "call was stored and the page cannot restore it. Give the value, or decide "
                "the call in the host with its original arguments."
            )
        return parsed

    def _edit_page(
        self,
        request: Request,
        session: Session,
        approval: Approval,
        text: str | None,
        *,
        error: str = "",
        changes: list[DiffLine] | None = None,
        note: str = "",
        grant: bool = False,
    ) -> Response:
        refusal = self._edit_refusal(approval)
        if refusal is not None:
            raise Refused(409, refusal)
        if approval.state != "pending":
            raise Refused(409, f"approval {approval.id} is {approval.state}: it cannot be edited")
        return self.pages.render(
            request,
            "edit.html",
            status=400 if error else 200,
            session=session,
            approval=approval,
            text=inert(text or "", limit=MAX_FORM_BYTES, lines=True),
            error=error,
            changes=changes,
            note=note,
            grant=grant,
            grantable=_grantable(approval),
        )


def _grantable(approval: Approval) -> bool:
    return approval.run_id is not None and approval.rule_id != RULE_OF_TWO


def _grant(form: Form, approval: Approval) -> bool:
    """The form's grant, refused where the page does not offer one: a grant recorded on a
    Rule of Two hold would lift the policy's later asks for the tool in that run."""
    asked = form.flag("grant")
    if asked and not _grantable(approval):
        raise Refused(400, "a grant for the run is not offered for this call; nothing was decided")
    return asked


def _visible(session: Session, approval: Approval) -> bool:
    tenant = session.identity.tenant
    return tenant is None or approval.tenant == tenant


def _editable_text(arguments: Any) -> str | None:
    """The arguments as JSON to edit: sorted, indented, and with every character that does
    not show as itself written as its JSON escape (the same value, visibly)."""
    try:
        text = json.dumps(arguments, indent=2, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return None
    return inert(text, limit=len(text), lines=True)


def _holds_redacted(value: Any) -> bool:
    if isinstance(value, str):
        return REDACTED in value
    if isinstance(value, dict):
        return any(_holds_redacted(k) or _holds_redacted(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_holds_redacted(v) for v in value)
    return False
