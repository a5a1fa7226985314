"""A selecting agent for the loop tests; also run as a script by the two-process test:

    python -m tests.loop.selecting start DB     -> prints "STATUS RUN_ID APPROVAL_ID"
    python -m tests.loop.selecting resume DB RUN_ID APPROVAL_ID
        -> prints the JSON list of tool names each model request of the resumed run carried

Each process builds its own catalog, index, selector and gate: only the store is shared.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Sequence

from callgate import Catalog
from callgate.gate import Gate, Policy, Rule
from callgate.loop import Agent, Approve, Limits
from callgate.models import ModelRequest, ScriptedModel, Turn, TurnSource
from callgate.retrieval import ToolIndex, ToolSelector, policy_filter, search_tool
from callgate.store import Store, open_store
from tests.retrieval.tools import catalog

POLICY = Policy(
    [
        Rule.deny("no-deletes", "accounts are closed by support", tools=["delete_*"]),
        Rule.allow("reads", tools=["*"], effects=["read"]),
    ]
)
"""Reads run, deletes are denied outright, other writes (send_email) wait for approval."""


def agent(
    turns: Sequence[TurnSource],
    *,
    store: Store | None = None,
    k: int = 2,
    limits: Limits | None = None,
) -> tuple[Agent, ScriptedModel, ToolSelector]:
    tools = catalog()
    selector = ToolSelector(ToolIndex(tools), k=k, allowed=policy_filter(POLICY))
    search = search_tool(selector)
    gate = Gate(Catalog([*tools, search]), policy=POLICY, store=store)
    model = ScriptedModel(turns)
    return (
        Agent(model, gate=gate, selector=selector, store=store, limits=limits or Limits(steps=6)),
        model,
        selector,
    )


def names(request: ModelRequest) -> list[str]:
    return [t.name for t in request.tools]


def _main(argv: Sequence[str]) -> None:
    with open_store(f"sqlite:///{argv[1]}") as store:
        if argv[0] == "start":
            a, _, _ = agent(
                [
                    Turn.call(
                        ("tool_search", {"query": "convert currency"}),
                        (
                            "send_email",
                            {"to": "ann@example.com", "subject": "Oslo", "body": "Sunny"},
                        ),
                    )
                ],
                store=store,
            )
            result = asyncio.run(a.run("Email Ann the weather in Oslo."))
            print(result.status, result.run_id, result.pending[0].approval_id)
        else:
            a, model, _ = agent([Turn.say("Sent.")], store=store)
            result = asyncio.run(a.resume(argv[2], {argv[3]: Approve(by="tester")}))
            assert result.status == "finished", result.status
            print(json.dumps([names(r) for r in model.requests]))
        a.gate.close()


if __name__ == "__main__":
    _main(sys.argv[1:])
