"""Property tests for text mode: any text gives an answer, and clean calls come back as written."""

from __future__ import annotations

import json
import keyword
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from callgate.contract import Effect, Tool
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
        "Infinity",
        '{"name": "search", "arguments": {"limit": ',
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
            json.dumps(call.arguments, allow_nan=False)  # NaN and Infinity are no JSON


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


_WORD = st.from_regex(r"[A-Za-z][A-Za-z0-9]{0,8}", fullmatch=True)


@FUZZ
@given(st.from_regex(r"[A-Z][a-z]{0,6}'[a-z]{1,4}( [A-Za-z]{1,6})?", fullmatch=True))
def test_an_apostrophe_inside_a_word_stays_in_its_single_quoted_string(entity: str) -> None:
    (call,) = extract_calls(f"search(entity='{entity}', limit=2)", [SEARCH]).calls
    assert call.arguments == {"entity": entity, "limit": 2}
    assert any("apostrophe" in r for r in call.repairs)


@FUZZ
@given(_VALUES, st.sampled_from(["properties", "params", "kwargs", "input"]))
def test_arguments_under_a_wrapper_that_is_no_parameter_are_the_arguments(
    args: dict[str, Any], wrapper: str
) -> None:
    text = f"search({wrapper}={args!r})"
    (call,) = extract_calls(text, [SEARCH]).calls
    assert call.arguments == args
    assert any(repr(wrapper) in r for r in call.repairs)


@FUZZ
@given(st.lists(st.one_of(_WORD, _WORD.map("-{}".format)), min_size=1, max_size=5))
def test_a_list_of_unquoted_words_in_a_string_is_a_list_of_strings(tags: list[str]) -> None:
    body = json.dumps({"entity": "A", "tags": "[" + ", ".join(tags) + "]"})
    (call,) = extract_calls('{"name": "search", "arguments": ' + body + "}", [SEARCH]).calls
    assert call.arguments == {"entity": "A", "tags": tags}


@FUZZ
@given(st.integers(min_value=-(10**6), max_value=10**6), st.integers(1, 10**6))
def test_markdown_escapes_in_code_are_the_characters_they_escape(a: int, b: int) -> None:
    (call,) = extract_calls(f"circle\\_area(radius={a}\\*{b})", TOOLS).calls
    assert (call.name, call.arguments) == ("circle_area", {"radius": a * b})


@FUZZ
@given(
    st.lists(st.tuples(_VALUES, st.sampled_from(["json", "python"])), min_size=1, max_size=4),
    st.sampled_from(["\n", "\n\n", ";\n"]),
)
def test_calls_one_per_line_in_a_markup_block_all_come_back_in_order(
    written: list[tuple[dict[str, Any], str]], separator: str
) -> None:
    lines = [
        json.dumps({"name": "search", "arguments": args}, ensure_ascii=False)
        if form == "json"
        else "search(" + ", ".join(f"{k}={v!r}" for k, v in args.items()) + ")"
        for args, form in written
    ]
    text = "<tool_call>\n" + separator.join(lines) + "\n</tool_call>"
    found = extract_calls(text, [SEARCH]).calls
    assert [c.arguments for c in found] == [args for args, _ in written]


@FUZZ
@given(st.from_regex(r"[A-Za-z]{1,8}'[A-Za-z]{1,8}( [A-Za-z!.]{1,8})?", fullmatch=True))
def test_a_quote_doubled_inside_a_word_is_one_apostrophe(entity: str) -> None:
    written = entity.replace("'", "''")
    (call,) = extract_calls(f"search(entity='{written}')", [SEARCH]).calls
    assert call.arguments == {"entity": entity}


_PLAIN = st.from_regex(r"[A-Za-z][A-Za-z ]{0,10}[A-Za-z]", fullmatch=True)


@FUZZ
@given(st.lists(_PLAIN, min_size=1, max_size=4, unique=True))
def test_strings_left_open_before_each_call_end_still_give_every_call(
    entities: list[str],
) -> None:
    text = "[" + ", ".join(f"search(limit=1, entity='{e})" for e in entities) + "]"
    found = extract_calls(text, [SEARCH]).calls
    assert [c.arguments for c in found] == [{"limit": 1, "entity": e} for e in entities]


