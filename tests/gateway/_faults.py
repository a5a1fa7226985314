"""The fault trials: two gateway processes on one PostgreSQL, a write whose side effect is
counted outside callgate (the ledger server's SQLite file), the gateway SIGKILLed at a
random point during a call, and the client retrying with the same `_meta` idempotency key
(on the other process) until it gets an outcome. Shared by the test suite (a short run) and
`benchmarks/gateway_faults.py` (the full one). Kept free of pytest."""

from __future__ import annotations

import random
import sqlite3
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import anyio
import mcp_types

from tests.gateway._processes import TOKEN, Gateways, ledger, leftover_servers, settings_toml
from tests.mcp._support import http_client, wait_until

POLICY = '[[rules]]\nid = "ledger"\naction = "allow"\ntools = ["ledger_*"]\n'
RETRY_WAIT = 0.2
MAX_RETRIES = 100


@dataclass(kw_only=True)
class Trial:
    key: str
    victim: int
    kill_after: float
    killed_mid_call: bool = False
    """The kill came before the first answer (the client saw the connection break)."""
    route: str = ""
    """The outcome the client finally got."""
    replayed: bool = False
    retries: int = 0
    rows: int = 0
    """Side effects with this key in the ledger."""
    seconds: float = 0.0


@dataclass(kw_only=True)
class Report:
    trials: list[Trial] = field(default_factory=list)
    leftover_servers: int = 0

    @property
    def duplicates(self) -> int:
        return sum(t.rows > 1 for t in self.trials)

    @property
    def lost(self) -> int:
        """Trials that ended completed with no side effect (a write reported done, not done)."""
        return sum(t.route == "completed" and t.rows != 1 for t in self.trials)

    def summary(self) -> dict[str, Any]:
        routes = Counter(t.route for t in self.trials)
        seconds = sorted(t.seconds for t in self.trials) or [0.0]
        return {
            "trials": len(self.trials),
            "killed_mid_call": sum(t.killed_mid_call for t in self.trials),
            "duplicate_side_effects": self.duplicates,
            "completed_without_side_effect": self.lost,
            "exactly_one_side_effect": sum(t.rows == 1 for t in self.trials),
            "no_side_effect": sum(t.rows == 0 for t in self.trials),
            "final_routes": dict(routes),
            "replayed": sum(t.replayed for t in self.trials),
            "retries": sum(t.retries for t in self.trials),
            "seconds_per_trial_median": seconds[len(seconds) // 2],
            "leftover_upstream_processes": self.leftover_servers,
        }


def group(workdir: Path, store: str) -> Gateways:
    """Two gateways, each with its own ledger server process on the shared ledger file."""
    piddir = workdir / "pids"
    piddir.mkdir(parents=True, exist_ok=True)
    tools = {"append": {"reconcile": "status"}}
    servers = {
        "ledger": ledger(workdir / "ledger.db", piddir, delay=0.03, call_timeout=2, tools=tools)
    }
    return Gateways(
        workdir=workdir / "gw",
        store=store,
        servers=servers,
        settings=settings_toml("lease_margin = 1"),
        policy=POLICY,
        count=2,
    )


async def run_trials(workdir: Path, store: str, count: int, *, seed: int) -> Report:
    """`count` trials against two gateways made by `group`."""
    return await run_against(group(workdir, store), workdir, count, seed=seed)


async def run_against(gateways: Gateways, workdir: Path, count: int, *, seed: int) -> Report:
    """`count` trials against any two processes serving the ledger as `ledger_append` on
    `gateways.urls` (`workdir` holds `ledger.db` and `pids/`)."""
    rng = random.Random(seed)
    report = Report()
    try:
        gateways.start_all()
        for n in range(count):
            trial = Trial(key=f"trial-{seed}-{n}", victim=rng.randrange(2),
                          kill_after=rng.uniform(0.0, 0.25))  # fmt: skip
            await _one(gateways, trial)
            trial.rows = _rows(workdir / "ledger.db", trial.key)
            report.trials.append(trial)
    finally:
        gateways.close()
    piddir = workdir / "pids"
    wait_until(lambda: not leftover_servers(piddir), 15)
    report.leftover_servers = len(leftover_servers(piddir))
    return report


async def _one(gateways: Gateways, trial: Trial) -> None:
    began = time.monotonic()
    meta = cast(mcp_types.RequestParamsMeta, {"callgate/idempotency-key": trial.key})
    arguments = {"entry": trial.key}
    first: list[mcp_types.CallToolResult] = []

    async def call() -> None:
        try:
            async with http_client(gateways.urls[trial.victim], TOKEN) as client:
                first.append(await client.call_tool("ledger_append", arguments, meta=meta))
        except Exception:  # the connection broke under the call: the kill
            return

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(call)
        await anyio.sleep(trial.kill_after)
        await anyio.to_thread.run_sync(gateways.kill, trial.victim)
    trial.killed_mid_call = not first
    restart = threading.Thread(target=gateways.start, args=(trial.victim,), daemon=True)
    restart.start()
    result = first[0] if first else await _retry(gateways, 1 - trial.victim, arguments, meta, trial)
    trial.route = str((result.meta or {}).get("callgate/route") or "no route (no gate)")
    trial.replayed = bool((result.meta or {}).get("callgate/replayed"))
    await anyio.to_thread.run_sync(restart.join)
    trial.seconds = time.monotonic() - began


async def _retry(
    gateways: Gateways,
    index: int,
    arguments: dict[str, Any],
    meta: mcp_types.RequestParamsMeta,
    trial: Trial,
) -> mcp_types.CallToolResult:
    """The client's retry: the same call and key, until an answer comes back."""
    for _ in range(MAX_RETRIES):
        trial.retries += 1
        try:
            async with http_client(gateways.urls[index], TOKEN) as client:
                return await client.call_tool("ledger_append", arguments, meta=meta)
        except Exception:  # not up yet (a restart): try again
            await anyio.sleep(RETRY_WAIT)
    raise RuntimeError(f"no answer for {trial.key} after {MAX_RETRIES} retries")


def _rows(db: Path, key: str) -> int:
    with sqlite3.connect(db, timeout=30) as conn:
        (rows,) = conn.execute("SELECT count(*) FROM ledger WHERE entry = ?", (key,)).fetchone()
    return int(rows)
