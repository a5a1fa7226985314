"""verify (read-back), conflicts, and transient failures with capped, jittered backoff."""

from __future__ import annotations

import random
from typing import Any

from callgate import Backoff, Context, Effect, ToolAnnotations, ToolCall, TransientError, tool
from callgate.contract import Route
from callgate.gate import Gate, Policy, RetrySettings, Rule
from callgate.testing import ManualClock, SupplierRegistry, supplier_tools

ADMIN = Context(principal="ann", tenant="acme", roles=frozenset({"supplier_admin"}), run_id="run-v")
ALLOW = Policy([Rule.allow("ok", tools=["*"])])
FAST = RetrySettings(max_attempts=4, backoff=Backoff(initial=0.05, max_delay=0.2))


async def _commit(gate: Gate, registry: SupplierRegistry, address: str, call_id: str) -> Any:
    draft = await gate.call(
        ToolCall(
            id=f"d-{call_id}",
            name="supplier_draft_change",
            arguments={"supplier_id": "S-1", "new_address": address},
        ),
        context=ADMIN,
    )
    assert draft.route is Route.COMPLETED, draft.content
    return await gate.call(
        ToolCall(
            id=call_id,
            name="supplier_commit_change",
            arguments={"draft_id": draft.structured["draft_id"]},
        ),
        context=ADMIN,
    )


async def test_a_confirmed_write_is_verified(sqlite_url: str) -> None:
    registry = SupplierRegistry.sample()
    with Gate(supplier_tools(registry), store=sqlite_url, policy=ALLOW) as gate:
        result = await _commit(gate, registry, "Hamngatan 5, Malmö", "c1")
    assert result.route is Route.VERIFIED and result.reason == "confirmed by read-back"
    assert registry.suppliers["S-1"].address == "Hamngatan 5, Malmö"


async def test_an_unconfirmed_write_fails_without_a_masked_success() -> None:
    registry = SupplierRegistry.sample()
    with Gate(supplier_tools(registry), policy=ALLOW) as gate, registry.fault(lose_write=True):
        result = await _commit(gate, registry, "Hamngatan 5, Malmö", "c1")
    assert result.route is Route.FAILED
    assert result.reason == "the write was not confirmed by the target system"
    assert "not confirmed" in result.content


async def test_read_back_also_runs_on_the_lean_gate() -> None:
    registry = SupplierRegistry.sample()
    with Gate(supplier_tools(registry)) as gate:
        result = await _commit(gate, registry, "Hamngatan 5, Malmö", "c1")
    assert result.route is Route.VERIFIED


async def test_a_stale_version_is_a_conflict(sqlite_url: str) -> None:
    registry = SupplierRegistry.sample()
    with Gate(supplier_tools(registry), store=sqlite_url, policy=ALLOW) as gate:
        draft = await gate.call(
            ToolCall(
                id="d",
                name="supplier_draft_change",
                arguments={"supplier_id": "S-1", "new_address": "Hamngatan 5"},
            ),
            context=ADMIN,
        )
        registry.change_elsewhere("S-1", "Lilla Torg 2")
        result = await gate.call(
            ToolCall(
                id="c",
                name="supplier_commit_change",
                arguments={"draft_id": draft.structured["draft_id"]},
            ),
            context=ADMIN,
        )
    assert result.route is Route.CONFLICT
    assert "Re-read the object and propose the change again" in result.content
    assert registry.suppliers["S-1"].address == "Lilla Torg 2" and registry.writes == 0


def _flaky(
    failures: int, *, effect: Effect, idempotent: bool | None = None, reconcile: Any = None
) -> tuple[Any, list[int]]:
    calls: list[int] = []

    @tool(
        effect=effect,
        annotations=ToolAnnotations(idempotent=idempotent),
        reconcile=reconcile,
    )
    def quote(symbol: str) -> str:
        """Quote a price."""
        calls.append(1)
        if len(calls) <= failures:
            raise TransientError("the exchange is briefly unavailable")
        return f"{symbol}: 42"

    return quote, calls


async def test_reads_are_retried_within_the_attempt_cap_without_sleeping() -> None:
    quote, calls = _flaky(2, effect=Effect.READ)
    clock = ManualClock()
    with Gate([quote], retry=FAST, clock=clock) as gate:
        result = await gate.call(ToolCall(id="c", name="quote", arguments={"symbol": "X"}))
    assert result.route is Route.COMPLETED and len(calls) == 3
    assert len(clock.sleeps) == 2 and all(0 <= w <= 0.2 for w in clock.sleeps)
    hopeless, tries = _flaky(99, effect=Effect.READ)
    with Gate([hopeless], retry=FAST, clock=ManualClock()) as gate:
        failed = await gate.call(ToolCall(id="c", name="quote", arguments={"symbol": "X"}))
    assert failed.route is Route.FAILED and "briefly unavailable" in failed.content
    assert len(tries) == FAST.max_attempts


async def test_retries_stop_when_the_time_budget_is_spent() -> None:
    """A wait that would end past the call's deadline is not taken."""
    quote, calls = _flaky(99, effect=Effect.READ)
    slow = RetrySettings(max_attempts=10, backoff=Backoff(initial=20.0, max_delay=20.0, jitter=0))
    clock = ManualClock()
    with Gate([quote], retry=slow, clock=clock) as gate:  # default timeout: 30 s
        result = await gate.call(ToolCall(id="c", name="quote", arguments={"symbol": "X"}))
    assert result.route is Route.FAILED and len(calls) == 2 and clock.sleeps == [20.0]


async def test_idempotent_writes_are_retried_plain_writes_only_through_reconcile(
    sqlite_url: str,
) -> None:
    idem, idem_calls = _flaky(1, effect=Effect.WRITE, idempotent=True)
    plain, plain_calls = _flaky(1, effect=Effect.WRITE)
    checked, checked_calls = _flaky(1, effect=Effect.WRITE, reconcile=lambda key: "not_applied")
    for made, calls, runs in (
        (idem, idem_calls, 2),
        (plain, plain_calls, 1),
        (checked, checked_calls, 2),
    ):
        with Gate([made], store=sqlite_url, policy=ALLOW, retry=FAST, clock=ManualClock()) as gate:
            await gate.call(
                ToolCall(id=f"c{runs}{id(made)}", name="quote", arguments={"symbol": "X"}),
                context=ADMIN,
            )
        assert len(calls) == runs


async def test_denials_are_never_retried(sqlite_url: str) -> None:
    quote, calls = _flaky(5, effect=Effect.WRITE)
    deny = Policy([Rule.deny("no", "closed")])
    with Gate([quote], store=sqlite_url, policy=deny, retry=FAST) as gate:
        result = await gate.call(
            ToolCall(id="c", name="quote", arguments={"symbol": "X"}), context=ADMIN
        )
    assert result.route is Route.DENIED and calls == []


def test_backoff_is_jittered_and_capped() -> None:
    backoff = Backoff(initial=0.1, max_delay=0.5)
    delays = backoff.delays(random.Random(7))
    waits = [next(delays) for _ in range(50)]
    bounds = [min(0.5, 0.1 * 2**n) for n in range(50)]
    assert all(0 <= w <= b for w, b in zip(waits, bounds, strict=True))
    assert len(set(waits)) == len(waits)
    exact = Backoff(initial=0.1, max_delay=0.5, jitter=0.0).delays()
    assert [next(exact) for _ in range(5)] == [0.1, 0.2, 0.4, 0.5, 0.5]
    assert Backoff(initial=1, max_delay=9).delay(10_000) <= 9  # no overflow far out