@FUZZ
@given(_PLAIN, st.integers(min_value=-(10**9), max_value=10**9))
def test_keyword_arguments_written_inside_quotes_are_keywords(entity: str, limit: int) -> None:
    (call,) = extract_calls(f"search('limit={limit}', 'entity={entity}')", [SEARCH]).calls
    assert call.arguments == {"limit": limit, "entity": entity}


_QUOTED_CALLS = st.lists(
    st.tuples(_PLAIN, st.integers(min_value=-(10**9), max_value=10**9)), min_size=1, max_size=3
)


@FUZZ
@given(_QUOTED_CALLS, st.sampled_from([("(", ")"), ("[", "]")]))
def test_lists_led_by_the_tool_name_with_quoted_keywords_are_one_call_each(
    calls: list[tuple[str, int]], brackets: tuple[str, str]
) -> None:
    open_, close = brackets
    items = [f"{open_}'search', 'limit={n}', 'entity={e}'{close}" for e, n in calls]
    found = extract_calls("[" + ", ".join(items) + "]", [SEARCH]).calls
    # The same call twice as items of one list is meant twice.
    assert [c.arguments for c in found] == [{"limit": n, "entity": e} for e, n in calls]


@FUZZ
@given(_VALUES, st.sampled_from(["parameters", "arguments"]), st.booleans())
def test_arguments_introduced_in_prose_after_the_name_are_the_call(
    args: dict[str, Any], word: str, ticks: bool
) -> None:
    body = json.dumps(args, ensure_ascii=False)
    body = f"`{body}`" if ticks else body
    text = f"We can use the function `search` with the {word} {body}. It returns a list."
    (call,) = extract_calls(text, [SEARCH]).calls
    assert call.arguments == args


@FUZZ
@given(st.one_of(st.integers(-(10**30), 10**30), st.decimals(-(10**6), 10**6, places=3)))
def test_a_number_where_only_text_is_accepted_becomes_its_decimal_text(number: Any) -> None:
    written = str(number)
    (call,) = extract_calls(
        f'{{"name": "search", "arguments": {{"entity": {written}}}}}', [SEARCH]
    ).calls
    assert call.arguments == {"entity": repr(json.loads(written))}


@FUZZ
@given(_VALUES, _VALUES, st.sampled_from(["For example:", "If you want more,", "Alternatively"]))
def test_a_call_offered_as_an_example_of_a_called_tool_is_not_taken(
    first: dict[str, Any], example: dict[str, Any], lead: str
) -> None:
    def call(args: dict[str, Any]) -> str:
        return "search(" + ", ".join(f"{k}={v!r}" for k, v in args.items()) + ")"

    text = f"```python\n{call(first)}\n```\n{lead}\n```python\n{call(example)}\n```"
    assert [c.arguments for c in extract_calls(text, [SEARCH]).calls] == [first]


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


# --- names: taken as the word written where a string is admitted, never looked up ----------

_NOT_NAMES = frozenset({"true", "false", "null", "undefined", "target"})
_IDENTIFIER = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,10}", fullmatch=True).filter(
    lambda w: not keyword.iskeyword(w) and w not in _NOT_NAMES
)
_NAME = st.one_of(
    _IDENTIFIER,
    st.lists(_IDENTIFIER, min_size=2, max_size=4).map(".".join),
    _IDENTIFIER.map("this.{}".format),
)
_ADMITS_STRING = st.sampled_from(
    [
        {"type": "string"},
        {"type": ["string", "null"]},
        {"type": ["integer", "string"]},
        {},
        {"description": "Any value."},
        {"anyOf": [{"type": "integer"}, {"type": "string"}]},
    ]
)
_NO_STRING = st.sampled_from(
    [
        {"type": "number"},
        {"type": "integer"},
        {"type": "boolean"},
        {"type": "object"},
        {"type": "array", "items": {"type": "string"}},
        {"type": ["integer", "null"]},
        {"anyOf": [{"type": "integer"}, {"type": "boolean"}]},
    ]
)
_NAME_FORMS = st.sampled_from(["keyword", "positional", "json", "colon"])


def _probe(schema: dict[str, Any]) -> Tool:
    return Tool(
        name="probe",
        description="Takes one value.",
        effect=Effect.READ,
        input_schema={"type": "object", "properties": {"target": schema}},
    )


