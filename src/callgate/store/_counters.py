"""Counters for rate limits and call budgets, shared by every process on the database.

A counter is a (key, slot) row: `slot` is the number of a fixed window, so a new window
starts a new row at zero and old rows are only purged, never reset. Taking a unit is one
upsert per counter whose `WHERE` refuses a full counter; the database serializes the rows,
so N processes together never take more than `limit` units of one window.
"""

from __future__ import annotations

from collections.abc import Sequence

from callgate.store._db import Clock, Database, Tx, storable
from callgate.store._records import Count

__all__ = ["SQLCounters"]

_TAKE = (
    "INSERT INTO callgate_counters (key, slot, used, expires_at) VALUES (?, ?, 1, ?)"
    " ON CONFLICT (key, slot) DO UPDATE SET used = callgate_counters.used + 1"
    " WHERE callgate_counters.used < ? RETURNING used"
)


class _Full(Exception):
    """A counter had no room: the transaction is rolled back so nothing is taken."""

    def __init__(self, index: int) -> None:
        self.index = index


class SQLCounters:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    def take(self, counts: Sequence[Count]) -> int | None:
        """Take one unit from each counter, all or none: None when every one had room (each
        now holds one more), else the index of the first that was full (nothing taken)."""
        if not counts:
            return None
        if any(c.limit < 1 for c in counts):
            return next(i for i, c in enumerate(counts) if c.limit < 1)
        # In key order, so that two processes taking the same counters lock them alike.
        order = sorted(range(len(counts)), key=lambda i: (counts[i].key, counts[i].slot))
        try:
            with self._db.transaction(write=True) as tx:
                for i in order:
                    if not self._take_in(tx, counts[i]):
                        raise _Full(i)
        except _Full as full:
            return full.index
        return None

    @staticmethod
    def _take_in(tx: Tx, count: Count) -> bool:
        row = tx.one(_TAKE, (storable(count.key), count.slot, count.expires_at, count.limit))
        return row is not None

    def used(self, key: str, slot: int) -> int:
        """Units taken from counter `key` in window `slot`."""
        with self._db.transaction(write=False) as tx:
            row = tx.one(
                "SELECT used FROM callgate_counters WHERE key = ? AND slot = ?",
                (storable(key), slot),
            )
        return 0 if row is None else int(row[0])

    def purge(self, before: float | None = None) -> int:
        """Drop counters that expired before `before` (default: now); returns how many."""
        cutoff = self._clock() if before is None else before
        with self._db.transaction(write=True) as tx:
            return tx.run("DELETE FROM callgate_counters WHERE expires_at < ?", (cutoff,))
