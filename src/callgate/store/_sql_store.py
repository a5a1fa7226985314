"""A store over any `Database`: the tables, migrations on open, health and closing."""

from __future__ import annotations

from collections.abc import Sequence
from types import TracebackType
from typing import Any, Literal, Self

from callgate.store import _batch
from callgate.store._approvals import SQLApprovals
from callgate.store._batch import BatchResult, ClaimRequest, FinishRequest
from callgate.store._db import Clock, Database
from callgate.store._idempotency import SQLIdempotency
from callgate.store._migrations import migrate
from callgate.store._pins import SQLPins
from callgate.store._receipt import Receipt, ReceiptDraft
from callgate.store._receipts import SQLReceipts
from callgate.store._records import Claim, IdempotencyRecord
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
        self._runs = SQLRuns(db, clock)
        self._pins = SQLPins(db, clock)

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
    def runs(self) -> SQLRuns:
        return self._runs

    @property
    def pins(self) -> SQLPins:
        return self._pins

    def finish_and_record(
        self,
        key: str,
        *,
        owner: str,
        state: Literal["completed", "failed"],
        outcome: Any,
        receipt: ReceiptDraft,
    ) -> tuple[IdempotencyRecord, Receipt]:
        with self._db.transaction(write=True) as tx:
            record = self._idempotency.finish_in(tx, key, owner=owner, state=state, outcome=outcome)
            return record, self._receipts.append_in(tx, receipt)

    def begin_many(self, requests: Sequence[ClaimRequest]) -> list[BatchResult[Claim]]:
        """`idempotency.begin` for each request, in one transaction (see `GroupCommitStore`)."""
        return _batch.begin_many(self._db, self._idempotency, requests)

    def finish_and_record_many(
        self, requests: Sequence[FinishRequest]
    ) -> list[BatchResult[tuple[IdempotencyRecord, Receipt]]]:
        """`finish_and_record` for each request, in one transaction with one lock of the
        chain head (see `GroupCommitStore`)."""
        return _batch.finish_and_record_many(self._db, self._idempotency, self._receipts, requests)

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