def _written(name: str, form: str) -> str:
    return {
        "keyword": f"probe(target={name})",
        "positional": f"probe({name})",
        "json": '{"name": "probe", "arguments": {"target": ' + name + "}}",
        "colon": f"probe(target: {name})",
    }[form]


@FUZZ
@given(_NAME, _ADMITS_STRING, _NAME_FORMS)
def test_a_name_where_a_string_is_admitted_is_the_text_written(
    name: str, schema: dict[str, Any], form: str
) -> None:
    (call,) = extract_calls(_written(name, form), [_probe(schema)]).calls
    assert call.arguments == {"target": name}
    assert any(r.startswith("unquoted:") and repr(name) in r for r in call.repairs)


@FUZZ
@given(_NAME, _NO_STRING, _NAME_FORMS)
def test_a_name_where_no_string_is_admitted_is_an_argument_error(
    name: str, schema: dict[str, Any], form: str
) -> None:
    (call,) = extract_calls(_written(name, form), [_probe(schema)]).calls
    assert isinstance(call.arguments, str)
    assert isinstance(parse_arguments(call.arguments), ArgumentError)
    assert any("not evaluated" in r and name in r for r in call.repairs)
    assert not any(r.startswith("unquoted:") for r in call.repairs)


@FUZZ
@given(_ADMITS_STRING, st.sampled_from(["true", "false", "null", "True", "False", "None"]))
def test_language_literals_keep_their_meaning_where_a_string_is_admitted(
    schema: dict[str, Any], literal: str
) -> None:
    (call,) = extract_calls(f"probe(target={literal})", [_probe(schema)]).calls
    assert isinstance(call.arguments, dict)
    # null is left out where the schema has no null (an optional argument not given)
    assert call.arguments.get("target") == {"t": True, "f": False}.get(literal[0].lower())
    assert not any(r.startswith("unquoted:") for r in call.repairs)


@FUZZ
@given(
    st.lists(
        st.text(
            st.characters(categories=("L", "N", "P", "Zs"), exclude_characters="\\'\""), max_size=8
        ),
        max_size=3,
    ),
    st.integers(min_value=-(10**9), max_value=10**9),
)
def test_keyword_arguments_written_together_in_one_string_are_each_taken(
    tags: list[str], limit: int
) -> None:
    text = f"['search', 'entity=a', 'tags={json.dumps(tags, ensure_ascii=False)}, limit={limit}']"
    (call,) = extract_calls(text, [SEARCH]).calls
    assert call.arguments == {"entity": "a", "tags": tags, "limit": limit}


@settings(FUZZ, max_examples=25)
@given(
    st.text(st.sampled_from("'\"[](){}, =\n1limtentyx"), min_size=1, max_size=40),
    st.integers(1, 3),
)
def test_keyword_strings_of_quotes_brackets_and_spaces_give_an_answer(
    noise: str, scale: int
) -> None:
    body = noise * (100_000 // len(noise) * scale // 3 + 1)
    found = extract_calls(f"['search', 'tags={body}, limit=1']", [SEARCH])
    assert len(found.calls) <= 1


def _owed(text: str) -> tuple[list[str], str, int]:
    """The plain scan `_open` must agree with: every character visited in turn."""
    stack: list[str] = []
    quote, opened, i = "", 0, 0
    while i < len(text):
        char = text[i]
        if quote:
            if char == "\\":
                i += 1
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote, opened = char, i
        elif char in "([{":
            stack.append({"(": ")", "[": "]", "{": "}"}[char])
        elif stack and char == stack[-1]:
            stack.pop()
        i += 1
    return stack, quote, opened


@settings(FUZZ, max_examples=60)
@given(
    st.text(st.sampled_from("\"'\\()[]{}a\n"), min_size=1, max_size=30),
    st.integers(0, 30_000),
    st.lists(st.integers(0, 30_000), max_size=4),
)
def test_brackets_owed_agree_with_the_plain_scan_for_a_text_and_its_prefixes(
    noise: str, length: int, cuts: list[int]
) -> None:
    from callgate.dialects._text_values import _open

    text = (noise * (length // len(noise) + 1))[:length]
    for end in [len(text), *cuts]:
        assert _open(text[:end]) == _owed(text[:end])
