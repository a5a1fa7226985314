"""Code that runs in child processes of the fault-injection tests (spawned, not forked).

Kept apart from the test modules so a child imports only the store, not pytest.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from multiprocessing.synchronize import Barrier, Event
from typing import Any

from callgate.contract import Route
from callgate.store import (
    Claim,
    ClaimRequest,
    Finish,
    PostgresStore,
    ReceiptDraft,
    Settle,
    Settled,
    SQLiteStore,
)
from callgate.store._db import Row, Tx
from callgate.store._sql_store import SQLStore
from tests.store._calls import append, claim

StoreSpec = tuple[str, str, str | None]
"""("sqlite", path, None) or ("postgres", dsn, schema): enough to open the same database."""


def open_spec(spec: StoreSpec, **options: Any) -> SQLStore:
    kind, target, schema = spec
    if kind == "sqlite":
        return SQLiteStore(target, **options)
    return PostgresStore(target, schema=schema, **options)


def receipt(worker: int, n: int) -> ReceiptDraft:
    return ReceiptDraft(
        request_hash=f"{worker}-{n}",
        tool_name="pay",
        principal=f"worker-{worker}",
        call_id=f"{worker}:{n}",
        route=Route.COMPLETED,
        started_at=float(n),
        arguments={"worker": worker, "n": n},
        result={"ok": True},
    )


def race_claim(spec: StoreSpec, barrier: Barrier, results: Any, worker: int) -> None:
    """Open the store, wait for all the others, then try to claim the one key."""
    with open_spec(spec) as store:
        barrier.wait()
        won = claim(store, "acme:req-1:pay", owner=f"worker-{worker}", lease_seconds=60)
        results.put((worker, won.status))


def claim_and_hang(spec: StoreSpec, claimed: Event, hang: Event) -> None:
    """Claim a key, say so, and never finish: the parent kills this process."""
    store = open_spec(spec)
    claim(store, "acme:req-2:pay", owner=f"pid-{os.getpid()}", lease_seconds=30)
    claimed.set()
    hang.wait()


def append_many(spec: StoreSpec, barrier: Barrier, worker: int, count: int) -> None:
    with open_spec(spec) as store:
        barrier.wait()
        for n in range(count):
            append(store, receipt(worker, n))


def hold_sqlite_write_lock(path: str, held: Event, release: Event, seconds: float) -> None:
    """Take the write lock of a SQLite file (`BEGIN IMMEDIATE`), as another gateway process
    in the middle of a write would, and keep it for `seconds` or until `release`."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    held.set()
    release.wait(seconds)
    conn.execute("COMMIT")
    conn.close()


class FaultyTx:
    """Runs `fault` just before the first statement that matches `before`."""

    def __init__(self, tx: Tx, before: str, fault: Callable[[], None]) -> None:
        self._tx, self._before, self._fault = tx, before, fault

    def _check(self, sql: str) -> None:
        if sql.startswith(self._before):
            self._fault()

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        self._check(sql)
        return self._tx.rows(sql, params)

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        self._check(sql)
        return self._tx.one(sql, params)

    def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        self._check(sql)
        return self._tx.run(sql, params)


def inject(store: SQLStore, before: str, fault: Callable[[], None]) -> None:
    """Make every later write transaction of `store` run `fault` before statement `before`."""
    db = store._db
    original = db.transaction

    @contextmanager
    def transaction(*, write: bool, snapshot: bool = False) -> Iterator[Tx]:
        with original(write=write, snapshot=snapshot) as tx:
            yield FaultyTx(tx, before, fault) if write else tx

    db.transaction = transaction  # type: ignore[method-assign]


def append_and_hang(spec: StoreSpec, inside: Event, hang: Event) -> None:
    """Start an append, stop after the chain head moved and before the receipt is inserted."""
    store = open_spec(spec)

    def pause() -> None:
        inside.set()
        hang.wait()

    inject(store, "INSERT INTO callgate_receipts", pause)
    append(store, receipt(99, 0))


def claim_and_settle_in_batches(
    spec: StoreSpec, barrier: Barrier, results: Any, worker: int, keys: int, size: int
) -> None:
    """Claim keys that every worker also claims, `size` per batch in a worker-specific
    order; finish the ones this worker won with their receipts, again in batches."""
    order = list(range(keys))
    order = order[worker % len(order) :] + order[: worker % len(order)]
    won: list[str] = []
    owner = f"w{worker}"
    with open_spec(spec) as store:
        barrier.wait()
        for start in range(0, keys, size):
            chunk = [f"k{n}" for n in order[start : start + size]]
            claims = store.claim(
                [ClaimRequest(key=key, request_hash="same", owner=owner, lease_seconds=60.0)
                 for key in chunk]
            )  # fmt: skip
            mine = [
                key
                for key, claimed in zip(chunk, claims, strict=True)
                if isinstance(claimed, Claim) and claimed.status == "claimed"
            ]
            settled = store.settle(
                [
                    Settle(
                        receipt=receipt(worker, int(key[1:])),
                        finish=Finish(key=key, owner=owner, state="completed", outcome=worker),
                    )
                    for key in mine
                ]
            )
            assert all(isinstance(s, Settled) for s in settled)
            won += mine
    results.put((worker, won))
