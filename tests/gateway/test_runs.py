"""The run of a gateway call: named by the client in `_meta` or one per principal, never
confused between principals, tenants or names; forgotten (labels and grants) when idle,
while a pending approval still finds its repeat. Malformed `_meta` values are refused."""

from __future__ import annotations

from typing import Any, cast

import anyio
import mcp_types
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mcp import Client, MCPError

from callgate import Approve, tool
from callgate.gate import Policy
from callgate.gateway import RUN_META, Gateway, GatewaySettings, Identity, run_id
from tests.mcp._support import running

POLICY = Policy.loads('[[rules]]\nid = "mail"\naction = "allow"\ntools = ["mail_send"]\n')


@tool(effect="read", namespace="web", labels={"untrusted_output", "private_data"})
def fetch(url: str) -> str:
    """Fetch a page."""
    return "page"


@tool(effect="irreversible", namespace="mail")
def send(to: str) -> str:
    """Send mail."""
    return f"sent to {to}"


@tool(effect="write", namespace="notes")
def add(text: str) -> str:
    """Add a note (held by the default policy)."""
    return f"added {text}"


def gateway(**settings: Any) -> Gateway:
    return Gateway(
        tools=[fetch, send, add],
        policy=POLICY,
        store="sqlite://:memory:",
        settings=GatewaySettings(stdio=Identity(principal="ann", tenant="acme"), **settings),
    )


def in_run(name: str | None) -> mcp_types.RequestParamsMeta | None:
    return cast(mcp_types.RequestParamsMeta, {RUN_META: name}) if name else None


def rule(result: mcp_types.CallToolResult) -> str:
    return str((result.meta or {}).get("callgate/rule"))


async def test_runs_named_by_the_client_keep_their_labels_apart() -> None:
    gw = gateway()
    async with running(gw), Client(gw.server) as client:
        await client.call_tool("web_fetch", {"url": "https://x.example"}, meta=in_run("task-1"))
        tainted = await client.call_tool("mail_send", {"to": "a@x"}, meta=in_run("task-1"))
        clean = await client.call_tool("mail_send", {"to": "a@x"}, meta=in_run("task-2"))
        shared = await client.call_tool("mail_send", {"to": "a@x"})  # the principal's run
    assert rule(tainted) == "rule-of-two" and (tainted.meta or {})["callgate/route"] == "held"
    assert rule(clean) == rule(shared) == "mail"
    assert gw.store.labels.of("mcp:acme/ann/task-1")
    assert gw.store.labels.of("mcp:acme/ann") == {}
    gw.close()


async def test_an_idle_run_is_forgotten_and_a_held_call_still_finds_its_approval() -> None:
    gw = gateway(run_idle=1.0)
    async with running(gw), Client(gw.server) as client:
        await client.call_tool("web_fetch", {"url": "https://x.example"})
        tainted = await client.call_tool("mail_send", {"to": "a@x"})
        assert rule(tainted) == "rule-of-two"
        held = await client.call_tool("notes_add", {"text": "t"})
        assert rule(held) == "default:write"
        await anyio.sleep(1.2)
        await gw.forget_idle_runs()  # (the gateway's own round may have come first)
        assert gw.store.labels.of("mcp:acme/ann") == {}
        fresh = await client.call_tool("mail_send", {"to": "a@x"})
        assert rule(fresh) == "mail"  # a new stretch of the run: nothing untrusted in it
        approval = str((held.meta or {})["callgate/approval-id"])
        await gw.gate.decide(approval, Approve(by="ops"))
        done = await client.call_tool("notes_add", {"text": "t"})
        assert (done.meta or {})["callgate/route"] == "completed"
        assert (done.meta or {})["callgate/approval-id"] == approval
    gw.close()


async def test_the_gateway_forgets_idle_runs_by_itself() -> None:
    gw = gateway(run_idle=1.0)
    async with running(gw), Client(gw.server) as client:
        await client.call_tool("web_fetch", {"url": "https://x.example"})
        assert gw.store.labels.of("mcp:acme/ann")
        with anyio.fail_after(10):
            while gw.store.labels.of("mcp:acme/ann"):  # noqa: ASYNC110 - another task's work
                await anyio.sleep(0.1)
    gw.close()


@pytest.mark.parametrize(
    "meta",
    [
        {RUN_META: ""},
        {RUN_META: "x" * 129},
        {RUN_META: 7},
        {RUN_META: "line\nbreak"},
        {"callgate/idempotency-key": "k" * 257},
        {"callgate/idempotency-key": ["k"]},
        {"callgate/idempotency-key": ""},
    ],
)
async def test_malformed_meta_values_are_refused(meta: dict[str, Any]) -> None:
    gw = gateway()
    async with running(gw), Client(gw.server) as client:
        with pytest.raises(MCPError, match="must be a string"):
            await client.call_tool(
                "web_fetch", {"url": "x"}, meta=cast(mcp_types.RequestParamsMeta, meta)
            )
    assert gw.store.receipts.head().seq == 0  # refused before the gate: nothing ran
    gw.close()


_TEXT = st.text(max_size=20)


@given(
    a=st.tuples(_TEXT.filter(bool), st.none() | _TEXT, st.none() | _TEXT),
    b=st.tuples(_TEXT.filter(bool), st.none() | _TEXT, st.none() | _TEXT),
)
def test_different_callers_or_names_never_share_a_run(
    a: tuple[str, str | None, str | None], b: tuple[str, str | None, str | None]
) -> None:
    def of(principal: str, tenant: str | None, name: str | None) -> str:
        meta = {RUN_META: name} if name is not None else None
        return run_id(Identity(principal=principal, tenant=tenant), meta)

    def named(name: str | None) -> str | None:
        ok = name is not None and 0 < len(name) <= 128 and name.isprintable()
        return name if ok else None

    same = (a[0], a[1] or "-", named(a[2])) == (b[0], b[1] or "-", named(b[2]))
    assert (of(*a) == of(*b)) is same
