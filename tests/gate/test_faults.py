"""Fault injection through the whole gate, on SQLite and PostgreSQL, with real processes:
a process killed between `started` and `completed`, eight processes racing one key, and a
store that stops in the middle of a run."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sqlite3
from collections import Counter
from collections.abc import Callable
from multiprocessing.context import SpawnContext, SpawnProcess
from pathlib import Path
from typing import Any

import pytest

from callgate import ToolCall, tool
from callgate.contract import Route
from callgate.gate import Gate, ReceiptSettings
from tests.conftest import BACKENDS, STOPPABLE_POSTGRES, WAIT, pg_ctl, wait_until_available
from tests.gate import _workers
from tests.gate._workers import ALLOW, CTX, LEASE_MARGIN, StoreSpec, open_spec

pytestmark = pytest.mark.slow


@pytest.fixture
def mp() -> SpawnContext:
    return multiprocessing.get_context("spawn")


def test_killed_after_started_is_unknown_then_reconciled_never_repeated(
    store_spec: StoreSpec, tmp_path: Path, mp: SpawnContext, spawn: Callable[..., SpawnProcess]
) -> None:
    target = _workers.target_path(tmp_path)
    done, hang = mp.Event(), mp.Event()
    child = spawn(_workers.pay_and_hang, store_spec, target, done, hang)
    assert done.wait(WAIT), "the child never applied its write"
    os.kill(child.pid or 0, signal.SIGKILL)  # between `started` and `completed`
    child.join(WAIT)
    assert child.exitcode == -signal.SIGKILL
    assert _workers.applied(target) == ["acme:req-kill:pay"]

    asked: list[str] = []
    reachable: list[bool] = [False]

    def reconcile(key: str) -> bool | None:
        asked.append(key)
        if not reachable[0]:
            return None  # the target system cannot say yet
        return key in _workers.applied(target)

    store = open_spec(store_spec)
    with Gate(
        [_workers.pay_tool(target, reconcile=reconcile)],
        store=store,
        policy=ALLOW,
        lease_margin=LEASE_MARGIN,
    ) as gate:
        unknown = gate.call_sync(_workers.pay_call(), context=CTX, request_id="req-kill")
        reachable[0] = True
        settled = gate.call_sync(_workers.pay_call(), context=CTX, request_id="req-kill")
        replay = gate.call_sync(_workers.pay_call(), context=CTX, request_id="req-kill")
        verified = store.receipts.verify()
    store.close()
    assert unknown.route is Route.UNKNOWN_OUTCOME and "not run again" in unknown.content
    assert settled.route is Route.COMPLETED and "already taken effect" in settled.content
    assert replay.replayed and replay.route is Route.COMPLETED
    assert asked == ["acme:req-kill:pay"] * 2
    assert _workers.applied(target) == ["acme:req-kill:pay"]  # the write was not repeated
    assert verified.ok


def test_eight_processes_racing_one_key_run_it_once(
    store_spec: StoreSpec, tmp_path: Path, mp: SpawnContext, spawn: Callable[..., SpawnProcess]
) -> None:
    target = _workers.target_path(tmp_path)
    open_spec(store_spec).close()  # migrate once, so that the race is about the key only
    barrier, results = mp.Barrier(8, timeout=WAIT), mp.Queue()
    children = [spawn(_workers.race, store_spec, target, barrier, results, n) for n in range(8)]
    outcomes = [results.get(timeout=WAIT) for _ in children]
    for child in children:
        child.join(WAIT)
        assert child.exitcode == 0
    assert Counter((route, replayed) for _, route, replayed in outcomes) == {
        ("completed", False): 1,
        ("completed", True): 7,
    }
    assert _workers.applied(target).count("acme:req-race:pay") == 1


class _Outage:
    """Stops and restarts the store: a lock held by another connection for SQLite, the
    server itself (pg_ctl) for PostgreSQL."""

    def __init__(self, spec: StoreSpec) -> None:
        self.spec = spec
        self.holder: sqlite3.Connection | None = None

    def options(self) -> dict[str, float]:
        return {"busy_timeout": 0.2} if self.spec[0] == "sqlite" else {"timeout": 1.0}

    def stop(self) -> None:
        if self.spec[0] == "sqlite":
            self.holder = sqlite3.connect(
                self.spec[1], isolation_level=None, check_same_thread=False
            )
            self.holder.execute("BEGIN EXCLUSIVE")
        else:
            pg_ctl("stop")

    def start(self) -> None:
        if self.holder is not None:
            self.holder.execute("ROLLBACK")
            self.holder.close()
            self.holder = None
        elif self.spec[0] == "postgres" and pg_ctl("status", check=False) != 0:
            pg_ctl("start")


@STOPPABLE_POSTGRES
@pytest.mark.timeout(120)
@pytest.mark.parametrize("backend", BACKENDS)
def test_store_stopped_mid_run_denies_writes_and_leaves_nothing_half_written(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if backend == "sqlite":
        store_spec: StoreSpec = ("sqlite", str(tmp_path / "callgate.db"), None)
    else:
        store_spec = ("postgres", *request.getfixturevalue("stoppable_pg_schema"))
    outage = _Outage(store_spec)
    writes: list[str] = []
    reads: list[str] = []

    @tool(effect="write")
    def pay(invoice: str) -> str:
        """Pay an invoice."""
        writes.append(invoice)
        if invoice == "INV-stop":
            outage.stop()  # the store goes away after this write took effect
        return f"paid {invoice}"

    @tool(effect="read")
    def balance() -> str:
        """The balance."""
        reads.append("b")
        return "100"

    store = open_spec(store_spec, **outage.options())
    strict = ReceiptSettings(reads_without_store="deny")
    try:
        with (
            Gate([pay, balance], store=store, policy=ALLOW) as gate,
            Gate([pay, balance], store=store, policy=ALLOW, receipts=strict) as strict_gate,
        ):
            results = _run_through_outage(gate, strict_gate, outage)
            outage.start()
            wait_until_available(store)
            check = store.receipts.verify()
            receipts = store.receipts.list(limit=1000)
            records = {
                k: store.idempotency.get(k)
                for k in ("acme:req-0:pay", "acme:req-stop:pay", "acme:req-down:pay")
            }
    finally:
        outage.start()
        store.close()
    ok, mid, down, read_allowed, read_denied = results
    assert ok.route is Route.COMPLETED
    assert mid.route is Route.COMPLETED and "outcome not recorded" in (mid.reason or "")
    assert down.route is Route.DENIED and down.reason == "store unavailable"
    assert "never run unrecorded" in down.content and "Nothing was changed" in down.content
    assert read_allowed.route is Route.COMPLETED
    assert read_denied.route is Route.DENIED and read_denied.reason == "store unavailable"
    assert writes == ["INV-0", "INV-stop"] and reads == ["b", "b"]
    assert check.ok, check.reason
    assert [(r.tool_name, r.route) for r in receipts] == [("pay", Route.COMPLETED)]
    assert records["acme:req-0:pay"] is not None
    assert records["acme:req-0:pay"].state == "completed"
    assert records["acme:req-stop:pay"] is not None
    assert records["acme:req-stop:pay"].state == "started"  # reconciled on the next attempt
    assert records["acme:req-down:pay"] is None


def _run_through_outage(gate: Gate, strict_gate: Gate, outage: _Outage) -> list[Any]:
    def pay(invoice: str, request_id: str) -> Any:
        return gate.call_sync(
            ToolCall(id=request_id, name="pay", arguments={"invoice": invoice}),
            context=CTX,
            request_id=request_id,
        )

    ok = pay("INV-0", "req-0")
    mid = pay("INV-stop", "req-stop")
    down = pay("INV-down", "req-down")
    read_allowed = gate.call_sync(ToolCall(id="r1", name="balance"), context=CTX)
    read_denied = strict_gate.call_sync(ToolCall(id="r2", name="balance"), context=CTX)
    return [ok, mid, down, read_allowed, read_denied]
