"""Rule of Two labels are a closed, validated set: a wrong type or an unknown label is an
error when the tool is declared, never a silent gap at run time."""

from __future__ import annotations

from typing import Any

import pytest

from callgate import Tool, ToolAnnotations, UserError, tool
from callgate.contract import LABELS, tool_from_declaration

SCHEMA = {"type": "object", "properties": {}}


def test_the_labels_are_the_three_of_the_design() -> None:
    assert {"untrusted_output", "private_data", "public_sink"} == LABELS


@pytest.mark.parametrize("labels", [["untrusted_output"], ("private_data",), {"public_sink"}])
def test_any_collection_of_known_labels_is_accepted(labels: Any) -> None:
    made = Tool(name="t", description="d", input_schema=SCHEMA, labels=labels)
    assert made.labels == frozenset(labels)


@pytest.mark.parametrize(
    ("labels", "message"),
    [
        ({"untrusted"}, "unknown label"),
        (["private_data", "secret"], "'secret'"),
        ("untrusted_output", "not str"),
        (7, "not int"),
    ],
)
def test_unknown_labels_and_wrong_types_are_errors(labels: Any, message: str) -> None:
    with pytest.raises(UserError, match=message):
        Tool(name="t", description="d", input_schema=SCHEMA, labels=labels)
    with pytest.raises(UserError, match=message):

        @tool(labels=labels)
        def t() -> None:
            """A tool."""


def test_an_open_world_tool_is_untrusted_output() -> None:
    made = Tool(
        name="t",
        description="d",
        input_schema=SCHEMA,
        annotations=ToolAnnotations(open_world=True),
    )
    assert made.labels == {"untrusted_output"}
    declared = tool_from_declaration(
        {
            "name": "search_web",
            "description": "Search the web.",
            "inputSchema": SCHEMA,
            "annotations": {"readOnlyHint": True, "openWorldHint": True},
        }
    )
    assert "untrusted_output" in declared.labels
