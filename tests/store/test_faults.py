"""Fault injection at the store level: racing processes, killed processes, a database that
goes away. Children are spawned (not forked), each opening the store on its own, as
separate gateway processes would."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sqlite3
import time
from collections import Counter
from collections.abc import Callable
from multiprocessing.context import SpawnContext, SpawnProcess
from pathlib import Path

import pytest

from callgate.store import PostgresStore, SQLiteStore, StoreUnavailable, open_store
from tests.conftest import WAIT
from tests.store import _workers
from tests.store._workers import StoreSpec, open_spec, receipt

pytestmark = pytest.mark.slow


@pytest.fixture
def ctx() -> SpawnContext:
    return multiprocessing.get_context("spawn")


@pytest.fixture
def spec(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> StoreSpec:
    """A fresh database that children can open by name (never `:memory:`)."""
    if backend == "sqlite":
        return ("sqlite", str(tmp_path / "shared.db"), None)
    dsn, schema = request.getfixturevalue("pg_schema")
    return ("postgres", dsn, schema)


def test_eight_processes_racing_one_key_claim_it_once(
    spec: StoreSpec, ctx: SpawnContext, spawn: Callable[..., SpawnProcess]
) -> None:
    barrier = ctx.Barrier(8, timeout=WAIT)
    results = ctx.Queue()
    # No store is opened first: the eight first opens also race on the migrations.
    children = [spawn(_workers.race_begin, spec, barrier, results, n) for n in range(8)]
    statuses = [results.get(timeout=WAIT) for _ in children]
    for child in children:
        child.join(WAIT)
        assert child.exitcode == 0
    assert Counter(status for _, status in statuses) == {"claimed": 1, "in_progress": 7}
    winner = next(worker for worker, status in statuses if status == "claimed")
    with open_spec(spec) as store:
        record = store.idempotency.get("acme:req-1:pay")
        assert record is not None and record.owner == f"worker-{winner}"


def test_killed_owner_leaves_unknown_after_its_lease(
    spec: StoreSpec, ctx: SpawnContext, spawn: Callable[..., SpawnProcess]
) -> None:
    claimed, hang = ctx.Event(), ctx.Event()
    child = spawn(_workers.claim_and_hang, spec, claimed, hang)
    assert claimed.wait(WAIT)
    assert child.pid is not None
    os.kill(child.pid, signal.SIGKILL)
    child.join(WAIT)
    assert child.exitcode == -signal.SIGKILL
    with open_spec(spec) as store:  # the real clock: the 30 s lease is still running
        assert (
            store.idempotency.begin(
                "acme:req-2:pay", request_hash="h", owner="next", lease_seconds=30
            ).status
            == "in_progress"
        )
    later = time.time() + 31  # a clock past the lease, instead of waiting for it
    with open_spec(spec, clock=lambda: later) as store:
        claim = store.idempotency.begin(
            "acme:req-2:pay", request_hash="h", owner="next", lease_seconds=30
        )
        assert claim.status == "unknown"
        assert claim.record.owner == f"pid-{child.pid}"
        assert (
            store.idempotency.begin(
                "acme:req-2:pay", request_hash="h", owner="third", lease_seconds=30
            ).status
            == "unknown"
        )


def test_concurrent_appends_form_one_gap_free_chain(
    spec: StoreSpec, ctx: SpawnContext, spawn: Callable[..., SpawnProcess]
) -> None:
    workers, count = 4, 40
    with open_spec(spec):
        pass  # migrate once, so the children only race on appends
    barrier = ctx.Barrier(workers, timeout=WAIT)
    children = [spawn(_workers.append_many, spec, barrier, n, count) for n in range(workers)]
    for child in children:
        child.join(WAIT)
        assert child.exitcode == 0
    with open_spec(spec) as store:
        report = store.receipts.verify()
        assert report.ok, report.reason
        assert report.checked == workers * count
        chain = store.receipts.list(limit=workers * count + 1)
    assert [r.seq for r in chain] == list(range(1, workers * count + 1))
    for worker in range(workers):  # each writer's receipts keep that writer's order
        mine = [r.call_id for r in chain if r.principal == f"worker-{worker}"]
        assert mine == [f"{worker}:{n}" for n in range(count)]


def test_process_killed_inside_an_append_leaves_nothing(
    spec: StoreSpec, ctx: SpawnContext, spawn: Callable[..., SpawnProcess]
) -> None:
    with open_spec(spec) as store:
        store.receipts.append(receipt(0, 0))
        before = store.receipts.head()
    inside, hang = ctx.Event(), ctx.Event()
    child = spawn(_workers.append_and_hang, spec, inside, hang)
    assert inside.wait(WAIT)  # the child moved the chain head and holds the write lock
    assert child.pid is not None
    os.kill(child.pid, signal.SIGKILL)
    child.join(WAIT)
    with open_spec(spec) as store:
        assert store.receipts.head() == before
        assert store.receipts.verify().ok
        after = store.receipts.append(receipt(0, 1))
        assert after.seq == 2 and after.prev_hash == before.hash


def test_locked_sqlite_file_is_unavailable_and_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "gate.db"
    with SQLiteStore(path, busy_timeout=0.2) as store:
        store.receipts.append(receipt(0, 0))
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")  # another process holding the file
        try:
            with pytest.raises(StoreUnavailable, match="locked"):
                store.receipts.append(receipt(0, 1))
            with pytest.raises(StoreUnavailable):
                store.idempotency.begin("k", request_hash="h", owner="a", lease_seconds=30)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert store.idempotency.get("k") is None
        assert store.receipts.head().seq == 1
        assert store.receipts.verify().ok
        assert store.receipts.append(receipt(0, 1)).seq == 2


def test_sqlite_disk_full_inside_an_append_rolls_back(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "gate.db") as store:
        store.receipts.append(receipt(0, 0))
        before = store.receipts.head()
        with store._db.transaction(write=True) as tx:
            pages = tx.one("PRAGMA page_count")
            assert pages is not None
            # The file may not grow any more: the head update fits in its page, the insert
            # of a large receipt does not.
            tx.rows(f"PRAGMA max_page_count = {pages[0]}")
        big = receipt(0, 1)
        big = type(big)(
            **{
                **{f: getattr(big, f) for f in big.__dataclass_fields__},
                "arguments": {"blob": "x" * 200_000},
            }
        )
        with pytest.raises(StoreUnavailable, match="full"):
            store.receipts.append(big)
        assert store.receipts.head() == before
        assert store.receipts.verify().ok


def _pg_ctl_configured() -> None:
    if not os.environ.get("CALLGATE_PG_CTL"):
        reason = "CALLGATE_PG_CTL not set: cannot stop and start the server"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.mark.postgres
@pytest.mark.timeout(120)
def test_postgres_stopped_mid_append_fails_closed(pg_schema: tuple[str, str]) -> None:
    _pg_ctl_configured()
    dsn, schema = pg_schema
    store = PostgresStore(dsn, schema=schema, timeout=1.0)
    try:
        _outage(store)
    finally:
        if _workers.pg_ctl("status", check=False) != 0:  # leave the server running
            _workers.pg_ctl("start")
        store.close()


def _outage(store: PostgresStore) -> None:
    store.receipts.append(receipt(0, 0))
    before = store.receipts.head()
    stopped: list[bool] = []

    def stop_server() -> None:
        if not stopped:
            stopped.append(True)
            _workers.pg_ctl("stop")

    _workers.inject(store, "INSERT INTO callgate_receipts", stop_server)
    with pytest.raises(StoreUnavailable):
        store.receipts.append(receipt(0, 1))  # the head moved, then the server went away
    assert stopped
    for operation in (
        lambda: store.receipts.append(receipt(0, 2)),
        lambda: store.idempotency.begin("k", request_hash="h", owner="a", lease_seconds=30),
        store.ping,
    ):
        with pytest.raises(StoreUnavailable):
            operation()
    _workers.pg_ctl("start")
    stopped.append(True)  # after the restart the injected fault stays a no-op
    _eventually_available(store)
    assert store.receipts.head() == before
    assert store.receipts.verify().ok
    assert store.idempotency.get("k") is None
    assert store.receipts.append(receipt(0, 3)).seq == 2


def _eventually_available(store: PostgresStore) -> None:
    """The pool reconnects in the background; give it a few attempts after the restart."""
    for _ in range(30):
        try:
            store.ping()
            return
        except StoreUnavailable:
            continue
    store.ping()


@pytest.mark.postgres
def test_postgres_on_a_closed_port_is_unavailable() -> None:
    with pytest.raises(StoreUnavailable, match="unavailable"):
        PostgresStore("postgresql://postgres@127.0.0.1:9/postgres", timeout=1.0)
    with pytest.raises(StoreUnavailable):
        open_store("postgresql://postgres@127.0.0.1:9/postgres?connect_timeout=2")
