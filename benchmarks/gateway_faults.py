"""The gateway killed in the middle of writes, many times: duplicate side effects.

Two `callgate serve --transport http` processes on one PostgreSQL, each with its own ledger
server (`tests/mcp/servers/ledger.py`, a real MCP server over stdio) writing to one shared
SQLite file, so every side effect is counted outside callgate. Each trial sends one write
(`ledger_append`, with a `_meta` idempotency key of its own) to one process, SIGKILLs that
process at a random point (0 to 250 ms after sending: before, during or after the write),
restarts it, and retries the same call with the same key on the other process until an
answer comes back. The write tool has a reconcile hook (`reconcile = "status"`: the ledger
says whether a write with that key exists), so a write whose process died is settled, not
left unknown.

Baseline, in the same run: the same trials against two copies of the simplest forwarding
proxy the SDK allows (`_bare_proxy.py`: one more MCP hop, no gate), the client retrying the
same way.

Run: python benchmarks/gateway_faults.py [--trials 200] [--baseline-trials 50]
     (needs CALLGATE_PG_DSN, e.g. `. .ci/postgres.sh`)
     -> benchmarks/results/gateway_faults.json and gateway_faults.md
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.gateway._faults import Report, run_against, run_trials  # noqa: E402
from tests.gateway._processes import LEDGER, Gateways, pg_database  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
BARE = str(Path(__file__).resolve().parent / "_bare_proxy.py")


class BareProxies(Gateways):
    """Two bare forwarding proxies, each with its own ledger server over stdio."""

    def argv(self, index: int) -> list[str]:
        port = str(self.ports[index])
        return [sys.executable, BARE, "http", port, f"stdio:{LEDGER}", "ledger"]


async def run(trials: int, baseline_trials: int, seed: int) -> dict[str, Any]:
    dsn = os.environ.get("CALLGATE_PG_DSN")
    if not dsn:
        raise SystemExit("set CALLGATE_PG_DSN (e.g. `CALLGATE_PG_PORT=... . .ci/postgres.sh`)")
    with tempfile.TemporaryDirectory() as tmp:
        gateway_dir, bare_dir = Path(tmp) / "gateway", Path(tmp) / "bare"
        gateway_dir.mkdir()
        began = time.monotonic()
        with pg_database(dsn) as store:
            gateway = await run_trials(gateway_dir, store, trials, seed=seed)
        gateway_seconds = time.monotonic() - began
        bare_dir.mkdir()
        (bare_dir / "pids").mkdir()
        proxies = BareProxies(
            workdir=bare_dir / "proxies",
            store="",
            servers={},
            count=2,
            env={
                "LEDGER_DB": str(bare_dir / "ledger.db"),
                "LEDGER_DELAY": "0.03",
                "LEDGER_PIDDIR": str(bare_dir / "pids"),
            },
        )
        bare = await run_against(proxies, bare_dir, baseline_trials, seed=seed)
    return {
        "gateway": _row(gateway, gateway_seconds),
        "bare_proxy": _row(bare, None),
    }


def _row(report: Report, seconds: float | None) -> dict[str, Any]:
    row = report.summary()
    if seconds is not None:
        row["seconds"] = round(seconds, 1)
    return row


def _markdown(result: dict[str, Any]) -> str:
    lines = [
        "| path | trials | killed mid-call | duplicate side effects | completed without a "
        "side effect | exactly one side effect | none | final routes | leftover upstreams |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, row in result.items():
        routes = ", ".join(f"{k} {v}" for k, v in sorted(row["final_routes"].items()))
        lines.append(
            f"| {name} | {row['trials']} | {row['killed_mid_call']} | "
            f"{row['duplicate_side_effects']} | {row['completed_without_side_effect']} | "
            f"{row['exactly_one_side_effect']} | {row['no_side_effect']} | {routes} | "
            f"{row['leftover_upstream_processes']} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--baseline-trials", type=int, default=50)
    parser.add_argument("--seed", type=int, default=2026)
    options = parser.parse_args()
    result = anyio.run(run, options.trials, options.baseline_trials, options.seed)
    RESULTS.mkdir(exist_ok=True)
    report = {
        "benchmark": "gateway_faults",
        "seed": options.seed,
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
        "rows": result,
    }
    (RESULTS / "gateway_faults.json").write_text(json.dumps(report, indent=2) + "\n")
    (RESULTS / "gateway_faults.md").write_text(_markdown(result))
    print(_markdown(result))


if __name__ == "__main__":
    main()
