"""Tools and agents for the loop tests; also run as a script by the two-process test:

    python -m tests.loop.agents start DB LOG     -> prints "RUN_ID APPROVAL_ID"
    python -m tests.loop.agents resume DB LOG RUN_ID APPROVAL_ID   -> prints the answer

Every execution of a write appends a line to LOG, so a test can count how often each
write really ran, whichever process ran it.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from callgate import tool
from callgate.gate import Gate, Policy, Rule
from callgate.loop import Agent, Approve, Limits
from callgate.models import ScriptedModel, Turn
from callgate.store import Store, open_store

LOG = Path(os.environ.get("CALLGATE_TEST_LOG", os.devnull))


def _log(line: str) -> None:
    with LOG.open("a", encoding="utf-8") as f:
        f.write(line + "\n")


@tool(effect="write")
def log_note(text: str) -> str:
    """Append a note to the customer file."""
    _log(f"log_note {text}")
    return "noted"


@tool(effect="write")
def pay(amount: int) -> str:
    """Pay the supplier."""
    _log(f"pay {amount}")
    return f"paid {amount}"


@tool(effect="read")
def lookup(name: str) -> str:
    """Look a supplier up."""
    return f"{name}: ACME, 1 Main St"


TOOLS = [log_note, pay, lookup]


def gate(store: Store) -> Gate:
    """Notes are allowed; payments (writes) are held for approval by the default policy."""
    return Gate(
        TOOLS,
        store=store,
        policy=Policy([Rule.allow("notes", "notes are harmless", tools=["log_note"])]),
    )


def first_turns() -> list[Turn]:
    return [
        Turn.call(
            ("lookup", {"name": "acme"}),
            ("log_note", {"text": "paying acme"}),
            ("pay", {"amount": 5}),
        )
    ]


def _main(argv: Sequence[str]) -> None:
    command, db = argv[0], argv[1]
    store = open_store(f"sqlite:///{db}")
    g = gate(store)
    try:
        if command == "start":
            agent = Agent(ScriptedModel(first_turns()), gate=g, store=store, limits=Limits(steps=5))
            result = asyncio.run(agent.run("Pay acme 5 and note it."))
            print(result.status, result.run_id, result.pending[0].approval_id)
        else:
            run_id, approval = argv[2], argv[3]
            agent = Agent(ScriptedModel([Turn.say("Paid and noted.")]), gate=g, store=store)
            result = asyncio.run(agent.resume(run_id, {approval: Approve(by="tester")}))
            print(result.status, result.answer)
    finally:
        g.close()
        store.close()


if __name__ == "__main__":
    _main(sys.argv[1:])
