"""What the durable runs of the tests do: a payment tool whose effects are counted outside
callgate (a SQLite ledger of its own), a model that reads the transcript, and the agent.

Imported by the tests and by the processes they start and kill (`dbos_app.py`,
`temporal_app.py`), which read their settings from the environment:

- `CALLGATE_TEST_EFFECTS`: the ledger file that counts transfers;
- `CALLGATE_TEST_STORE`: the callgate store URL (receipts, approvals, keys, run states);
- `CALLGATE_TEST_HANG`: `before` or `after`: the transfer stops, for good, before or after
  its effect (so a test can kill the process right there);
- `CALLGATE_TEST_POLICY`: `allow` lets transfers run; otherwise they are held for approval;
- `CALLGATE_TEST_POLL`: seconds between two reads of the approvals while a call is held;
- `CALLGATE_TEST_AGENT`: `orders` runs the orders script (every route in one run) instead
  of a single transfer.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
from pathlib import Path
from typing import Any

from callgate import CallContext, Tool, tool
from callgate.gate import Gate, Policy, Rule
from callgate.loop import Agent, Limits
from callgate.models import ModelRequest, ScriptedModel, Turn
from callgate.store import Store, open_store

TIMEOUT = 4.0
"""The transfer's deadline: with the gate's lease margin, how long a dead owner's claim
holds its key before another process may reconcile it."""
LEASE_MARGIN = 0.5


def ledger(path: str | Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=30, isolation_level=None)
    db.execute("CREATE TABLE IF NOT EXISTS transfers (key TEXT, recipient TEXT, amount INT)")
    return db


def transfers(path: str | Path) -> list[tuple[str, str, int]]:
    """Every transfer the ledger holds, duplicates included (no unique key on purpose)."""
    with ledger(path) as db:
        return list(db.execute("SELECT key, recipient, amount FROM transfers ORDER BY rowid"))


def _mark(name: str) -> None:
    Path(os.environ["CALLGATE_TEST_EFFECTS"] + f".{name}").write_text("1")


def _applied(key: str) -> bool:
    db = ledger(os.environ["CALLGATE_TEST_EFFECTS"])
    try:
        return db.execute("SELECT 1 FROM transfers WHERE key = ?", (key,)).fetchone() is not None
    finally:
        db.close()


def _reconcile(key: str) -> bool:
    """Asked by the gate when a transfer's process died after its claim: did it happen?"""
    return _applied(key)


@tool(effect="write", timeout=TIMEOUT, reconcile=_reconcile)
async def transfer(recipient: str, amount: int, ctx: CallContext) -> str:
    """Send money to a recipient."""
    hang = os.environ.get("CALLGATE_TEST_HANG")
    if hang == "before":
        _mark("started")
        await asyncio.sleep(3600)
    db = ledger(os.environ["CALLGATE_TEST_EFFECTS"])
    try:
        db.execute(
            "INSERT INTO transfers VALUES (?, ?, ?)", (ctx.idempotency_key, recipient, amount)
        )
    finally:
        db.close()
    if hang == "after":
        _mark("started")
        await asyncio.sleep(3600)
    return f"sent {amount} to {recipient}"


def _next_turn(request: ModelRequest) -> Turn:
    """Reads the transcript like a model would, so a replayed run is answered the same."""
    last = request.messages[-1]
    if last.role == "tool":
        return Turn.say(f"done: {last.results[0].route.value}: {last.results[0].content}")
    return Turn.call(("transfer", {"recipient": "ana", "amount": 25}))


def model() -> ScriptedModel:
    return ScriptedModel([_next_turn] * 8)


def tools() -> list[Tool]:
    return [transfer]


@tool(effect="read")
def lookup(order_id: str) -> dict[str, str]:
    """Look an order up."""
    return {"order_id": order_id, "state": "shipped"}


@tool(effect="write")
def refund(order_id: str, amount: int) -> str:
    """Refund an order."""
    return f"refunded {amount} on {order_id}"


ORDERS_PROMPT = "Check A1, refund it, pay ana."
ORDERS_ROUTES = [
    ("lookup", "completed"),
    ("lookup", "invalid"),
    ("refund", "denied"),
    ("transfer", "held"),
    ("transfer", "completed"),
]
"""What the orders script gives, by call: a read, an invalid argument, a policy denial and a
held write approved."""


def orders_agent(store: Store) -> Agent:
    """An agent whose one run takes every route: a read, an invalid call, a denied refund,
    a transfer held for approval."""
    script = [
        Turn.call(
            ("lookup", {"order_id": "A1"}),
            ("lookup", {"order_id": 5}),
            ("refund", {"order_id": "A1", "amount": 10}),
        ),
        Turn.call(("transfer", {"recipient": "ana", "amount": 25})),
        Turn.say("Done."),
    ]
    policy = Policy([Rule.deny("no-refunds", "refunds go through the desk", tools=["refund"])])
    gate = Gate([lookup, refund, transfer], store=store, policy=policy)
    return Agent(ScriptedModel(script), gate=gate, store=store, limits=Limits(steps=5))


def receipts(store: Store) -> list[tuple[Any, ...]]:
    """What each receipt says, once the chain verifies (sorted: the calls of one batch
    finish in any order)."""
    assert store.receipts.verify().ok
    return sorted(
        (r.call_id, r.route.value, r.tool_name, r.idempotency_key, r.rule_id, r.run_id, r.batch_id)
        for r in store.receipts.list()
    )


def store() -> Store:
    return open_store(os.environ["CALLGATE_TEST_STORE"])


def agent(store: Store) -> Agent:
    if os.environ.get("CALLGATE_TEST_AGENT") == "orders":
        return orders_agent(store)
    allow = os.environ.get("CALLGATE_TEST_POLICY") == "allow"
    policy = Policy([Rule.allow("transfers", tools=["transfer"])]) if allow else Policy()
    gate = Gate(tools(), store=store, policy=policy, lease_margin=LEASE_MARGIN)
    return Agent(model(), gate=gate, store=store, limits=Limits(steps=6))


def report(event: str, **data: Any) -> None:
    """One line of JSON on stdout for the test that watches the process."""
    print(json.dumps({"event": event, **data}), flush=True)
