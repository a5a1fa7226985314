"""The gateway killed in the middle of writes: two `callgate serve` processes on one
PostgreSQL, SIGKILL at random points, the client retrying with the same idempotency key on
the other process. No write happens twice, none is reported done without happening, and no
upstream process outlives its gateway. (`benchmarks/gateway_faults.py` runs 200 trials.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import pg_dsn
from tests.gateway._faults import run_trials
from tests.gateway._processes import pg_database

pytestmark = [pytest.mark.postgres, pytest.mark.slow, pytest.mark.timeout(300)]


async def test_no_write_runs_twice_when_the_gateway_is_killed_mid_call(tmp_path: Path) -> None:
    with pg_database(pg_dsn()) as store:
        report = await run_trials(tmp_path, store, 20, seed=12)
    summary = report.summary()
    assert summary["duplicate_side_effects"] == 0, summary
    assert summary["completed_without_side_effect"] == 0, summary
    assert summary["killed_mid_call"] > 0, summary  # the kills did land inside calls
    assert summary["final_routes"] == {"completed": 20}, summary  # reconciled, not left unknown
    assert summary["exactly_one_side_effect"] == 20, summary
    assert summary["leftover_upstream_processes"] == 0, summary
