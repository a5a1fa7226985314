"""The seam between the tables and a database driver.

The tables write their SQL once, with `?` placeholders and portable syntax that SQLite and
PostgreSQL both accept (`ON CONFLICT`, `RETURNING`); a driver supplies transactions and the
few phrases that differ. Keeping one copy of the SQL is what makes the two stores behave
alike.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any, Literal, Protocol

from callgate.schema import canonical_json

__all__ = ["Clock", "Database", "Row", "Tx", "dump_json", "load_json", "storable"]

Row = tuple[Any, ...]
Clock = Callable[[], float]


class Tx(Protocol):
    """One open transaction."""

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...

    def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Execute a statement; return the number of rows it changed."""
        ...


class Database(Protocol):
    """A connection (or pool) that hands out transactions."""

    dialect: Literal["sqlite", "postgres"]
    for_update: str
    """Appended to a `SELECT` that must lock its rows until commit (empty where the whole
    database is already locked for writing, as in SQLite's `BEGIN IMMEDIATE`)."""

    def transaction(self, *, write: bool, snapshot: bool = False) -> AbstractContextManager[Tx]:
        """Commit on success, roll back on any exception; driver failures that mean the
        database is out of reach become `StoreUnavailable`.

        A read (`write=False`) runs its statements one by one, each seeing committed data,
        unless `snapshot` asks for one consistent view over all of them. (A write that is a
        single statement may run there too: it commits on its own, atomically.)
        """
        ...

    def before_migrations(self, tx: Tx) -> None:
        """Serialize concurrent migrations and create what the tables live in."""
        ...

    def close(self) -> None: ...


def dump_json(value: Any) -> str | None:
    """JSON text for a column; None stays SQL NULL."""
    return None if value is None else canonical_json(value)


def load_json(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def storable(text: str) -> str:
    """`text` as both databases store it: lone surrogates (which UTF-8 cannot encode) and
    NUL (which PostgreSQL refuses in text) written as backslash escapes. Applied where a
    value enters a table, before anything is hashed, so that a stored receipt hashes the
    same as the one written."""
    if text.isascii() and "\x00" not in text:
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text.replace("\x00", "\\x00")
