"""Exactly once: idempotency keys, replays, concurrent duplicates, unknown outcomes and
reconcile — in one process (the process-level faults are in test_faults.py)."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from callgate import CallContext, Context, ToolCall, tool
from callgate.contract import Route, Tool
from callgate.gate import Gate, Policy, Rule
from callgate.store import SQLiteStore

CTX = Context(principal="ann", tenant="acme", run_id="run-o")
ALLOW = Policy([Rule.allow("writes-ok", tools=["*"])])


class Ledger:
    """A target system that counts the writes it applied, by idempotency key."""

    def __init__(self) -> None:
        self.applied: list[str | None] = []
        self.attempts: list[int] = []
        self.lock = threading.Lock()
        self.reconcile_asked: list[str] = []

    def tool(
        self,
        *,
        reconcile: Any = None,
        timeout: float | None = None,
        hang: asyncio.Event | None = None,
    ) -> Tool:
        @tool(effect="write", reconcile=reconcile, timeout=timeout)
        async def book(amount: int, call: CallContext) -> str:
            """Book an amount."""
            with self.lock:
                self.applied.append(call.idempotency_key)
                self.attempts.append(call.attempt)
            if hang is not None:
                await hang.wait()
            await asyncio.sleep(0)
            return f"booked {amount}"

        return book


def _call(amount: int = 10, call_id: str = "c1") -> ToolCall:
    return ToolCall(id=call_id, name="book", arguments={"amount": amount})


async def test_a_duplicate_request_id_returns_the_stored_outcome(sqlite_url: str) -> None:
    ledger = Ledger()
    with Gate([ledger.tool()], store=sqlite_url, policy=ALLOW) as gate:
        first = await gate.call(_call(call_id="c1"), context=CTX, request_id="req-1")
        second = await gate.call(_call(call_id="c2"), context=CTX, request_id="req-1")
        assert gate.store is not None
        receipts = gate.store.receipts.list()
    assert first.route is Route.COMPLETED and not first.replayed
    assert second.route is Route.COMPLETED and second.replayed
    assert second.content == first.content and second.call_id == "c2"
    assert first.idempotency_key == second.idempotency_key == "acme:req-1:book"
    assert ledger.applied == ["acme:req-1:book"]
    assert [r.replayed for r in receipts] == [False, True]


async def test_without_request_id_the_key_derives_from_run_and_call(sqlite_url: str) -> None:
    ledger = Ledger()
    with Gate([ledger.tool()], store=sqlite_url, policy=ALLOW) as gate:
        await gate.call(_call(call_id="c1"), context=CTX)
        again = await gate.call(_call(call_id="c1"), context=CTX)
        other = await gate.call(_call(call_id="c2"), context=CTX)
    assert again.replayed and not other.replayed
    assert ledger.applied == ["acme:run-o/c1:book", "acme:run-o/c2:book"]


async def test_a_key_reused_for_other_arguments_is_refused(sqlite_url: str) -> None:
    ledger = Ledger()
    with Gate([ledger.tool()], store=sqlite_url, policy=ALLOW) as gate:
        await gate.call(_call(amount=10), context=CTX, request_id="req-1")
        reused = await gate.call(_call(amount=99), context=CTX, request_id="req-1")
    assert reused.route is Route.DENIED and "different request" in reused.content
    assert len(ledger.applied) == 1


def test_concurrent_duplicates_in_threads_run_once(tmp_path: Path) -> None:
    ledger = Ledger()
    book = ledger.tool()
    path = tmp_path / "cg.db"
    gates = [Gate([book], store=SQLiteStore(path), policy=ALLOW) for _ in range(6)]
    start = threading.Barrier(len(gates))

    def attempt(gate: Gate) -> Any:
        start.wait()
        return gate.call_sync(_call(), context=CTX, request_id="req-t")

    with ThreadPoolExecutor(len(gates)) as pool:
        results = list(pool.map(attempt, gates))
    for gate in gates:
        gate.close()
        assert gate.store is not None
        gate.store.close()
    assert len(ledger.applied) == 1
    assert sorted(r.replayed for r in results) == [False] + [True] * 5
    assert {r.route for r in results} == {Route.COMPLETED}


async def test_concurrent_duplicates_in_one_loop_run_once(sqlite_url: str) -> None:
    ledger = Ledger()
    with Gate([ledger.tool()], store=sqlite_url, policy=ALLOW) as gate:
        results = await asyncio.gather(
            *(gate.call(_call(call_id=f"c{i}"), context=CTX, request_id="req-g") for i in range(5))
        )
    assert len(ledger.applied) == 1
    assert sum(r.replayed for r in results) == 4


async def test_a_write_that_timed_out_is_reconciled_before_any_retry(sqlite_url: str) -> None:
    ledger = Ledger()
    answers = iter(["unknown", "applied"])

    def reconcile(key: str) -> str:
        ledger.reconcile_asked.append(key)
        return next(answers)

    hang = asyncio.Event()
    book = ledger.tool(reconcile=reconcile, timeout=0.05, hang=hang)
    with Gate([book], store=sqlite_url, policy=ALLOW) as gate:
        first = await gate.call(_call(), context=CTX, request_id="req-u")
        unsure = await gate.call(_call(), context=CTX, request_id="req-u")
        settled = await gate.call(_call(), context=CTX, request_id="req-u")
        later = await gate.call(_call(), context=CTX, request_id="req-u")
    hang.set()
    assert first.route is Route.UNKNOWN_OUTCOME and "Do not call it again" in first.content
    assert unsure.route is Route.UNKNOWN_OUTCOME and "could not say" in unsure.content
    assert settled.route is Route.COMPLETED and "already taken effect" in settled.content
    assert later.replayed and later.route is Route.COMPLETED
    assert ledger.reconcile_asked == ["acme:req-u:book"] * 2
    assert len(ledger.applied) == 1


async def test_not_applied_is_run_again_once(sqlite_url: str) -> None:
    ledger = Ledger()
    hang = asyncio.Event()
    book = ledger.tool(reconcile=lambda key: False, timeout=0.05, hang=hang)
    with Gate([book], store=sqlite_url, policy=ALLOW) as gate:
        first = await gate.call(_call(), context=CTX, request_id="req-n")
        hang.set()
        retried = await gate.call(_call(), context=CTX, request_id="req-n")
        replay = await gate.call(_call(), context=CTX, request_id="req-n")
    assert first.route is Route.UNKNOWN_OUTCOME
    assert retried.route is Route.COMPLETED and not retried.replayed
    assert replay.replayed
    assert ledger.attempts == [1, 2]


async def test_without_reconcile_a_write_is_never_retried(sqlite_url: str) -> None:
    ledger = Ledger()
    hang = asyncio.Event()
    with Gate([ledger.tool(timeout=0.05, hang=hang)], store=sqlite_url, policy=ALLOW) as gate:
        await gate.call(_call(), context=CTX, request_id="req-x")
        hang.set()
        again = await gate.call(_call(), context=CTX, request_id="req-x")
    assert again.route is Route.UNKNOWN_OUTCOME and "no reconcile hook" in again.content
    assert len(ledger.applied) == 1


async def test_reads_are_not_recorded_as_idempotency_keys(sqlite_url: str) -> None:
    @tool(effect="read")
    def peek() -> str:
        """Peek."""
        return "x"

    with Gate([peek], store=sqlite_url) as gate:
        result = await gate.call(ToolCall(id="c1", name="peek"), context=CTX)
        assert gate.store is not None
        assert gate.store.idempotency.get("acme:run-o/c1:peek") is None
    assert result.route is Route.COMPLETED and result.idempotency_key is None
