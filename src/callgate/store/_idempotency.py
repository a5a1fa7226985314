"""Idempotency records: one row per key, moved through its states by single statements.

Each transition is an `UPDATE ... WHERE` that names the state (and owner) it starts from,
so of two racing callers exactly one changes the row; the other sees `0 rows` and gets
`StoreConflict`. The first claim is an `INSERT ... ON CONFLICT DO NOTHING`, so the primary
key decides who claimed.
"""

from __future__ import annotations

from typing import Any, Literal

from callgate.store._db import Clock, Database, Row, Tx, dump_json, load_json
from callgate.store._errors import RecordNotFound, StoreConflict
from callgate.store._records import Claim, IdempotencyRecord

__all__ = ["SQLIdempotency"]

_COLUMNS = (
    "key, request_hash, state, owner, lease_expires_at, outcome, attempts, created_at, updated_at"
)
_SELECT = f"SELECT {_COLUMNS} FROM callgate_idempotency WHERE key = ?"
_INSERT = (
    f"INSERT INTO callgate_idempotency ({_COLUMNS}) VALUES (?, ?, 'started', ?, ?, NULL, 1, ?, ?)"
    f" ON CONFLICT (key) DO NOTHING RETURNING {_COLUMNS}"
)


def _record(row: Row) -> IdempotencyRecord:
    return IdempotencyRecord(
        key=row[0], request_hash=row[1], state=row[2], owner=row[3],
        lease_expires_at=row[4], outcome=load_json(row[5]), attempts=row[6],
        created_at=row[7], updated_at=row[8],
    )


class SQLIdempotency:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    def begin(
        self, key: str, *, request_hash: str, owner: str, lease_seconds: float
    ) -> Claim:
        with self._db.transaction(write=True) as tx:
            return self.begin_in(tx, key, request_hash=request_hash, owner=owner,
                                 lease_seconds=lease_seconds)

    def begin_in(
        self, tx: Tx, key: str, *, request_hash: str, owner: str, lease_seconds: float
    ) -> Claim:
        """`begin` inside a write transaction the caller holds."""
        now = self._clock()
        inserted = tx.one(
            _INSERT, (key, request_hash, owner, now + lease_seconds, now, now)
        )
        if inserted is not None:
            return Claim(status="claimed", record=_record(inserted))
        row = tx.one(_SELECT + self._db.for_update, (key,))
        if row is None:  # deleted between the two statements: no rows are ever deleted
            raise StoreConflict(f"idempotency key {key!r} vanished while claiming it")
        return self._existing(tx, _record(row), request_hash, now)

    def _existing(
        self, tx: Tx, record: IdempotencyRecord, request_hash: str, now: float
    ) -> Claim:
        if record.request_hash != request_hash:
            return Claim(status="mismatch", record=record)
        if record.state in ("completed", "failed"):
            return Claim(status="replay", record=record)
        if record.state == "started" and record.lease_expires_at > now:
            return Claim(status="in_progress", record=record)
        if record.state == "started":
            # The owner went silent past its lease: nobody can say whether the call took
            # effect. Recorded once, so every later caller sees the same answer.
            record = self._move(tx, record.key, "unknown", "state = 'started'", (), now)
        return Claim(status="unknown", record=record)

    def finish(
        self, key: str, *, owner: str, state: Literal["completed", "failed"], outcome: Any
    ) -> IdempotencyRecord:
        with self._db.transaction(write=True) as tx:
            return self.finish_in(tx, key, owner=owner, state=state, outcome=outcome)

    def finish_in(
        self, tx: Tx, key: str, *, owner: str, state: Literal["completed", "failed"],
        outcome: Any,
    ) -> IdempotencyRecord:
        """`finish` inside a transaction the caller holds."""
        if state not in ("completed", "failed"):
            raise ValueError(f"finish with state {state!r}: use 'completed' or 'failed'")
        return self._move(
            tx, key, state, "owner = ? AND state IN ('started', 'unknown')", (owner,),
            self._clock(), outcome=dump_json(outcome),
        )

    def mark_unknown(self, key: str, *, owner: str) -> IdempotencyRecord:
        return self._transition(
            key, "unknown", "owner = ? AND state IN ('started', 'unknown')", (owner,)
        )

    def reclaim(self, key: str, *, owner: str, lease_seconds: float) -> IdempotencyRecord:
        return self._transition(
            key, "started", "state = 'unknown'", (), owner=owner, lease=lease_seconds
        )

    def renew(self, key: str, *, owner: str, lease_seconds: float) -> IdempotencyRecord:
        return self._transition(
            key, "started", "owner = ? AND state = 'started'", (owner,), lease=lease_seconds
        )

    def get(self, key: str) -> IdempotencyRecord | None:
        with self._db.transaction(write=False) as tx:
            row = tx.one(_SELECT, (key,))
        return None if row is None else _record(row)

    def _transition(
        self, key: str, state: str, condition: str, params: tuple[Any, ...], **changes: Any
    ) -> IdempotencyRecord:
        now = self._clock()
        with self._db.transaction(write=True) as tx:
            return self._move(tx, key, state, condition, params, now, **changes)

    def _move(
        self, tx: Tx, key: str, state: str, condition: str, params: tuple[Any, ...],
        now: float, *, owner: str | None = None, lease: float | None = None,
        outcome: str | None = None,
    ) -> IdempotencyRecord:
        sets = ["state = ?", "updated_at = ?"]
        values: list[Any] = [state, now]
        if outcome is not None:
            sets.append("outcome = ?")
            values.append(outcome)
        if lease is not None:
            sets.append("lease_expires_at = ?")
            values.append(now + lease)
        if owner is not None:
            sets += ["owner = ?", "attempts = attempts + 1"]
            values.append(owner)
        row = tx.one(
            f"UPDATE callgate_idempotency SET {', '.join(sets)}"
            f" WHERE key = ? AND {condition} RETURNING {_COLUMNS}",
            (*values, key, *params),
        )
        if row is None:
            raise self._refusal(tx, key, state)
        return _record(row)

    @staticmethod
    def _refusal(tx: Tx, key: str, state: str) -> Exception:
        row = tx.one(_SELECT, (key,))
        if row is None:
            return RecordNotFound("idempotency key", key)
        current = _record(row)
        return StoreConflict(
            f"idempotency key {key!r} cannot move to {state!r}: it is {current.state!r}"
            f" and owned by {current.owner!r}"
        )
