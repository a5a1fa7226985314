"""Opening stores: URLs, migrations recorded once, a newer schema refused, the public API."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import callgate.store
from callgate._errors import MissingExtraError, UserError
from callgate.store import (
    MIGRATIONS,
    Migration,
    PostgresStore,
    SQLiteStore,
    StoreUnavailable,
    open_store,
)
from callgate.store._db import Database
from callgate.store._migrations import migrate
from callgate.store._postgres import PostgresDatabase
from callgate.store._sql_store import SQLStore
from callgate.store._sqlite import SQLiteDatabase
from tests.conftest import POSTGRES, needs
from tests.store._calls import append, draft
from tests.store._legacy import write_v1_chain
from tests.store.conftest import FakeClock, StoreFactory


def _versions(store: SQLStore) -> list[tuple[int, str]]:
    with store._db.transaction(write=False) as tx:
        rows = tx.rows("SELECT version, name FROM callgate_migrations ORDER BY version")
    return [(int(v), str(n)) for v, n in rows]


def test_migrations_are_recorded_once(make_store: StoreFactory) -> None:
    first = make_store()
    second = make_store()  # a second process opening the same database
    expected = [(m.version, m.name) for m in MIGRATIONS]
    assert _versions(first) == expected
    assert _versions(second) == expected


def test_new_migration_is_applied_forward(make_store: StoreFactory, clock: FakeClock) -> None:
    store = make_store()
    extra = Migration(
        version=len(MIGRATIONS) + 1,
        name="test column",
        statements=("ALTER TABLE callgate_pins ADD COLUMN note TEXT",),
    )
    assert migrate(store._db, clock=clock, migrations=(*MIGRATIONS, extra)) == [extra.version]
    assert migrate(store._db, clock=clock, migrations=(*MIGRATIONS, extra)) == []
    assert _versions(store)[-1] == (extra.version, "test column")


def test_newer_database_is_refused(make_store: StoreFactory, clock: FakeClock) -> None:
    store = make_store()
    extra = Migration(version=len(MIGRATIONS) + 1, name="from the future", statements=())
    migrate(store._db, clock=clock, migrations=(*MIGRATIONS, extra))
    with pytest.raises(UserError, match="newer than this callgate"):
        make_store()


def test_failed_migration_leaves_nothing(make_store: StoreFactory, clock: FakeClock) -> None:
    store = make_store()
    broken = Migration(
        version=len(MIGRATIONS) + 1,
        name="broken",
        statements=("CREATE TABLE callgate_half (x INTEGER)", "NOT SQL"),
    )
    with pytest.raises(Exception, match=r"(?i)syntax"):
        migrate(store._db, clock=clock, migrations=(*MIGRATIONS, broken))
    assert _versions(store)[-1][0] == len(MIGRATIONS)
    with store._db.transaction(write=True) as tx:  # the first statement was rolled back too
        tx.run("CREATE TABLE callgate_half (x INTEGER)")


def test_open_store_sqlite_urls(tmp_path: Path) -> None:
    path = tmp_path / "gate.db"
    with open_store(f"sqlite:///{path}") as store:
        assert isinstance(store, SQLiteStore) and store.path == str(path)
        store.pins.list()
    assert path.exists()
    with open_store("sqlite://:memory:") as memory:
        assert isinstance(memory, SQLiteStore) and memory.path == ":memory:"


@pytest.mark.parametrize("url", ["mysql://x", "sqlite://relative.db", "sqlite:///"])
def test_open_store_rejects_other_urls(url: str) -> None:
    with pytest.raises(UserError, match="store URL"):
        open_store(url)


@pytest.mark.postgres
def test_open_store_postgres(pg_schema: tuple[str, str]) -> None:
    dsn, _ = pg_schema
    with open_store(dsn) as store:
        assert isinstance(store, PostgresStore)
        store.ping()


def test_sqlite_file_that_cannot_be_opened(tmp_path: Path) -> None:
    with pytest.raises(StoreUnavailable, match="unavailable"):
        SQLiteStore(tmp_path / "no-such-dir" / "gate.db")


def test_sqlite_store_is_in_wal_mode(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "gate.db") as store, store._db.transaction(write=False) as tx:
        assert tx.one("PRAGMA journal_mode") == ("wal",)


@needs(*POSTGRES, extra="postgres")
def test_postgres_refuses_a_bad_schema_name() -> None:
    with pytest.raises(UserError, match="schema name"):
        PostgresStore("postgresql://127.0.0.1:1/x", schema="Robert'); DROP")


def _isort_key(name: str) -> tuple[int, str]:
    """The order ruff's RUF022 keeps: CONSTANTS, then Classes, then functions."""
    kind = 0 if name.isupper() else 1 if name[0].isupper() else 2
    return kind, name


