"""A store with real held calls for the page's tests: an `Agent` run of the scripted model
paused on a refund whose arguments carry an XSS payload, and a run held by the Rule of Two.

Nothing here is faked below the model: the calls go through the gate into a SQLite store,
the page reads that store, and the run resumes from it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from callgate import Catalog, Context, tool
from callgate.gate import Gate, ReceiptSettings
from callgate.gateway import Credentials, Identity, hash_token
from callgate.loop import Agent, RunResult
from callgate.models import ScriptedModel, Turn
from callgate.store import Store, open_store

XSS = '<img src=x onerror="document.title=\'owned\'"><script>alert("xss")</script>'
"""A payload in a model's arguments and in a tool's result: it must show as text."""
APPROVER_TOKEN = "approver-token-0123456789abcdef"
AUDITOR_TOKEN = "auditor-token-0123456789abcdef0"
BOT_TOKEN = "bot-token-0123456789abcdef012345"
OTHER_TENANT_TOKEN = "globex-approver-token-0123456789"
PAUSED_RUN = "run-refund"
T = TypeVar("T")
TRAIL_RUN = "run-wire"


@dataclass
class Ledger:
    """The side effects of the scenario's tools, to prove what ran and how often."""

    refunds: list[tuple[str, int]] = field(default_factory=list)
    wires: list[tuple[str, int]] = field(default_factory=list)


def catalog(ledger: Ledger) -> Catalog:
    @tool(effect="read", labels=("untrusted_output",))
    def read_mail() -> str:
        """Read the newest customer mail."""
        return f"Please refund order O-7. {XSS}"

    @tool(effect="read", labels=("private_data",))
    def lookup_customer(customer_id: str) -> dict[str, str]:
        """Look up a customer's account."""
        return {"customer_id": customer_id, "iban": "DE02120300000000202051"}

    @tool(effect="write")
    def refund(order_id: str, amount: int) -> str:
        """Refund an order."""
        ledger.refunds.append((order_id, amount))
        return f"refunded {amount} on {order_id}"

    @tool(effect="irreversible")
    def send_wire(to: str, amount: int) -> str:
        """Send money to an account."""
        ledger.wires.append((to, amount))
        return f"sent {amount} to {to}"

    return Catalog([read_mail, lookup_customer, refund, send_wire])


def credentials() -> Credentials:
    return Credentials(
        {
            hash_token(APPROVER_TOKEN): Identity(principal="bo", roles=frozenset({"approver"})),
            hash_token(AUDITOR_TOKEN): Identity(principal="ida", roles=frozenset({"auditor"})),
            hash_token(BOT_TOKEN): Identity(principal="bot", roles=frozenset({"developer"})),
            hash_token(OTHER_TENANT_TOKEN): Identity(
                principal="gus", tenant="globex", roles=frozenset({"approver"})
            ),
        }
    )


SETTINGS = f"""
[[gateway.clients]]
principal = "bo"
roles = ["approver"]
token_sha256 = "{hash_token(APPROVER_TOKEN)}"

[[gateway.clients]]
principal = "ida"
roles = ["auditor"]
token_sha256 = "{hash_token(AUDITOR_TOKEN)}"
"""
"""The same approver and auditor as `callgate.toml`, for `callgate ui --config`."""


class Scenario:
    """A store in `folder` with the paused run and the Rule of Two hold, and the agent
    that resumes the run."""

    def __init__(self, folder: Path, store: Store | None = None) -> None:
        self.url = f"sqlite:///{folder / 'callgate.db'}"
        self.store: Store = store if store is not None else open_store(self.url, create=True)
        self.ledger = Ledger()
        self.catalog = catalog(self.ledger)
        self.gate = Gate(
            self.catalog,
            store=self.store,
            context=Context(principal="ann", tenant="acme"),
            receipts=ReceiptSettings(store_payloads=True),
        )

    def agent(self, turns: list[Turn]) -> Agent:
        return Agent(ScriptedModel(turns), gate=self.gate, store=self.store)

    def pause_refund(self) -> RunResult:
        """Turn 1 reads the mail and the customer, turn 2 proposes the held refund."""
        turns = [
            Turn.call(("read_mail", {}), ("lookup_customer", {"customer_id": "C-1"})),
            Turn.call(("refund", {"order_id": XSS, "amount": 20})),
            Turn.say("Refunded order O-7."),
        ]
        self._refund_agent = self.agent(turns)
        return _run(self._refund_agent.run("Handle the newest mail", run_id=PAUSED_RUN))

    def resume_refund(self) -> RunResult:
        """What the run's host does once the call is decided: resume from the store."""
        return _run(self._refund_agent.resume(PAUSED_RUN))

    def hold_wire(self) -> RunResult:
        """Untrusted mail and private data in one run, then an irreversible call: held by
        the Rule of Two whatever the policy says."""
        turns = [
            Turn.call(("read_mail", {})),
            Turn.call(("lookup_customer", {"customer_id": "C-2"})),
            Turn.call(("send_wire", {"to": "DE89370400440532013000", "amount": 900})),
            Turn.say("Sent."),
        ]
        with self.agent(turns) as agent:
            return _run(agent.run("Pay what the mail asks", run_id=TRAIL_RUN))

    def close(self) -> None:
        if hasattr(self, "_refund_agent"):
            self._refund_agent.close()
        self.gate.close()
        self.store.close()


def _run(work: Coroutine[Any, Any, T]) -> T:
    """Run `work` to its end on an event loop of its own thread: the browser tests' thread
    already runs Playwright's loop."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, work).result()


def scenario(folder: Path, store: Store | None = None) -> Iterator[Scenario]:
    built = Scenario(folder, store)
    try:
        yield built
    finally:
        built.close()


def tools() -> Catalog:
    """The scenario's catalog, for `callgate ui --tools tests.ui.scenario:tools` (the page
    only reads the schemas; the tools run in the host)."""
    return catalog(Ledger())
