"""The receipt journal: appends under the chain-head lock, reads, verification, pruning."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields, replace
from functools import lru_cache
from typing import Any

from callgate._errors import UserError
from callgate.contract import Route
from callgate.store._chain import CHAIN_VERSION, GENESIS_HASH, payload_hash, receipt_hash
from callgate.store._db import Clock, Database, Row, Tx, dump_json, load_json, storable
from callgate.store._errors import StoreConflict
from callgate.store._receipt import ChainHead, Receipt, ReceiptDraft, ReceiptQuery, VerifyReport

__all__ = ["SQLReceipts"]

_FIELDS = tuple(f.name for f in fields(Receipt))
_DRAFT_FIELDS = tuple(f.name for f in fields(ReceiptDraft))
_COLUMNS = ", ".join(_FIELDS)
_JSON = frozenset({"arguments", "result", "findings"})
_CHAIN_FIELDS = ("seq", "prev_hash", "hash", "recorded_at", "payload_hash", "chain_version")
# A receipt's row is its draft's fields followed by the chain's (dataclass field order).
assert (*_DRAFT_FIELDS, *_CHAIN_FIELDS) == _FIELDS
_BATCH = 500


@lru_cache(maxsize=128)
def _insert_many(n: int) -> str:
    """Insert `n` receipts: one statement, one round trip."""
    row = f"({', '.join('?' * len(_FIELDS))})"
    return f"INSERT INTO callgate_receipts ({_COLUMNS}) VALUES {', '.join([row] * n)}"


def _record(row: Row) -> Receipt:
    values: dict[str, Any] = dict(zip(_FIELDS, row, strict=True))
    for name in _JSON:
        values[name] = load_json(values[name])
    values["route"] = Route(values["route"])
    values["replayed"] = bool(values["replayed"])
    values["findings"] = tuple(values["findings"] or ())
    return Receipt(**values)


_TEXT_FIELDS = tuple(f.name for f in fields(ReceiptDraft) if f.type in ("str", "str | None"))
_ROWS_PER_INSERT = 500
"""Receipts per INSERT statement: well under the bound parameters a statement may carry
(32,766 in SQLite's default build, 65,535 in PostgreSQL)."""


def _storable(draft: ReceiptDraft) -> ReceiptDraft:
    """The draft as the table stores it (see `storable`), before it is hashed."""
    changes: dict[str, Any] = {}
    for name in _TEXT_FIELDS:
        value = getattr(draft, name)
        if value is not None and storable(value) != value:
            changes[name] = storable(value)
    findings = tuple(storable(f) for f in draft.findings)
    if findings != draft.findings:
        changes["findings"] = findings
    return replace(draft, **changes) if changes else draft


def _draft_row(draft: ReceiptDraft) -> tuple[Any, ...]:
    """The column values of a draft's own fields, in `_FIELDS` order (they come first)."""
    values = []
    for name in _DRAFT_FIELDS:
        value = getattr(draft, name)
        if name == "findings":
            value = dump_json(list(value)) if value else None
        elif name in _JSON:
            value = dump_json(value)
        elif name == "route":
            value = str(value)
        values.append(value)
    return tuple(values)


class SQLReceipts:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    def append_many_in(self, tx: Tx, drafts: Sequence[ReceiptDraft]) -> list[Receipt]:
        """Append `drafts` in order at the end of the chain, under one lock of its head,
        inside a write transaction the caller holds (`Store.settle`)."""
        if not drafts:
            return []
        # Whatever does not depend on the chain is prepared before the head is locked: on
        # PostgreSQL every other appender waits for as long as this transaction holds it.
        prepared = []
        for draft in map(_storable, drafts):
            prepared.append((draft, payload_hash(draft.arguments, draft.result), _draft_row(draft)))
        # The head row is the chain's lock: concurrent appenders queue here, so each sees
        # the previous one's hash and sequence numbers come out gap-free.
        head = tx.one(
            "SELECT seq, hash FROM callgate_chain_head WHERE id = 1" + self._db.for_update
        )
        if head is None:
            raise StoreConflict("the receipt chain head is missing; the journal is damaged")
        seq, prev, now = int(head[0]), str(head[1]), self._clock()
        receipts: list[Receipt] = []
        rows: list[tuple[Any, ...]] = []
        for draft, digest, values in prepared:
            seq += 1
            chained = receipt_hash(draft, seq=seq, prev_hash=prev, recorded_at=now, payload=digest)
            receipts.append(
                Receipt(
                    **{name: getattr(draft, name) for name in _DRAFT_FIELDS},
                    seq=seq,
                    prev_hash=prev,
                    hash=chained,
                    recorded_at=now,
                    payload_hash=digest,
                    chain_version=CHAIN_VERSION,
                )
            )
            rows.append((*values, seq, prev, chained, now, digest, CHAIN_VERSION))
            prev = chained
        tx.run("UPDATE callgate_chain_head SET seq = ?, hash = ? WHERE id = 1", (seq, prev))
        for start in range(0, len(rows), _ROWS_PER_INSERT):
            chunk = rows[start : start + _ROWS_PER_INSERT]
            tx.run(_insert_many(len(chunk)), [value for row in chunk for value in row])
        return receipts

    def get(self, seq: int) -> Receipt | None:
        with self._db.transaction(write=False) as tx:
            row = tx.one(f"SELECT {_COLUMNS} FROM callgate_receipts WHERE seq = ?", (seq,))
        return None if row is None else _record(row)

    def list(
        self,
        query: ReceiptQuery | None = None,
        *,
        limit: int = 100,
        offset: int = 0,
        descending: bool = False,
    ) -> list[Receipt]:
        where, params = _where(query or ReceiptQuery())
        order = "DESC" if descending else "ASC"
        with self._db.transaction(write=False) as tx:
            rows = tx.rows(
                f"SELECT {_COLUMNS} FROM callgate_receipts{where}"
                f" ORDER BY seq {order} LIMIT ? OFFSET ?",
                (*params, limit, offset),
            )
        return [_record(row) for row in rows]

    def head(self) -> ChainHead:
        with self._db.transaction(write=False) as tx:
            return _head(tx)

    def verify(self, anchor: ChainHead | str | None = None) -> VerifyReport:
        """`anchor`: a head published earlier (`ChainHead`, `"SEQ:HASH"` or the 64-hex hash
        alone, which is looked up): the chain must still hold it."""
        with self._db.transaction(write=False, snapshot=True) as tx:
            # One snapshot for the batches and the head, even while others append.
            return _verify(tx, _anchor(tx, anchor))

    def prune_payloads(self, older_than: float) -> int:
        with self._db.transaction(write=True) as tx:
            return tx.run(
                "UPDATE callgate_receipts SET arguments = NULL, result = NULL"
                " WHERE recorded_at < ? AND (arguments IS NOT NULL OR result IS NOT NULL)",
                (older_than,),
            )


def _anchor(tx: Tx, anchor: ChainHead | str | None) -> ChainHead | None:
    if anchor is None or isinstance(anchor, ChainHead):
        return anchor
    text = anchor.strip().lower()
    seq_text, colon, digest = text.rpartition(":")
    if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise UserError(f"anchor {anchor!r}: give the chain head as SEQ:HASH or its 64-hex hash")
    if colon:
        if not (seq_text.isascii() and seq_text.isdigit()):
            raise UserError(f"anchor {anchor!r}: SEQ must be a receipt number")
        return ChainHead(seq=int(seq_text), hash=digest)
    row = tx.one("SELECT seq FROM callgate_receipts WHERE hash = ?", (digest,))
    # seq 0 stands for "no receipt holds this hash": the check reports it as such.
    return ChainHead(seq=int(row[0]) if row is not None else 0, hash=digest)


def _where(query: ReceiptQuery) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    for name in (
        "tool_name",
        "principal",
        "tenant",
        "run_id",
        "route",
        "idempotency_key",
        "approval_id",
    ):
        value = getattr(query, name)
        if value is not None:
            clauses.append(f"{name} = ?")
            params.append(str(value))
    if query.since is not None:
        clauses.append("recorded_at >= ?")
        params.append(query.since)
    if query.until is not None:
        clauses.append("recorded_at < ?")
        params.append(query.until)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), params


