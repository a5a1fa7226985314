"""Tools from declaration dicts in every shape users already hold."""

from __future__ import annotations

from typing import Any

import pytest

from callgate import Catalog, Effect, Gate, ToolCall, UserError, tool_from_declaration
from callgate.contract import read_declaration

SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}

SHAPES: dict[str, dict[str, Any]] = {
    "plain": {"name": "get_weather", "description": "Weather.", "parameters": SCHEMA},
    "openai_chat": {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Weather.",
            "parameters": SCHEMA,
            "strict": True,
        },
    },
    "openai_responses": {
        "type": "function",
        "name": "get_weather",
        "description": "Weather.",
        "parameters": SCHEMA,
        "strict": False,
    },
    "anthropic": {"name": "get_weather", "description": "Weather.", "input_schema": SCHEMA},
    "mcp": {
        "name": "get_weather",
        "description": "Weather.",
        "inputSchema": SCHEMA,
        "annotations": {"readOnlyHint": True},
    },
    "gemini": {"name": "get_weather", "description": "Weather.", "parametersJsonSchema": SCHEMA},
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_every_shape(shape: str) -> None:
    made = tool_from_declaration(SHAPES[shape], lambda city: f"sunny in {city}", effect="read")
    assert read_declaration(SHAPES[shape]).shape == shape
    assert made.name == "get_weather"
    assert made.input_schema["required"] == ["city"]
    result = Gate([made]).call_sync(
        ToolCall(id="1", name="get_weather", arguments={"city": "Oslo"})
    )
    assert result.route == "completed" and result.content == "sunny in Oslo"


# MCP: readOnlyHint defaults to false, destructiveHint to true and means something only when
# readOnlyHint is false. A spec default written out says no more than leaving it out.
EFFECTS = {
    (None, None): Effect.WRITE,
    (None, False): Effect.WRITE,
    (None, True): Effect.IRREVERSIBLE,
    (False, None): Effect.WRITE,
    (False, False): Effect.WRITE,
    (False, True): Effect.IRREVERSIBLE,
    (True, None): Effect.READ,
    (True, False): Effect.READ,
    (True, True): Effect.READ,
}


@pytest.mark.parametrize(("hints", "expected"), list(EFFECTS.items()), ids=str)
def test_mcp_annotations_decide_the_effect(
    hints: tuple[bool | None, bool | None], expected: Effect
) -> None:
    read_only, destructive = hints
    given = {"readOnlyHint": read_only, "destructiveHint": destructive}
    annotations = {k: v for k, v in given.items() if v is not None}
    base = {"name": "t", "description": "d", "inputSchema": {"type": "object"}}
    made = tool_from_declaration({**base, "annotations": annotations})
    assert made.effect is expected
    # The other hints never change the effect.
    more = {**annotations, "idempotentHint": True, "openWorldHint": False}
    assert tool_from_declaration({**base, "annotations": more}).effect is expected
    # An explicit effect wins over any hints.
    assert tool_from_declaration({**base, "annotations": annotations}, effect="read").effect is (
        Effect.READ
    )


def test_the_explicit_mcp_default_reads_like_no_annotations() -> None:
    base = {"name": "t", "description": "d", "inputSchema": {"type": "object"}}
    explicit = tool_from_declaration({**base, "annotations": {"readOnlyHint": False}})
    assert explicit.effect is tool_from_declaration(base).effect is Effect.WRITE


def test_dotted_names_become_namespaces() -> None:
    made = tool_from_declaration(
        {
            "name": "math_toolkit.sum_of_multiples",
            "description": "x",
            "parameters": {"type": "dict", "properties": {"n": {"type": "float"}}},
        }
    )
    assert made.name == "math_toolkit_sum_of_multiples"
    assert made.namespace == "math_toolkit"
    assert made.metadata["source_name"] == "math_toolkit.sum_of_multiples"
    assert made.input_schema["type"] == "object"
    assert made.input_schema["properties"]["n"]["type"] == "number"
    assert made.metadata["schema_repairs"]


def test_legacy_argument_lists() -> None:
    made = tool_from_declaration(
        {
            "name": "read_query",
            "description": "Run a query",
            "arguments": [
                {"name": "query", "type": "string", "desc": "SQL"},
                {"name": "limit", "type": "integer", "optional": True},
            ],
        }
    )
    assert made.input_schema["required"] == ["query"]
    assert made.input_schema["properties"]["query"]["description"] == "SQL"


@pytest.mark.parametrize("bad", [{}, {"name": ""}, {"name": "x", "parameters": [1]}, [1]])
def test_bad_declarations_raise_user_errors(bad: Any) -> None:
    with pytest.raises(UserError):
        tool_from_declaration(bad)


def test_catalog_from_declarations_matches_executors_by_name() -> None:
    catalog = Catalog.from_declarations(
        [SHAPES["anthropic"], {"name": "notes.search", "description": "Search notes."}],
        {"get_weather": lambda city: city, "notes.search": list},
        effect="read",
    )
    assert catalog.names == ["get_weather", "notes_search"]
    assert all(t.executor is not None for t in catalog)


@pytest.mark.parametrize("shape", list(SHAPES))
def test_a_declaration_read_once_makes_the_same_tool(shape: str) -> None:
    read = read_declaration(SHAPES[shape])
    assert tool_from_declaration(read) == tool_from_declaration(SHAPES[shape])
    assert read_declaration(SHAPES[shape], checked=True) == read
