"""List = call: over random policies and principals, `tools/list` shows a caller exactly the
tools a call of which the gate does not deny, and a hidden tool cannot be called."""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client

from callgate import Catalog, Tool
from callgate.gate import Policy, Rule
from callgate.gateway import Gateway, GatewaySettings, Identity
from tests.mcp._support import running

EFFECTS = {
    "notes_read": "read",
    "notes_write": "write",
    "pay_send": "irreversible",
    "ops_restart": "write",
    "logs_query": "read",
}
NAMES = sorted(EFFECTS)
ROLES = ["dev", "ops", "admin"]
PRINCIPALS = ["ann", "bo", "bot-1"]


def _tool(name: str) -> Tool:
    return Tool(
        name=name,
        namespace=name.split("_")[0],
        description=f"The {name} tool.",
        input_schema={"type": "object", "additionalProperties": False},
        effect=EFFECTS[name],  # type: ignore[arg-type]
        executor=lambda: "ok",
    )


def _subset(items: list[str]) -> st.SearchStrategy[list[str] | None]:
    return st.none() | st.lists(st.sampled_from(items), min_size=1, max_size=3, unique=True)


@st.composite
def rules(draw: Any, index: int) -> Rule:
    action = draw(st.sampled_from(["allow", "deny", "ask"]))
    matchers: dict[str, Any] = {}
    for key, items in (
        ("tools", [*NAMES, "notes_*", "*_send"]),
        ("effects", ["read", "write", "irreversible"]),
        ("namespaces", ["notes", "pay", "ops", "logs"]),
        ("roles", ROLES),
        ("lacks_roles", ROLES),
        ("principals", [*PRINCIPALS, "bot-*"]),
        ("tenants", ["acme", "other"]),
    ):
        value = draw(_subset(items))
        if value is not None:
            matchers[key] = value
    factory = {"allow": Rule.allow, "deny": Rule.deny, "ask": Rule.ask}[action]
    rule: Rule = factory(f"r{index}", f"rule {index}", **matchers)
    return rule


policies = st.integers(0, 5).flatmap(
    lambda n: st.tuples(*(rules(i) for i in range(n)), st.sampled_from(["effect", "deny"]))
)
identities = st.builds(
    Identity,
    principal=st.sampled_from(PRINCIPALS),
    tenant=st.sampled_from(["acme", "other", None]),
    roles=st.frozensets(st.sampled_from(ROLES)),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(policy=policies, identity=identities)
def test_a_caller_sees_exactly_the_tools_it_may_call(policy: Any, identity: Identity) -> None:
    *chosen, default = policy
    gate_policy = Policy(chosen, default=default)
    anyio.run(_check, gate_policy, identity)


async def _check(policy: Policy, identity: Identity) -> None:
    gateway = Gateway(
        tools=Catalog([_tool(n) for n in NAMES]),
        policy=policy,
        store="sqlite://:memory:",
        settings=GatewaySettings(stdio=identity),
    )
    async with running(gateway), Client(gateway.server) as client:
        shown = {t.name for t in (await client.list_tools()).tools}
        for name in NAMES:
            result = await client.call_tool(name, {})
            route = (result.meta or {})["callgate/route"]
            callable_ = route != "denied"
            assert (name in shown) == callable_, (name, route, _text(result))
    gateway.close()


def _text(result: mcp_types.CallToolResult) -> str:
    block = result.content[0]
    return block.text if isinstance(block, mcp_types.TextContent) else ""
