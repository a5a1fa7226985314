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
from urllib.parse import quote

import pytest

from callgate.store import PostgresStore, SQLiteStore, StoreUnavailable, open_store
from tests.conftest import (
    POSTGRES,
    STOPPABLE_POSTGRES,
    WAIT,
    needs,
    pg_ctl,
    pg_dsn,
    wait_until_available,
)
from tests.store import _workers
from tests.store._calls import append, claim, finish
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
    children = [spawn(_workers.race_claim, spec, barrier, results, n) for n in range(8)]
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
        assert claim(store, "acme:req-2:pay", owner="next").status == "in_progress"
    later = time.time() + 31  # a clock past the lease, instead of waiting for it
    with open_spec(spec, clock=lambda: later) as store:
        seen = claim(store, "acme:req-2:pay", owner="next")
        assert seen.status == "unknown"
        assert seen.record.owner == f"pid-{child.pid}"
        assert claim(store, "acme:req-2:pay", owner="third").status == "unknown"


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
        append(store, receipt(0, 0))
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
        after = append(store, receipt(0, 1))
        assert after.seq == 2 and after.prev_hash == before.hash


def test_locked_sqlite_file_is_unavailable_and_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "gate.db"
    with SQLiteStore(path, busy_timeout=0.2) as store:
        append(store, receipt(0, 0))
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")  # another process holding the file
        try:
            with pytest.raises(StoreUnavailable, match="locked"):
                append(store, receipt(0, 1))
            with pytest.raises(StoreUnavailable):
                claim(store, "k")
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert store.idempotency.get("k") is None
        assert store.receipts.head().seq == 1
        assert store.receipts.verify().ok
        assert append(store, receipt(0, 1)).seq == 2


def test_sqlite_disk_full_inside_an_append_rolls_back(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "gate.db") as store:
        append(store, receipt(0, 0))
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
            append(store, big)
        assert store.receipts.head() == before
        assert store.receipts.verify().ok


@pytest.mark.postgres
@STOPPABLE_POSTGRES
@pytest.mark.timeout(120)
def test_postgres_stopped_mid_append_fails_closed(stoppable_pg_schema: tuple[str, str]) -> None:
    dsn, schema = stoppable_pg_schema
    store = PostgresStore(dsn, schema=schema, timeout=1.0)
    try:
        _outage(store)
    finally:
        store.close()


def _outage(store: PostgresStore) -> None:
    append(store, receipt(0, 0))
    before = store.receipts.head()
    stopped: list[bool] = []

    def stop_server() -> None:
        if not stopped:
            stopped.append(True)
            pg_ctl("stop")

    _workers.inject(store, "INSERT INTO callgate_receipts", stop_server)
    with pytest.raises(StoreUnavailable):
        append(store, receipt(0, 1))  # the head moved, then the server went away
    assert stopped
    for operation in (
        lambda: append(store, receipt(0, 2)),
        lambda: claim(store, "k"),
        store.ping,
    ):
        with pytest.raises(StoreUnavailable):
            operation()
    pg_ctl("start")
    stopped.append(True)  # after the restart the injected fault stays a no-op
    wait_until_available(store)
    assert store.receipts.head() == before
    assert store.receipts.verify().ok
    assert store.idempotency.get("k") is None
    assert append(store, receipt(0, 3)).seq == 2


def _sqlite_files(path: Path) -> list[Path]:
    return [path, path.with_name(f"{path.name}-wal"), path.with_name(f"{path.name}-shm")]


def test_sqlite_file_deleted_under_an_open_store_is_unavailable(tmp_path: Path) -> None:
    """The connection would go on writing into the unlinked file, where no process that
    opens the path would ever see a claim or a receipt."""
    path = tmp_path / "gate.db"
    with SQLiteStore(path) as store:
        claim(store, "k")
        for file in _sqlite_files(path):
            file.unlink(missing_ok=True)
        with pytest.raises(StoreUnavailable, match="removed or replaced"):
            claim(store, "k2")
        with pytest.raises(StoreUnavailable, match="removed or replaced"):
            finish(store, "k")
        with pytest.raises(StoreUnavailable, match="removed or replaced"):
            store.ping()
    assert not path.exists()


def test_sqlite_file_replaced_under_an_open_store_is_unavailable(tmp_path: Path) -> None:
    path, other = tmp_path / "gate.db", tmp_path / "other.db"
    with SQLiteStore(other) as elsewhere:
        append(elsewhere, receipt(9, 0))
    with SQLiteStore(path) as store:
        claim(store, "k")
        # Say, a backup restored over the live database. Its log and shared-memory files
        # belong to the database replaced and go too: SQLite would otherwise replay the old
        # log into the new file on the next open.
        os.replace(other, path)
        for companion in _sqlite_files(path)[1:]:
            companion.unlink()
        with pytest.raises(StoreUnavailable, match="removed or replaced"):
            claim(store, "k2")
        with pytest.raises(StoreUnavailable, match="removed or replaced"):
            append(store, receipt(0, 0))
    with SQLiteStore(path) as restored:  # the file now at the path is left as it was
        assert restored.idempotency.get("k") is None and restored.idempotency.get("k2") is None
        assert [r.call_id for r in restored.receipts.list()] == ["9:0"]
        assert restored.receipts.verify().ok


