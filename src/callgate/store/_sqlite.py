"""SQLite, the embedded default: one file in WAL mode (or `:memory:` for tests).

Writers take the database lock up front with `BEGIN IMMEDIATE`, so a transaction that
reads and then writes (claiming a key, appending to the chain) cannot interleave with
another process's; that lock, not anything in this process, is what makes claims unique
and the chain ordered.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Literal, ParamSpec, TypeVar

from callgate.store._db import Clock, Row, Tx
from callgate.store._errors import StoreUnavailable
from callgate.store._sql_store import SQLStore

__all__ = ["SQLiteDatabase", "SQLiteStore", "WouldWait"]

# Primary result codes that mean "cannot use the database now", as opposed to a bug in a
# statement: busy or locked past the timeout, read-only, I/O failure, disk full, cannot
# open, not a database.
_UNAVAILABLE = frozenset(
    {
        sqlite3.SQLITE_PERM,
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
        sqlite3.SQLITE_NOMEM,
        sqlite3.SQLITE_READONLY,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_CORRUPT,
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_CANTOPEN,
        sqlite3.SQLITE_PROTOCOL,
        sqlite3.SQLITE_NOTADB,
    }
)


class _SQLiteTx:
    __slots__ = ("_conn",)

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return self._conn.execute(sql, params).fetchall()

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        row: Row | None = self._conn.execute(sql, params).fetchone()
        return row

    def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self._conn.execute(sql, params).rowcount


class _Checkpointer:
    """Copies the write-ahead log back into the database file from a thread of its own.

    SQLite's automatic checkpoint runs inside whichever commit crosses the threshold, and
    it syncs the file: that one commit then takes milliseconds, and on average it cost the
    gate more than all of its statements. Here the writer only appends to the log and this
    thread checkpoints in the background (`PASSIVE`: it never waits for, nor blocks,
    readers or writers; the sqlite3 module releases the GIL meanwhile). Durability is
    unchanged: a commit is in the log before it returns, with `synchronous` deciding the
    fsync as before. The writer's own automatic checkpoint stays as a backstop; since a
    passive checkpoint does not restart the log under a steady writer, that backstop is
    what restarts it (docs/gate.md, "Exactly once").
    """

    EVERY = 200
    """Commits between checkpoints."""
    BACKSTOP_PAGES = 20_000
    """The writer checkpoints itself if the log grows past this (about 80 MB)."""

    def __init__(self, path: str, synchronous: str) -> None:
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._conn.execute(f"PRAGMA synchronous = {synchronous}")
        self._wake = threading.Event()
        self._closing = False
        self._commits = 0
        self._thread = threading.Thread(
            target=self._run, daemon=True, name="callgate-sqlite-checkpoint"
        )
        self._thread.start()

    def committed(self) -> None:
        """Called by the writer after each commit (under its lock)."""
        self._commits += 1
        if self._commits % self.EVERY == 0:
            self._wake.set()

    def _run(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            if self._closing:
                return
            # A failure here costs nothing but a longer log: the writer's backstop remains.
            with suppress(sqlite3.Error):
                self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def close(self) -> None:
        self._closing = True
        self._wake.set()
        self._thread.join(timeout=10)
        with suppress(sqlite3.Error):
            self._conn.close()


class SQLiteDatabase:
    """One connection shared by the threads of this process.

    The thread lock only guards the connection object (sqlite3 connections are not
    thread-safe); exclusion between writers, across processes too, is SQLite's own lock.
    """

    dialect: Literal["sqlite", "postgres"] = "sqlite"
    for_update = ""

    def __init__(self, path: str, *, busy_timeout: float, durable: bool) -> None:
        self.path = path
        self._lock = threading.RLock()
        self._checkpointer: _Checkpointer | None = None
        self._identity: tuple[int, int] | None = None
        try:
            self._conn = self._connect(path, busy_timeout, durable)
            self._identity = _identity(path)
            # A second connection that never waits, for calls made on the event loop's own
            # thread (`SQLiteStore.now`); an in-memory database has only the one.
            self._quick = self._conn if self._identity is None else self._connect(path, 0, durable)
            self._quick_lock = self._lock if self._quick is self._conn else threading.Lock()
            if self._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
                self._checkpointer = _Checkpointer(path, "FULL" if durable else "NORMAL")
        except sqlite3.Error as exc:
            raise self._translate(exc) from exc

    @staticmethod
    def _connect(path: str, busy_timeout: float, durable: bool) -> sqlite3.Connection:
        # isolation_level=None: the module opens no transactions of its own; we issue
        # BEGIN IMMEDIATE / COMMIT ourselves.
        conn = sqlite3.connect(
            path, timeout=busy_timeout, isolation_level=None, check_same_thread=False
        )
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
            if conn.execute("PRAGMA journal_mode = WAL").fetchone()[0] == "wal":
                # On every connection that writes: one left at SQLite's default (1,000
                # pages) checkpoints, with two fsyncs, inside every ninetieth call's commit.
                conn.execute(f"PRAGMA wal_autocheckpoint = {_Checkpointer.BACKSTOP_PAGES}")
            # NORMAL in WAL mode survives a crash of the process (the case exactly-once is
            # about); FULL also survives a power cut, at one fsync per commit.
            conn.execute(f"PRAGMA synchronous = {'FULL' if durable else 'NORMAL'}")
            conn.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            conn.close()
            raise
        return conn

    @contextmanager
    def transaction(self, *, write: bool, snapshot: bool = False) -> Iterator[Tx]:
        if _NOW.get():
            if not self._quick_lock.acquire(blocking=False):
                raise WouldWait  # the connection is busy in another thread
            conn, lock = self._quick, self._quick_lock
        else:
            conn, lock = self._conn, self._lock
            lock.acquire()
        try:
            self._check_file()
            yield from self._run(conn, write=write, snapshot=snapshot)
        except sqlite3.Error as exc:
            if _NOW.get() and _busy(exc):
                raise WouldWait from exc  # nothing was written: ask again, in a thread
            raise self._translate(exc) from exc
        finally:
            lock.release()

    def _run(self, conn: sqlite3.Connection, *, write: bool, snapshot: bool) -> Iterator[Tx]:
        if not (write or snapshot):
            yield _SQLiteTx(conn)  # autocommit: each statement on its own
            return
        conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        try:
            yield _SQLiteTx(conn)
        except BaseException:
            _rollback(conn)
            raise
        try:
            conn.execute("COMMIT")
        except BaseException:
            _rollback(conn)
            raise
        if self._checkpointer is not None:
            self._checkpointer.committed()

    def _check_file(self) -> None:
        """Refuse to go on when the database file was removed or replaced under us.

        The open connection would keep writing into the unlinked file, and every write would
        look committed while a process opening the path sees none of it: a completed key
        would run again there. One `stat` per transaction is the price of noticing.
        """
        if self._identity is not None and _identity(self.path) != self._identity:
            raise StoreUnavailable(
                f"SQLite database {self.path!r} was removed or replaced while open; "
                "restart with the right file"
            )

    def _translate(self, exc: sqlite3.Error) -> Exception:
        # Every driver error fails closed: locked or busy past the timeout, read-only, disk
        # full, I/O failure, not a database, a table missing from a foreign file. None of
        # them is an answer the gate could act on.
        return StoreUnavailable(f"SQLite database {self.path!r} is unavailable: {exc}")

    def before_migrations(self, tx: Tx) -> None:
        """Nothing to do: `BEGIN IMMEDIATE` already serializes migrating processes."""

    def close(self) -> None:
        with self._lock, self._quick_lock:
            # The checkpointer first: the last connection to close checkpoints the log
            # completely and removes it.
            if self._checkpointer is not None:
                self._checkpointer.close()
                self._checkpointer = None
            if self._quick is not self._conn:
                self._quick.close()
            self._conn.close()


P = ParamSpec("P")
T = TypeVar("T")

_NOW: ContextVar[bool] = ContextVar("callgate_sqlite_now", default=False)
"""Set while `SQLiteStore.now` runs a call on the caller's thread: no waiting allowed."""


