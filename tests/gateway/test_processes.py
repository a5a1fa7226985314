"""Three real `callgate serve --transport http` processes on one PostgreSQL, serving the
same client with no affinity: a limit holds exactly across them, a call held on one is
decided from the command line and runs once on another, labels and idempotency keys are
shared, and a handshake-era client is asked over HTTP."""

from __future__ import annotations

import math
import os
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import anyio
import mcp_types
import pytest
from mcp.client.session import ClientRequestContext

from callgate.store import open_store
from tests.conftest import pg_dsn
from tests.gateway._processes import (
    TOKEN,
    gateways,
    ledger,
    leftover_servers,
    pg_database,
    settings_toml,
)
from tests.mcp._support import callgate_command, http_client, wait_until

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

LIMIT = 150
CALLS = 450


@pytest.fixture
def store_url() -> Iterator[str]:
    with pg_database(pg_dsn()) as url:
        yield url


def meta(**values: str) -> mcp_types.RequestParamsMeta:
    return cast(
        mcp_types.RequestParamsMeta,
        {f"callgate/{k.replace('_', '-')}": v for k, v in values.items()},
    )


def route(result: mcp_types.CallToolResult) -> str:
    return str((result.meta or {})["callgate/route"])


def _outside_an_hour_boundary() -> None:
    """The budget below is per hour: keep the whole test inside one window."""
    into = time.time() % 3600
    if into > 3600 - 90:
        time.sleep(3600 - into + 1)


async def test_a_budget_holds_exactly_across_three_processes(
    tmp_path: Path, store_url: str
) -> None:
    _outside_an_hour_boundary()
    limit = f'[[gateway.limits]]\nid = "hourly"\ncalls = {LIMIT}\nper = "1h"\n'
    servers = {"ledger": ledger(tmp_path / "ledger.db", tmp_path)}
    with gateways(
        workdir=tmp_path / "gw", store=store_url, servers=servers,
        settings=settings_toml() + limit, count=3,
    ) as group:  # fmt: skip
        seen: Counter[tuple[int, str]] = Counter()
        remaining = [CALLS]

        async def hammer(index: int) -> None:
            async with http_client(group.urls[index % 3], TOKEN) as client:
                while remaining[0] > 0:
                    remaining[0] -= 1
                    result = await client.call_tool("ledger_count", {})
                    seen[(index % 3, route(result))] += 1

        began = time.time()
        async with anyio.create_task_group() as tasks:
            for index in range(12):  # four clients per process
                tasks.start_soon(hammer, index)
        assert math.floor(began / 3600) == math.floor(time.time() / 3600)
    completed = sum(n for (_, r), n in seen.items() if r == "completed")
    denied = sum(n for (_, r), n in seen.items() if r == "denied")
    assert (completed, denied) == (LIMIT, CALLS - LIMIT)  # exact: within 1% and better
    assert all(seen[(i, "completed")] > 0 for i in range(3))  # every process admitted calls
    with open_store(store_url) as store:
        receipts = store.receipts.list(limit=CALLS + 10)
    refused = [r for r in receipts if r.rule_id == "limit:hourly"]
    assert len(receipts) == CALLS and len(refused) == CALLS - LIMIT


