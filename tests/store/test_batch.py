"""Group commit at the store: `begin_many` and `finish_and_record_many` behave member by
member like `begin` and `finish_and_record`, share one transaction, and write all or nothing
when the transaction itself fails. Every test runs on SQLite and PostgreSQL."""

from __future__ import annotations

import multiprocessing
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.context import SpawnContext, SpawnProcess
from pathlib import Path

import pytest

from callgate.store import (
    ClaimRequest,
    FinishRequest,
    StoreConflict,
    StoreUnavailable,
)
from callgate.store._db import Tx
from callgate.store._sql_store import SQLStore
from tests.conftest import WAIT
from tests.store import _workers
from tests.store._workers import StoreSpec, open_spec, receipt
from tests.store.conftest import FakeClock, StoreFactory


def claim(key: str, owner: str = "w1", request_hash: str = "h1") -> ClaimRequest:
    return ClaimRequest(key=key, request_hash=request_hash, owner=owner, lease_seconds=30.0)


def finish(key: str, n: int, owner: str = "w1") -> FinishRequest:
    return FinishRequest(
        key=key, owner=owner, state="completed", outcome={"n": n}, receipt=receipt(1, n)
    )


@pytest.fixture
def db(make_store: StoreFactory) -> SQLStore:
    return make_store()


def test_begin_many_decides_each_member_like_begin(db: SQLStore) -> None:
    db.idempotency.begin("done", request_hash="h1", owner="w0", lease_seconds=30.0)
    db.idempotency.finish("done", owner="w0", state="completed", outcome={"ok": True})
    claims = db.begin_many(
        [
            claim("b"),
            claim("a"),
            claim("b", owner="w2"),
            claim("done"),
            claim("a", owner="w3", request_hash="other"),
        ]
    )
    assert not any(isinstance(c, Exception) for c in claims)
    statuses = [c.status for c in claims]  # type: ignore[union-attr]
    # Answers come back in the callers' order; a key repeated in the batch sees the claim
    # made earlier in the same transaction.
    assert statuses == ["claimed", "claimed", "in_progress", "replay", "mismatch"]
    assert db.idempotency.get("b").owner == "w1"  # type: ignore[union-attr]


def test_begin_many_turns_an_expired_lease_unknown_once(db: SQLStore, clock: FakeClock) -> None:
    db.idempotency.begin("k", request_hash="h1", owner="w0", lease_seconds=1.0)
    clock.advance(5)
    claims = db.begin_many([claim("k", owner="w1"), claim("k", owner="w2"), claim("fresh")])
    assert [c.status for c in claims] == ["unknown", "unknown", "claimed"]  # type: ignore[union-attr]


def test_finish_and_record_many_chains_receipts_in_request_order(db: SQLStore) -> None:
    keys = ["c", "a", "b"]
    db.begin_many([claim(k) for k in keys])
    settled = db.finish_and_record_many([finish(k, n) for n, k in enumerate(keys)])
    pairs = [s for s in settled if not isinstance(s, Exception)]
    assert [record.key for record, _ in pairs] == keys
    assert [r.seq for _, r in pairs] == [1, 2, 3]
    assert [r.call_id for _, r in pairs] == ["1:0", "1:1", "1:2"]
    assert all(record.state == "completed" for record, _ in pairs)
    assert db.idempotency.get("a").outcome == {"n": 1}  # type: ignore[union-attr]
    assert db.receipts.verify().ok
    assert db.receipts.head().hash == pairs[-1][1].hash


def test_a_refused_member_writes_nothing_and_the_others_commit(db: SQLStore) -> None:
    db.begin_many([claim("a"), claim("b"), claim("c")])
    settled = db.finish_and_record_many(
        [finish("a", 0), finish("b", 1, owner="intruder"), finish("c", 2)]
    )
    assert isinstance(settled[1], StoreConflict)
    assert not isinstance(settled[0], Exception) and not isinstance(settled[2], Exception)
    assert db.idempotency.get("b").state == "started"  # type: ignore[union-attr]
    chain = db.receipts.list()
    assert [r.call_id for r in chain] == ["1:0", "1:2"]
    assert [r.seq for r in chain] == [1, 2]
    assert db.receipts.verify().ok


