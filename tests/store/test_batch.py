"""The two writes of a call are batches: `claim` and `settle` answer member by member,
share one transaction, and write all or nothing when the transaction itself fails. Every
test runs on SQLite and PostgreSQL."""

from __future__ import annotations

import multiprocessing
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from multiprocessing.context import SpawnContext, SpawnProcess
from pathlib import Path

import pytest

from callgate.store import (
    Claim,
    ClaimRequest,
    Finish,
    FinishState,
    RecordNotFound,
    Settle,
    Settled,
    StoreConflict,
    StoreError,
    StoreUnavailable,
)
from callgate.store._db import Tx
from callgate.store._sql_store import SQLStore
from tests.conftest import WAIT
from tests.store import _workers
from tests.store._calls import append, claim, finish
from tests.store._workers import StoreSpec, open_spec, receipt
from tests.store.conftest import FakeClock, StoreFactory


def request(key: str, owner: str = "w1", request_hash: str = "h1") -> ClaimRequest:
    return ClaimRequest(key=key, request_hash=request_hash, owner=owner, lease_seconds=30.0)


def ends(
    key: str,
    n: int,
    owner: str = "w1",
    state: FinishState = "completed",
    labels: dict[str, str] | None = None,
) -> Settle:
    draft = replace(receipt(1, n), run_id="run-1")
    return Settle(
        receipt=draft,
        finish=Finish(key=key, owner=owner, state=state, outcome={"n": n}),
        labels=labels or {},
    )


def claims_of(results: list[Claim | StoreError]) -> list[Claim]:
    assert not any(isinstance(r, StoreError) for r in results), results
    return [r for r in results if isinstance(r, Claim)]


def settled_of(results: list[Settled | StoreError]) -> list[Settled]:
    return [r for r in results if isinstance(r, Settled)]


@pytest.fixture
def db(make_store: StoreFactory) -> SQLStore:
    return make_store()


def test_claim_decides_each_member_on_its_own(db: SQLStore) -> None:
    claim(db, "done", request_hash="h1", owner="w0")
    finish(db, "done", owner="w0", outcome={"ok": True})
    claims = claims_of(
        db.claim(
            [
                request("b"),
                request("a"),
                request("b", owner="w2"),
                request("done"),
                request("a", owner="w3", request_hash="other"),
            ]
        )
    )
    # Answers come back in the callers' order; a key repeated in the batch sees the claim
    # made earlier in the same batch.
    statuses = [c.status for c in claims]
    assert statuses == ["claimed", "claimed", "in_progress", "replay", "mismatch"]
    assert [c.record.key for c in claims] == ["b", "a", "b", "done", "a"]
    assert db.idempotency.get("b").owner == "w1"  # type: ignore[union-attr]
    assert claims[3].record.outcome == {"ok": True}


def test_claim_turns_an_expired_lease_unknown_once(db: SQLStore, clock: FakeClock) -> None:
    claim(db, "k", request_hash="h1", owner="w0", lease_seconds=1.0)
    clock.advance(5)
    claims = claims_of(db.claim([request("k", owner="w1"), request("k", owner="w2"), request("f")]))
    assert [c.status for c in claims] == ["unknown", "unknown", "claimed"]
    assert db.idempotency.get("k").owner == "w0"  # type: ignore[union-attr]


def test_settle_chains_receipts_in_request_order(db: SQLStore) -> None:
    keys = ["c", "a", "b"]
    claims_of(db.claim([request(k) for k in keys]))
    results = db.settle([ends(k, n) for n, k in enumerate(keys)])
    settled = settled_of(results)
    assert len(settled) == 3
    assert [s.record.key for s in settled if s.record] == keys
    assert [s.receipt.seq for s in settled] == [1, 2, 3]
    assert [s.receipt.call_id for s in settled] == ["1:0", "1:1", "1:2"]
    assert all(s.record is not None and s.record.state == "completed" for s in settled)
    assert db.idempotency.get("a").outcome == {"n": 1}  # type: ignore[union-attr]
    assert db.receipts.verify().ok
    assert db.receipts.head().hash == settled[-1].receipt.hash


def test_settle_mixes_finishes_of_every_state_and_plain_receipts(db: SQLStore) -> None:
    claims_of(db.claim([request("ok"), request("no"), request("lost")]))
    results = db.settle(
        [
            ends("ok", 0),
            Settle(receipt=receipt(1, 1)),  # a call that claimed no key
            ends("no", 2, state="failed"),
            ends("lost", 3, state="unknown"),
        ]
    )
    settled = settled_of(results)
    assert [s.receipt.seq for s in settled] == [1, 2, 3, 4]
    assert [s.record.state if s.record else None for s in settled] == [
        "completed",
        None,
        "failed",
        "unknown",
    ]
    assert claim(db, "no", request_hash="h1", owner="w9").status == "replay"
    assert claim(db, "lost", request_hash="h1", owner="w9").status == "unknown"


