"""Text mode: the prompt section, and calls found in free text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from callgate.contract import Effect, Route, Tool, ToolCall, ToolResult, tool_from_declaration
from callgate.dialects import (
    Message,
    ToolChoice,
    Transcript,
    extract_calls,
    read_messages,
    render_tools,
    write_messages,
)
from callgate.schema import ArgumentError, parse_arguments

CORPUS = Path(__file__).parent / "data" / "text_corpus.jsonl"
WEATHER = Tool(
    name="get_weather",
    description="Weather.",
    effect=Effect.READ,
    input_schema={
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "days": {"type": "integer"},
            "metric": {"type": "boolean"},
        },
        "required": ["city"],
    },
)
SUM = Tool(
    name="math_sum",
    description="",
    effect=Effect.READ,
    metadata={"source_name": "math.sum"},
    input_schema={
        "type": "object",
        "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
    },
)
TOOLS = [WEATHER, SUM]


def calls(text: str) -> list[tuple[str, Any]]:
    return [(c.name, c.arguments) for c in extract_calls(text, TOOLS).calls]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>',
            [("get_weather", {"city": "Oslo"})],
        ),
        (
            '<tool_call>{"name": "get_weather", "arguments": {"city": "A"}}\n'
            '<tool_call>{"name": "math_sum", "arguments": {"a": 1, "b": 2}}',
            [("get_weather", {"city": "A"}), ("math_sum", {"a": 1, "b": 2})],
        ),
        (
            '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Rome"}}]',
            [("get_weather", {"city": "Rome"})],
        ),
        (
            '[TOOL_CALLS]get_weather{"city": "Rome"}[TOOL_CALLS]math_sum{"a": 1}',
            [("get_weather", {"city": "Rome"}), ("math_sum", {"a": 1})],
        ),
        (
            '<|python_tag|>{"name": "get_weather", "parameters": {"city": "X"}}; '
            '{"name": "math.sum", "parameters": {"a": 2}}<|eom_id|>',
            [("get_weather", {"city": "X"}), ("math_sum", {"a": 2})],
        ),
        (
            "[get_weather(city='Paris', days=2), math.sum(a=1, b=2.5)]",
            [("get_weather", {"city": "Paris", "days": 2}), ("math_sum", {"a": 1, "b": 2.5})],
        ),
        (
            'Sure.\n```json\n{"name": "get_weather", "arguments": {"city": "Lima"}}\n```\nDone.',
            [("get_weather", {"city": "Lima"})],
        ),
        (
            'Calling {"name": "get_weather", "arguments": {"city": "Lima"}} now, then '
            "math_sum(a=1, b=1).",
            [("get_weather", {"city": "Lima"}), ("math_sum", {"a": 1, "b": 1})],
        ),
        (
            '{"tool_calls": [{"type": "function", "function": {"name": "get_weather", '
            '"arguments": "{\\"city\\": \\"Oslo\\"}"}}]}',
            [("get_weather", {"city": "Oslo"})],
        ),
        (
            "<tool_call>\n<function=get_weather>\n<parameter=city>\nSan Jose\n</parameter>\n"
            "<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>",
            [("get_weather", {"city": "San Jose", "days": 3})],
        ),
    ],
)
def test_formats(text: str, expected: list[tuple[str, Any]]) -> None:
    assert calls(text) == expected


@pytest.mark.parametrize(
    "broken",
    [
        '{"name": "get_weather", "arguments": {"city": "Oslo",}}',  # trailing comma
        "{'name': 'get_weather', 'arguments': {'city': 'Oslo'}}",  # single quotes
        '{"name": "get_weather", "arguments": {"city": "Oslo"',  # missing brackets
        '{"name": "get_weather", // the tool\n "arguments": {"city": "Oslo"}}',  # comment
        '{name: "get_weather", arguments: {city: "Oslo"}}',  # unquoted keys
    ],
)
def test_broken_json_is_repaired_and_the_repair_reported(broken: str) -> None:
    (call,) = extract_calls(f"Here you go: {broken}", TOOLS).calls
    assert (call.name, call.arguments) == ("get_weather", {"city": "Oslo"})
    assert call.repairs  # how the text was read when it was not JSON


def test_python_literals_and_coercion_are_reported() -> None:
    text = "{'name': 'get_weather', 'arguments': {'city': 'Oslo', 'days': '3', 'metric': True}}"
    (call,) = extract_calls(text, TOOLS).calls
    assert call.arguments == {"city": "Oslo", "days": 3, "metric": True}
    assert any("'3' -> 3" in r for r in call.repairs)


def test_coercion_only_where_unambiguous() -> None:
    either = Tool(
        name="f",
        description="",
        input_schema={
            "type": "object",
            "properties": {"v": {"type": ["integer", "string"]}, "n": {"type": "integer"}},
        },
    )
    (call,) = extract_calls('{"name": "f", "arguments": {"v": "3", "n": "3.5"}}', [either]).calls
    assert call.arguments == {"v": "3", "n": "3.5"} and not call.repairs


def test_clean_calls_report_no_repairs() -> None:
    (call,) = extract_calls('{"name": "get_weather", "arguments": {"city": "Oslo"}}', TOOLS).calls
    assert call.repairs == () and call.synthetic_id


@pytest.mark.parametrize(
    "text",
    [
        'An example payload is {"city": "Oslo"}.',
        '```json\n{"name": "delete_everything", "arguments": {}}\n```',
        "You can write print(get(1)) in Python.",
        "The get_weather tool needs a city.",
        "[1, 2, 3] are the values.",
    ],
)
def test_text_that_calls_no_known_tool_stays_text(text: str) -> None:
    found = extract_calls(text, TOOLS)
    assert found.calls == () and found.text == text


def test_pythonic_calls_are_never_evaluated(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    hostile = (
        f"get_weather(city=__import__('pathlib').Path({str(marker)!r}).touch())\n"
        f"math_sum(a=open({str(marker)!r}, 'w'))"
    )
    found = extract_calls(hostile, TOOLS).calls
    # The calls are recognised, but their arguments are expressions: left invalid, not run.
    assert [c.name for c in found] == ["get_weather", "math_sum"]
    assert all(isinstance(c.arguments, str) for c in found)
    assert all(isinstance(parse_arguments(c.arguments), ArgumentError) for c in found)
    assert any("not evaluated" in r for c in found for r in c.repairs)
    assert not marker.exists()


def test_prose_around_calls_is_kept_as_text() -> None:
    found = extract_calls(
        'Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": '
        '{"city": "Oslo"}}\n</tool_call>\nBack soon.',
        TOOLS,
    )
    assert found.text == "Let me check.\n\nBack soon."


def test_prompt_lists_tools_and_the_exact_format() -> None:
    prompt = render_tools(TOOLS, "text", choice="required", parallel=False).payload["prompt"]
    assert '"name": "get_weather"' in prompt and "<tool_call>" in prompt
    assert "Call exactly one tool." in prompt
    only = render_tools(TOOLS, "text", choice=ToolChoice.tool("math_sum")).payload["prompt"]
    assert "get_weather" not in only
    none = render_tools(TOOLS, "text", choice="none").payload["prompt"]
    assert "Do not call any tool" in none


def test_prompt_declarations_extract_back() -> None:
    # What the prompt asks for is exactly what the extractor reads first.
    rendered = render_tools(TOOLS, "text")
    example = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>'
    assert "<tool_call>" in rendered.payload["prompt"]
    assert calls(example) == [("get_weather", {"city": "Oslo"})]


def test_text_conversation_round_trip() -> None:
    rendered = render_tools(TOOLS, "text")
    call = ToolCall(id="c1", name="get_weather", arguments={"city": "Oslo"})
    result = ToolResult(
        call_id="c1", name="get_weather", route=Route.FAILED, content="timeout", is_error=True
    )
    transcript = Transcript(
        messages=(
            Message(role="user", text="weather?"),
            Message(role="assistant", text="Checking.", calls=(call,)),
            Message(role="tool", results=(result,)),
            Message(role="user", text="and?"),
        )
    )
    wire = write_messages("text", transcript, rendered=rendered)
    back = read_messages("text", wire.messages, rendered=rendered).messages
    assert [m.role for m in back] == ["user", "assistant", "tool", "user"]
    assert back[1].text == "Checking." and back[1].calls[0].arguments == {"city": "Oslo"}
    (got,) = back[2].results
    assert got.call_id == back[1].calls[0].id and got.is_error and got.content == "timeout"


def _corpus() -> list[dict[str, Any]]:
    return [json.loads(line) for line in CORPUS.read_text().splitlines()]


# The synthetic corpus (`benchmarks/text_corpus.py`) is built from the formats the
# extractor reads, so it is a regression test, not a measurement: the measurement is
# `benchmarks/text_extraction.py` on real model outputs.


def test_synthetic_corpus_is_large_and_varied() -> None:
    cases = _corpus()
    assert len(cases) >= 300
    assert len({c["form"] for c in cases}) >= 10
    assert sum(bool(c["breaks"]) for c in cases) >= 120
    assert sum(not c["expected"] for c in cases) >= 30


def test_synthetic_corpus_still_extracts_and_reports_its_repairs() -> None:
    right = 0
    repaired_unreported = []
    for case in _corpus():
        tools = {t.name: t for t in map(tool_from_declaration, case["tools"])}
        got = extract_calls(case["output"], tools.values()).calls
        want = [(c["name"], c["arguments"]) for c in case["expected"]]
        if [(c.name, c.arguments) for c in got] == want:
            right += 1
            # A comment may follow the value; these breaks are always inside a call.
            broken = {
                "trailing_comma",
                "single_quotes",
                "truncated",
                "unquoted_keys",
                "python_literals",
            } & set(case["breaks"])
            if broken and not any(c.repairs for c in got):
                repaired_unreported.append(case["id"])
    assert right / len(_corpus()) >= 0.95
    assert repaired_unreported == []
