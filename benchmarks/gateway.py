"""A read tool through `callgate serve` against the same upstream called directly with the
MCP SDK's `Client`, in one run: latency p50/p99 and calls/s, over stdio and HTTP, with 1
and 16 calls in flight; and 1 against 3 gateway processes on one PostgreSQL.

Run: python benchmarks/gateway.py [--calls 400] [--repeats 3] [--client-processes 4]
     (the PostgreSQL rows need CALLGATE_PG_DSN, e.g. `. .ci/postgres.sh`)
     -> benchmarks/results/gateway.json and gateway.md

The upstream is the test suite's tracker server (`tests/mcp/servers/tracker.py`, written
with the SDK's low-level `Server`); the tool is `list_issues`, a read with structured
output. Direct: the SDK `Client` talks to the tracker. Bare proxy: the same `Client` talks
to the simplest forwarding proxy the SDK allows (`_bare_proxy.py`, no gate), the cost of
one more MCP hop. Gateway: the same `Client` talks to
`callgate serve` (a separate process, embedded SQLite store, default policy: every call
validated, authorized, executed and given a hash-chained receipt), which talks to the same
kind of tracker over the same transport. Every path's client is built the same way (over
HTTP, the test suite's `http_client`; the gateway's alone carries a bearer token) and every
session makes 10 calls before the measured ones (connections open, output schemas listed).
The load generator is `_load.py`: over stdio one client keeps 1 or 16 calls in flight
(stdio has one client per server process); over HTTP, 1 or 16 clients with their own
sessions each keep one call in flight, spread over `--client-processes` processes. Medians
of the repeats, the paths in turns. DESIGN's target: p50 through the gateway at most 1.3x
the direct call. Beside every number, the share of the machine's CPU that was busy during
the calls (anything running on it, other work included).

Where a gateway call's time goes: every call's receipt records the gate's whole path
(`duration_ms`) and the part spent in the executor (`execute_ms`: the call upstream, itself
an MCP round trip); the client's latency minus `duration_ms` is the downstream MCP hop (the
SDK's server, the transport). Medians over the receipts of the measured calls.

Processes: 16 HTTP clients spread over 1 or 3 `callgate serve` processes on one PostgreSQL
(each process with its own tracker over stdio, as replicas are deployed), calls/s of the
same read; beside them the same 16 clients against 1 and 3 trackers over HTTP directly,
which is the most the load generator sends through this machine, all with the clients in
one process and spread over `--client-processes`. DESIGN's target: 3 processes at least 2x
the calls/s of one.
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
from pathlib import Path
from typing import Any

from mcp import StdioServerParameters

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _load import Load, Measured, Target, measure  # noqa: E402

from callgate.store import open_store  # noqa: E402
from tests.gateway._processes import TOKEN as MULTI_TOKEN  # noqa: E402
from tests.gateway._processes import gateways, pg_database  # noqa: E402
from tests.mcp._support import (  # noqa: E402
    TRACKER,
    callgate_command,
    free_port,
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


BARE = str(Path(__file__).resolve().parent / "_bare_proxy.py")
PATHS = ("direct", "bare_proxy", "gateway")
GATEWAY_TOOL = "tracker_list_issues"


def _targets(
    transport: str, workdir: Path, upstream: str, bare_url: str, gateway_url: str
) -> dict[str, Target]:
    """Each path's target for `transport`: the same SDK client, built the same way."""
    if transport == "stdio":
        bare = StdioServerParameters(command=sys.executable, args=[BARE, "stdio"])
        return {
            "direct": Target(tool="list_issues", arguments=ARGS, stdio=_tracker_stdio()),
            "bare_proxy": Target(tool=GATEWAY_TOOL, arguments=ARGS, stdio=bare),
            "gateway": Target(tool=GATEWAY_TOOL, arguments=ARGS, stdio=_gateway_stdio(workdir)),
        }
    return {
        "direct": Target(tool="list_issues", arguments=ARGS, urls=(upstream,)),
        "bare_proxy": Target(tool=GATEWAY_TOOL, arguments=ARGS, urls=(bare_url,)),
        "gateway": Target(tool=GATEWAY_TOOL, arguments=ARGS, urls=(gateway_url,), token=TOKEN),
    }


def _load(transport: str, calls: int, in_flight: int, client_processes: int) -> Load:
    """Over stdio one client keeps every call in flight (one client per server process);
    over HTTP each call in flight has a session of its own, spread over processes."""
    if transport == "stdio":
        return Load(calls=calls, in_flight=in_flight, sessions=1)
    return Load(calls=calls, in_flight=in_flight, sessions=in_flight, processes=client_processes)


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


