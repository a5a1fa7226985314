"""Idempotency records: one row per key, moved through its states by single statements.

Each transition is an `UPDATE ... WHERE` that names the state (and owner) it starts from,
so of two racing callers exactly one changes the row; the other sees `0 rows` and gets
`StoreConflict`. The first claim is an `INSERT ... ON CONFLICT DO NOTHING`, so the primary
key decides who claimed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from callgate.store._db import Clock, Database, Row, Tx, dump_json, load_json, storable
from callgate.store._errors import RecordNotFound, StoreConflict, StoreError, StoreUnavailable
from callgate.store._records import Claim, ClaimRequest, Finish, IdempotencyRecord

__all__ = ["SQLIdempotency"]

_COLUMNS = (
    "key, request_hash, state, owner, lease_expires_at, outcome, attempts, created_at, updated_at"
)
_SELECT = f"SELECT {_COLUMNS} FROM callgate_idempotency WHERE key = ?"
_INSERT = (
    f"INSERT INTO callgate_idempotency ({_COLUMNS}) VALUES (?, ?, 'started', ?, ?, NULL, 1, ?, ?)"
    f" ON CONFLICT (key) DO NOTHING RETURNING {_COLUMNS}"
)


_KEYS_PER_INSERT = 1000
"""Keys per statement: well under the bound parameters a statement may carry (32,766 in
SQLite's default build, 65,535 in PostgreSQL)."""


@lru_cache(maxsize=128)
def _marks(n: int) -> str:
    return ", ".join("?" * n)


@lru_cache(maxsize=128)
def _insert_many(n: int) -> str:
    """`_INSERT` for `n` keys at once."""
    rows = ", ".join(["(?, ?, 'started', ?, ?, NULL, 1, ?, ?)"] * n)
    return (
        f"INSERT INTO callgate_idempotency ({_COLUMNS}) VALUES {rows}"
        f" ON CONFLICT (key) DO NOTHING RETURNING {_COLUMNS}"
    )


@lru_cache(maxsize=128)
def _finish_many(n: int) -> str:
    """`finish` for `n` distinct keys at once: the same conditions as `_move` builds (a None
    outcome keeps the column). VALUES columns are `column1`... in SQLite and PostgreSQL."""
    rows = ", ".join(["(?, ?, ?, ?)"] * n)
    return (
        "UPDATE callgate_idempotency SET state = v.column3, updated_at = ?,"
        " outcome = COALESCE(v.column4, outcome)"
        f" FROM (VALUES {rows}) AS v"
        " WHERE callgate_idempotency.key = v.column1 AND callgate_idempotency.owner = v.column2"
        f" AND callgate_idempotency.state IN ('started', 'unknown')"
        # The keys once more as a list: with it the planner looks them up by primary key
        # instead of joining the VALUES against the whole table.
        f" AND callgate_idempotency.key IN ({_marks(n)}) RETURNING {_COLUMNS}"
    )


_FINISH_ONE = (
    "UPDATE callgate_idempotency SET state = ?, updated_at = ?, outcome = COALESCE(?, outcome)"
    " WHERE key = ? AND owner = ? AND state IN ('started', 'unknown')"
    f" RETURNING {_COLUMNS}"
)
"""`_finish_many(1)` as a plain update by primary key (the usual batch of a lone call)."""


def _stored_claim(request: ClaimRequest) -> ClaimRequest:
    """The request with its key and owner as the table stores them (see `storable`)."""
    key, owner = storable(request.key), storable(request.owner)
    if (key, owner) == (request.key, request.owner):
        return request
    return replace(request, key=key, owner=owner)


def _record(row: Row) -> IdempotencyRecord:
    return IdempotencyRecord(
        key=row[0],
        request_hash=row[1],
        state=row[2],
        owner=row[3],
        lease_expires_at=row[4],
        outcome=load_json(row[5]),
        attempts=row[6],
        created_at=row[7],
        updated_at=row[8],
    )


class SQLIdempotency:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    def claim_each(self, requests: Sequence[ClaimRequest]) -> list[Claim | StoreError]:
        """Claim each request's key, in order; a member's own failure is returned, not
        raised. A `started` record whose lease has run out is turned into `unknown` here,
        once, by whichever caller sees it first.

        On PostgreSQL the first claims of all keys are multi-row inserts that commit on their
        own (one statement is atomic, and it spares the BEGIN and COMMIT round trips); only
        keys that already existed, or repeat earlier in the list, then go through a
        transaction of their own. A member whose insert failed gets that error: nothing was
        claimed for it, while the claims made before it stand. On SQLite, where a
        transaction costs no round trip, the whole batch is one transaction: all of it is
        claimed or (the database out of reach) none, and it can be asked again.
        """
        if not requests:
            return []
        requests = [_stored_claim(r) for r in requests]
        if self._db.dialect == "sqlite":
            return self._claim_together(requests)
        first: dict[str, int] = {}
        for i, request in enumerate(requests):
            first.setdefault(request.key, i)
        inserted, failed = self._insert_first([requests[i] for i in first.values()])
        results: list[Claim | StoreError] = []
        for i, request in enumerate(requests):
            is_first = first[request.key] == i
            if is_first and request.key in failed:
                results.append(failed[request.key])
                continue
            row = inserted.get(request.key) if is_first else None
            if row is not None:
                results.append(Claim(status="claimed", record=_record(row)))
                continue
            try:
                results.append(self._claim_existing(request))
            except StoreError as exc:  # this member only: the others' claims stand
                results.append(exc)
        return results

    def _insert_first(
        self, requests: list[ClaimRequest]
    ) -> tuple[dict[str, Row], dict[str, StoreError]]:
        """Insert the fresh keys, `_KEYS_PER_INSERT` to a statement; rows of the keys that
        were new, and the error of each key whose statement failed."""
        inserted: dict[str, Row] = {}
        failed: dict[str, StoreError] = {}
        for start in range(0, len(requests), _KEYS_PER_INSERT):
            chunk = requests[start : start + _KEYS_PER_INSERT]
            now = self._clock()
            params: list[Any] = []
            for r in chunk:
                params += (r.key, r.request_hash, r.owner, now + r.lease_seconds, now, now)
            try:
                with self._db.transaction(write=False) as tx:  # committed on its own
                    inserted.update(
                        (row[0], row) for row in tx.rows(_insert_many(len(chunk)), params)
                    )
            except StoreError as exc:
                failed.update((r.key, exc) for r in requests[start:])
                break
        return inserted, failed

    def _claim_together(self, requests: list[ClaimRequest]) -> list[Claim | StoreError]:
        results: list[Claim | StoreError] = []
        with self._db.transaction(write=True) as tx:
            for request in requests:
                try:
                    results.append(self._claim_in(tx, request))
                except StoreConflict as exc:  # this member only
                    results.append(exc)
        return results

    def _claim_existing(self, request: ClaimRequest) -> Claim:
        with self._db.transaction(write=True) as tx:
            return self._claim_in(tx, request)

    def _claim_in(self, tx: Tx, request: ClaimRequest) -> Claim:
        now = self._clock()
        inserted = tx.one(
            _INSERT,
            (request.key, request.request_hash, request.owner,
             now + request.lease_seconds, now, now),
        )  # fmt: skip
        if inserted is not None:
            return Claim(status="claimed", record=_record(inserted))
        row = tx.one(_SELECT + self._db.for_update, (request.key,))
        if row is None:  # deleted between the two statements: no rows are ever deleted
            raise StoreConflict(f"idempotency key {request.key!r} vanished while claiming")
        return self._existing(tx, _record(row), request.request_hash, now)

    def _existing(self, tx: Tx, record: IdempotencyRecord, request_hash: str, now: float) -> Claim:
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

    def finish_each_in(
        self, tx: Tx, finishes: Sequence[Finish]
    ) -> list[IdempotencyRecord | StoreError]:
        """Finish each key (given in key order) inside a write transaction the caller holds;
        a member's own refusal is returned, not raised. All but repeated keys are finished
        by one multi-row update (one round trip)."""
        if not finishes:
            return []
        finishes = [replace(f, key=storable(f.key), owner=storable(f.owner)) for f in finishes]
        for finish in finishes:
            if finish.state not in ("completed", "failed", "unknown"):
                raise ValueError(f"finish with state {finish.state!r}")
        now = self._clock()
        first: dict[str, int] = {}
        for i, finish in enumerate(finishes):
            first.setdefault(finish.key, i)
        positions = list(first.values())
        updated: dict[str, Row] = {}
        for start in range(0, len(positions), _KEYS_PER_INSERT):
            chunk = [finishes[i] for i in positions[start : start + _KEYS_PER_INSERT]]
            updated.update((row[0], row) for row in self._finish_chunk(tx, chunk, now))
        results: list[IdempotencyRecord | StoreError] = []
        for i, finish in enumerate(finishes):
            if first[finish.key] != i:  # the same key twice: the second goes on its own
                try:
                    results.append(self._finish_one(tx, finish, now))
                except StoreUnavailable:
                    raise
                except StoreError as exc:
                    results.append(exc)
                continue
            row = updated.get(finish.key)
            if row is not None:
                results.append(_record(row))
            else:
                results.append(self._refusal(tx, finish.key, finish.state))
        return results

    def _finish_chunk(self, tx: Tx, chunk: list[Finish], now: float) -> list[Row]:
        """Finish distinct keys (in key order) with one multi-row update."""
        if len(chunk) == 1:  # one row: its update locks it, in no order to agree on
            f = chunk[0]
            return tx.rows(_FINISH_ONE, (f.state, now, dump_json(f.outcome), f.key, f.owner))
        keys = [f.key for f in chunk]
        if self._db.for_update:
            # Lock the rows in key order before the update, which may visit them in any
            # order: then two transactions never hold what the other waits for.
            tx.rows(
                f"SELECT key FROM callgate_idempotency WHERE key IN ({_marks(len(keys))})"
                f" ORDER BY key{self._db.for_update}",
                keys,
            )
        params: list[Any] = [now]
        for f in chunk:
            params += (f.key, f.owner, f.state, dump_json(f.outcome))
        return tx.rows(_finish_many(len(chunk)), [*params, *keys])

    def _finish_one(self, tx: Tx, finish: Finish, now: float) -> IdempotencyRecord:
        return self._move(
            tx, finish.key, finish.state, "owner = ? AND state IN ('started', 'unknown')",
            (finish.owner,), now, outcome=dump_json(finish.outcome),
        )  # fmt: skip

    def reclaim(self, request: ClaimRequest) -> IdempotencyRecord:
        """Take over an `unknown` key (after reconciling) to retry or to record the outcome;
        only one caller wins, the others get `StoreConflict`."""
        request = _stored_claim(request)
        now = self._clock()
        with self._db.transaction(write=True) as tx:
            return self._move(
                tx, request.key, "started", "state = 'unknown' AND request_hash = ?",
                (request.request_hash,), now, owner=request.owner, lease=request.lease_seconds,
            )  # fmt: skip

    def get(self, key: str) -> IdempotencyRecord | None:
        with self._db.transaction(write=False) as tx:
            row = tx.one(_SELECT, (storable(key),))
        return None if row is None else _record(row)

    def _move(
        self,
        tx: Tx,
        key: str,
        state: str,
        condition: str,
        params: tuple[Any, ...],
        now: float,
        *,
        owner: str | None = None,
        lease: float | None = None,
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
    def _refusal(tx: Tx, key: str, state: str) -> StoreError:
        row = tx.one(_SELECT, (key,))
        if row is None:
            return RecordNotFound("idempotency key", key)
        current = _record(row)
        return StoreConflict(
            f"idempotency key {key!r} cannot move to {state!r}: it is {current.state!r}"
            f" and owned by {current.owner!r}"
        )
