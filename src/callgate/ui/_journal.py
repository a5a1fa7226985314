"""The journal: receipts by run, tool, route, principal and time; a run as its turns and
batches; one receipt in full; and the verification of the hash chain.

A run is read from its receipts, never from its saved state: the state holds what the
model and the tools said unredacted (it must, to resume), the receipts hold what the
gate kept after redaction. An identity with a tenant reads only that tenant's receipts.
"""

from __future__ import annotations

import dataclasses
import datetime
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from callgate.contract import Route
from callgate.store import Receipt, ReceiptQuery
from callgate.ui._page import Pages
from callgate.ui._refusal import Refused
from callgate.ui._sessions import Session

__all__ = ["Batch", "JournalViews", "batches"]

PAGE_SIZE = 50
_MAX_RUN_RECEIPTS = 1_000
_MAX_FILTER = 256
_MAX_OFFSET = 10_000_000
_MAX_SEQ = 2**62  # the databases' integers are 64-bit
_ROUTES = tuple(r.value for r in Route)


@dataclass(frozen=True, kw_only=True, slots=True)
class Batch:
    """The calls of one batch (one model turn, for the agent loop), in chain order."""

    id: str | None
    turn: int | None
    """The loop's step number, when the batch id is the loop's `run_id/step`."""
    receipts: tuple[Receipt, ...]


def batches(run_id: str, receipts: list[Receipt]) -> list[Batch]:
    """`receipts` of one run grouped by batch, in the order each batch began. A receipt
    recorded without a batch but under an approval joins the batch its held call was in
    (a call resumed after a decision)."""
    held_in = {r.approval_id: r.batch_id for r in receipts if r.approval_id and r.batch_id}
    grouped: dict[str | None, list[Receipt]] = {}
    for receipt in receipts:
        key = receipt.batch_id or held_in.get(receipt.approval_id or "")
        grouped.setdefault(key, []).append(receipt)
    return [Batch(id=k, turn=_turn(run_id, k), receipts=tuple(v)) for k, v in grouped.items()]


class JournalViews:
    def __init__(self, pages: Pages) -> None:
        self.pages = pages

    async def journal(self, request: Request) -> Response:
        session = self.pages.session(request)
        filters = _filters(request)
        offset = _number(request, "offset", 0, _MAX_OFFSET)
        query = ReceiptQuery(
            run_id=filters["run"] or None,
            tool_name=filters["tool"] or None,
            principal=filters["principal"] or None,
            route=Route(filters["route"]) if filters["route"] else None,
            approval_id=filters["approval"] or None,
            tenant=session.identity.tenant,
            since=_time(filters["since"], "since"),
            until=_time(filters["until"], "until"),
        )
        found = await self.pages.call(
            self.pages.store.receipts.list,
            query,
            limit=PAGE_SIZE + 1,
            offset=offset,
            descending=True,
        )
        return self.pages.render(
            request,
            "journal.html",
            session=session,
            receipts=found[:PAGE_SIZE],
            filters=filters,
            routes=_ROUTES,
            offset=offset,
            more=len(found) > PAGE_SIZE,
            page_size=PAGE_SIZE,
        )

    async def run(self, request: Request) -> Response:
        session = self.pages.session(request)
        run_id = _text(request, "id")
        if not run_id:
            raise Refused(400, "give the run's id: /run?id=RUN_ID")
        found = await self.pages.call(
            self.pages.store.receipts.list,
            ReceiptQuery(run_id=run_id, tenant=session.identity.tenant),
            limit=_MAX_RUN_RECEIPTS + 1,
        )
        record = None
        if found or session.identity.tenant is None:
            record = await self.pages.call(self.pages.store.runs.load, run_id)
        if not found and record is None:
            raise Refused(404, "no receipts of this run")
        pending = await self.pages.call(self.pages.store.approvals.list, limit=500)
        return self.pages.render(
            request,
            "run.html",
            session=session,
            run_id=run_id,
            record=record,
            batches=batches(run_id, found[:_MAX_RUN_RECEIPTS]),
            count=min(len(found), _MAX_RUN_RECEIPTS),
            capped=len(found) > _MAX_RUN_RECEIPTS,
            pending=[a for a in pending if a.run_id == run_id and _mine(session, a.tenant)],
        )

    async def receipt(self, request: Request) -> Response:
        session = self.pages.session(request)
        seq = request.path_params["seq"]
        found = None
        if seq <= _MAX_SEQ:
            found = await self.pages.call(self.pages.store.receipts.get, seq)
        if found is None or not _mine(session, found.tenant):
            raise Refused(404, f"no receipt #{seq}")
        return self.pages.render(
            request,
            "receipt.html",
            session=session,
            receipt=found,
            fields=_fields(found),
            arguments=None if found.arguments is None else self.pages.shown(found.arguments),
            result=None if found.result is None else self.pages.shown(found.result),
        )

    async def verify(self, request: Request) -> Response:
        session = self.pages.session(request)
        anchor = _text(request, "anchor") or self.pages.settings.anchor
        seq = _number(request, "seq", 0, _MAX_SEQ) or None
        report = await self.pages.call(self.pages.store.receipts.verify, anchor)
        return self.pages.render(
            request, "verify.html", session=session, report=report, anchor=anchor, seq=seq
        )


def _turn(run_id: str, batch_id: str | None) -> int | None:
    if batch_id is None or not batch_id.startswith(run_id + "/"):
        return None
    step = batch_id[len(run_id) + 1 :]
    return int(step) if step.isascii() and step.isdigit() and len(step) < 10 else None


def _mine(session: Session, tenant: str | None) -> bool:
    return session.identity.tenant is None or tenant == session.identity.tenant


def _filters(request: Request) -> dict[str, str]:
    filters = {
        name: _text(request, name)
        for name in ("run", "tool", "route", "principal", "approval", "since", "until")
    }
    if filters["route"] and filters["route"] not in _ROUTES:
        raise Refused(400, f"route must be one of {', '.join(_ROUTES)}")
    return filters


def _text(request: Request, name: str) -> str:
    value = request.query_params.get(name, "").strip()
    if len(value) > _MAX_FILTER:
        raise Refused(400, f"{name!r} is longer than {_MAX_FILTER} characters")
    return value


def _number(request: Request, name: str, default: int, most: int) -> int:
    value = _text(request, name)
    if not value:
        return default
    if not (value.isascii() and value.isdigit()) or len(value) > 20 or int(value) > most:
        raise Refused(400, f"{name!r} must be a whole number from 0 to {most:,}")
    return int(value)


def _time(value: str, name: str) -> float | None:
    """A time of the filter form (`2026-11-01T12:30`, UTC unless it names a zone)."""
    if not value:
        return None
    try:
        moment = datetime.datetime.fromisoformat(value)
    except ValueError:
        raise Refused(400, f"{name!r} must be a date and time such as 2026-11-01T12:30") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.UTC)
    return moment.timestamp()


def _fields(receipt: Receipt) -> list[tuple[str, Any]]:
    """Every field of the receipt but the payloads, in the order the dataclass names them."""
    shown = []
    for field in dataclasses.fields(receipt):
        if field.name in ("arguments", "result"):
            continue
        value = getattr(receipt, field.name)
        if field.name == "findings":
            value = ", ".join(value) if value else None
        shown.append((field.name, value))
    return shown
