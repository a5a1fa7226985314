"""Inputs the fuzz suite found that still break code outside the schema and dialect layers.

Each is the smallest example of its failure, marked `xfail(strict=True)` with the area it
belongs to, so the fix turns it into a passing test (and then the exclusion in the fuzz
strategy that names it can go).
"""

from __future__ import annotations

import contextlib

import pytest

from callgate import Agent, Catalog, Gate, Route, ToolCall, tool
from callgate.dialects import DialectError, convert, extract_calls
from callgate.lint import diff_catalogs, lint
from callgate.testing import ScriptedCall, ScriptedModel, Turn


@tool(effect="read")
def lookup(query: str = "") -> str:
    """Look something up."""
    return "found"


async def test_the_circuit_breaker_survives_deeply_nested_argument_text() -> None:
    text = "[" * 5000 + "]" * 5000
    model = ScriptedModel(
        [Turn.call(ScriptedCall(name="lookup", arguments=text)), Turn.say("done")]
    )
    result = await Agent(model, Catalog([lookup])).run("go")
    assert result.answer == "done"
    assert result.calls[0].result.route == "invalid"


async def test_deep_arguments_with_a_store() -> None:
    deep: object = 1
    for _ in range(5000):
        deep = [deep]
    gate = Gate([lookup], store="sqlite://:memory:")
    result = await gate.call(ToolCall(id="c", name="lookup", arguments={"query": deep}))
    assert result.route == Route.INVALID


@pytest.mark.parametrize(
    "text", ["[" * 5000, '{"name": "lookup", "arguments": ' * 1000], ids=["brackets", "repeated"]
)
def test_extract_calls_survives_deep_brackets(text: str) -> None:
    with contextlib.suppress(DialectError):  # a DialectError is an answer; others fail
        extract_calls(text, [lookup])


def test_diff_of_a_bound_that_is_not_a_number() -> None:
    def declare(maximum: object) -> list[dict[str, object]]:
        schema = {"type": "object", "properties": {"n": {"type": "integer", "maximum": maximum}}}
        return [{"name": "t", "description": "d", "parameters": schema}]

    diff_catalogs(declare(7), declare({"": ""}))


def test_extract_calls_survives_a_lone_surrogate_in_a_pythonic_call() -> None:
    with contextlib.suppress(DialectError):
        extract_calls('lookup(query="\ud800")', [lookup])


def test_convert_rewrites_a_call_id_with_a_lone_surrogate() -> None:
    history = [
        {"role": "assistant", "tool_calls": [{"id": "\ud800", "function": {"name": "lookup"}}]},
        {"role": "tool", "tool_call_id": "\ud800", "content": "found"},
    ]
    with contextlib.suppress(DialectError):
        convert(history, source="openai_chat", target="anthropic")


async def test_the_breaker_notice_is_encodable_text() -> None:
    bad = ScriptedCall(name="lookup\ud800", arguments="{}")
    model = ScriptedModel([Turn.call(bad, bad, bad), Turn.say("done")])
    result = await Agent(model, Catalog([lookup])).run("go")
    for record in result.calls:
        record.result.content.encode("utf-8")


def test_lint_of_an_enum_that_is_not_a_list() -> None:
    schema = {"type": "object", "properties": {"unit": {"enum": 10**120}}}
    lint([{"name": "get_weather", "description": "Forecast.", "parameters": schema}])
