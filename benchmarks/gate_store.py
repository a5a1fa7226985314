"""Write calls per second through the whole gate: no store, SQLite and PostgreSQL, with one
and four processes, all in one run, repeated; medians reported.

Run: python benchmarks/gate_store.py [--in-flight 1 8 16] [--repeats 3] [--seconds 3]
     [--stores sqlite postgres] [--processes 1 4] [--baseline-src DIR]
     -> benchmarks/results/gate_store.json
     (PostgreSQL cases run when CALLGATE_PG_DSN is set, e.g. after `. .ci/postgres.sh`)

Every call is a write with its own request id, authorized by a policy rule, claimed under
an idempotency key, executed, finished and recorded as a hash-chained receipt. Each process
keeps `--in-flight` calls going at once (as an agent host serving several conversations
would; each value is a sweep); the no-store baseline runs with the same setting. After
every case the chain is verified and exactly-once is checked: the tool ran once per call,
and there is one receipt and one completed idempotency key per call. DESIGN's targets: at
least 2,000 write calls/s with SQLite in one process, and 2,000/s in total from four
processes on PostgreSQL. `sqlite` is `SQLiteStore(path)` as a gate opens it by default
(every commit in the log before the call goes on: a killed process loses nothing);
`sqlite-fsync` adds an fsync per commit (`durable=True`: power loss loses nothing either).
With `--baseline-src` (the `src` of another checkout, e.g. `git worktree add /tmp/base REV`)
that revision runs every case too, in turn after each repeat, and each case reports its
ratio to it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import platform
import sqlite3
import statistics
import subprocess
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

POLICY = Policy([Rule.allow("bench-writes", tools=["record_payment"])])
EXECUTED = [0]
"""How many times the tool ran in this process (exactly-once is checked against it)."""


@tool(effect="write")
async def record_payment(invoice: str, amount: int, call: CallContext) -> str:
    """Record a payment against an invoice."""
    EXECUTED[0] += 1
    return f"{invoice}:{amount}:{call.idempotency_key}"


def _open(kind: str, target: str, schema: str | None, in_flight: int) -> Store | None:
    if kind == "none":
        return None
    if kind.startswith("sqlite"):
        return SQLiteStore(target, durable=kind == "sqlite-fsync")
    return PostgresStore(target, schema=schema, max_size=in_flight + 2)


async def _drive(gate: Gate, worker: int, seconds: float, in_flight: int) -> int:
    ctx = Context(principal=f"bench-{worker}", tenant="acme", run_id=f"run-{worker}")
    done = 0
    deadline = time.perf_counter() + seconds

    async def lane(lane_id: int) -> None:
        nonlocal done
        n = 0
        while time.perf_counter() < deadline:
            call = ToolCall(
                id=f"c{lane_id}-{n}",
                name="record_payment",
                arguments={"invoice": f"INV-{n}", "amount": n},
            )
            result = await gate.call(call, context=ctx, request_id=f"{worker}-{lane_id}-{n}")
            if result.route != "completed" or result.replayed:
                raise RuntimeError(f"unexpected route: {result}")
            n += 1
            done += 1

    await asyncio.gather(*(lane(i) for i in range(in_flight)))
    return done


def worker(
    kind: str,
    target: str,
    schema: str | None,
    in_flight: int,
    seconds: float,
    index: int,
    start: Any,
    results: Any,
) -> None:
    store = _open(kind, target, schema, in_flight)
    policy = POLICY if store is not None else None
    with Gate([record_payment], store=store, policy=policy) as gate:
        warm = asyncio.run(_drive(gate, -index - 1, 0.3, in_flight))  # caches, pools
        start.wait()
        t0 = time.perf_counter()
        count = asyncio.run(_drive(gate, index, seconds, in_flight))
        results.put((count, time.perf_counter() - t0, warm, EXECUTED[0]))
    if store is not None:
        store.close()


def run_case(
    kind: str, processes: int, target: str, schema: str | None, in_flight: int, seconds: float
) -> dict[str, Any]:
    ctx = multiprocessing.get_context("spawn")
    start, results = ctx.Barrier(processes), ctx.Queue()
    children = [
        ctx.Process(
            target=worker, args=(kind, target, schema, in_flight, seconds, i, start, results)
        )
        for i in range(processes)
    ]
    for child in children:
        child.start()
    outcomes = [results.get(timeout=300) for _ in children]
    for child in children:
        child.join(60)
    total = sum(o[0] for o in outcomes)
    wall = max(o[1] for o in outcomes)
    case: dict[str, Any] = {
        "calls": total,
        "seconds": round(wall, 3),
        "calls_per_second": round(total / wall),
    }
    if kind != "none":
        expected = total + sum(o[2] for o in outcomes)
        executed = sum(o[3] for o in outcomes)
        case.update(_check(kind, target, schema, expected, executed))
    return case


def _check(
    kind: str, target: str, schema: str | None, expected: int, executed: int
) -> dict[str, Any]:
    """Exactly once and an intact chain: the tool ran once per call, and there is one
    receipt and one completed key per call."""
    store = _open(kind, target, schema, 1)
    assert store is not None
    report = store.receipts.verify()
    head = store.receipts.head()
    store.close()
    completed = _completed_keys(kind, target, schema)
    once = head.seq == expected == executed == completed
    return {"receipts": head.seq, "chain_ok": report.ok, "exactly_once": once}


def _completed_keys(kind: str, target: str, schema: str | None) -> int:
    sql = "SELECT count(*) FROM callgate_idempotency WHERE state = 'completed'"
    if kind.startswith("sqlite"):
        with sqlite3.connect(target) as conn:
            return int(conn.execute(sql).fetchone()[0])
    import psycopg

    with psycopg.connect(target, autocommit=True, options=f"-c search_path={schema}") as conn:
        row = conn.execute(sql).fetchone()
        assert row is not None
        return int(row[0])


def _plans(stores: list[str]) -> list[tuple[str, str, str | None]]:
    """The no-store baseline always runs: every case is reported as a ratio to it."""
    plans: list[tuple[str, str, str | None]] = [("none", "", None)]
    plans += [(kind, "", None) for kind in ("sqlite", "sqlite-fsync") if kind in stores]
    dsn = os.environ.get("CALLGATE_PG_DSN")
    if dsn and "postgres" in stores:
        plans.append(("postgres", dsn, None))
    return plans


def _one_run(
    kind: str, dsn: str, processes: int, workdir: Path, in_flight: int, seconds: float
) -> dict[str, Any]:
    """One case on a fresh database (a new file, or a new schema dropped afterwards)."""
    target, schema = dsn, None
    if kind.startswith("sqlite"):
        target = str(workdir / f"bench-{uuid.uuid4().hex[:8]}.db")
    elif kind == "postgres":
        schema = f"bench_{processes}_{uuid.uuid4().hex[:8]}"
    if kind != "none":  # migrate before the clock starts
        opened = _open(kind, target, schema, 1)
        assert opened is not None
        opened.close()
    try:
        return run_case(kind, processes, target, schema, in_flight, seconds)
    finally:
        if schema is not None:
            _drop(dsn, schema)


def _summary(
    kind: str,
    processes: int,
    runs: list[dict[str, Any]],
    baselines: list[dict[str, Any]],
    in_flight: int,
) -> dict[str, Any]:
    rates = [r["calls_per_second"] for r in runs]
    case: dict[str, Any] = {
        "store": kind,
        "processes": processes,
        "in_flight_per_process": in_flight,
        "calls_per_second": round(statistics.median(rates)),
        "runs": rates,
        # Each run against the no-store gate with as many processes, in the same repeat.
        "vs_no_store": round(
            statistics.median(
                r["calls_per_second"] / b["calls_per_second"]
                for r, b in zip(runs, baselines, strict=True)
            ),
            3,
        ),
    }
    if kind != "none":
        case["chain_ok"] = all(r["chain_ok"] for r in runs)
        case["exactly_once"] = all(r["exactly_once"] for r in runs)
        case["receipts"] = [r["receipts"] for r in runs]
    return case


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--in-flight",
        type=int,
        nargs="+",
        default=[1, 8, 16],
        help="concurrent calls per process (each value is a sweep)",
    )
    parser.add_argument(
        "--stores",
        nargs="+",
        choices=["sqlite", "sqlite-fsync", "postgres"],
        default=["sqlite", "postgres"],
        help="sqlite: SQLiteStore(path), the default; sqlite-fsync: SQLiteStore(path, "
        "durable=True), an fsync per commit",
    )
    parser.add_argument(
        "--processes", type=int, nargs="+", default=[1, 4], help="processes per case (a sweep)"
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0, help="per case, after warm-up")
    parser.add_argument("--out", type=Path, default=RESULTS / "gate_store.json")
    parser.add_argument(
        "--baseline-src",
        type=Path,
        default=None,
        help="the src directory of another checkout (git worktree add DIR REV): its callgate "
        "runs the same cases after each repeat, and each case reports vs_baseline",
    )
    args = parser.parse_args()
    # Removed on every way out, Ctrl-C included: a run writes tens of MB of databases there.
    with tempfile.TemporaryDirectory(prefix="callgate-bench-") as scratch:
        _measure(args, Path(scratch))


def _measure(args: argparse.Namespace, workdir: Path) -> None:
    plans = _plans(args.stores)
    runs: dict[tuple[int, str, int], list[dict[str, Any]]] = {}
    baseline: dict[tuple[int, str, int], list[int]] = {}
    # Repeats are the outer loop, so a burst of load from elsewhere on the machine spreads
    # over all cases instead of sinking one of them; the baseline revision takes its turn
    # after each repeat of this one.
    for repeat in range(args.repeats):
        for in_flight in args.in_flight:
            for kind, dsn, _ in plans:
                for processes in args.processes:
                    run = _one_run(kind, dsn, processes, workdir, in_flight, args.seconds)
                    runs.setdefault((in_flight, kind, processes), []).append(run)
                    ok = run.get("chain_ok", True) and run.get("exactly_once", True)
                    print(
                        f"[{repeat + 1}/{args.repeats}] in flight {in_flight:>2} {kind:>12} "
                        f"x{processes}: {run['calls_per_second']:>7} write calls/s "
                        f"({run['calls']} calls, {'ok' if ok else 'BROKEN'})",
                        flush=True,
                    )
        if args.baseline_src is not None:
            for key, rate in _baseline_repeat(args, workdir).items():
                baseline.setdefault(key, []).append(rate)
    cases = [
        _summary(kind, processes, group, runs[(in_flight, "none", processes)], in_flight)
        | _against(group, baseline.get((in_flight, kind, processes)))
        for (in_flight, kind, processes), group in runs.items()
    ]
    report = {
        "machine": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "load_average_at_end": os.getloadavg(),
        },
        "seconds_per_case": args.seconds,
        "repeats": args.repeats,
        "in_flight_per_process": args.in_flight,
        "statistic": "median of the repeats; vs_no_store: median of per-repeat ratios to the "
        "no-store gate with as many processes and calls in flight",
        "tool": "async write tool, own request id per call, allow rule, receipts on",
        "targets": {"sqlite_1_process": 2000, "postgres_4_processes_total": 2000},
        "revision": _revision(Path(__file__).resolve().parent),
        "baseline": None
        if args.baseline_src is None
        else {
            "src": str(args.baseline_src),
            "revision": _revision(args.baseline_src),
            "how": "the same cases in a child process with PYTHONPATH=src, after each repeat",
        },
        "cases": cases,
        "postgres": "measured"
        if any(k == "postgres" for k, _, _ in plans)
        else "skipped: CALLGATE_PG_DSN not set",
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    for case in cases:
        print(
            f"median in flight {case['in_flight_per_process']:>2} {case['store']:>12} "
            f"x{case['processes']}: {case['calls_per_second']:>7}/s (runs {case['runs']}, "
            f"vs no store {case['vs_no_store']}"
            + (f", vs baseline {case['vs_baseline']})" if "vs_baseline" in case else ")")
        )


def _baseline_repeat(args: argparse.Namespace, workdir: Path) -> dict[tuple[int, str, int], int]:
    """One repeat of every case with the baseline's callgate, in a child process."""
    out = workdir / f"baseline-{uuid.uuid4().hex[:8]}.json"
    command = [sys.executable, __file__, "--repeats", "1", "--seconds", str(args.seconds),
               "--out", str(out), "--in-flight", *map(str, args.in_flight),
               "--stores", *args.stores, "--processes", *map(str, args.processes)]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(args.baseline_src.resolve())}
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    report = json.loads(out.read_text())
    return {
        (c["in_flight_per_process"], c["store"], c["processes"]): c["calls_per_second"]
        for c in report["cases"]
    }


def _against(runs: list[dict[str, Any]], baseline: list[int] | None) -> dict[str, Any]:
    if not baseline:
        return {}
    ratios = [r["calls_per_second"] / b for r, b in zip(runs, baseline, strict=True)]
    return {
        "baseline_calls_per_second": round(statistics.median(baseline)),
        "baseline_runs": baseline,
        # Each run against the baseline's run of the same repeat (taken in turn).
        "vs_baseline": round(statistics.median(ratios), 3),
    }


def _revision(directory: Path) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(directory), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True, timeout=10)  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None


def _drop(dsn: str, schema: str) -> None:
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


if __name__ == "__main__":
    main()