async def test_a_call_held_on_one_process_runs_once_on_another(
    tmp_path: Path, store_url: str
) -> None:
    """Labels brought in on process 0 hold an irreversible call on process 1 (Rule of Two);
    the command line approves it; the repeat on process 2 runs it, on process 0 replays it."""
    db, piddir = tmp_path / "ledger.db", tmp_path / "pids"
    piddir.mkdir()
    tools = {
        "count": {"labels": ["untrusted_output", "private_data"]},
        "append": {"effect": "irreversible"},
    }
    servers = {"ledger": ledger(db, piddir, tools=tools)}
    allow = '[[rules]]\nid = "ledger"\naction = "allow"\ntools = ["ledger_*"]\n'
    run = meta(run_id="task-7")
    with gateways(
        workdir=tmp_path / "gw", store=store_url, servers=servers, policy=allow, count=3
    ) as group:
        async with http_client(group.urls[0], TOKEN) as first:
            await first.call_tool("ledger_count", {}, meta=run)
        async with http_client(group.urls[1], TOKEN) as second:
            held = await second.call_tool("ledger_append", {"entry": "e"}, meta=run)
        assert route(held) == "held" and (held.meta or {})["callgate/rule"] == "rule-of-two"
        approval = str((held.meta or {})["callgate/approval-id"])
        decided = await anyio.run_process(
            [*callgate_command(), "approvals", "approve", approval, "--by", "ops"],
            env={**os.environ, "CALLGATE_STORE": store_url},
            check=False,
        )
        assert decided.returncode == 0, decided.stderr
        async with http_client(group.urls[2], TOKEN) as third:
            done = await third.call_tool("ledger_append", {"entry": "e"}, meta=run)
        async with http_client(group.urls[0], TOKEN) as again:
            replay = await again.call_tool("ledger_append", {"entry": "e"}, meta=run)
    assert route(done) == "completed" and done.structured_content == {"row": 1}
    assert (replay.meta or {}).get("callgate/replayed") is True
    assert replay.structured_content == {"row": 1}
    with open_store(store_url) as store:
        (used,) = [a for a in store.approvals.list(pending_only=False) if a.id == approval]
    assert used.state == "used"
    assert _rows(db) == 1
    assert wait_until(lambda: not leftover_servers(piddir), 10)


async def test_one_write_sent_to_three_processes_at_once_runs_once(
    tmp_path: Path, store_url: str
) -> None:
    db, piddir = tmp_path / "ledger.db", tmp_path / "pids"
    piddir.mkdir()
    servers = {"ledger": ledger(db, piddir, delay=0.2)}
    allow = '[[rules]]\nid = "ledger"\naction = "allow"\ntools = ["ledger_*"]\n'
    with gateways(
        workdir=tmp_path / "gw", store=store_url, servers=servers, policy=allow, count=3
    ) as group:
        results: list[mcp_types.CallToolResult] = []

        async def send(url: str, key: str) -> None:
            async with http_client(url, TOKEN) as client:
                results.append(
                    await client.call_tool(
                        "ledger_append", {"entry": key}, meta=meta(idempotency_key=key)
                    )
                )

        async with anyio.create_task_group() as tasks:
            for url in group.urls:
                for key in ("one", "two"):
                    tasks.start_soon(send, url, key)
    assert sorted(route(r) for r in results) == ["completed"] * 6
    assert sum(bool((r.meta or {}).get("callgate/replayed")) for r in results) == 4
    assert _rows(db) == 2


async def test_a_handshake_era_client_is_asked_over_http(tmp_path: Path, store_url: str) -> None:
    db = tmp_path / "ledger.db"
    servers = {"ledger": ledger(db, tmp_path)}
    asked: list[str] = []

    async def yes(
        context: ClientRequestContext, params: mcp_types.ElicitRequestParams
    ) -> mcp_types.ElicitResult:
        asked.append(params.message)
        return mcp_types.ElicitResult(action="accept", content={"approve": True})

    with gateways(workdir=tmp_path / "gw", store=store_url, servers=servers, count=1) as group:
        for mode in ("legacy", "auto"):
            async with http_client(group.urls[0], TOKEN, mode=mode, elicitation_callback=yes) as c:
                done = await c.call_tool("ledger_append", {"entry": mode})
            assert route(done) == "completed", done
    assert len(asked) == 2 and all("upstream server ledger" in q for q in asked)
    assert _rows(db) == 2


def _rows(db: Path) -> int:
    import sqlite3

    with sqlite3.connect(db) as conn:
        (rows,) = conn.execute("SELECT count(*) FROM ledger").fetchone()
    return int(rows)
