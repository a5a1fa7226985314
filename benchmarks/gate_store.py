"""Write calls per second through the whole gate: no store, SQLite and PostgreSQL, with one
and four processes, all in one run.

Run: python benchmarks/gate_store.py   -> benchmarks/results/gate_store.json
     (PostgreSQL cases run when CALLGATE_PG_DSN is set, e.g. after `. .ci/postgres.sh`)

Every call is a write with its own request id, authorized by a policy rule, claimed under
an idempotency key, executed, finished and recorded as a hash-chained receipt. DESIGN's
targets: at least 2,000 write calls/s with SQLite in one process, and 2,000/s in total from
four processes on PostgreSQL, exactly once.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import platform
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _data import RESULTS

from callgate import CallContext, Context, ToolCall, tool
from callgate.gate import Gate, Policy, Rule
from callgate.store import PostgresStore, SQLiteStore, Store

SECONDS = 3.0
"""How long each process keeps calling (after a warm-up)."""
IN_FLIGHT = {"none": 1, "sqlite": 1, "postgres": 2}
"""Concurrent calls per process: SQLite work is in-process (nothing to overlap); PostgreSQL
round trips overlap in worker threads. More than two lanes per process made it slower here:
every receipt takes the chain head's row lock, and busy clients hold it longer."""
POLICY = Policy([Rule.allow("bench-writes", tools=["record_payment"])])


@tool(effect="write")
async def record_payment(invoice: str, amount: int, call: CallContext) -> str:
    """Record a payment against an invoice."""
    return f"{invoice}:{amount}:{call.idempotency_key}"


def _open(kind: str, target: str, schema: str | None) -> Store | None:
    if kind == "none":
        return None
    if kind == "sqlite":
        return SQLiteStore(target)
    return PostgresStore(target, schema=schema, max_size=IN_FLIGHT["postgres"] + 2)


async def _drive(gate: Gate, worker: int, seconds: float, in_flight: int) -> int:
    ctx = Context(principal=f"bench-{worker}", tenant="acme", run_id=f"run-{worker}")
    done = 0
    deadline = time.perf_counter() + seconds

    async def lane(lane_id: int) -> None:
        nonlocal done
        n = 0
        while time.perf_counter() < deadline:
            call = ToolCall(id=f"c{lane_id}-{n}", name="record_payment",
                            arguments={"invoice": f"INV-{n}", "amount": n})
            result = await gate.call(call, context=ctx, request_id=f"{worker}-{lane_id}-{n}")
            if result.route != "completed":
                raise RuntimeError(f"unexpected route: {result}")
            n += 1
            done += 1

    await asyncio.gather(*(lane(i) for i in range(in_flight)))
    return done


def worker(kind: str, target: str, schema: str | None, index: int, start: Any,
           results: Any) -> None:
    store = _open(kind, target, schema)
    policy = POLICY if store is not None else None
    with Gate([record_payment], store=store, policy=policy) as gate:
        warm = asyncio.run(_drive(gate, -index - 1, 0.3, IN_FLIGHT[kind]))  # caches, pools
        start.wait()
        t0 = time.perf_counter()
        count = asyncio.run(_drive(gate, index, SECONDS, IN_FLIGHT[kind]))
        results.put((count, time.perf_counter() - t0, warm))
    if store is not None:
        store.close()


def run_case(kind: str, processes: int, target: str, schema: str | None) -> dict[str, Any]:
    ctx = multiprocessing.get_context("spawn")
    start, results = ctx.Barrier(processes), ctx.Queue()
    children = [ctx.Process(target=worker, args=(kind, target, schema, i, start, results))
                for i in range(processes)]
    for child in children:
        child.start()
    outcomes = [results.get(timeout=300) for _ in children]
    for child in children:
        child.join(60)
    total = sum(count for count, _, _ in outcomes)
    wall = max(elapsed for _, elapsed, _ in outcomes)
    case: dict[str, Any] = {
        "store": kind, "processes": processes, "in_flight_per_process": IN_FLIGHT[kind],
        "calls": total, "seconds": round(wall, 3), "calls_per_second": round(total / wall)}
    if kind != "none":
        case.update(_check(kind, target, schema, total + sum(w for _, _, w in outcomes)))
    return case


def _check(kind: str, target: str, schema: str | None, expected: int) -> dict[str, Any]:
    """Exactly once and an intact chain: one receipt and one completed key per call."""
    store = _open(kind, target, schema)
    assert store is not None
    report = store.receipts.verify()
    head = store.receipts.head()
    store.close()
    return {"receipts": head.seq, "chain_ok": report.ok, "one_receipt_per_call": head.seq ==
            expected}


def main() -> None:
    cases: list[dict[str, Any]] = []
    workdir = Path(tempfile.mkdtemp(prefix="callgate-bench-"))
    dsn = os.environ.get("CALLGATE_PG_DSN")
    plans: list[tuple[str, str, str | None]] = [("none", "", None)]
    plans.append(("sqlite", str(workdir / "bench-{n}.db"), None))
    if dsn:
        plans.append(("postgres", dsn, "bench_{n}"))
    for kind, target_tpl, schema_tpl in plans:
        for processes in (1, 4):
            target = target_tpl.format(n=processes)
            schema = (schema_tpl.format(n=f"{processes}_{uuid.uuid4().hex[:8]}")
                      if schema_tpl else None)
            if kind != "none":  # migrate before the clock starts
                opened = _open(kind, target, schema)
                assert opened is not None
                opened.close()
            case = run_case(kind, processes, target, schema)
            cases.append(case)
            print(f"{kind:>9} x{processes}: {case['calls_per_second']:>7} write calls/s "
                  f"({case['calls']} calls in {case['seconds']} s)")
            if schema is not None and dsn:
                _drop(dsn, schema)
    baseline = next(c for c in cases if c["store"] == "none" and c["processes"] == 1)
    for case in cases:
        case["vs_no_store"] = round(case["calls_per_second"] / baseline["calls_per_second"], 3)
    report = {
        "machine": {"python": platform.python_version(), "platform": platform.platform(),
                    "cpus": os.cpu_count()},
        "seconds_per_case": SECONDS,
        "tool": "async write tool, own request id per call, allow rule, receipts on",
        "targets": {"sqlite_1_process": 2000, "postgres_4_processes_total": 2000},
        "cases": cases,
        "postgres": "measured" if dsn else "skipped: CALLGATE_PG_DSN not set",
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "gate_store.json").write_text(json.dumps(report, indent=2) + "\n")


def _drop(dsn: str, schema: str) -> None:
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


if __name__ == "__main__":
    main()
