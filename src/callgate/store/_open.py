"""`open_store(url)`: one string in a config file chooses the store."""

from __future__ import annotations

from callgate._errors import UserError
from callgate.store._protocol import Store

__all__ = ["open_store"]


def open_store(url: str) -> Store:
    """Open `sqlite:///path/to/file.db`, `sqlite://:memory:` or `postgresql://...`.

    `sqlite:///relative.db` names a path relative to the working directory and
    `sqlite:////abs/path.db` an absolute one (as in SQLAlchemy).
    """
    if url.startswith("sqlite://"):
        from callgate.store._sqlite import SQLiteStore

        path = url.removeprefix("sqlite://")
        if path in (":memory:", "/:memory:"):
            return SQLiteStore(":memory:")
        if not path.startswith("/") or path == "/":
            raise UserError(f"store URL {url!r}: use sqlite:///path/to/file.db")
        return SQLiteStore(path[1:])
    if url.startswith(("postgresql://", "postgres://")):
        from callgate.store._postgres import PostgresStore

        return PostgresStore(url)
    raise UserError(
        f"store URL {url!r}: use sqlite:///path/to/file.db, sqlite://:memory: or postgresql://..."
    )
