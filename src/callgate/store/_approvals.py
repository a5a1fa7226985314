"""Approvals: held calls, one decision each, single use, and per-run grants.

Expiry is lazy: a pending or approved row past its `expires_at` reads as `expired`, and
every state change checks the time in its `WHERE` clause, so no sweeper is needed for
correctness; the row is rewritten to `expired` when a decision or use is refused for it
(a refused batch rolls that back with its decisions: the row still reads as expired).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import replace

from callgate.contract import ApprovalDecision, Approve, Decline, Edit
from callgate.store._db import Clock, Database, Row, Tx, dump_json, load_json, storable
from callgate.store._errors import RecordNotFound, StoreConflict
from callgate.store._records import Approval, ApprovalDraft, Consumption, Grant

__all__ = ["SQLApprovals"]

_COLUMNS = (
    "id, request_hash, tool_name, arguments, principal, tenant, run_id, call_id, reason,"
    " rule_id, created_at, expires_at, state, decided_by, decided_at, note, edited_arguments,"
    " edited_request_hash, grant_run, used_at, foreign_values"
)
_SELECT = f"SELECT {_COLUMNS} FROM callgate_approvals"
_LIVE = ("pending", "approved")


def _record(row: Row, now: float) -> Approval:
    approval = Approval(
        id=row[0],
        request_hash=row[1],
        tool_name=row[2],
        arguments=load_json(row[3]),
        principal=row[4],
        tenant=row[5],
        run_id=row[6],
        call_id=row[7],
        reason=row[8],
        rule_id=row[9],
        created_at=row[10],
        expires_at=row[11],
        state=row[12],
        decided_by=row[13],
        decided_at=row[14],
        note=row[15],
        edited_arguments=load_json(row[16]),
        edited_request_hash=row[17],
        grant=bool(row[18]),
        used_at=row[19],
        foreign_values=_values(row[20]),
    )
    if approval.state in _LIVE and approval.expires_at <= now:
        return replace(approval, state="expired")
    return approval


def _values(text: str | None) -> tuple[str, ...]:
    """The stored foreign values; anything but a list of texts reads as none (fail closed:
    an approval that lists no value vouches for none, and lets none through)."""
    try:
        loaded = load_json(text)
    except ValueError:
        return ()
    if not isinstance(loaded, list):
        return ()
    return tuple(v for v in loaded if isinstance(v, str))


def _text(value: str | None) -> str | None:
    return None if value is None else storable(value)


class SQLApprovals:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    def create(self, draft: ApprovalDraft) -> Approval:
        now = self._clock()
        # 64 random bits: short enough to type in `callgate approvals approve`, and a
        # collision is refused by the primary key rather than silently merged.
        approval_id = secrets.token_hex(8)
        with self._db.transaction(write=True) as tx:
            row = tx.one(
                f"INSERT INTO callgate_approvals ({_COLUMNS}) VALUES"
                " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', NULL, NULL, NULL, NULL,"
                f" NULL, ?, NULL, ?) RETURNING {_COLUMNS}",
                (
                    approval_id,
                    draft.request_hash,
                    storable(draft.tool_name),
                    dump_json(draft.arguments),
                    storable(draft.principal),
                    _text(draft.tenant),
                    _text(draft.run_id),
                    _text(draft.call_id),
                    storable(draft.reason),
                    _text(draft.rule_id),
                    now,
                    draft.expires_at,
                    False,
                    dump_json([storable(v) for v in draft.foreign_values] or None),
                ),
            )
        assert row is not None  # INSERT ... RETURNING without ON CONFLICT returns its row
        return _record(row, now)

    def get(self, approval_id: str) -> Approval | None:
        now = self._clock()
        with self._db.transaction(write=False) as tx:
            row = tx.one(_SELECT + " WHERE id = ?", (approval_id,))
        return None if row is None else _record(row, now)

    def list(
        self, *, pending_only: bool = True, limit: int = 100, offset: int = 0
    ) -> list[Approval]:
        now = self._clock()
        where, params = (
            (" WHERE state = 'pending' AND expires_at > ?", (now,)) if pending_only else ("", ())
        )
        with self._db.transaction(write=False) as tx:
            rows = tx.rows(
                f"{_SELECT}{where} ORDER BY created_at, id LIMIT ? OFFSET ?",
                (*params, limit, offset),
            )
        return [_record(row, now) for row in rows]

    def find(self, request_hash: str) -> Approval | None:
        now = self._clock()
        with self._db.transaction(write=False) as tx:
            # Two indexed lookups rather than one OR, which neither database plans well.
            rows = [
                tx.one(
                    f"{_SELECT} WHERE {column} = ? ORDER BY created_at DESC, id DESC LIMIT 1",
                    (request_hash,),
                )
                for column in ("request_hash", "edited_request_hash")
            ]
        found = [_record(row, now) for row in rows if row is not None]
        return max(found, key=lambda a: (a.created_at, a.id), default=None)

    def decide(
        self,
        approval_id: str,
        decision: ApprovalDecision,
        *,
        edited_request_hash: str | None = None,
    ) -> Approval:
        """Approve, edit or decline a pending approval, once. An `Edit` is stored with its
        new request hash (computed by the gate after the argument check). Raises
        `RecordNotFound`, or `StoreConflict` when the approval is no longer pending."""
        edited = decision.arguments if isinstance(decision, Edit) else None
        if (edited is None) != (edited_request_hash is None):
            raise ValueError("an Edit needs the new request hash, and only an Edit has one")
        now = self._clock()
        with self._db.transaction(write=True) as tx:
            approval = self._decide(tx, approval_id, decision, edited_request_hash, now)
            if approval is not None:
                return approval
            # Committed, not rolled back: the refusal may have persisted an expiry.
            refusal = self._not_pending(tx, approval_id, now)
        raise refusal

    def decide_all(
        self, approval_ids: Sequence[str], decision: Approve | Decline
    ) -> tuple[Approval, ...]:
        """Approve or decline every one of `approval_ids` in one transaction, or none: when one
        is not pending its refusal is raised and every decision is rolled back."""
        if type(decision) not in (Approve, Decline):
            raise ValueError("an Edit decides one approval, with its own request hash")
        unique = list(dict.fromkeys(approval_ids))
        now = self._clock()
        with self._db.transaction(write=True) as tx:
            decided: dict[str, Approval] = {}
            # Rows are locked in one order, so two overlapping batches cannot deadlock.
            for approval_id in sorted(unique):
                approval = self._decide(tx, approval_id, decision, None, now)
                if approval is None:
                    raise self._not_pending(tx, approval_id, now)
                decided[approval_id] = approval
            return tuple(decided[i] for i in unique)

    def _decide(
        self,
        tx: Tx,
        approval_id: str,
        decision: ApprovalDecision,
        edited_request_hash: str | None,
        now: float,
    ) -> Approval | None:
        """The approval as decided in `tx`, or None when it was not pending."""
        edited = decision.arguments if isinstance(decision, Edit) else None
        approve = not isinstance(decision, Decline)
        grant = False if isinstance(decision, Decline) else decision.grant
        row = tx.one(
            "UPDATE callgate_approvals SET state = ?, decided_by = ?, decided_at = ?,"
            " note = ?, edited_arguments = ?, edited_request_hash = ?, grant_run = ?"
            " WHERE id = ? AND state = 'pending' AND expires_at > ?"
            f" RETURNING {_COLUMNS}",
            (
                "approved" if approve else "denied",
                storable(decision.by),
                now,
                _text(decision.note),
                dump_json(dict(edited) if edited is not None else None),
                edited_request_hash,
                grant,
                approval_id,
                now,
            ),
        )
        if row is None:
            return None
        approval = _record(row, now)
        if approval.grant and approval.run_id is not None:
            self._add_grant(tx, approval, now)
        return approval

    def _not_pending(self, tx: Tx, approval_id: str, now: float) -> Exception:
        current = self._expire(tx, approval_id, now)
        if current is None:
            return RecordNotFound("approval", approval_id)
        return StoreConflict(f"approval {approval_id!r} is {current.state}, not pending")

    @staticmethod
    def _add_grant(tx: Tx, approval: Approval, now: float) -> None:
        # A second grant for the same (run, tool) keeps the first: either one suffices.
        tx.run(
            "INSERT INTO callgate_grants (run_id, tool_name, approval_id, granted_by,"
            " granted_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (run_id, tool_name) DO NOTHING",
            (approval.run_id, approval.tool_name, approval.id, approval.decided_by, now),
        )

    def consume(self, approval_id: str, *, request_hash: str) -> Consumption:
        now = self._clock()
        with self._db.transaction(write=True) as tx:
            row = tx.one(
                "UPDATE callgate_approvals SET state = 'used', used_at = ?"
                " WHERE id = ? AND state = 'approved' AND expires_at > ?"
                " AND (request_hash = ? OR edited_request_hash = ?)"
                f" RETURNING {_COLUMNS}",
                (now, approval_id, now, request_hash, request_hash),
            )
            if row is not None:
                return Consumption(status="consumed", approval=_record(row, now))
            current = self._expire(tx, approval_id, now)
        if current is None:
            return Consumption(status="not_found")
        if current.state == "approved":  # live and approved, so the hash did not match
            return Consumption(status="mismatch", approval=current)
        return Consumption(status=current.state, approval=current)

    @staticmethod
    def _expire(tx: Tx, approval_id: str, now: float) -> Approval | None:
        """Persist the expiry of a live approval past its time; return the current record."""
        tx.run(
            "UPDATE callgate_approvals SET state = 'expired'"
            " WHERE id = ? AND state IN ('pending', 'approved') AND expires_at <= ?",
            (approval_id, now),
        )
        row = tx.one(_SELECT + " WHERE id = ?", (approval_id,))
        return None if row is None else _record(row, now)

    def grant_for(self, run_id: str, tool_name: str) -> Grant | None:
        with self._db.transaction(write=False) as tx:
            row = tx.one(
                "SELECT run_id, tool_name, approval_id, granted_by, granted_at"
                " FROM callgate_grants WHERE run_id = ? AND tool_name = ?",
                (run_id, tool_name),
            )
        if row is None:
            return None
        return Grant(
            run_id=row[0],
            tool_name=row[1],
            approval_id=row[2],
            granted_by=row[3],
            granted_at=row[4],
        )
