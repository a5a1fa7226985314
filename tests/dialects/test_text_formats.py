"""The text tool-call formats model vendors document, read back value for value.

Each form is written as its documentation shows it (one call, and several where the format
allows more than one), with arbitrary argument values; the calls must come back in order,
with exactly the values written, and nothing reported as left out.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from callgate.dialects import extract_calls
from tests.dialects.test_text_fuzz import _STRINGS, FUZZ
from tests.dialects.test_text_meaning import CIRCLE, SEARCH

Call = tuple[str, dict[str, Any]]

# Values that spell the formats' own markup must stay values.
_MARKUP = st.sampled_from(
    [
        *("<tool_call>", "</tool_call>", "[TOOL_CALLS]", "</s>", "<|python_tag|>", "<|eom_id|>"),
        *(">>>", "<|content|>", "```", "Action:", "functions.search", "<|call|>", "search("),
    ]
)
_TEXTS = st.lists(st.one_of(_STRINGS, _MARKUP), max_size=4).map("".join)
_SEARCH_ARGS = st.fixed_dictionaries(
    {"entity": _TEXTS},
    optional={
        "limit": st.integers(min_value=-(10**15), max_value=10**15),
        "exact": st.booleans(),
        "tags": st.lists(_TEXTS, max_size=3),
    },
)
_CIRCLE_ARGS = st.fixed_dictionaries(
    {"radius": st.one_of(st.integers(0, 10**9), st.floats(0, 1e12, allow_nan=False))},
    optional={"unit": _TEXTS},
)
_CALL = st.one_of(
    st.tuples(st.just("search"), _SEARCH_ARGS), st.tuples(st.just("circle_area"), _CIRCLE_ARGS)
)
_CALLS = st.lists(_CALL, min_size=1, max_size=3, unique_by=lambda c: json.dumps(c))


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _read(text: str) -> list[tuple[str, Any]]:
    # Every call, argument errors included: a written call read as invalid is a failure.
    found = extract_calls(text, [SEARCH, CIRCLE])
    assert found.dropped == (), found.dropped
    return [(c.name, c.arguments) for c in found.calls]


def _hermes(calls: list[Call], key: str = "arguments", *, cut: bool = False) -> str:
    # Hermes 2 Pro / Qwen 2.5: one <tool_call> block per call; a cut-off output loses the
    # last closing tag.
    blocks = [f"<tool_call>\n{_json({'name': n, key: a})}\n</tool_call>" for n, a in calls]
    text = "\n".join(blocks)
    return text.removesuffix("\n</tool_call>") if cut else text


_SEVERAL: dict[str, Callable[[list[Call]], str]] = {
    "hermes": _hermes,
    "hermes, parameters": lambda calls: _hermes(calls, "parameters"),
    "hermes, last block cut off": lambda calls: _hermes(calls, cut=True),
    # Llama 3.1: <|python_tag|> then JSON calls, `;`-separated, ended by <|eom_id|>.
    "llama python_tag": lambda calls: (
        "<|python_tag|>"
        + "; ".join(_json({"name": n, "parameters": a}) for n, a in calls)
        + "<|eom_id|>"
    ),
    # Mistral: [TOOL_CALLS] and a JSON list of calls.
    "mistral": lambda calls: (
        "[TOOL_CALLS] " + _json([{"name": n, "arguments": a} for n, a in calls])
    ),
    # functionary v3: `>>>name` then the arguments on the next line, call after call.
    "functionary": lambda calls: "\n".join(f">>>{n}\n{_json(a)}" for n, a in calls),
    # functionary v2: <|recipient|> names the tool, <|content|> holds the arguments.
    "functionary v2": lambda calls: "\n".join(
        f"<|from|>assistant\n<|recipient|>{n}\n<|content|>{_json(a)}" for n, a in calls
    ),
    # Command R: `Action:` and a fenced JSON list of tool_name / parameters.
    "command-r": lambda calls: (
        "Plan: use the tools.\nAction: ```json\n"
        + _json([{"tool_name": n, "parameters": a} for n, a in calls])
        + "\n```"
    ),
    # xLAM: {"tool_calls": [...]}, or the bare list.
    "xlam": lambda calls: _json({"tool_calls": [{"name": n, "arguments": a} for n, a in calls]}),
    "xlam, bare list": lambda calls: _json([{"name": n, "arguments": a} for n, a in calls]),
    # Llama 3.1 Nemotron: <TOOLCALL> around a JSON list; IBM Granite: <|tool_call|> before it.
    "nemotron": lambda calls: (
        "<TOOLCALL>" + _json([{"name": n, "arguments": a} for n, a in calls]) + "</TOOLCALL>"
    ),
    "granite": lambda calls: (
        "<|tool_call|>" + _json([{"name": n, "arguments": a} for n, a in calls])
    ),
    # OpenAI's recipient text: multi_tool_use.parallel with functions.<name> tool uses.
    "multi_tool_use.parallel": lambda calls: (
        "assistant to=multi_tool_use.parallel\n"
        + _json(
            {"tool_uses": [{"recipient_name": f"functions.{n}", "parameters": a} for n, a in calls]}
        )
    ),
}

_ONE: dict[str, Callable[[Call], str]] = {
    # Llama 3.1 with JSON tool calling: the bare object, and the <function=...> form.
    "llama json": lambda c: _json({"name": c[0], "parameters": c[1]}),
    "llama function tag": lambda c: f"<function={c[0]}>{_json(c[1])}</function>",
    # OpenAI's recipient text, and Harmony (gpt-oss) with its special tokens.
    "functions.name recipient": lambda c: f"assistant to=functions.{c[0]}\n{_json(c[1])}",
    "harmony": lambda c: (
        "<|start|>assistant<|channel|>commentary "
        f"to=functions.{c[0]} <|constrain|>json<|message|>{_json(c[1])}<|call|>"
    ),
}


@FUZZ
@given(_CALLS, st.sampled_from(sorted(_SEVERAL)))
def test_every_call_of_a_documented_format_comes_back_with_its_values(
    calls: list[Call], form: str
) -> None:
    assert _read(_SEVERAL[form](calls)) == calls


@FUZZ
@given(_CALL, st.sampled_from(sorted(_ONE)))
def test_a_call_of_a_documented_single_call_format_comes_back_with_its_values(
    call: Call, form: str
) -> None:
    assert _read(_ONE[form](call)) == [call]