def test_sqlite_write_locked_by_another_process_is_unavailable_within_the_busy_timeout(
    tmp_path: Path, ctx: SpawnContext, spawn: Callable[..., SpawnProcess]
) -> None:
    path, busy_timeout = tmp_path / "gate.db", 0.5
    with SQLiteStore(path, busy_timeout=busy_timeout) as store:
        held, release = ctx.Event(), ctx.Event()
        child = spawn(_workers.hold_sqlite_write_lock, str(path), held, release, WAIT)
        assert held.wait(WAIT)
        started = time.monotonic()
        with pytest.raises(StoreUnavailable, match="locked"):
            claim(store, "k")
        waited = time.monotonic() - started
        with pytest.raises(StoreUnavailable, match="locked"):
            append(store, receipt(0, 0))
        # Opening a current database only reads, so it does not wait for the writer.
        with SQLiteStore(path, busy_timeout=busy_timeout) as second:
            assert second.idempotency.get("k") is None
        release.set()
        child.join(WAIT)
        # It waited for the other writer, and gave up after the busy timeout (the upper
        # bound only leaves room for a loaded machine).
        assert busy_timeout / 2 <= waited < 10.0, waited
        assert store.idempotency.get("k") is None and store.receipts.head().seq == 0
        assert claim(store, "k").status == "claimed"


def _admin(statement: str) -> None:
    """Run `statement` as the server's administrator, from its default database."""
    import psycopg

    with psycopg.connect(pg_dsn(), autocommit=True) as conn:
        conn.execute(statement)


@pytest.mark.postgres
def test_postgres_read_only_database_fails_closed(pg_database: tuple[str, str]) -> None:
    """A database an operator made read-only (or a standby): every write is refused as
    unavailable, and nothing of it is written."""
    dsn, name = pg_database
    store = PostgresStore(dsn)
    try:
        claim(store, "k")
        _admin(f"ALTER DATABASE {name} SET default_transaction_read_only = on")
        # Database settings apply to sessions started afterwards: end the store's sessions,
        # and its pool replaces them.
        _admin(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            f" WHERE datname = '{name}' AND pid <> pg_backend_pid()",
        )
        with pytest.raises(StoreUnavailable, match="read-only"):
            claim(store, "k2")
        with pytest.raises(StoreUnavailable, match="read-only"):
            finish(store, "k", outcome=1)
        with pytest.raises(StoreUnavailable, match="read-only"):
            append(store, receipt(0, 0))
        record = store.idempotency.get("k")  # reads go on
        assert record is not None and record.state == "started"
        # A current schema is only read when opening, so a second store opens; it cannot write.
        with PostgresStore(dsn) as second, pytest.raises(StoreUnavailable, match="read-only"):
            claim(second, "k3")
    finally:
        store.close()
    _admin(f"ALTER DATABASE {name} RESET default_transaction_read_only")
    with PostgresStore(dsn) as after:
        assert after.idempotency.get("k2") is None
        record = after.idempotency.get("k")
        assert record is not None and record.state == "started"
        assert after.receipts.head().seq == 0 and after.receipts.verify().ok


@pytest.mark.postgres
def test_postgres_read_only_session_from_the_url_fails_closed(
    pg_database: tuple[str, str],
) -> None:
    url, _ = pg_database
    read_only = f"{url}?options={quote('-c default_transaction_read_only=on')}"
    with pytest.raises(StoreUnavailable, match="read-only"):
        PostgresStore(read_only)  # a database never migrated: opening must create the tables
    PostgresStore(url).close()  # migrated while writable
    with PostgresStore(read_only) as store:  # current: opening only reads
        assert store.idempotency.get("k") is None
        with pytest.raises(StoreUnavailable, match="read-only"):
            claim(store, "k")
        with pytest.raises(StoreUnavailable, match="read-only"):
            append(store, receipt(0, 0))
        with pytest.raises(StoreUnavailable, match="read-only"):
            store.labels.add("run-1", {"private": "crm_lookup"})
    with open_store(read_only) as opened, pytest.raises(StoreUnavailable, match="read-only"):
        claim(opened, "k")
    with PostgresStore(url) as writable:
        assert writable.idempotency.get("k") is None and writable.receipts.head().seq == 0


_CLOSED_PORT = "postgresql://postgres@127.0.0.1:9/postgres"


@pytest.mark.postgres
@needs(*POSTGRES, extra="postgres")
@pytest.mark.parametrize("opener", [PostgresStore, open_store], ids=["PostgresStore", "open_store"])
def test_an_unreachable_postgres_is_reported_within_the_default_timeout(
    opener: Callable[[str], object],
) -> None:
    """The default is 2 s. The bound leaves room for a loaded machine while staying under
    the 5 s the pool waited before (which a gateway paid on every call during an outage)."""
    started = time.monotonic()
    with pytest.raises(StoreUnavailable, match="unavailable"):
        opener(_CLOSED_PORT)
    assert time.monotonic() - started < 4.9


@pytest.mark.postgres
@needs(*POSTGRES, extra="postgres")
def test_postgres_on_a_closed_port_is_unavailable() -> None:
    with pytest.raises(StoreUnavailable, match="unavailable"):
        PostgresStore("postgresql://postgres@127.0.0.1:9/postgres", timeout=1.0)
    with pytest.raises(StoreUnavailable):
        open_store("postgresql://postgres@127.0.0.1:9/postgres?connect_timeout=2")
