"""Group commit: the claims (or the finishes with their receipts) of many concurrent calls in
one transaction, so that they share one commit and, on the receipt side, one lock of the
chain head.

Each member is handled exactly as its own transaction would handle it, one after another
inside the shared one: the database still decides every claim (a duplicate key later in the
batch sees the earlier member's claim), and the chain gets one receipt per finished member.
A member that a rule of its table refuses (`StoreConflict`, `RecordNotFound`) gets that
error and writes nothing, while the others go on. Anything else (the database is out of
reach, the commit fails) rolls the whole transaction back and raises: then no member wrote
anything, and each caller must fail closed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeAlias, TypeVar, runtime_checkable

from callgate.store._db import Database
from callgate.store._errors import StoreError, StoreUnavailable
from callgate.store._idempotency import SQLIdempotency
from callgate.store._receipt import Receipt, ReceiptDraft
from callgate.store._receipts import SQLReceipts
from callgate.store._records import Claim, IdempotencyRecord

__all__ = [
    "BatchResult", "ClaimRequest", "FinishRequest", "GroupCommitStore", "begin_many",
    "finish_and_record_many",
]

T = TypeVar("T")

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
    with db.transaction(write=True) as tx:
        return _each(requests, lambda r: idempotency.begin_in(
            tx, r.key, request_hash=r.request_hash, owner=r.owner,
            lease_seconds=r.lease_seconds))


def finish_and_record_many(
    db: Database, idempotency: SQLIdempotency, receipts: SQLReceipts,
    requests: Sequence[FinishRequest],
) -> list[BatchResult[tuple[IdempotencyRecord, Receipt]]]:
    with db.transaction(write=True) as tx:
        records = _each(requests, lambda r: idempotency.finish_in(
            tx, r.key, owner=r.owner, state=r.state, outcome=r.outcome))
        # A refused member appends no receipt: it stays as if its transaction rolled back.
        finished = [i for i, record in enumerate(records)
                    if isinstance(record, IdempotencyRecord)]
        appended = receipts.append_many_in(tx, [requests[i].receipt for i in finished])
    receipt_of = dict(zip(finished, appended, strict=True))
    return [(record, receipt_of[i]) if isinstance(record, IdempotencyRecord) else record
            for i, record in enumerate(records)]


def _each(requests: Sequence[Any], apply: Callable[[Any], T]) -> list[BatchResult[T]]:
    """Apply to each request in key order, keeping each member's own refusal.

    Key order: two transactions that lock the same keys lock them in the same order, so
    batches of different processes cannot deadlock on each other. (The sort is stable, so
    duplicates of one key keep their arrival order.)
    """
    results: dict[int, BatchResult[T]] = {}
    for i in sorted(range(len(requests)), key=lambda i: str(requests[i].key)):
        try:
            results[i] = apply(requests[i])
        except StoreUnavailable:
            raise
        except StoreError as exc:  # our own refusal after a statement that changed nothing
            results[i] = exc
    return [results[i] for i in range(len(requests))]
