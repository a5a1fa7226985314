"""A store over any `Database`: the tables, the two writes of a call (claim and settle),
migrations on open, health and closing."""

from __future__ import annotations

from collections.abc import Sequence
from types import TracebackType
from typing import Self

from callgate.store._approvals import SQLApprovals
from callgate.store._counters import SQLCounters
from callgate.store._db import Clock, Database
from callgate.store._errors import StoreError
from callgate.store._idempotency import SQLIdempotency
from callgate.store._labels import SQLLabels
from callgate.store._migrations import migrate
from callgate.store._pins import SQLPins
from callgate.store._receipts import SQLReceipts
from callgate.store._records import Claim, ClaimRequest, IdempotencyRecord, Settle, Settled
from callgate.store._runs import SQLRuns

__all__ = ["SQLStore"]


class SQLStore:
    """The tables of callgate over one database; `SQLiteStore` and `PostgresStore` only
    choose the database. Opening applies any missing migrations."""

    def __init__(self, db: Database, *, clock: Clock) -> None:
        try:
            migrate(db, clock=clock)
        except BaseException:
            db.close()
            raise
        self._db = db
        self._idempotency = SQLIdempotency(db, clock)
        self._receipts = SQLReceipts(db, clock)
        self._approvals = SQLApprovals(db, clock)
        self._labels = SQLLabels(db, clock)
        self._runs = SQLRuns(db, clock)
        self._pins = SQLPins(db, clock)
        self._counters = SQLCounters(db, clock)

    @property
    def idempotency(self) -> SQLIdempotency:
        return self._idempotency

    @property
    def receipts(self) -> SQLReceipts:
        return self._receipts

    @property
    def approvals(self) -> SQLApprovals:
        return self._approvals

    @property
    def labels(self) -> SQLLabels:
        return self._labels

    @property
    def runs(self) -> SQLRuns:
        return self._runs

    @property
    def pins(self) -> SQLPins:
        return self._pins

    @property
    def counters(self) -> SQLCounters:
        return self._counters

    def claim(self, requests: Sequence[ClaimRequest]) -> list[Claim | StoreError]:
        """Claim each key (see `SQLIdempotency.claim_each`); the database decides every
        claim, so a key repeated later in the list sees the earlier member's claim."""
        order = _key_order([r.key for r in requests])
        claims = self._idempotency.claim_each([requests[i] for i in order])
        return _unsort(claims, order)

    def settle(self, requests: Sequence[Settle]) -> list[Settled | StoreError]:
        """Finish, record and label each call, all in one transaction with one lock of the
        chain head. A member whose finish a rule of its table refuses (`StoreConflict`,
        `RecordNotFound`) gets that error and writes nothing, while the others go on;
        anything else rolls the whole transaction back and raises: nothing was written."""
        if not requests:
            return []
        with self._db.transaction(write=True) as tx:
            # In key order, so that batches of different processes lock rows alike.
            keyed = sorted(
                ((i, r.finish) for i, r in enumerate(requests) if r.finish is not None),
                key=lambda pair: pair[1].key,
            )
            finished = self._idempotency.finish_each_in(tx, [f for _, f in keyed])
            records: dict[int, IdempotencyRecord | StoreError] = {
                i: record for (i, _), record in zip(keyed, finished, strict=True)
            }
            # Receipts follow the order the calls arrived in.
            kept = [i for i in range(len(requests)) if not isinstance(records.get(i), StoreError)]
            receipts = self._receipts.append_many_in(tx, [requests[i].receipt for i in kept])
            for i in kept:
                run_id = requests[i].receipt.run_id
                if requests[i].labels and run_id is not None:
                    self._labels.add_in(tx, run_id, requests[i].labels)
        out: list[Settled | StoreError] = []
        written = dict(zip(kept, receipts, strict=True))
        for i in range(len(requests)):
            record = records.get(i)
            if isinstance(record, StoreError):
                out.append(record)
            else:
                out.append(Settled(receipt=written[i], record=record))
        return out

    def ping(self) -> None:
        with self._db.transaction(write=False) as tx:
            tx.one("SELECT 1")

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _key_order(keys: Sequence[str]) -> list[int]:
    """Positions in key order: two transactions that lock the same keys lock them in the
    same order, so batches of different processes cannot deadlock on each other. (The sort
    is stable: duplicates of one key keep their arrival order.)"""
    return sorted(range(len(keys)), key=lambda i: keys[i])


def _unsort(values: list[Claim | StoreError], order: list[int]) -> list[Claim | StoreError]:
    """Back to the callers' order from `_key_order`'s."""
    out: list[Claim | StoreError | None] = [None] * len(values)
    for value, i in zip(values, order, strict=True):
        out[i] = value
    return [v for v in out if v is not None]
