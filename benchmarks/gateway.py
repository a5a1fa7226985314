"""A read tool through `callgate serve` against the same upstream called directly with the
MCP SDK's `Client`, in one run: latency p50/p99 and calls/s, over stdio and HTTP, with 1
and 16 calls in flight.

Run: python benchmarks/gateway.py [--calls 400] [--repeats 3]
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
            f"sqlite:///{workdir / 'http.db'}",
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


async def run(calls: int, repeats: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp, http_tracker() as upstream:
        workdir = Path(tmp)
        with _gateway_http(workdir, upstream) as gateway_url, _bare_http(upstream) as bare_url:
            for transport in ("stdio", "http"):
                for in_flight in (1, 16):
                    sessions = in_flight if transport == "http" else 1
                    paths = _clients(transport, workdir, upstream, bare_url, gateway_url)
                    runs: dict[str, list[dict[str, float]]] = {p: [] for p in PATHS}
                    for _ in range(repeats):  # in turns, so every path sees the same load
                        for path, make in paths.items():
                            tool = "list_issues" if path == "direct" else "tracker_list_issues"
                            runs[path].append(await _case(make, tool, calls, in_flight, sessions))
                    row = _row(transport, in_flight, runs)
                    print(json.dumps(row), flush=True)
                    rows.append(row)
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


def _markdown(rows: list[dict[str, Any]]) -> str:
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
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args()
    rows = anyio.run(run, options.calls, options.repeats)
    RESULTS.mkdir(exist_ok=True)
    report = {
        "benchmark": "gateway",
        "calls": options.calls,
        "repeats": options.repeats,
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
        "rows": rows,
    }
    (RESULTS / "gateway.json").write_text(json.dumps(report, indent=2) + "\n")
    (RESULTS / "gateway.md").write_text(_markdown(rows))
    print(_markdown(rows))


if __name__ == "__main__":
    main()