def test_a_batch_that_fails_as_a_whole_writes_nothing(make_store: StoreFactory) -> None:
    db = make_store()
    db.receipts.append(receipt(0, 0))
    before = db.receipts.head()
    db.begin_many([claim("a"), claim("b")])

    def fail() -> None:
        raise StoreUnavailable("the database went away mid-batch")

    broken = make_store()
    _workers.inject(broken, "INSERT INTO callgate_receipts", fail)
    with pytest.raises(StoreUnavailable):
        broken.finish_and_record_many([finish("a", 1), finish("b", 2)])
    # Neither finish nor receipt of any member survived the rollback.
    assert db.receipts.head() == before
    assert [db.idempotency.get(k).state for k in "ab"] == ["started", "started"]  # type: ignore[union-attr]
    assert db.receipts.verify().ok


def test_claims_that_fail_to_insert_claim_nothing(make_store: StoreFactory) -> None:
    db, broken = make_store(), make_store()
    original = broken._db.transaction

    @contextmanager
    def transaction(*, write: bool, snapshot: bool = False) -> Iterator[Tx]:
        with original(write=write, snapshot=snapshot) as tx:
            yield _workers.FaultyTx(tx, "INSERT INTO callgate_idempotency", fail)

    def fail() -> None:
        raise StoreUnavailable("the database went away mid-batch")

    broken._db.transaction = transaction  # type: ignore[method-assign]
    with pytest.raises(StoreUnavailable):
        broken.begin_many([claim("c"), claim("d")])
    assert db.idempotency.get("c") is None and db.idempotency.get("d") is None


def test_a_member_that_fails_alone_leaves_the_others_claimed(db: SQLStore) -> None:
    db.idempotency.begin("taken", request_hash="h1", owner="w0", lease_seconds=30.0)

    def down(*args: object, **kwargs: object) -> None:
        raise StoreUnavailable("gone for this one")

    db.idempotency.begin = down  # type: ignore[method-assign,assignment]  # only the slow path uses it
    claims = db.begin_many([claim("fresh"), claim("taken")])
    assert isinstance(claims[1], StoreUnavailable)
    assert claims[0].status == "claimed"  # type: ignore[union-attr]
    assert db.idempotency.get("fresh").owner == "w1"  # type: ignore[union-attr]


@pytest.fixture
def spec(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> StoreSpec:
    if backend == "sqlite":
        return ("sqlite", str(tmp_path / "shared.db"), None)
    dsn, schema = request.getfixturevalue("pg_schema")
    return ("postgres", dsn, schema)


@pytest.mark.slow
def test_processes_batching_the_same_keys_claim_each_once_and_chain_verifies(
    spec: StoreSpec, spawn: Callable[..., SpawnProcess]
) -> None:
    workers, keys, size = 4, 48, 8
    open_spec(spec).close()  # migrate once, so the children race only on the keys
    ctx: SpawnContext = multiprocessing.get_context("spawn")
    barrier, results = ctx.Barrier(workers, timeout=WAIT), ctx.Queue()
    children = [
        spawn(_workers.claim_and_settle_in_batches, spec, barrier, results, n, keys, size)
        for n in range(workers)
    ]
    won = [results.get(timeout=WAIT) for _ in children]
    for child in children:
        child.join(WAIT)
        assert child.exitcode == 0
    winners = Counter(key for _, mine in won for key in mine)
    assert set(winners) == {f"k{n}" for n in range(keys)}
    assert set(winners.values()) == {1}  # every key claimed by exactly one process
    with open_spec(spec) as store:
        report = store.receipts.verify()
        assert report.ok, report.reason
        assert report.checked == keys
        assert {store.idempotency.get(f"k{n}").state for n in range(keys)} == {  # type: ignore[union-attr]
            "completed"
        }


def test_empty_batches_write_nothing(db: SQLStore) -> None:
    assert db.begin_many([]) == []
    assert db.finish_and_record_many([]) == []
    assert db.receipts.head().seq == 0