def test_a_refused_member_writes_nothing_and_the_others_commit(db: SQLStore) -> None:
    claims_of(db.claim([request("a"), request("b"), request("c")]))
    results = db.settle(
        [
            ends("a", 0, labels={"private": "crm"}),
            ends("b", 1, owner="intruder", labels={"untrusted": "web"}),
            ends("c", 2, labels={"public_sink": "mail"}),
            ends("missing", 3, labels={"untrusted": "web"}),
        ]
    )
    assert isinstance(results[1], StoreConflict)
    assert isinstance(results[3], RecordNotFound)
    assert isinstance(results[0], Settled) and isinstance(results[2], Settled)
    assert db.idempotency.get("b").state == "started"  # type: ignore[union-attr]
    assert db.idempotency.get("missing") is None
    chain = db.receipts.list()
    assert [r.call_id for r in chain] == ["1:0", "1:2"]
    assert [r.seq for r in chain] == [1, 2]
    # The refused members' labels were not written either (they share the receipt's run).
    assert db.labels.of("run-1") == {"private": "crm", "public_sink": "mail"}
    assert db.receipts.verify().ok


def test_the_same_key_twice_in_one_settle_finishes_once(db: SQLStore) -> None:
    claims_of(db.claim([request("k")]))
    results = db.settle([ends("k", 0), ends("k", 1, state="failed")])
    assert isinstance(results[0], Settled)
    assert isinstance(results[1], StoreConflict)
    record = db.idempotency.get("k")
    assert record is not None and (record.state, record.outcome) == ("completed", {"n": 0})
    assert [r.call_id for r in db.receipts.list()] == ["1:0"]


def _fail() -> None:
    raise StoreUnavailable("the database went away mid-batch")


@pytest.mark.parametrize(
    "statement", ["INSERT INTO callgate_receipts", "INSERT INTO callgate_labels"]
)
def test_a_settle_that_fails_as_a_whole_writes_nothing(
    make_store: StoreFactory, statement: str
) -> None:
    db = make_store()
    append(db, receipt(0, 0))
    before = db.receipts.head()
    claims_of(db.claim([request("a"), request("b")]))
    broken = make_store()
    _workers.inject(broken, statement, _fail)
    with pytest.raises(StoreUnavailable):
        broken.settle([ends("a", 1, labels={"private": "crm"}), ends("b", 2)])
    # Neither finish nor receipt nor label of any member survived the rollback.
    assert db.receipts.head() == before
    assert [db.idempotency.get(k).state for k in "ab"] == ["started", "started"]  # type: ignore[union-attr]
    assert db.labels.of("run-1") == {}
    assert db.receipts.verify().ok


def test_claims_that_fail_to_insert_claim_nothing(make_store: StoreFactory, backend: str) -> None:
    db, broken = make_store(), make_store()
    original = broken._db.transaction

    @contextmanager
    def transaction(*, write: bool, snapshot: bool = False) -> Iterator[Tx]:
        with original(write=write, snapshot=snapshot) as tx:
            yield _workers.FaultyTx(tx, "INSERT INTO callgate_idempotency", _fail)

    broken._db.transaction = transaction  # type: ignore[method-assign]
    if backend == "sqlite":  # one transaction for the batch: it fails whole, and says so
        with pytest.raises(StoreUnavailable):
            broken.claim([request("c"), request("d")])
    else:
        claims = broken.claim([request("c"), request("d")])
        assert all(isinstance(c, StoreUnavailable) for c in claims)  # each member is told
    assert db.idempotency.get("c") is None and db.idempotency.get("d") is None


def test_an_unreachable_database_during_a_batch_fails_only_the_members_it_stopped(
    make_store: StoreFactory, backend: str
) -> None:
    """On PostgreSQL `Store.claim` answers member by member: the fresh key went in with the
    first statement and is claimed (its call runs); the database is lost on the next
    statement (the key that already existed), whose member is told so and claims nothing.
    On SQLite the batch is one transaction: it fails whole, and nothing is claimed."""
    db = make_store()
    claim(db, "taken", request_hash="h1", owner="w0")
    broken = make_store()
    # Write transactions only: on PostgreSQL the first claims go in with a statement of
    # their own.
    _workers.inject(broken, "INSERT INTO callgate_idempotency", _fail)
    if backend == "sqlite":
        with pytest.raises(StoreUnavailable):
            broken.claim([request("fresh"), request("taken")])
        assert db.idempotency.get("fresh") is None
    else:
        fresh, taken = broken.claim([request("fresh"), request("taken")])
        assert isinstance(fresh, Claim) and fresh.status == "claimed"
        assert isinstance(taken, StoreUnavailable)
    record = db.idempotency.get("taken")
    assert record is not None and record.owner == "w0"  # untouched


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


@pytest.mark.slow
def test_a_large_batch_is_written_whole(db: SQLStore) -> None:
    """`claim` and `settle` take batches of any size; one larger than a single statement
    can carry (PostgreSQL binds at most 65535 parameters: about 2180 receipts or 10900
    claims) must still be written, not reported as an unreachable database."""
    keys = [f"k{n}" for n in range(11_000)]
    claims = claims_of(db.claim([request(k) for k in keys]))
    assert {c.status for c in claims} == {"claimed"}
    results = db.settle([ends(k, n) for n, k in enumerate(keys[:3_000])])
    assert len(settled_of(results)) == 3_000
    report = db.receipts.verify()
    assert report.ok and report.checked == 3_000


def test_empty_batches_write_nothing(db: SQLStore) -> None:
    assert db.claim([]) == []
    assert db.settle([]) == []
    assert db.receipts.head().seq == 0
