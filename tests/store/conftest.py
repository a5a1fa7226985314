"""Fixtures of the store conformance suite: every test runs against each backend.

SQLite runs always (`:memory:`, or a file where processes share it). PostgreSQL runs when
`CALLGATE_PG_DSN` names a server (`. .ci/postgres.sh` starts one); each test gets a schema of
its own, dropped afterwards. Without the DSN the PostgreSQL cases skip, except under
`CI=true`, where a missing server is a failure.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from callgate.store import PostgresStore, SQLiteStore, Store
from callgate.store._sql_store import SQLStore
from tests.conftest import BACKENDS, pg_dsn


class FakeClock:
    """A clock the test moves by hand, so leases and expiries need no sleeping."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


StoreFactory = Callable[..., SQLStore]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def make_store(
    backend: str, tmp_path: Path, clock: FakeClock, request: pytest.FixtureRequest
) -> Iterator[StoreFactory]:
    """Opens stores on one fresh database (a file or a schema); closes them at the end.

    Every store it opens sees the same data, as separate processes would.
    """
    opened: list[SQLStore] = []
    target: tuple[str, str] | None = None
    if backend == "postgres":
        target = request.getfixturevalue("pg_schema")

    def make(**options: object) -> SQLStore:
        options.setdefault("clock", clock)
        if target is None:
            store: SQLStore = SQLiteStore(tmp_path / "callgate.db", **options)  # type: ignore[arg-type]
        else:
            store = PostgresStore(target[0], schema=target[1], **options)  # type: ignore[arg-type]
        opened.append(store)
        return store

    yield make
    for store in opened:
        store.close()


@pytest.fixture
def store(backend: str, clock: FakeClock, make_store: StoreFactory) -> Iterator[Store]:
    """A fresh store: SQLite in memory, or PostgreSQL in a schema of its own."""
    if backend == "postgres":
        yield make_store()
        return
    with SQLiteStore(":memory:", clock=clock) as memory:
        yield memory


@pytest.fixture
def pg_database() -> Iterator[tuple[str, str]]:
    """A database of its own on the configured server, for settings made per database
    (`ALTER DATABASE`); yields its URL and name, and drops it afterwards."""
    dsn = pg_dsn()
    import psycopg

    name = f"callgate_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield urlsplit(dsn)._replace(path=f"/{name}").geturl(), name
    finally:
        with psycopg.connect(dsn, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
