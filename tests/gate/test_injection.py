"""Server-side arguments: filled from the context, never shown to or taken from the model."""

from __future__ import annotations

from typing import Annotated, Any

import pytest

from callgate import Context, ToolCall, UserError, tool, tool_from_declaration
from callgate.contract import Route
from callgate.gate import FromContext, Gate, Policy, Rule


def _scoped() -> tuple[Any, list[tuple[str, str, str]]]:
    seen: list[tuple[str, str, str]] = []

    @tool(effect="read")
    def list_invoices(
        status: str,
        tenant: Annotated[str, FromContext("tenant")],
        user: Annotated[str, FromContext("principal")],
    ) -> str:
        """List the tenant's invoices."""
        seen.append((status, tenant, user))
        return f"{tenant}:{status}"

    return list_invoices, seen


def test_server_parameters_are_left_out_of_the_schema() -> None:
    scoped, _ = _scoped()
    assert scoped.server_parameters == {"tenant": "tenant", "user": "principal"}
    assert set(scoped.input_schema["properties"]) == {"status"}


@pytest.mark.parametrize("store", [False, True])
async def test_the_context_value_is_the_only_one_used(store: bool, sqlite_url: str) -> None:
    scoped, seen = _scoped()
    ctx = Context(principal="ann", tenant="acme")
    with Gate([scoped], store=sqlite_url if store else None) as gate:
        ok = await gate.call(
            ToolCall(id="1", name="list_invoices", arguments={"status": "open"}), context=ctx
        )
        sneaky = await gate.call(
            ToolCall(
                id="2", name="list_invoices", arguments={"status": "open", "tenant": "globex"}
            ),
            context=ctx,
        )
    assert ok.route is Route.COMPLETED and ok.content == "acme:open"
    assert sneaky.route is Route.INVALID and "'tenant' is set by the host" in sneaky.content
    assert seen == [("open", "acme", "ann")]


async def test_a_missing_context_value_denies_the_call() -> None:
    scoped, seen = _scoped()
    with Gate([scoped]) as gate:
        result = await gate.call(
            ToolCall(id="1", name="list_invoices", arguments={"status": "open"}),
            context=Context(principal="ann"),
        )
    assert result.route is Route.DENIED and "tenant" in result.content
    assert seen == []


async def test_attributes_and_policy_see_injected_values() -> None:
    @tool(effect="read")
    def region_report(region: Annotated[str, FromContext("region")]) -> str:
        """Report for the caller's region."""
        return region

    policy = Policy(
        [
            Rule.deny(
                "no-eu",
                "EU reports are closed",
                arguments={"properties": {"region": {"const": "eu"}}, "required": ["region"]},
            )
        ]
    )
    with Gate([region_report], policy=policy) as gate:
        us = await gate.call(
            ToolCall(id="1", name="region_report"), context=Context(attributes={"region": "us"})
        )
        eu = await gate.call(
            ToolCall(id="2", name="region_report"), context=Context(attributes={"region": "eu"})
        )
    assert (us.route, us.content) == (Route.COMPLETED, "us")
    assert (eu.route, eu.rule_id) == (Route.DENIED, "no-eu")


def test_declared_tools_take_server_parameters_but_never_in_the_schema() -> None:
    decl = {
        "name": "get_doc",
        "description": "Get a document.",
        "parameters": {"type": "object", "properties": {"doc_id": {"type": "string"}}},
    }
    made = tool_from_declaration(
        decl, lambda doc_id, tenant: doc_id, effect="read", server_parameters={"tenant": "tenant"}
    )
    assert made.server_parameters == {"tenant": "tenant"}
    leaky = {
        **decl,
        "parameters": {
            "type": "object",
            "properties": {"doc_id": {"type": "string"}, "tenant": {"type": "string"}},
        },
    }
    with pytest.raises(UserError, match="must not appear in the input schema"):
        tool_from_declaration(leaky, effect="read", server_parameters={"tenant": "tenant"})
