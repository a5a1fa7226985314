"""Property tests for text mode: any text gives an answer, and clean calls come back as written."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from callgate.dialects import extract_calls
from callgate.schema import ArgumentError, parse_arguments
from tests.dialects.test_text_meaning import SEARCH, TOOLS

FUZZ = settings(
    max_examples=400,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

_FRAGMENTS = st.sampled_from(
    [
        "search",
        "circle_area",
        "finance.search",
        "configure",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        '"',
        "'",
        "`",
        "```",
        "```json\n",
        "=",
        ":",
        ",",
        ";",
        "\n",
        " ",
        "\\",
        "\\_",
        "//",
        "#",
        "*",
        "**",
        "+",
        "-",
        "1",
        "2.5",
        "1e999",
        "9" * 50,
        "true",
        "None",
        "NaN",
        "pi",
        "entity",
        "radius",
        '"name"',
        '"arguments"',
        "<tool_call>",
        "</tool_call>",
        "[TOOL_CALLS]",
        "<|python_tag|>",
        "<function=search>",
        "<parameter=entity>",
        "def ",
        "new ",
        "\ud800",
        "é",
        "\x00",
    ]
)
_TEXT = st.one_of(
    st.lists(_FRAGMENTS, max_size=60).map("".join),
    st.text(max_size=200),
)
_MARKUP = ("<tool_call>", "[TOOL_CALLS]", "<|python_tag|>", "<function=")


@FUZZ
@given(_TEXT)
def test_any_text_gives_calls_of_offered_tools_or_none(text: str) -> None:
    found = extract_calls(text, TOOLS)
    names = {t.name for t in TOOLS}
    for call in found.calls:
        assert call.name in names or any(m in text for m in _MARKUP)
        if isinstance(call.arguments, str):
            # Arguments that cannot be taken literally never parse: the gate says why.
            assert isinstance(parse_arguments(call.arguments), ArgumentError)
            assert call.repairs
        else:
            assert isinstance(call.arguments, dict)
            json.dumps(call.arguments)


_STRINGS = st.text(
    st.one_of(st.sampled_from(list("\\_'\"{}()[],:=#/*`\n ")), st.characters()), max_size=30
)
_VALUES = st.fixed_dictionaries(
    {"entity": _STRINGS},
    optional={
        "limit": st.integers(min_value=-(10**12), max_value=10**12),
        "exact": st.booleans(),
        "tags": st.lists(_STRINGS, max_size=4),
    },
)


def _python(value: Any) -> str:
    return repr(value)


@FUZZ
@given(_VALUES, st.sampled_from(["tagged", "fenced", "bare", "mistral", "pythonic", "list"]))
def test_a_clean_call_comes_back_exactly_as_written(args: dict[str, Any], form: str) -> None:
    body = json.dumps({"name": "search", "arguments": args}, ensure_ascii=False)
    text = {
        "tagged": f"<tool_call>\n{body}\n</tool_call>",
        "fenced": f"Calling it.\n```json\n{body}\n```\nDone.",
        "bare": f"Here: {body}",
        "mistral": f"[TOOL_CALLS]search{json.dumps(args, ensure_ascii=False)}",
        "pythonic": "search(" + ", ".join(f"{k}={_python(v)}" for k, v in args.items()) + ")",
        "list": "[search(" + ", ".join(f"{k}={_python(v)}" for k, v in args.items()) + ")]",
    }[form]
    (call,) = extract_calls(text, [SEARCH]).calls
    assert call.name == "search"
    assert call.arguments == args
    assert call.repairs == ()


@FUZZ
@given(
    st.lists(
        st.sampled_from(["<", ">", "/", "tool_response", "tool_call", "\n", "a", '"', "\\"]),
        max_size=30,
    ).map("".join)
)
def test_a_result_never_closes_its_block(content: str) -> None:
    """Whatever a tool returns, its `<tool_response>` block ends where the host ends it, and
    a JSON reader gets the content back exactly."""
    from callgate.contract import Route, ToolResult
    from callgate.dialects import Dialect, render_results

    result = ToolResult(call_id="c1", name="search", route=Route.COMPLETED, content=content)
    (message,) = render_results(Dialect.TEXT, [result])
    text = message["content"]
    assert text.count("<") == 2 and text.count("</tool_response>") == 1
    inner = text.removeprefix("<tool_response>\n").removesuffix("\n</tool_response>")
    assert json.loads(inner)["content"] == content
