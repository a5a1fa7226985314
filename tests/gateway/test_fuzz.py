"""Hostile calls through the gateway: every answer is a `CallToolResult` with `isError` set
as its route says, and a tool only ever runs with arguments its schema accepts."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import anyio
import mcp_types
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client

from callgate import Catalog, ToolCall, tool
from callgate.gateway import Gateway
from tests.mcp._support import running

RAN: list[str] = []


@tool(effect="read", namespace="notes")
def search(query: str, limit: int = 5) -> list[str]:
    """Search notes."""
    assert isinstance(query, str) and isinstance(limit, int)
    RAN.append(query)
    return [query][:limit]


scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=True, allow_infinity=True)
    # No lone surrogates: every MCP transport's JSON parser refuses them before the gateway
    # (the in-process case is the xfail below).
    | st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=30)
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=40,
)
arguments = st.dictionaries(
    st.sampled_from(["query", "limit", "extra", ""]) | st.text(max_size=10), values, max_size=4
)
names = st.sampled_from(["notes_search", "notes.search", "notes_serch", "x" * 300, "", "é"])


def _deep(depth: int) -> Any:
    value: Any = "leaf"
    for _ in range(depth):
        value = {"query": value}
    return value


@pytest.fixture(scope="module")
def gateway() -> Iterator[Gateway]:
    made = Gateway(tools=Catalog([search]), store="sqlite://:memory:")
    yield made
    made.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls=st.lists(st.tuples(names, arguments), min_size=1, max_size=8))
def test_hostile_calls_get_routes_never_exceptions(
    gateway: Gateway, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    anyio.run(_run, gateway, calls)


async def _run(gateway: Gateway, calls: list[tuple[str, dict[str, Any]]]) -> None:
    async with running(gateway), Client(gateway.server) as client:
        for name, args in [*calls, ("notes_search", _deep(100))]:
            before = len(RAN)
            result = await client.call_tool(name, args)
            assert isinstance(result, mcp_types.CallToolResult)
            route = (result.meta or {})["callgate/route"]
            assert result.is_error is (route not in ("completed", "verified"))
            ran = len(RAN) > before
            assert ran is (route == "completed")
            if ran:
                assert isinstance(args.get("query"), str)
                assert not isinstance(args.get("limit"), float) or not math.isnan(args["limit"])


async def test_a_lone_surrogate_in_python_arguments_is_an_invalid_call(gateway: Gateway) -> None:
    result = await gateway.gate.call(
        ToolCall(id="1", name="notes_search", arguments={"query": "\ud800"})
    )
    assert result.route == "invalid"
