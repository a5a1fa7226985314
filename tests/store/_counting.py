"""Child processes that take units from one counter at the same time (spawned)."""

from __future__ import annotations

from multiprocessing.synchronize import Barrier
from typing import Any

from callgate.store import Count
from tests.store._workers import StoreSpec, open_spec


def take_many(spec: StoreSpec, barrier: Barrier, results: Any, attempts: int, limit: int) -> None:
    """Try `attempts` times to take a unit of the shared counter; report how many were had."""
    with open_spec(spec) as store:
        barrier.wait()
        taken = sum(
            store.counters.take([Count(key="k", slot=1, limit=limit, expires_at=1e12)]) is None
            for _ in range(attempts)
        )
    results.put(taken)
