"""A read tool through `callgate serve` against the same upstream called directly with the
MCP SDK's `Client`, in one run: latency p50/p99 and calls/s, over stdio and HTTP, with 1
and 16 calls in flight; and 1 against 3 gateway processes on one PostgreSQL.

Run: python benchmarks/gateway.py [--calls 400] [--repeats 3]
     (the PostgreSQL rows need CALLGATE_PG_DSN, e.g. `. .ci/postgres.sh`)
     -> benchmarks/results/gateway.json and gateway.md

The upstream is the test suite's tracker server (`tests/mcp/servers/tracker.py`, written
with the SDK's low-level `Server`); the tool is `list_issues`, a read with structured
output. Direct: the SDK `Client` talks to the tracker. Bare proxy: the same `Client` talks
to the simplest forwarding proxy the SDK allows (`_bare_proxy.py`, no gate), the cost of
one more MCP hop. Gateway: the same `Client` talks to
`callgate serve` (a separate process, embedded SQLite store, default policy: every call
validated, authorized, executed and given a hash-chained receipt), which talks to the same
kind of tracker over the same transport. Over stdio one client keeps 1 or 16 calls in
flight (stdio has one client per process); over HTTP, 1 or 16 clients with their own
sessions each keep one call in flight. Medians of the repeats. DESIGN's target: p50
through the gateway at most 1.3x the direct call.

Where a gateway call's time goes: every call's receipt records the gate's whole path
(`duration_ms`) and the part spent in the executor (`execute_ms`: the call upstream, itself
an MCP round trip); the client's latency minus `duration_ms` is the downstream MCP hop (the
SDK's server, the transport). Medians over the receipts of the measured calls.

Processes: 16 HTTP clients spread over 1 or 3 `callgate serve` processes on one PostgreSQL
(each process with its own tracker over stdio, as replicas are deployed), calls/s of the
same read. DESIGN's target: 3 processes at least 2x the calls/s of one.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from callgate.store import open_store  # noqa: E402
from tests.gateway._processes import TOKEN as MULTI_TOKEN  # noqa: E402
from tests.gateway._processes import gateways, pg_database  # noqa: E402
from tests.mcp._support import (  # noqa: E402
    TRACKER,
    callgate_command,
    free_port,
    http_client,
    http_tracker,
    wait_for_port,
)

RESULTS = ROOT / "benchmarks" / "results"
TOKEN = "bench-token-0123456789abcdef"
ARGS = {"project": "OPS"}


def _tracker_stdio() -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=[TRACKER, "stdio"])


def _gateway_stdio(workdir: Path) -> StdioServerParameters:
    config = workdir / "stdio.json"
    config.write_text(
        json.dumps(
            {"mcpServers": {"tracker": {"command": sys.executable, "args": [TRACKER, "stdio"]}}}
        )
    )
    command = callgate_command()
    return StdioServerParameters(
        command=command[0],
        args=[*command[1:], "serve", "--mcp-config", str(config)],
        env={"CALLGATE_STORE": f"sqlite:///{workdir / 'stdio.db'}"},
        cwd=str(workdir),
    )


@contextlib.contextmanager
def _gateway_http(base: Path, upstream: str) -> Any:
    workdir = base / "http"
    workdir.mkdir()
    config = workdir / "http.json"
    config.write_text(json.dumps({"mcpServers": {"tracker": {"type": "http", "url": upstream}}}))
    (workdir / "callgate.toml").write_text(
        '[[gateway.clients]]\nprincipal = "bench"\ntoken = "${BENCH_TOKEN}"\n'
    )
    port = free_port()
    child = subprocess.Popen(
        [
            *callgate_command(),
            "serve",
            "--mcp-config",
            str(config),
            "--transport",
            "http",
            "--port",
            str(port),
            "--store",
            f"sqlite:///{base / 'http.db'}",
        ],
        cwd=workdir,
        env={**os.environ, "BENCH_TOKEN": TOKEN},
        stdin=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, child)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        child.terminate()
        child.wait(60)


async def _measure(
    clients: list[Client], tool: str, calls: int, in_flight: int
) -> dict[str, float]:
    """`calls` calls, `in_flight` at a time, spread over `clients` round robin."""
    latencies: list[float] = []
    remaining = [calls]

    async def worker(client: Client) -> None:
        while remaining[0] > 0:
            remaining[0] -= 1
            start = time.perf_counter()
            result = await client.call_tool(tool, ARGS)
            latencies.append(time.perf_counter() - start)
            if result.is_error:
                raise RuntimeError(f"{tool} failed: {result.content}")

    for client in clients:  # warm up every session
        for _ in range(10):
            await client.call_tool(tool, ARGS)
    began = time.perf_counter()
    async with anyio.create_task_group() as tasks:
        for i in range(in_flight):
            tasks.start_soon(worker, clients[i % len(clients)])
    elapsed = time.perf_counter() - began
    ordered = sorted(latencies)
    return {
        "p50_ms": 1000 * statistics.median(ordered),
        "p99_ms": 1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
        "calls_per_s": len(ordered) / elapsed,
    }


@contextlib.asynccontextmanager
async def _sessions(make: Callable[[], Client], count: int) -> AsyncIterator[list[Client]]:
    async with contextlib.AsyncExitStack() as stack:
        yield [await stack.enter_async_context(make()) for _ in range(count)]


async def _case(
    make: Callable[[], Client], tool: str, calls: int, in_flight: int, sessions: int
) -> dict[str, float]:
    async with _sessions(make, sessions) as clients:
        return await _measure(clients, tool, calls, in_flight)


BARE = str(Path(__file__).resolve().parent / "_bare_proxy.py")
PATHS = ("direct", "bare_proxy", "gateway")


def _clients(
    transport: str, workdir: Path, upstream: str, bare_url: str, gateway_url: str
) -> dict[str, Callable[[], Client]]:
    """How to open a client session of each path for `transport`."""
    if transport == "stdio":
        bare = StdioServerParameters(command=sys.executable, args=[BARE, "stdio"])
        return {
            "direct": lambda: Client(_tracker_stdio()),
            "bare_proxy": lambda: Client(bare),
            "gateway": lambda: Client(_gateway_stdio(workdir)),
        }
    return {
        "direct": lambda: Client(upstream),
        "bare_proxy": lambda: Client(bare_url),
        "gateway": lambda: http_client(gateway_url, TOKEN),
    }


@contextlib.contextmanager
def _bare_http(upstream: str) -> Any:
    port = free_port()
    child = subprocess.Popen(
        [sys.executable, BARE, "http", str(port), upstream],
        stdin=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, child)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        child.terminate()
        child.wait(60)


async def run(calls: int, repeats: int) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp, http_tracker() as upstream:
        workdir = Path(tmp)
        with _gateway_http(workdir, upstream) as gateway_url, _bare_http(upstream) as bare_url:
            for transport in ("stdio", "http"):
                for in_flight in (1, 16):
                    sessions = in_flight if transport == "http" else 1
                    paths = _clients(transport, workdir, upstream, bare_url, gateway_url)
                    runs: dict[str, list[dict[str, float]]] = {p: [] for p in PATHS}
                    before = _head(workdir / f"{transport}.db")
                    for _ in range(repeats):  # in turns, so every path sees the same load
                        for path, make in paths.items():
                            tool = "list_issues" if path == "direct" else "tracker_list_issues"
                            runs[path].append(await _case(make, tool, calls, in_flight, sessions))
                    row = _row(transport, in_flight, runs)
                    row.update(
                        _breakdown(workdir / f"{transport}.db", before, row["gateway_p50_ms"])
                    )
                    print(json.dumps(row), flush=True)
                    rows.append(row)
        processes = await _processes(workdir, calls, repeats)
    return {"rows": rows, "processes": processes}


def _head(db: Path) -> int:
    if not db.exists():
        return 0
    with open_store(f"sqlite:///{db}", create=False) as store:
        return store.receipts.head().seq


def _breakdown(db: Path, after: int, client_p50_ms: float) -> dict[str, float]:
    """Where a gateway call's time goes, from the receipts of the calls just measured (the
    receipts after sequence number `after`)."""
    with open_store(f"sqlite:///{db}", create=False) as store:
        receipts = store.receipts.list(limit=1_000_000, offset=after)
    measured = [r for r in receipts if r.tool_name == "tracker_list_issues"]
    gate = statistics.median(r.duration_ms for r in measured)
    upstream = statistics.median(r.execute_ms for r in measured)
    return {
        "gate_path_p50_ms": gate,
        "upstream_call_p50_ms": upstream,
        "gate_own_p50_ms": statistics.median(r.duration_ms - r.execute_ms for r in measured),
        "downstream_hop_p50_ms": max(0.0, client_p50_ms - gate),
    }


PROCESS_CLIENTS = 16


async def _processes(workdir: Path, calls: int, repeats: int) -> list[dict[str, Any]]:
    """Calls/s of 16 HTTP clients over 1 and over 3 gateway processes on one PostgreSQL."""
    dsn = os.environ.get("CALLGATE_PG_DSN")
    if not dsn:
        print("CALLGATE_PG_DSN is not set: no PostgreSQL rows", file=sys.stderr)
        return []
    tracker = {"command": sys.executable, "args": [TRACKER, "stdio"]}
    rows = []
    measured: dict[int, list[dict[str, float]]] = {1: [], 3: []}
    with pg_database(dsn) as store:
        for count in (1, 3):
            with gateways(
                workdir=workdir / f"pg-{count}",
                store=store,
                servers={"tracker": tracker},
                count=count,
            ) as group:
                urls = group.urls
                for _ in range(repeats):
                    index = iter(range(PROCESS_CLIENTS))

                    def make(urls: list[str] = urls, index: Any = index) -> Client:
                        return http_client(urls[next(index) % len(urls)], MULTI_TOKEN)

                    measured[count].append(
                        await _case(
                            make, "tracker_list_issues", calls, PROCESS_CLIENTS, PROCESS_CLIENTS
                        )
                    )
    for count, runs in measured.items():
        row: dict[str, Any] = {"processes": count, "clients": PROCESS_CLIENTS}
        for key in ("p50_ms", "p99_ms", "calls_per_s"):
            row[key] = statistics.median(m[key] for m in runs)
        rows.append(row)
    rows[1]["calls_per_s_ratio"] = rows[1]["calls_per_s"] / rows[0]["calls_per_s"]
    print(json.dumps(rows), flush=True)
    return rows


def _row(transport: str, in_flight: int, runs: dict[str, list[dict[str, float]]]) -> dict[str, Any]:
    row: dict[str, Any] = {"transport": transport, "in_flight": in_flight}
    for path, measured in runs.items():
        for key in ("p50_ms", "p99_ms", "calls_per_s"):
            row[f"{path}_{key}"] = statistics.median(m[key] for m in measured)
    row["p50_ratio"] = row["gateway_p50_ms"] / row["direct_p50_ms"]
    row["p50_ratio_to_bare_proxy"] = row["gateway_p50_ms"] / row["bare_proxy_p50_ms"]
    row["throughput_ratio"] = row["gateway_calls_per_s"] / row["direct_calls_per_s"]
    return row


def _markdown(result: dict[str, Any]) -> str:
    rows = result["rows"]
    lines = [
        "| transport | in flight | p50 ms direct / bare proxy / gateway | gateway ÷ direct "
        "| gateway ÷ bare proxy | p99 ms direct / bare proxy / gateway "
        "| calls/s direct / bare proxy / gateway |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        p50 = " / ".join(f"{r[f'{p}_p50_ms']:.1f}" for p in PATHS)
        p99 = " / ".join(f"{r[f'{p}_p99_ms']:.1f}" for p in PATHS)
        rate = " / ".join(f"{r[f'{p}_calls_per_s']:.0f}" for p in PATHS)
        lines.append(
            f"| {r['transport']} | {r['in_flight']} | {p50} | {r['p50_ratio']:.2f}x | "
            f"{r['p50_ratio_to_bare_proxy']:.2f}x | {p99} | {rate} |"
        )
    lines += [
        "",
        "| transport | in flight | client p50 ms | downstream hop | gate path | of which "
        "upstream call | gate's own |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['transport']} | {r['in_flight']} | {r['gateway_p50_ms']:.1f} | "
            f"{r['downstream_hop_p50_ms']:.1f} | {r['gate_path_p50_ms']:.1f} | "
            f"{r['upstream_call_p50_ms']:.1f} | {r['gate_own_p50_ms']:.1f} |"
        )
    if result["processes"]:
        lines += [
            "",
            "| gateway processes (PostgreSQL) | clients | p50 ms | p99 ms | calls/s | ÷ one |",
            "|---|---|---|---|---|---|",
        ]
        for r in result["processes"]:
            ratio = f"{r['calls_per_s_ratio']:.2f}x" if "calls_per_s_ratio" in r else "1.00x"
            lines.append(
                f"| {r['processes']} | {r['clients']} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | "
                f"{r['calls_per_s']:.0f} | {ratio} |"
            )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args()
    load = os.getloadavg()[0]
    result = anyio.run(run, options.calls, options.repeats)
    RESULTS.mkdir(exist_ok=True)
    report = {
        "benchmark": "gateway",
        "calls": options.calls,
        "repeats": options.repeats,
        "machine": {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            # Other work on the machine shares the cores the processes rows scale over.
            "load_average_at_start": load,
        },
        **result,
    }
    (RESULTS / "gateway.json").write_text(json.dumps(report, indent=2) + "\n")
    table = (
        f"{options.calls} calls x {options.repeats} repeats, medians; {os.cpu_count()} CPUs, "
        f"load average {load:.1f} at start\n\n{_markdown(result)}"
    )
    (RESULTS / "gateway.md").write_text(table)
    print(table)


if __name__ == "__main__":
    main()
