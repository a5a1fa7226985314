"""The Rule of Two labels a run has taken in, shared by every process that serves the run.

One row per (run, label), naming the first tool that brought the label in; later arrivals
of the same label keep the first (`ON CONFLICT DO NOTHING`), so concurrent writers agree.
A run that has no end of its own (a gateway principal's) ends when it has been idle long
enough: `forget_idle` drops its labels and grants.
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

    def forget_idle(self, prefix: str, idle_since: float) -> list[str]:
        """End the runs whose id starts with `prefix` and that did nothing since
        `idle_since` (no receipt, no label): their labels and run grants are dropped.
        Returns the runs ended. A label or grant added after `idle_since` (a call that
        finished meanwhile) is kept."""
        where = "substr(run_id, 1, ?) = ?"
        start = (len(prefix), storable(prefix))
        with self._db.transaction(write=False) as tx:
            rows = tx.rows(
                f"SELECT run_id FROM callgate_labels WHERE {where} GROUP BY run_id"
                " HAVING MAX(added_at) < ?"
                f" UNION SELECT run_id FROM callgate_grants WHERE {where} GROUP BY run_id"
                " HAVING MAX(granted_at) < ?",
                (*start, idle_since, *start, idle_since),
            )
        ended = []
        for (run_id,) in sorted(rows):
            with self._db.transaction(write=True) as tx:
                last = tx.one(
                    "SELECT recorded_at FROM callgate_receipts WHERE run_id = ?"
                    " ORDER BY seq DESC LIMIT 1",
                    (run_id,),
                )
                if last is not None and last[0] >= idle_since:
                    continue
                tx.run(
                    "DELETE FROM callgate_labels WHERE run_id = ? AND added_at < ?",
                    (run_id, idle_since),
                )
                tx.run(
                    "DELETE FROM callgate_grants WHERE run_id = ? AND granted_at < ?",
                    (run_id, idle_since),
                )
            ended.append(str(run_id))
        return ended