def test_public_api_is_sorted_and_complete() -> None:
    # isidentifier: pytest rewrites a plugin distribution's modules, adding "@py_builtins"
    public = {n for n in vars(callgate.store) if not n.startswith("_") and n.isidentifier()}
    assert callgate.store.__all__ == sorted(callgate.store.__all__, key=_isort_key)
    assert set(callgate.store.__all__) == public


def test_older_database_is_upgraded_on_open(
    backend: str, tmp_path: Path, clock: FakeClock, request: pytest.FixtureRequest
) -> None:
    """A database made by an older callgate (only migration 1) gains the later ones."""
    if backend == "sqlite":
        old_db: Database = SQLiteDatabase(str(tmp_path / "old.db"), busy_timeout=5, durable=False)
        reopen: Callable[[], SQLStore] = lambda: SQLiteStore(tmp_path / "old.db")  # noqa: E731
    else:
        dsn, schema = request.getfixturevalue("pg_schema")
        old_db = PostgresDatabase(dsn, schema=schema, max_size=2, timeout=5)
        reopen = lambda: PostgresStore(dsn, schema=schema)  # noqa: E731
    try:
        assert migrate(old_db, clock=clock, migrations=MIGRATIONS[:1]) == [1]
    finally:
        old_db.close()
    with reopen() as store:
        assert _versions(store) == [(m.version, m.name) for m in MIGRATIONS]


def test_a_journal_from_before_chain_version_2_is_upgraded_and_keeps_verifying(
    backend: str, tmp_path: Path, clock: FakeClock, request: pytest.FixtureRequest
) -> None:
    """A database written by the release before chain version 2 (migrations 1 and 2, its
    receipts hashed with version 1) gains migration 3; the old receipts verify with their
    own version and the chain goes on with version 2."""
    if backend == "sqlite":
        old_db: Database = SQLiteDatabase(str(tmp_path / "old.db"), busy_timeout=5, durable=False)
        reopen: Callable[[], SQLStore] = lambda: SQLiteStore(tmp_path / "old.db", clock=clock)  # noqa: E731
    else:
        dsn, schema = request.getfixturevalue("pg_schema")
        old_db = PostgresDatabase(dsn, schema=schema, max_size=2, timeout=5)
        reopen = lambda: PostgresStore(dsn, schema=schema, clock=clock)  # noqa: E731
    try:
        assert migrate(old_db, clock=clock, migrations=MIGRATIONS[:2]) == [1, 2]
        with old_db.transaction(write=True) as tx:
            old_head = write_v1_chain(tx, [draft(1), draft(2)], recorded_at=clock.now)
    finally:
        old_db.close()
    with reopen() as store:
        assert _versions(store)[-1][0] == MIGRATIONS[-1].version
        old = store.receipts.get(2)
        assert old is not None and old.chain_version == 1
        assert (old.source, old.batch_id, old.findings) == (None, None, ())
        assert store.receipts.verify(old_head).anchored
        new = append(store, draft(3, source="gitlab", findings=("S101",)))
        assert (new.seq, new.prev_hash, new.chain_version) == (3, old_head.hash, 2)
        assert store.receipts.verify(old_head).anchored


def test_missing_postgres_extra_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # import now raises ImportError
    with pytest.raises(MissingExtraError, match=r"pip install 'callgate\[postgres\]'"):
        PostgresStore("postgresql://127.0.0.1:1/x")


def test_importing_the_store_does_not_import_psycopg() -> None:
    code = "import sys, callgate.store; print('psycopg' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