def run(calls: int, repeats: int, client_processes: int) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp, http_tracker() as upstream:
        workdir = Path(tmp)
        with _gateway_http(workdir, upstream) as gateway_url, _bare_http(upstream) as bare_url:
            for transport in ("stdio", "http"):
                for in_flight in (1, 16):
                    load = _load(transport, calls, in_flight, client_processes)
                    targets = _targets(transport, workdir, upstream, bare_url, gateway_url)
                    runs: dict[str, list[Measured]] = {p: [] for p in PATHS}
                    before = _head(workdir / f"{transport}.db")
                    for _ in range(repeats):  # in turns, so every path sees the same load
                        for path, target in targets.items():
                            runs[path].append(measure(target, load))
                    row = _row(transport, load, runs)
                    row.update(
                        _breakdown(workdir / f"{transport}.db", before, row["gateway_p50_ms"])
                    )
                    print(json.dumps(row), flush=True)
                    rows.append(row)
        processes = _processes(workdir, calls, repeats, client_processes)
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
    measured = [r for r in receipts if r.tool_name == GATEWAY_TOOL]
    gate = statistics.median(r.duration_ms for r in measured)
    upstream = statistics.median(r.execute_ms for r in measured)
    return {
        "gate_path_p50_ms": gate,
        "upstream_call_p50_ms": upstream,
        "gate_own_p50_ms": statistics.median(r.duration_ms - r.execute_ms for r in measured),
        "downstream_hop_p50_ms": max(0.0, client_p50_ms - gate),
    }


PROCESS_CLIENTS = 16
SCALES = (1, 3)


def _processes(
    workdir: Path, calls: int, repeats: int, client_processes: int
) -> list[dict[str, Any]]:
    """Calls/s of 16 HTTP clients over 1 and over 3 gateway processes on one PostgreSQL,
    beside the same clients against 1 and 3 trackers directly (the load generator's ceiling),
    with the clients in one process and spread over `client_processes`."""
    dsn = os.environ.get("CALLGATE_PG_DSN")
    if not dsn:
        print("CALLGATE_PG_DSN is not set: no PostgreSQL rows", file=sys.stderr)
        return []
    tracker = {"command": sys.executable, "args": [TRACKER, "stdio"]}
    with contextlib.ExitStack() as stack:
        store = stack.enter_context(pg_database(dsn))
        trackers = [stack.enter_context(http_tracker()) for _ in range(max(SCALES))]
        targets: dict[tuple[str, int], Target] = {}
        for count in SCALES:
            group = stack.enter_context(
                gateways(
                    workdir=workdir / f"pg-{count}",
                    store=store,
                    servers={"tracker": tracker},
                    count=count,
                )
            )
            targets["direct", count] = Target(
                tool="list_issues", arguments=ARGS, urls=tuple(trackers[:count])
            )
            targets["gateway", count] = Target(
                tool=GATEWAY_TOOL, arguments=ARGS, urls=tuple(group.urls), token=MULTI_TOKEN
            )
        spreads = sorted({1, client_processes})
        runs: dict[tuple[str, int, int], list[Measured]] = {
            (*key, spread): [] for spread in spreads for key in targets
        }
        for _ in range(repeats):  # in turns, so every case sees the same load
            for path, count, spread in runs:
                load = Load(
                    calls=calls,
                    in_flight=PROCESS_CLIENTS,
                    sessions=PROCESS_CLIENTS,
                    processes=spread,
                )
                runs[path, count, spread].append(measure(targets[path, count], load))
    rows = [_process_row(case, measured) for case, measured in runs.items()]
    _process_ratios(rows)
    print(json.dumps(rows), flush=True)
    return rows


def _process_row(case: tuple[str, int, int], measured: list[Measured]) -> dict[str, Any]:
    path, servers, client_processes = case
    row: dict[str, Any] = {
        "path": path,
        "servers": servers,
        "clients": PROCESS_CLIENTS,
        "client_processes": client_processes,
    }
    for key in ("p50_ms", "p99_ms", "calls_per_s", "cpu_busy", "load_average"):
        row[key] = statistics.median(getattr(m, key) for m in measured)
    return row


def _process_ratios(rows: list[dict[str, Any]]) -> None:
    """calls/s against the same path with one server, and the gateway's against direct, with
    the clients spread the same way."""
    by = {(r["path"], r["servers"], r["client_processes"]): r for r in rows}
    for (path, servers, spread), row in by.items():
        row["ratio_to_one"] = row["calls_per_s"] / by[path, 1, spread]["calls_per_s"]
        if path == "gateway":
            row["ratio_to_direct"] = (
                row["calls_per_s"] / by["direct", servers, spread]["calls_per_s"]
            )


