"""`@tool`: schemas from type hints, descriptions from docstrings, sync and async."""

from __future__ import annotations

import datetime
import enum
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field

from callgate import CallContext, Catalog, Effect, Gate, Tool, ToolCall, UserError, tool


class Status(enum.Enum):
    OPEN = "OPEN"
    CANCELLED = "CANCELLED"


class Address(BaseModel):
    street: str
    city: str = "Moscow"


def test_schema_from_type_hints() -> None:
    @tool(effect="read")
    def find_orders(
        customer_id: str,
        status: Status,
        since: datetime.date,
        limit: Annotated[int, Field(ge=1, le=50)] = 10,
        sort: Literal["newest", "oldest"] = "newest",
        note: str | None = None,
    ) -> list[dict[str, Any]]:
        """Find a customer's orders."""
        return []

    schema = find_orders.input_schema
    props = schema["properties"]
    assert schema["required"] == ["customer_id", "status", "since"]
    assert schema["additionalProperties"] is False
    assert props["limit"] == {"default": 10, "maximum": 50, "minimum": 1, "type": "integer"}
    assert props["sort"]["enum"] == ["newest", "oldest"]
    assert props["since"]["format"] == "date"
    assert "note" not in schema["required"]
    status = schema["$defs"]["Status"]
    assert status["enum"] == ["OPEN", "CANCELLED"]
    assert "title" not in props["limit"]
    assert find_orders.effect is Effect.READ
    assert find_orders.annotations.read_only is True


def test_nested_models_are_closed_and_converted() -> None:
    seen: list[Address] = []

    @tool(effect="write")
    def set_address(supplier_id: str, address: Address) -> str:
        """Set a supplier's address."""
        seen.append(address)
        return "ok"

    nested = set_address.input_schema["$defs"]["Address"]
    assert nested["additionalProperties"] is False
    with Gate([set_address]) as gate:
        result = gate.call_sync(
            ToolCall(
                id="1",
                name="set_address",
                arguments={"supplier_id": "s1", "address": {"street": "Tverskaya 1"}},
            )
        )
    assert result.route == "completed"
    assert seen == [Address(street="Tverskaya 1", city="Moscow")]


@pytest.mark.parametrize(
    "doc",
    [
        """Look up a supplier. Use when the user names a supplier.

    Args:
        supplier_id: The supplier's id, e.g. S-1.
        verbose: Include history.
    """,
        """Look up a supplier. Use when the user names a supplier.

    Parameters
    ----------
    supplier_id : str
        The supplier's id, e.g. S-1.
    verbose : bool
        Include history.
    """,
        """Look up a supplier. Use when the user names a supplier.

    :param supplier_id: The supplier's id, e.g. S-1.
    :param verbose: Include history.
    """,
    ],
    ids=["google", "numpy", "sphinx"],
)
def test_docstring_styles(doc: str) -> None:
    def supplier_lookup(supplier_id: str, verbose: bool = False) -> dict[str, str]:
        return {}

    supplier_lookup.__doc__ = doc
    made = tool(effect="read")(supplier_lookup)
    assert made.description == "Look up a supplier. Use when the user names a supplier."
    props = made.input_schema["properties"]
    assert props["supplier_id"]["description"] == "The supplier's id, e.g. S-1."
    assert props["verbose"]["description"] == "Include history."


async def test_async_function_and_context_parameter() -> None:
    @tool(effect="read")
    async def whoami(prefix: str, call: CallContext) -> str:
        """Say who is calling."""
        return f"{prefix}{call.context.principal}:{call.call_id}"

    assert whoami.is_async
    assert "call" not in whoami.input_schema["properties"]
    result = await Gate([whoami]).call(
        ToolCall(id="c1", name="whoami", arguments='{"prefix": "> "}')
    )
    assert result.content == "> anonymous:c1"


def test_namespace_and_options() -> None:
    @tool(namespace="notes", effect="read", version="2", timeout=3, tags=("notes",))
    def search(query: str) -> list[str]:
        """Search notes."""
        return []

    assert search.name == "notes_search"
    assert search.namespace == "notes"
    assert search.timeout == 3 and search.version == "2" and search.tags == ("notes",)


def test_default_effect_is_cautious() -> None:
    @tool
    def touch(path: str) -> None:
        """Touch a file."""

    assert touch.effect is Effect.WRITE


def test_errors_are_readable() -> None:
    with pytest.raises(UserError, match="no description"):
        tool(lambda x: x)
    with pytest.raises(UserError, match="named parameters"):

        @tool
        def spread(*args: int) -> None:
            """Spread."""


def test_fingerprint_tracks_what_the_model_sees() -> None:
    def make(desc: str) -> Tool:
        def ping(host: str) -> str:
            return host

        ping.__doc__ = desc
        return tool(effect="read")(ping)

    assert make("Ping a host.").fingerprint == make("Ping a host.").fingerprint
    assert make("Ping a host.").fingerprint != make("Ping a host now.").fingerprint
    assert len(make("x").fingerprint) == 64


def test_tool_is_still_callable() -> None:
    @tool(effect="read")
    def add(a: int, b: int) -> int:
        """Add."""
        return a + b

    assert add(a=1, b=2) == 3
    assert "add" in Catalog([add])
