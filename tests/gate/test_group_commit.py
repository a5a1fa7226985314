"""Group commit through the whole gate: concurrent calls share their claim and finish
transactions, still run exactly once (in one loop and across processes), and a batch that
fails fails every member closed. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import multiprocessing
from collections import Counter
from collections.abc import Callable, Sequence
from multiprocessing.context import SpawnProcess
from pathlib import Path
from typing import Any

import pytest

from callgate import CallContext, ToolCall, tool
from callgate.gate import Gate
from callgate.store import StoreUnavailable
from tests.conftest import WAIT
from tests.gate import _workers
from tests.gate._workers import ALLOW, CTX, StoreSpec, open_spec


def _spy(store: Any, name: str, sizes: list[int]) -> None:
    method = getattr(store, name)

    def spied(requests: Sequence[Any]) -> Any:
        sizes.append(len(requests))
        return method(requests)

    setattr(store, name, spied)


def _down(*args: Any, **kwargs: Any) -> Any:
    raise StoreUnavailable("the database went away")


def _calls(keys: int, copies: int) -> list[tuple[ToolCall, str]]:
    return [
        (ToolCall(id=f"c{n}-{copy}", name="pay", arguments={"invoice": f"INV-{n}"}), f"req-{n}")
        for copy in range(copies)
        for n in range(keys)
    ]


async def _run_all(gate: Gate, calls: list[tuple[ToolCall, str]]) -> list[Any]:
    return await asyncio.gather(
        *(gate.call(call, context=CTX, request_id=request_id) for call, request_id in calls)
    )


def _counting_tool() -> tuple[Any, Counter[str]]:
    ran: Counter[str] = Counter()

    @tool(effect="write")
    async def pay(invoice: str, call: CallContext) -> str:
        """Pay an invoice."""
        ran[call.idempotency_key or ""] += 1
        await asyncio.sleep(0.001)
        return f"paid {invoice}"

    return pay, ran


async def test_concurrent_calls_share_transactions_and_each_key_runs_once(
    store_spec: StoreSpec,
) -> None:
    store = open_spec(store_spec)
    claims: list[int] = []
    finishes: list[int] = []
    _spy(store, "claim", claims)
    _spy(store, "settle", finishes)
    pay, ran = _counting_tool()
    gate = Gate([pay], store=store, policy=ALLOW)
    results = await _run_all(gate, _calls(keys=24, copies=2))  # every request id twice
    assert set(ran.values()) == {1} and len(ran) == 24
    assert all(r.route == "completed" for r in results)
    assert Counter(r.replayed for r in results) == {False: 24, True: 24}
    assert max(claims) > 1 and max(finishes) > 1  # calls did share transactions
    report = store.receipts.verify()
    assert report.ok, report.reason
    assert report.checked == 48  # one receipt per call, replays included
    gate.close()
    store.close()


async def test_a_failed_claim_batch_fails_every_member_closed(store_spec: StoreSpec) -> None:
    store = open_spec(store_spec)
    pay, ran = _counting_tool()
    gate = Gate([pay], store=store, policy=ALLOW)
    store.claim = _down  # type: ignore[method-assign]
    results = await _run_all(gate, _calls(keys=12, copies=1))
    assert all(r.route == "denied" and r.reason == "store unavailable" for r in results)
    assert not ran  # nothing ran unrecorded
    assert all(store.idempotency.get(f"acme:req-{n}:pay") is None for n in range(12))
    gate.close()
    store.close()


async def test_a_failed_finish_batch_records_no_member_and_says_so(store_spec: StoreSpec) -> None:
    store = open_spec(store_spec)
    pay, ran = _counting_tool()
    gate = Gate([pay], store=store, policy=ALLOW)
    store.settle = _down  # type: ignore[method-assign]
    results = await _run_all(gate, _calls(keys=12, copies=1))
    assert len(ran) == 12
    assert [r.reason for r in results] == ["outcome not recorded (StoreUnavailable)"] * 12
    # The claims stay `started`: their leases run out and the next attempt reconciles.
    assert {
        store.idempotency.get(f"acme:req-{n}:pay").state  # type: ignore[union-attr]
        for n in range(12)
    } == {"started"}
    assert store.receipts.head().seq == 0
    gate.close()
    store.close()


def test_calls_in_a_sync_loop_and_an_async_loop_of_one_gate(tmp_path: Path) -> None:
    """Batch state is per event loop: the synchronous API's loop and the caller's own."""
    store = open_spec(("sqlite", str(tmp_path / "g.db"), None))
    pay, ran = _counting_tool()
    with Gate([pay], store=store, policy=ALLOW) as gate:
        first = gate.run_batch_sync([call for call, _ in _calls(keys=4, copies=1)], context=CTX)
        second = asyncio.run(_run_all(gate, _calls(keys=4, copies=1)))
    assert all(r.route == "completed" for r in [*first, *second])
    assert not any(r.replayed for r in [*first, *second])  # keys `run-f/c{n}-0`, `req-{n}`
    assert len(ran) == 8 and set(ran.values()) == {1}
    assert store.receipts.verify().ok
    store.close()


@pytest.mark.slow
def test_processes_group_committing_the_same_keys_run_each_once(
    store_spec: StoreSpec, tmp_path: Path, spawn: Callable[..., SpawnProcess]
) -> None:
    workers, keys, in_flight = 4, 40, 8
    target = _workers.target_path(tmp_path)
    open_spec(store_spec).close()  # migrate once, so that the race is about the keys only
    ctx = multiprocessing.get_context("spawn")
    barrier, results = ctx.Barrier(workers, timeout=WAIT), ctx.Queue()
    children = [
        spawn(_workers.batch_race, store_spec, target, barrier, results, n, keys, in_flight)
        for n in range(workers)
    ]
    outcomes = [results.get(timeout=WAIT) for _ in children]
    for child in children:
        child.join(WAIT)
        assert child.exitcode == 0
    routes = Counter(pair for _, pairs in outcomes for pair in pairs)
    assert routes == {("completed", False): keys, ("completed", True): keys * (workers - 1)}
    applied = Counter(_workers.applied(target))
    assert {k for k in applied if "req-" in k} == {f"acme:req-{n}:pay" for n in range(keys)}
    assert all(count == 1 for count in applied.values())  # the target saw each write once
    with open_spec(store_spec) as store:
        report = store.receipts.verify()
    assert report.ok, report.reason
    assert report.checked == workers * (keys + 1)  # every call and warm-up has its receipt