def _row(transport: str, load: Load, runs: dict[str, list[Measured]]) -> dict[str, Any]:
    row: dict[str, Any] = {
        "transport": transport,
        "in_flight": load.in_flight,
        "client_processes": min(load.processes, load.sessions),
    }
    for path, measured in runs.items():
        for key in ("p50_ms", "p99_ms", "calls_per_s", "cpu_busy"):
            row[f"{path}_{key}"] = statistics.median(getattr(m, key) for m in measured)
    row["p50_ratio"] = row["gateway_p50_ms"] / row["direct_p50_ms"]
    row["p50_ratio_to_bare_proxy"] = row["gateway_p50_ms"] / row["bare_proxy_p50_ms"]
    # What the second MCP hop adds to the median call, with and without the gate.
    row["gateway_extra_p50_ms"] = row["gateway_p50_ms"] - row["direct_p50_ms"]
    row["bare_proxy_extra_p50_ms"] = row["bare_proxy_p50_ms"] - row["direct_p50_ms"]
    row["throughput_ratio"] = row["gateway_calls_per_s"] / row["direct_calls_per_s"]
    return row


def _markdown(result: dict[str, Any]) -> str:
    return "\n\n".join(
        [_paths_table(result["rows"]), _breakdown_table(result["rows"])]
        + ([_processes_table(result["processes"])] if result["processes"] else [])
    )


def _paths_table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| transport | in flight | client processes | p50 ms direct / bare proxy / gateway "
        "| gateway ÷ direct | ms added: bare proxy / gateway | gateway ÷ bare proxy "
        "| p99 ms direct / bare proxy / gateway | calls/s direct / bare proxy / gateway "
        "| CPU busy direct / bare proxy / gateway |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        p50 = " / ".join(f"{r[f'{p}_p50_ms']:.1f}" for p in PATHS)
        p99 = " / ".join(f"{r[f'{p}_p99_ms']:.1f}" for p in PATHS)
        rate = " / ".join(f"{r[f'{p}_calls_per_s']:.0f}" for p in PATHS)
        busy = " / ".join(f"{100 * r[f'{p}_cpu_busy']:.0f}%" for p in PATHS)
        added = f"{r['bare_proxy_extra_p50_ms']:.1f} / {r['gateway_extra_p50_ms']:.1f}"
        lines.append(
            f"| {r['transport']} | {r['in_flight']} | {r['client_processes']} | {p50} | "
            f"{r['p50_ratio']:.2f}x | {added} | {r['p50_ratio_to_bare_proxy']:.2f}x | {p99} | "
            f"{rate} | {busy} |"
        )
    return "\n".join(lines)


def _breakdown_table(rows: list[dict[str, Any]]) -> str:
    lines = [
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
    return "\n".join(lines)


SERVER_NAMES = {
    "gateway": ("gateway process", "gateway processes"),
    "direct": ("tracker", "trackers"),
}


def _processes_table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| path | servers | clients / client processes | p50 ms | p99 ms | calls/s "
        "| ÷ one server | gateway ÷ direct | CPU busy | load average |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        names = SERVER_NAMES[r["path"]]
        servers = f"{r['servers']} {names[r['servers'] > 1]}"
        to_one = f"{r['ratio_to_one']:.2f}x" if "ratio_to_one" in r else "-"
        to_direct = f"{r['ratio_to_direct']:.2f}x" if "ratio_to_direct" in r else "-"
        lines.append(
            f"| {r['path']} | {servers} | {r['clients']} / {r['client_processes']} | "
            f"{r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {r['calls_per_s']:.0f} | {to_one} | "
            f"{to_direct} | {100 * r['cpu_busy']:.0f}% | {r['load_average']:.1f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--client-processes",
        type=int,
        default=4,
        help="processes the HTTP clients are spread over (default 4)",
    )
    options = parser.parse_args()
    load = os.getloadavg()[0]
    result = run(options.calls, options.repeats, options.client_processes)
    RESULTS.mkdir(exist_ok=True)
    report = {
        "benchmark": "gateway",
        "calls": options.calls,
        "repeats": options.repeats,
        "client_processes": options.client_processes,
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
        f"{options.calls} calls x {options.repeats} repeats, medians; HTTP clients spread over "
        f"{options.client_processes} processes; {os.cpu_count()} CPUs, load average {load:.1f} "
        f"at start\n\n{_markdown(result)}\n"
    )
    (RESULTS / "gateway.md").write_text(table)
    print(table)


if __name__ == "__main__":
    main()
