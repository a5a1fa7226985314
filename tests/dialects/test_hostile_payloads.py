"""Deep, huge and non-Unicode payloads: every dialect answers with a `DialectError` or a turn.

Each case used to escape: a `repr` of a 5,000-level object in an error message, a JSON
dump of arguments nested past Python's recursion limit, a lone surrogate that cannot be
encoded, an integer that Python refuses to write.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from callgate.contract import Tool, ToolCall
from callgate.dialects import (
    DialectError,
    Message,
    Transcript,
    convert,
    extract_calls,
    parse_response,
    render_tools,
    stream_accumulator,
    write_messages,
)


def nest(levels: int, leaf: Any = 1) -> Any:
    value = leaf
    for _ in range(levels):
        value = {"a": value}
    return value


DEEP = nest(5000)
TARGETS = ["openai_chat", "openai_responses", "anthropic", "gemini", "text"]

# Deep objects where each dialect reads a name, a type, a role or arguments.
RESPONSES: dict[str, list[Any]] = {
    "openai_chat": [
        {"role": "assistant", "content": [{"type": DEEP}]},
        {"role": "assistant", "tool_calls": [{"type": DEEP, "function": {"name": "f"}}]},
        {"role": "assistant", "tool_calls": [{"id": DEEP, "function": {"name": DEEP}}]},
        {
            "role": "assistant",
            "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": DEEP}}],
        },
        {"choices": [{"message": DEEP}]},
    ],
    "openai_responses": [
        {"output": [{"type": "message", "role": DEEP}]},
        {"output": [{"type": DEEP}]},
        {"output": [{"type": "function_call", "call_id": "c", "name": "f", "arguments": DEEP}]},
        {"output": [{"type": "function_call", "call_id": DEEP, "name": DEEP}]},
    ],
    "anthropic": [
        {"content": [{"type": DEEP}]},
        {"content": [{"type": "tool_use", "id": "x", "name": "f", "input": DEEP}]},
        {"content": [{"type": "tool_use", "id": DEEP, "name": "f", "input": {}}]},
    ],
    "gemini": [
        {"candidates": [{"content": {"parts": [{"functionCall": {"name": "f", "args": DEEP}}]}}]},
        {"candidates": [{"content": {"parts": [{"functionCall": {"name": DEEP}}]}}]},
        {"candidates": [{"content": DEEP}]},
    ],
    "mcp": [
        {"params": {"name": "f", "arguments": DEEP}},
        {"method": DEEP},
        {"params": {"name": DEEP}},
    ],
    "text": [{"content": DEEP}],
}


@pytest.mark.parametrize(
    ("dialect", "payload"),
    [(d, p) for d, payloads in RESPONSES.items() for p in payloads],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_deep_payloads_parse_or_raise_a_short_dialect_error(dialect: str, payload: Any) -> None:
    try:
        parse_response(dialect, payload)
    except DialectError as exc:
        assert len(str(exc)) < 400, str(exc)[:400]


@pytest.mark.parametrize("dialect", ["openai_chat", "openai_responses", "anthropic", "gemini"])
def test_deep_stream_events_are_dialect_errors(dialect: str) -> None:
    accumulator = stream_accumulator(dialect)
    for event in ({"type": DEEP}, {"choices": [{"delta": DEEP}]}, {"index": DEEP}, DEEP):
        try:
            accumulator.feed(event)
        except DialectError as exc:
            assert len(str(exc)) < 400
    try:
        accumulator.result()
    except DialectError as exc:
        assert len(str(exc)) < 400


HISTORIES: dict[str, list[Any]] = {
    "openai_chat": [
        {
            "role": "assistant",
            "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": DEEP}}],
        }
    ],
    "anthropic": [
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "x", "name": "f", "input": DEEP}],
        }
    ],
    "gemini": [{"role": "model", "parts": [{"functionCall": {"name": "f", "args": DEEP}}]}],
}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("source", list(HISTORIES))
def test_converting_deep_arguments_is_a_dialect_error_or_a_reported_repair(
    source: str, target: str
) -> None:
    try:
        converted = convert(HISTORIES[source], source=source, target=target)
    except DialectError as exc:
        assert "nested too deeply" in str(exc)
    else:
        # Targets that need objects repair what cannot be parsed, and say so.
        assert any("were not a JSON object" in note for note in converted.notes)


@pytest.mark.timeout(20)
def test_long_unparseable_arguments_are_not_repaired_but_sent_as_an_empty_object() -> None:
    # json-repair is quadratic on this: 5 s on 8 KB, 22 s on 16 KB.
    history = [
        {
            "role": "assistant",
            "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": "')" * 50_000}}],
        }
    ]
    converted = convert(history, source="openai_chat", target="anthropic")
    (block,) = converted.messages[0]["content"]
    assert block["input"] == {}
    assert any("were not a JSON object; sent as {}" in note for note in converted.notes)


@pytest.mark.timeout(20)
def test_many_short_unparseable_arguments_share_one_repair_budget() -> None:
    broken = "[" + "')" * 1_000
    history = [
        {
            "role": "assistant",
            "tool_calls": [
                {"id": f"c{n}", "function": {"name": "f", "arguments": broken + str(n)}}
                for n in range(100)
            ],
        }
    ]
    converted = convert(history, source="openai_chat", target="anthropic")
    blocks = converted.messages[0]["content"]
    assert len(blocks) == 100 and all(block["input"] == {} for block in blocks)


def test_a_deep_role_in_history_is_a_short_dialect_error() -> None:
    with pytest.raises(DialectError, match="unknown message role") as info:
        convert([{"role": DEEP}], source="openai_chat", target="anthropic")
    assert len(str(info.value)) < 200


HOSTILE_ARGS: dict[str, dict[str, Any]] = {
    "surrogate": {"a": "\ud800"},
    "surrogate-key": {"\udfff": "x"},
    "nan": {"a": float("nan")},
    "huge-int": {"a": 10**5000},
}


@pytest.mark.parametrize(
    ("target", "args"),
    [
        pytest.param(target, args, id=f"{name}-{target}")
        for name, args in HOSTILE_ARGS.items()
        for target in TARGETS
    ],
)
def test_gemini_history_with_hostile_arguments_converts_or_says_why(
    target: str, args: dict[str, Any]
) -> None:
    history = [
        {"role": "model", "parts": [{"functionCall": {"name": "f", "args": args}}]},
        {
            "role": "user",
            "parts": [{"functionResponse": {"name": "f", "response": {"result": "ok"}}}],
        },
    ]
    try:
        converted = convert(history, source="gemini", target=target)
    except DialectError as exc:
        assert "not JSON data" in str(exc) or "malformed" in str(exc)
        return
    _encodable(converted.messages)  # whatever is written can be sent: it encodes as UTF-8


def _encodable(value: Any) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack += list(item.keys()) + list(item.values())
        elif isinstance(item, list):
            stack += item
        elif isinstance(item, str):
            item.encode("utf-8")


@pytest.mark.parametrize("target", ["openai_chat", "openai_responses"])
def test_object_arguments_are_written_as_sendable_json_text(target: str) -> None:
    call = ToolCall(id="c", name="f", arguments={"a": "x\ud800", "b": "😀"})
    written = write_messages(
        target, Transcript(messages=(Message(role="assistant", calls=(call,)),))
    )
    text = str(written.messages)
    assert "\\\\ud800" in text and "😀" in text
    _encodable(written.messages)
    nan = ToolCall(id="c", name="f", arguments={"a": float("nan")})
    with pytest.raises(DialectError, match="call 'c': not JSON data"):
        write_messages(target, Transcript(messages=(Message(role="assistant", calls=(nan,)),)))


def test_huge_ids_and_types_are_cut_in_messages() -> None:
    with pytest.raises(DialectError) as info:
        parse_response("anthropic", {"content": [{"type": "x" * 100_000}]})
    assert len(str(info.value)) < 200


# Coercion read a subschema's types and enum again for every value: a list of 4,000
# strings against an item enum of 2,000 integers took 9 s in text mode (30 KB of text);
# 8,000 against 3,000, as here, over 20 s.
BIG_ENUM = Tool(
    name="pick",
    description="Pick values.",
    input_schema={
        "type": "object",
        "properties": {
            "xs": {"type": "array", "items": {"type": "integer", "enum": list(range(3000))}}
        },
        "required": ["xs"],
    },
)
SPELT = [str(n % 3000) for n in range(8000)]


@pytest.mark.timeout(20)
def test_text_mode_coerces_a_long_list_against_a_large_enum_once_per_schema() -> None:
    text = json.dumps({"name": "pick", "arguments": {"xs": SPELT}})
    (call,) = extract_calls(text, [BIG_ENUM]).calls
    assert call.arguments == {"xs": [n % 3000 for n in range(8000)]}
    assert len(call.repairs) == 8000 and "coerced 'xs.7999' '1999' -> 1999" in call.repairs[-1]


@pytest.mark.timeout(20)
def test_gemini_enum_strings_in_a_long_list_are_converted_back_once_per_schema() -> None:
    rendered = render_tools([BIG_ENUM], "gemini")
    response = {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [{"functionCall": {"name": "pick", "args": {"xs": SPELT}}}],
                }
            }
        ]
    }
    (call,) = parse_response("gemini", response, rendered=rendered).calls
    assert call.arguments == {"xs": [n % 3000 for n in range(8000)]}


@pytest.mark.parametrize(
    "text",
    [
        "pick(xs=" + "x" * 5000 + "+1)",  # an expression with a long name
        "pick(xs=" + "g" + ".h" * 3000 + "(1))",  # a call of a long dotted name
        '{"name": "pick", "arguments": {"xs": `' + "y" * 5000 + "`}}",  # no reading accepts it
    ],
)
def test_an_argument_not_taken_literally_is_quoted_short_in_its_note(text: str) -> None:
    # The note used to repeat the model's whole text (twice for a long name: 10 KB).
    (call,) = extract_calls(text, [BIG_ENUM]).calls
    assert call.repairs and all(len(note) < 400 for note in call.repairs)
    assert any("it is not evaluated, so the call is passed on invalid" in n for n in call.repairs)
