"""Pins: one row per (source, tool) with the approved fingerprint and, while a sighting
differs from it, the review (state, observed contract, reasons, findings, who decided).

Every write bumps `version`; `save` names the version it read, so a gateway process that
assessed a tool from a stale row cannot overwrite a person's decision made meanwhile.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from callgate.store._db import Clock, Database, Row, Tx, dump_json, load_json, storable
from callgate.store._errors import StoreConflict
from callgate.store._records import Pin

__all__ = ["SQLPins"]

_COLUMNS = (
    "source, tool_name, state, fingerprint, pinned, observed_fingerprint, observed, reasons,"
    " details, findings, tool_version, pinned_by, pinned_at, decided_by, updated_at, version"
)
_SELECT = f"SELECT {_COLUMNS} FROM callgate_pins"
_VALUES = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?"


def _record(row: Row) -> Pin:
    return Pin(
        source=row[0],
        tool_name=row[1],
        state=row[2],
        fingerprint=row[3],
        pinned=load_json(row[4]),
        observed_fingerprint=row[5],
        observed=load_json(row[6]),
        reasons=tuple(load_json(row[7]) or ()),
        details=tuple(load_json(row[8]) or ()),
        findings=tuple(load_json(row[9]) or ()),
        tool_version=row[10],
        pinned_by=row[11],
        pinned_at=row[12],
        decided_by=row[13],
        updated_at=row[14],
        version=int(row[15]),
    )


def _text(value: str | None) -> str | None:
    return None if value is None else storable(value)


def _params(pin: Pin) -> tuple[Any, ...]:
    return (
        storable(pin.source),
        storable(pin.tool_name),
        pin.state,
        pin.fingerprint,
        dump_json(pin.pinned),
        pin.observed_fingerprint,
        dump_json(pin.observed),
        dump_json([storable(r) for r in pin.reasons]),
        dump_json([storable(d) for d in pin.details]),
        dump_json(list(pin.findings)),
        _text(pin.tool_version),
        _text(pin.pinned_by),
        pin.pinned_at,
        _text(pin.decided_by),
        pin.updated_at,
        pin.version,
    )


class SQLPins:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    def upsert(self, pin: Pin) -> Pin:
        """Pin `pin.fingerprint` whatever was recorded before (state `pinned`)."""
        now = self._clock()
        with self._db.transaction(write=True) as tx:
            current = self._get(tx, pin.source, pin.tool_name)
            pinned = replace(
                pin,
                state="pinned",
                pinned_at=now,
                updated_at=now,
                version=(current.version if current is not None else 0) + 1,
            )
            self._write(tx, pinned, current)
        return pinned

    def save(self, pin: Pin, *, expected_version: int | None) -> Pin:
        """Write the whole row: create it (`expected_version=None`) or replace the version
        you read; `StoreConflict` when someone wrote in between (or it already exists)."""
        now = self._clock()
        with self._db.transaction(write=True) as tx:
            current = self._get(tx, pin.source, pin.tool_name)
            found = current.version if current is not None else None
            if found != expected_version:
                raise StoreConflict(
                    f"pin {pin.source}/{pin.tool_name} was written by someone else "
                    f"(expected {expected_version}, found {found}); read it again"
                )
            saved = replace(pin, updated_at=now, version=(found or 0) + 1)
            self._write(tx, saved, current)
        return saved

    def get(self, source: str, tool_name: str) -> Pin | None:
        with self._db.transaction(write=False) as tx:
            return self._get(tx, source, tool_name, lock=False)

    def list(self, source: str | None = None) -> list[Pin]:
        where, params = (" WHERE source = ?", (source,)) if source is not None else ("", ())
        with self._db.transaction(write=False) as tx:
            rows = tx.rows(f"{_SELECT}{where} ORDER BY source, tool_name", params)
        return [_record(row) for row in rows]

    def _get(self, tx: Tx, source: str, tool_name: str, *, lock: bool = True) -> Pin | None:
        row = tx.one(
            f"{_SELECT} WHERE source = ? AND tool_name = ?" + (self._db.for_update if lock else ""),
            (storable(source), storable(tool_name)),
        )
        return None if row is None else _record(row)

    @staticmethod
    def _write(tx: Tx, pin: Pin, current: Pin | None) -> None:
        if current is None:
            # Two first writers race on the primary key: the loser's insert fails the
            # transaction, and it reads again like any stale writer.
            written = tx.run(
                f"INSERT INTO callgate_pins ({_COLUMNS}) VALUES ({_VALUES})"
                " ON CONFLICT (source, tool_name) DO NOTHING",
                _params(pin),
            )
            if written != 1:
                raise StoreConflict(f"pin {pin.source}/{pin.tool_name} was created meanwhile")
            return
        tx.run(
            "UPDATE callgate_pins SET state = ?, fingerprint = ?, pinned = ?,"
            " observed_fingerprint = ?, observed = ?, reasons = ?, details = ?, findings = ?,"
            " tool_version = ?, pinned_by = ?, pinned_at = ?, decided_by = ?, updated_at = ?,"
            " version = ? WHERE source = ? AND tool_name = ?",
            (*_params(pin)[2:], storable(pin.source), storable(pin.tool_name)),
        )