def _head(tx: Tx) -> ChainHead:
    row = tx.one("SELECT seq, hash FROM callgate_chain_head WHERE id = 1")
    if row is None:
        return ChainHead(seq=0, hash=GENESIS_HASH)
    return ChainHead(seq=int(row[0]), hash=str(row[1]))


def _verify(tx: Tx, anchor: ChainHead | None) -> VerifyReport:
    expected_seq, prev, checked, anchor_hash = 1, GENESIS_HASH, 0, None
    while True:
        rows = tx.rows(
            f"SELECT {_COLUMNS} FROM callgate_receipts WHERE seq >= ? ORDER BY seq LIMIT ?",
            (expected_seq, _BATCH),
        )
        for row in rows:
            checked += 1
            receipt = _record(row)
            problem = _check(receipt, expected_seq, prev)
            if problem is not None:
                bad, reason = problem
                return VerifyReport(ok=False, checked=checked, first_bad_seq=bad, reason=reason)
            if anchor is not None and receipt.seq == anchor.seq:
                anchor_hash = receipt.hash
            prev = receipt.hash
            expected_seq += 1
        if len(rows) < _BATCH:
            break
    report = _check_head(_head(tx), expected_seq - 1, prev, checked)
    if not report.ok or anchor is None:
        return report
    return _check_anchor(report, anchor, anchor_hash)


