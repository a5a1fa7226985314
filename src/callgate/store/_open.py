"""`open_store(url)`: one string in a config file chooses the store."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from callgate._errors import UserError
from callgate.store._protocol import Store

__all__ = ["open_store"]

_SQLITE_HEADER = b"SQLite format 3\x00"
_USAGE = "use sqlite:///path/to/file.db, sqlite://:memory: or postgresql://..."


def open_store(url: str, *, create: bool = True) -> Store:
    """Open `sqlite:///path/to/file.db`, `sqlite://:memory:` or `postgresql://...`.

    `sqlite:///relative.db` names a path relative to the working directory and
    `sqlite:////abs/path.db` an absolute one (as in SQLAlchemy).

    With `create=False` the SQLite file must already be a callgate store: a missing path,
    a folder, an empty file or a file that is not such a database is a `UserError`, and
    nothing is written. With `create=True` (the default) a missing file is created, but a
    file that holds something other than a SQLite database is still refused rather than
    overwritten. PostgreSQL databases are never created; their tables are.
    """
    if url.startswith("sqlite://"):
        return _open_sqlite(url, create=create)
    if url.startswith(("postgresql://", "postgres://")):
        from callgate.store._postgres import PostgresStore

        return PostgresStore(url)
    raise UserError(f"store URL {url!r} is not recognised: {_USAGE}")


def _open_sqlite(url: str, *, create: bool) -> Store:
    from callgate.store._sqlite import SQLiteStore

    path = url.removeprefix("sqlite://")
    if path in (":memory:", "/:memory:"):
        return SQLiteStore(":memory:")
    if not path.startswith("/") or path == "/":
        raise UserError(f"store URL {url!r}: use sqlite:///path/to/file.db")
    file = Path(path[1:])
    _check_sqlite_file(file, create=create)
    return SQLiteStore(file)


def _check_sqlite_file(file: Path, *, create: bool) -> None:
    """Refuse, before SQLite sees it, any path that SQLite would turn into a new database
    or fail on with a less helpful message."""
    where = f"store {str(file)!r}"
    if file.is_dir():
        raise UserError(f"{where} is a folder; name a database file inside it")
    if not file.exists():
        if not create:
            raise UserError(f"{where} does not exist (check the path; nothing was created)")
        parent = file.parent
        if not parent.is_dir():
            raise UserError(f"{where}: the folder {str(parent)!r} does not exist")
        return
    if not file.is_file():
        # Opening a named pipe would wait for a writer forever, SQLite's open as well.
        raise UserError(f"{where} is not a regular file (a named pipe or a device)")
    try:
        with file.open("rb") as handle:
            header = handle.read(len(_SQLITE_HEADER))
    except OSError as exc:
        raise UserError(f"{where} cannot be read: {exc.strerror or exc}") from exc
    if not header:
        if create:
            return  # SQLite makes a database of an empty file, which loses nothing
        raise UserError(f"{where} is an empty file, not a callgate store")
    if header != _SQLITE_HEADER:
        raise UserError(f"{where} is not a SQLite database")
    if not create and not _has_callgate_tables(file):
        raise UserError(f"{where} is a SQLite database but not a callgate store")


def _has_callgate_tables(file: Path) -> bool:
    # Read-only, so that checking someone else's database never migrates it.
    uri = f"{Path(os.path.abspath(file)).as_uri()}?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True)
        try:
            row = conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'callgate_migrations'"
            ).fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return False
    return row is not None