class WouldWait(Exception):
    """A call made with `SQLiteStore.now` would have had to wait (for another thread of this
    process, or another process's write lock); nothing was written. Not a `StoreError`:
    the caller asks again in a thread, where waiting is allowed."""


def _busy(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        # The connection may already be unusable; the original error is the one to report.
        with suppress(sqlite3.Error):
            conn.execute("ROLLBACK")


def _identity(path: str) -> tuple[int, int] | None:
    """(device, inode) of the database file; None for an in-memory database or a missing
    file."""
    if path == ":memory:" or path.startswith("file::memory:"):
        return None
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


class SQLiteStore(SQLStore):
    """The embedded store: a SQLite file in WAL mode, or `":memory:"` for tests.

    Several processes may open the same file; each gets its own connection.
    """

    def __init__(
        self,
        path: str | Path = ":memory:",
        *,
        busy_timeout: float = 5.0,
        durable: bool = False,
        clock: Clock = time.time,
    ) -> None:
        """`busy_timeout`: seconds to wait for another writer before `StoreUnavailable`.
        `durable`: fsync every commit (`synchronous=FULL`), surviving power loss too."""
        db = SQLiteDatabase(str(path), busy_timeout=busy_timeout, durable=durable)
        super().__init__(db, clock=clock)
        self.path = str(path)

    def now(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """Run one store method right here, without waiting for anything: a SQLite call
        that needs no lock another holds takes microseconds, less than handing it to a
        thread. Raises `WouldWait` (nothing written) when it would have had to wait. Every
        method of a SQLite store is one transaction, so asking again after that is safe."""
        token = _NOW.set(True)
        try:
            return fn(*args, **kwargs)
        finally:
            _NOW.reset(token)
