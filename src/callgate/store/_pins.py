"""Pinned tool fingerprints, one per (source, tool)."""

from __future__ import annotations

from dataclasses import replace

from callgate.store._db import Clock, Database, Row
from callgate.store._records import Pin

__all__ = ["SQLPins"]

_COLUMNS = "source, tool_name, fingerprint, tool_version, pinned_by, pinned_at"


def _record(row: Row) -> Pin:
    return Pin(
        source=row[0],
        tool_name=row[1],
        fingerprint=row[2],
        tool_version=row[3],
        pinned_by=row[4],
        pinned_at=row[5],
    )


class SQLPins:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    def upsert(self, pin: Pin) -> Pin:
        pinned = replace(pin, pinned_at=self._clock())
        with self._db.transaction(write=True) as tx:
            tx.run(
                f"INSERT INTO callgate_pins ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (source, tool_name) DO UPDATE SET"
                " fingerprint = excluded.fingerprint, tool_version = excluded.tool_version,"
                " pinned_by = excluded.pinned_by, pinned_at = excluded.pinned_at",
                (
                    pinned.source,
                    pinned.tool_name,
                    pinned.fingerprint,
                    pinned.tool_version,
                    pinned.pinned_by,
                    pinned.pinned_at,
                ),
            )
        return pinned

    def get(self, source: str, tool_name: str) -> Pin | None:
        with self._db.transaction(write=False) as tx:
            row = tx.one(
                f"SELECT {_COLUMNS} FROM callgate_pins WHERE source = ? AND tool_name = ?",
                (source, tool_name),
            )
        return None if row is None else _record(row)

    def list(self, source: str | None = None) -> list[Pin]:
        where, params = (" WHERE source = ?", (source,)) if source is not None else ("", ())
        with self._db.transaction(write=False) as tx:
            rows = tx.rows(
                f"SELECT {_COLUMNS} FROM callgate_pins{where} ORDER BY source, tool_name",
                params,
            )
        return [_record(row) for row in rows]