def _check(receipt: Receipt, seq: int, prev: str) -> tuple[int, str] | None:
    """The first bad position and why, or None when `receipt` holds its place."""
    if receipt.seq != seq:
        return seq, f"receipt {seq} is missing (the next one is {receipt.seq})"
    digest = payload_hash(receipt.arguments, receipt.result)
    if digest is not None and digest != receipt.payload_hash:
        return seq, f"receipt {seq}: the stored arguments or result were changed"
    recomputed = receipt_hash(
        receipt,
        seq=seq,
        prev_hash=receipt.prev_hash,
        recorded_at=receipt.recorded_at,
        payload=receipt.payload_hash,
        version=receipt.chain_version,
    )
    if recomputed != receipt.hash:
        return seq, f"receipt {seq} was changed after it was recorded"
    if receipt.prev_hash != prev:
        if seq == 1:
            return 1, "receipt 1 does not start the chain"
        # Both receipts are consistent in themselves, so the earlier one was rewritten with
        # a recomputed hash after this one recorded the original: the forgery is seq - 1.
        return seq - 1, (
            f"receipt {seq - 1} was replaced: receipt {seq} recorded a different hash for it"
        )
    return None


def _check_head(head: ChainHead, last_seq: int, last_hash: str, checked: int) -> VerifyReport:
    if head.seq == last_seq and head.hash == last_hash:
        return VerifyReport(ok=True, checked=checked, head=head)
    if head.seq > last_seq:
        bad, reason = last_seq + 1, f"receipts {last_seq + 1} to {head.seq} were deleted"
    elif head.seq < last_seq:
        bad, reason = head.seq + 1, f"receipts after {head.seq} were added outside the chain"
    else:
        bad, reason = last_seq, f"receipt {last_seq} does not match the recorded chain head"
    return VerifyReport(ok=False, checked=checked, first_bad_seq=bad, reason=reason)


def _check_anchor(report: VerifyReport, anchor: ChainHead, found: str | None) -> VerifyReport:
    """The chain is consistent in itself; does it still hold the head published earlier?"""
    last = report.head.seq if report.head is not None else 0
    if anchor.seq == 0 and anchor.hash == GENESIS_HASH:  # anchored at the empty journal
        return VerifyReport(ok=True, checked=report.checked, head=report.head, anchored=True)
    if anchor.seq == 0:
        return VerifyReport(
            ok=False,
            checked=report.checked,
            reason="no receipt holds the anchored hash: the journal was rewritten, or the "
            "anchor belongs to another journal",
        )
    if anchor.seq > last:
        reason = f"the journal ends at receipt {last}, but the anchor names receipt {anchor.seq}"
        return VerifyReport(ok=False, checked=report.checked, first_bad_seq=last + 1,
                            reason=f"{reason}: receipts were deleted")  # fmt: skip
    if found != anchor.hash:
        return VerifyReport(
            ok=False,
            checked=report.checked,
            first_bad_seq=anchor.seq,
            reason=(
                f"receipt {anchor.seq} does not match the anchor: the journal was rewritten "
                f"at or before receipt {anchor.seq}"
            ),
        )
    return VerifyReport(ok=True, checked=report.checked, head=report.head, anchored=True)
