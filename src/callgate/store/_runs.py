"""Saved loop state, with an optimistic version check so two resumers cannot both win."""

from __future__ import annotations

from typing import Any

from callgate.store._db import Clock, Database, Row, dump_json, load_json
from callgate.store._errors import StoreConflict
from callgate.store._records import RunRecord

__all__ = ["SQLRuns"]

_COLUMNS = "run_id, version, status, state_format, state, created_at, updated_at"


def _record(row: Row) -> RunRecord:
    return RunRecord(
        run_id=row[0],
        version=int(row[1]),
        status=row[2],
        state_format=int(row[3]),
        state=load_json(row[4]),
        created_at=row[5],
        updated_at=row[6],
    )


class SQLRuns:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    def save(
        self,
        run_id: str,
        state: Any,
        *,
        expected_version: int | None,
        status: str = "running",
        state_format: int = 1,
    ) -> RunRecord:
        now = self._clock()
        blob = dump_json(state)
        with self._db.transaction(write=True) as tx:
            if expected_version is None:
                row = tx.one(
                    f"INSERT INTO callgate_runs ({_COLUMNS}) VALUES (?, 1, ?, ?, ?, ?, ?)"
                    f" ON CONFLICT (run_id) DO NOTHING RETURNING {_COLUMNS}",
                    (run_id, status, state_format, blob, now, now),
                )
            else:
                row = tx.one(
                    "UPDATE callgate_runs SET version = version + 1, status = ?,"
                    " state_format = ?, state = ?, updated_at = ?"
                    f" WHERE run_id = ? AND version = ? RETURNING {_COLUMNS}",
                    (status, state_format, blob, now, run_id, expected_version),
                )
        if row is None:
            expected = (
                "no saved run" if expected_version is None else (f"version {expected_version}")
            )
            raise StoreConflict(
                f"run {run_id!r} was saved by someone else: expected {expected}; load it again"
            )
        return _record(row)

    def load(self, run_id: str) -> RunRecord | None:
        with self._db.transaction(write=False) as tx:
            row = tx.one(f"SELECT {_COLUMNS} FROM callgate_runs WHERE run_id = ?", (run_id,))
        return None if row is None else _record(row)

    def list(
        self, *, status: str | None = None, limit: int = 100, offset: int = 0
    ) -> list[RunRecord]:
        where, params = (" WHERE status = ?", (status,)) if status is not None else ("", ())
        with self._db.transaction(write=False) as tx:
            rows = tx.rows(
                f"SELECT {_COLUMNS} FROM callgate_runs{where}"
                " ORDER BY updated_at DESC, run_id LIMIT ? OFFSET ?",
                (*params, limit, offset),
            )
        return [_record(row) for row in rows]
