"""PostgreSQL through psycopg 3 and a connection pool, for several gateway processes.

The extra `callgate[postgres]` is imported only when a `PostgresStore` is made. Writers that
must read before they write lock the row they read (`SELECT ... FOR UPDATE`); uniqueness
comes from primary keys and `ON CONFLICT`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from callgate._errors import UserError
from callgate._extras import require
from callgate.store._db import Clock, Row, Tx
from callgate.store._errors import StoreUnavailable
from callgate.store._sql_store import SQLStore

if TYPE_CHECKING:
    from psycopg import Connection, Cursor
    from psycopg_pool import ConnectionPool

__all__ = ["PostgresDatabase", "PostgresStore"]

_SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")
# Any constant: every migrating process takes this advisory lock, so concurrent first
# opens do not race on CREATE TABLE (which PostgreSQL does not make safe on its own).
_MIGRATION_LOCK = 0x63616C6C67617465  # "callgate"


@lru_cache(maxsize=256)
def _placeholders(sql: str) -> str:
    # The tables write `?`; psycopg wants `%s`. No statement contains a literal `%` or `?`.
    return sql.replace("?", "%s")


class _PostgresTx:
    __slots__ = ("_cur",)

    def __init__(self, cur: Cursor[Row]) -> None:
        self._cur = cur

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        self._cur.execute(_placeholders(sql), params)
        return self._cur.fetchall()

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        self._cur.execute(_placeholders(sql), params)
        return self._cur.fetchone()

    def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        self._cur.execute(_placeholders(sql), params)
        return self._cur.rowcount


class PostgresDatabase:
    """A psycopg pool; each transaction borrows one connection."""

    dialect: Literal["sqlite", "postgres"] = "postgres"
    for_update = " FOR UPDATE"

    def __init__(self, dsn: str, *, schema: str | None, max_size: int, timeout: float) -> None:
        psycopg = require("psycopg", extra="postgres")
        pool_module = require("psycopg_pool", extra="postgres", package="psycopg-pool")
        if schema is not None and not _SCHEMA_NAME.fullmatch(schema):
            raise UserError(f"schema name {schema!r}: use lowercase letters, digits and _")
        self.schema = schema
        # Every driver error fails closed: unreachable, read-only (a standby, or
        # `default_transaction_read_only`), out of space, shutting down. None of them is an
        # answer the gate could act on; the message keeps the driver's words.
        self._unavailable: tuple[type[Exception], ...] = (psycopg.Error,)
        # libpq takes whole seconds, and treats 1 as 2.
        kwargs: dict[str, Any] = {"autocommit": True, "connect_timeout": max(2, round(timeout))}
        if schema is not None:
            kwargs["options"] = f"-c search_path={schema}"
        pool_class = pool_module.ConnectionPool
        # `check`: a connection broken by a server restart is replaced when borrowed,
        # instead of failing the first call after the restart.
        self._pool: ConnectionPool[Connection[Row]] = pool_class(
            dsn,
            min_size=1,
            max_size=max_size,
            timeout=timeout,
            kwargs=kwargs,
            check=pool_class.check_connection,
            open=False,
            name="callgate",
        )
        try:
            self._pool.open(wait=True, timeout=timeout)
        except self._unavailable as exc:
            self._pool.close()
            raise StoreUnavailable(f"PostgreSQL is unavailable: {exc}") from exc

    @contextmanager
    def transaction(self, *, write: bool, snapshot: bool = False) -> Iterator[Tx]:
        try:
            with self._pool.connection() as conn:
                if not (write or snapshot):
                    # Autocommit statements: no BEGIN and COMMIT round trips for a lookup.
                    with conn.cursor() as cur:
                        yield _PostgresTx(cur)
                    return
                with conn.transaction(), conn.cursor() as cur:
                    if not write:
                        cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    yield _PostgresTx(cur)
        except self._unavailable as exc:
            raise StoreUnavailable(f"PostgreSQL is unavailable: {exc}") from exc

    def before_migrations(self, tx: Tx) -> None:
        tx.one("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))
        if self.schema is not None:
            tx.run(f"CREATE SCHEMA IF NOT EXISTS {self.schema}")

    def close(self) -> None:
        self._pool.close()


class PostgresStore(SQLStore):
    """The shared store: PostgreSQL, for several gateway processes (extra `postgres`)."""

    def __init__(
        self,
        dsn: str,
        *,
        schema: str | None = None,
        max_size: int = 10,
        timeout: float = 2.0,
        clock: Clock = time.time,
    ) -> None:
        """`schema`: keep callgate's tables in their own schema (created when missing).
        `timeout`: seconds to wait for a connection before `StoreUnavailable`; during an
        outage each call is denied after at most this long."""
        db = PostgresDatabase(dsn, schema=schema, max_size=max_size, timeout=timeout)
        super().__init__(db, clock=clock)
        self.dsn = dsn
