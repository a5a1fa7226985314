"""Group commit: the claims (or the finishes with their receipts) of many concurrent calls
written together, so that they share round trips and commits and, on the receipt side, one
lock of the chain head.

Each member is decided exactly as on its own: the database decides every claim (a duplicate
key later in the batch sees the earlier member's claim), and the chain gets one receipt per
finished member. Claims: the fresh keys are claimed by one multi-row insert (one atomic
statement: all of them or none); a key that already existed takes `begin`'s own
transaction, and its failure is that member's alone. Finishes: one transaction for all; a
member that a rule of its table refuses (`StoreConflict`, `RecordNotFound`) gets that error
and writes nothing while the others go on; anything else (the database is out of reach, the
commit fails) rolls the whole transaction back and raises: no member wrote anything, and
each caller must fail closed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeAlias, TypeVar, runtime_checkable

from callgate.store._db import Database
from callgate.store._errors import StoreError
from callgate.store._idempotency import SQLIdempotency
from callgate.store._receipt import Receipt, ReceiptDraft
from callgate.store._receipts import SQLReceipts
from callgate.store._records import Claim, IdempotencyRecord

__all__ = [
    "BatchResult",
    "ClaimRequest",
    "FinishRequest",
    "GroupCommitStore",
    "begin_many",
    "finish_and_record_many",
]

T = TypeVar("T")
R = TypeVar("R")

BatchResult: TypeAlias = T | StoreError
"""One member's outcome: its value, or the refusal that applied to it alone."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ClaimRequest:
    """The arguments of one `idempotency.begin`."""

    key: str
    request_hash: str
    owner: str
    lease_seconds: float


@dataclass(frozen=True, kw_only=True, slots=True)
class FinishRequest:
    """The arguments of one `finish_and_record`."""

    key: str
    owner: str
    state: Literal["completed", "failed"]
    outcome: Any
    receipt: ReceiptDraft


@runtime_checkable
class GroupCommitStore(Protocol):
    """A store that can commit the work of many calls at once (`SQLiteStore`,
    `PostgresStore`). The gate uses it when concurrent calls overlap."""

    def begin_many(self, requests: Sequence[ClaimRequest]) -> list[BatchResult[Claim]]:
        """`idempotency.begin` for each request, in one transaction."""
        ...

    def finish_and_record_many(
        self, requests: Sequence[FinishRequest]
    ) -> list[BatchResult[tuple[IdempotencyRecord, Receipt]]]:
        """`finish_and_record` for each request, in one transaction with one chain-head lock;
        receipts follow the order of `requests`."""
        ...


def begin_many(
    db: Database, idempotency: SQLIdempotency, requests: Sequence[ClaimRequest]
) -> list[BatchResult[Claim]]:
    if not requests:
        return []
    del db  # the claims need no transaction around them (see `begin_each`)
    order = _key_order(requests)
    claims = idempotency.begin_each(
        [(r.key, r.request_hash, r.owner, r.lease_seconds) for r in _pick(requests, order)]
    )
    return _unsort(claims, order)


def finish_and_record_many(
    db: Database,
    idempotency: SQLIdempotency,
    receipts: SQLReceipts,
    requests: Sequence[FinishRequest],
) -> list[BatchResult[tuple[IdempotencyRecord, Receipt]]]:
    if not requests:
        return []
    order = _key_order(requests)
    with db.transaction(write=True) as tx:
        records = _unsort(
            idempotency.finish_each_in(
                tx, [(r.key, r.owner, r.state, r.outcome) for r in _pick(requests, order)]
            ),
            order,
        )
        # A refused member appends no receipt: it stays as if its transaction rolled back.
        # The others' receipts follow the order the calls arrived in.
        finished = [i for i, record in enumerate(records) if isinstance(record, IdempotencyRecord)]
        appended = receipts.append_many_in(tx, [requests[i].receipt for i in finished])
    receipt_of = dict(zip(finished, appended, strict=True))
    return [
        (record, receipt_of[i]) if isinstance(record, IdempotencyRecord) else record
        for i, record in enumerate(records)
    ]


def _key_order(requests: Sequence[ClaimRequest] | Sequence[FinishRequest]) -> list[int]:
    """Positions in key order: two transactions that lock the same keys lock them in the
    same order, so batches of different processes cannot deadlock on each other. (The sort
    is stable: duplicates of one key keep their arrival order.)"""
    return sorted(range(len(requests)), key=lambda i: requests[i].key)


def _pick(requests: Sequence[R], order: list[int]) -> list[R]:
    return [requests[i] for i in order]


def _unsort(values: list[T], order: list[int]) -> list[T]:
    """Back to the callers' order from `_key_order`'s."""
    out: list[T | None] = [None] * len(values)
    for value, i in zip(values, order, strict=True):
        out[i] = value
    return out  # type: ignore[return-value]  # every position was filled
