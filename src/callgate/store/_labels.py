"""The Rule of Two labels a run has taken in, shared by every process that serves the run.

One row per (run, label), naming the first tool that brought the label in; later arrivals
of the same label keep the first (`ON CONFLICT DO NOTHING`), so concurrent writers agree.
"""

from __future__ import annotations

from collections.abc import Mapping

from callgate.store._db import Clock, Database, Tx, storable

__all__ = ["SQLLabels"]


class SQLLabels:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    def of(self, run_id: str) -> dict[str, str]:
        """Label -> the tool that first brought it into the run."""
        with self._db.transaction(write=False) as tx:
            rows = tx.rows(
                "SELECT label, source FROM callgate_labels WHERE run_id = ? ORDER BY label",
                (storable(run_id),),
            )
        return {str(label): str(source) for label, source in rows}

    def add(self, run_id: str, labels: Mapping[str, str]) -> None:
        """Record labels for a run (label -> source); labels already there stay as they are."""
        if labels:
            with self._db.transaction(write=True) as tx:
                self.add_in(tx, run_id, labels)

    def add_in(self, tx: Tx, run_id: str, labels: Mapping[str, str]) -> None:
        """`add` inside a write transaction the caller holds."""
        now = self._clock()
        for label, source in sorted(labels.items()):
            tx.run(
                "INSERT INTO callgate_labels (run_id, label, source, added_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (run_id, label) DO NOTHING",
                (storable(run_id), storable(label), storable(source), now),
            )
