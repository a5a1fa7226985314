"""Hostile arguments, schemas and declarations: each gets the library's error, never a traceback.

Every case here is valid JSON syntax, or a value a dialect can hand over as an object,
that used to escape as `ValueError`, `UnicodeEncodeError` or `RecursionError`, or took
seconds where it should take microseconds.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Annotated, Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Field

from callgate import (
    ArgumentLimits,
    Catalog,
    Effect,
    Gate,
    Policy,
    Route,
    Tool,
    ToolCall,
    UserError,
    tool,
    tool_from_declaration,
)
from callgate.contract import read_declaration
from callgate.gate import Rule
from callgate.schema import (
    HINT_MAX_CANDIDATES,
    MAX_REPORTED,
    ArgumentError,
    canonical_json,
    check,
    check_result,
    closest,
    compile_schema,
    content_hash,
    escape_lone_surrogates,
    json_problems,
    parse_arguments,
    validate_instance,
    wrapped_result_schema,
)

HUGE = "1" * 5000
"""An integer Python refuses to convert from text (over 4,300 digits)."""


def message(parsed: dict[str, Any] | ArgumentError) -> str:
    assert isinstance(parsed, ArgumentError), parsed
    return parsed.message


# --- parse_arguments: limits before any work ----------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": ' + HUGE + "}", "'a' is an integer of 5000 digits; the limit is 100 digits"),
        ('{"a": [-' + HUGE + "]}", "'a[0]' is an integer of 5000 digits"),
        ('{"a": NaN}', "'a' is NaN, which JSON does not allow"),
        ('{"a": {"b": Infinity}}', "'a.b' is Infinity, which JSON does not allow"),
        ('{"a": -Infinity}', "'a' is -Infinity"),
        ('{"a": 1e400}', "'a' is a number too large for a float (1e400)"),
        ('{"a": ' + "9" * 400 + ".5}", "'a' is a number too large for a float"),
        ('{"a": "\\ud800"}', "'a' contains a lone surrogate (\\ud800), which is not Unicode text"),
        ('{"a": "x\\udfff"}', "'a' contains a lone surrogate (\\udfff)"),
        ('{"\\ud800": 1}', "'\\ud800' contains a lone surrogate (\\ud800)"),
        ('{"a": "\ud800"}', "'a' contains a lone surrogate (\\ud800)"),
        (
            '{"a": "' + "x" * 40_000 + '"}',
            "'a' is a string of 40000 characters; the limit is 32768",
        ),
    ],
)
def test_hostile_json_text_is_refused_with_the_field_named(text: str, expected: str) -> None:
    assert expected in message(parse_arguments(text))


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"a": 10**5000}, "'a' is an integer of more than 100 digits"),
        ({"a": float("nan")}, "'a' is NaN"),
        ({"a": [float("-inf")]}, "'a[0]' is -Infinity"),
        ({"a": "\ud800"}, "'a' contains a lone surrogate (\\ud800)"),
        ({"\udc00": 1}, "'\\udc00' contains a lone surrogate"),
        ({"a": {1, 2}}, "'a' is not JSON data (a set)"),
        ({"a": {1: 2}}, "'a' has a key that is not a string (int)"),
        ({"a": "x" * 40_000}, "'a' is a string of 40000 characters"),
    ],
)
def test_hostile_objects_are_refused_with_the_field_named(
    value: dict[str, Any], expected: str
) -> None:
    assert expected in message(parse_arguments(value))


def test_what_stays_within_the_limits_parses_as_before() -> None:
    assert parse_arguments('{"a": "\\ud83d\\ude00"}') == {"a": "😀"}  # a pair is one character
    assert parse_arguments('{"n": ' + "9" * 100 + "}") == {"n": int("9" * 100)}
    assert parse_arguments('{"s": "NaN", "t": "Infinity"}') == {"s": "NaN", "t": "Infinity"}
    assert parse_arguments('{"x": 1e308, "y": 12345678901234567890.5}') == {
        "x": 1e308,
        "y": 12345678901234567890.5,
    }
    assert parse_arguments({"a": ("t", 1)}) == {"a": ["t", 1]}
    assert parse_arguments('{"a": 1, "a": 2}') == {"a": 2}  # the last key wins, as everywhere


def test_every_limit_is_a_setting() -> None:
    limits = ArgumentLimits(max_integer_digits=5, max_string_chars=4, max_depth=2)
    assert "the limit is 5 digits" in message(parse_arguments('{"n": 123456}', limits))
    assert parse_arguments('{"n": 12345}', limits) == {"n": 12345}
    assert "the limit is 4" in message(parse_arguments('{"s": "abcde"}', limits))
    assert "the limit is 4" in message(parse_arguments({"abcde": 1}, limits))
    assert "nested too deeply" in message(parse_arguments('{"a": {"b": {}}}', limits))
    generous = ArgumentLimits(max_integer_digits=10_000, max_bytes=1 << 20)
    # Past Python's own limit the number is refused by that limit, never by a traceback.
    assert "the limit is 4300 digits" in message(parse_arguments('{"a": ' + HUGE + "}", generous))


# --- canonical JSON and hashes over hostile text -------------------------------------------


def test_lone_surrogates_are_escaped_in_canonical_json() -> None:
    text = canonical_json({"a": "x\ud800", "\udfff": 1})
    assert text == '{"a":"x\\ud800","\\udfff":1}'
    text.encode("utf-8")  # always encodable
    assert json.loads(text) == {"a": "x\ud800", "\udfff": 1}  # the same value read back


def test_equal_json_values_hash_equal() -> None:
    # A pair held as two code points is the character it encodes, as a JSON reader sees it.
    assert content_hash({"a": "\ud83d\ude00"}) == content_hash({"a": "😀"})
    assert content_hash({"a": "\ud800"}) == content_hash(json.loads('{"a": "\\ud800"}'))
    assert content_hash({"a": "\ud800"}) != content_hash({"a": "\\ud800"})  # a backslash
    assert escape_lone_surrogates("plain") == "plain"


# --- check(): what jsonschema-rs cannot read is a failure, not an exception ----------------

SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {"n": {"type": "integer"}, "s": {"type": "string", "pattern": "^x"}},
}


@pytest.mark.parametrize(
    ("instance", "expected"),
    [
        ({"n": "\ud800"}, "'n' contains a lone surrogate (\\ud800)"),
        ({"\ud800": 1}, "'\\ud800' contains a lone surrogate"),
        ({"s": "x\udc00"}, "'s' contains a lone surrogate (\\udc00)"),
        ({"n": float("nan")}, "'n' is NaN, which JSON does not allow"),
        ({"n": float("inf")}, "'n' is Infinity, which JSON does not allow"),
        ({"s": 10**5000}, "'s' must be of type string (got integer (an integer of about 500"),
    ],
)
def test_check_reports_what_it_cannot_read(instance: dict[str, Any], expected: str) -> None:
    problems = validate_instance(SCHEMA, instance)
    assert problems and expected in problems[0].message, problems


def test_received_values_are_shown_short_whatever_their_size() -> None:
    deep: Any = "leaf"
    for _ in range(200):
        deep = [deep]
    [problem] = validate_instance({"type": "string"}, {"a": 1, "b": deep})
    assert problem.message.startswith("'(arguments)' must be of type string (got object {")
    assert len(problem.message) < 200
    [problem] = validate_instance({"properties": {"a": {"type": "string"}}}, {"a": deep})
    assert problem.message.startswith("'a' must be of type string (got array [[[")
    assert len(problem.message) < 200
    for _ in range(5000):  # deeper than jsonschema-rs can describe: reported as too deep
        deep = [deep]
    [problem] = validate_instance({"properties": {"a": {"type": "string"}}}, {"a": deep})
    assert problem.kind == "depth" and len(problem.message) < 200


def test_a_recursive_schema_never_follows_an_instance_off_the_stack() -> None:
    # jsonschema-rs validates recursive references on the native stack: 50,000 levels
    # crash the process. Run in a child so a regression fails the test, not the suite.
    code = """
from callgate.schema import compile_schema, check
tree = {"$defs": {"n": {"type": "array", "items": {"$ref": "#/$defs/n"}}}, "$ref": "#/$defs/n"}
value = []
for _ in range(100_000):
    value = [value]
[problem] = check(compile_schema(tree), value)
assert problem.kind == "depth", problem
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


def test_recursion_is_found_at_compile_time() -> None:
    assert compile_schema({"$defs": {"n": {"items": {"$ref": "#/$defs/n"}}}}).recursive
    assert compile_schema({"properties": {"a": {"$ref": "#"}}}).recursive
    assert not compile_schema(
        {"$defs": {"m": {"type": "string"}}, "properties": {"a": {"$ref": "#/$defs/m"}}}
    ).recursive
    assert not compile_schema(SCHEMA).recursive


# --- did-you-mean is bounded -----------------------------------------------------------------


def test_did_you_mean_reads_a_bounded_number_of_candidates() -> None:
    read = 0

    def candidates() -> Iterator[str]:
        nonlocal read
        for i in range(200_000):
            read += 1
            yield f"value_{i}"

    assert closest("value_1x", candidates()) is None
    assert read == HINT_MAX_CANDIDATES + 1
    assert closest("Celsius", ["celsius", "fahrenheit"]) == "celsius"
    assert closest("x" * 10_000, ["x" * 10_000]) is None


def test_a_huge_enum_gets_a_short_message_without_a_guess() -> None:
    values = [f"value_{i}" for i in range(200_000)]
    [problem] = validate_instance({"properties": {"a": {"enum": values}}}, {"a": "value_1x"})
    assert problem.message.endswith('... (200000 values) (got "value_1x")')
    [small] = validate_instance({"properties": {"a": {"enum": ["OPEN", "SHIPPED"]}}}, {"a": "open"})
    assert small.message.endswith('did you mean "OPEN"?')


def test_thousands_of_failures_get_a_short_answer() -> None:
    unknown = {f"field_{i}": i for i in range(4000)}
    problems = validate_instance(SCHEMA, unknown)
    assert len(problems) == MAX_REPORTED + 1
    assert problems[-1].kind == "more"
    assert problems[-1].message == "and 3980 more problems like these; fix these first"
    result = Gate([note]).call_sync(ToolCall(id="c", name="note", arguments=unknown))
    assert result.route == Route.INVALID and len(result.content) < 3000


def test_a_catalog_of_any_size_suggests_names_without_comparing_them_all() -> None:
    tools = [
        Tool(name=f"tool_{i}", description="d", input_schema={"type": "object"})
        for i in range(HINT_MAX_CANDIDATES + 500)
    ]
    catalog = Catalog(tools)
    assert catalog.suggest("Tool-42") == ("tool_42",)  # equal up to case, `_` and `-`
    assert catalog.suggest("tool_42x") == ()
    assert catalog.suggest("x" * 100_000) == ()
    catalog.remove("tool_42")
    assert catalog.suggest("tool_42") == ()


# --- @tool: an int parameter receives an int --------------------------------------------------


@tool(effect="read")
def typed(
    n: int,
    items: list[int] | None = None,
    maybe: int | None = None,
    pick: Literal[1, 2] = 1,
    bounded: Annotated[int, Field(ge=0)] = 0,
    table: dict[str, int] | None = None,
) -> str:
    """Echo the Python types received."""
    values = [n, *(items or []), maybe, pick, bounded, *(table or {}).values()]
    return ",".join(type(v).__name__ for v in values)


def test_integers_sent_as_floats_reach_the_function_as_ints() -> None:
    arguments = '{"n": 3.0, "items": [1.0], "maybe": 2.0, "pick": 2.0, "bounded": 4.0,'
    arguments += ' "table": {"k": 5.0}}'
    result = Gate([typed]).call_sync(ToolCall(id="c", name="typed", arguments=arguments))
    assert result.route == Route.COMPLETED, result.content
    assert result.content == "int,int,int,int,int,int"


def test_a_float_too_large_for_an_int_is_invalid_not_a_failure() -> None:
    result = Gate([typed]).call_sync(ToolCall(id="c", name="typed", arguments='{"n": 1e30}'))
    assert result.route == Route.INVALID and "'n'" in result.content


# --- the gate: hostile arguments are invalid and run nothing ----------------------------------

runs: list[dict[str, Any]] = []


@tool(effect="write")
def note(text: str = "", count: int = 0) -> str:
    """Write a note."""
    runs.append({"text": text, "count": count})
    return "ok"


HOSTILE_ARGUMENTS: dict[str, Any] = {
    "huge-int-text": '{"count": ' + HUGE + "}",
    "surrogate-escape": '{"text": "\\ud800"}',
    "surrogate-object": {"text": "\ud800"},
    "surrogate-key": {"\ud800": 1},
    "nan-text": '{"count": NaN}',
    "infinity-object": {"count": float("inf")},
    "overflowing-float": '{"count": 1e999}',
    "huge-int-object": {"count": 10**5000},
    "long-string": '{"text": "' + "x" * 40_000 + '"}',
}


@pytest.mark.parametrize("arguments", HOSTILE_ARGUMENTS.values(), ids=HOSTILE_ARGUMENTS.keys())
def test_the_gate_answers_hostile_arguments_with_invalid(arguments: Any) -> None:
    runs.clear()
    gate = Gate([note])
    calls = [
        ToolCall(id="bad", name="note", arguments=arguments),
        ToolCall(id="good", name="note", arguments={"text": "kept"}),
    ]
    bad, good = gate.run_batch_sync(calls)
    assert bad.route == Route.INVALID and bad.content.startswith("Invalid arguments for note: '")
    assert good.route == Route.COMPLETED  # the rest of the batch is not lost
    assert runs == [{"text": "kept", "count": 0}]
    bad.content.encode("utf-8")


@pytest.mark.parametrize("arguments", [pytest.param(v, id=k) for k, v in HOSTILE_ARGUMENTS.items()])
async def test_hostile_arguments_with_a_store_are_recorded_as_invalid(arguments: Any) -> None:
    runs.clear()
    gate = Gate([note], store="sqlite://:memory:", policy=Policy(rules=[Rule.allow(id="all")]))
    result = await gate.call(ToolCall(id="bad", name="note", arguments=arguments))
    assert result.route == Route.INVALID
    assert runs == []


@pytest.mark.parametrize("arguments", [42, [1], True, b"\xff\xfe"])
async def test_non_object_arguments_with_a_store_are_invalid(arguments: Any) -> None:
    with Gate([note], store="sqlite://:memory:") as gate:
        result = await gate.call(ToolCall(id="bad", name="note", arguments=arguments))
        assert result.route == Route.INVALID
        assert gate.store is not None and [r.route for r in gate.store.receipts.list()] == [
            Route.INVALID
        ]


async def test_json_bytes_as_arguments_are_read_as_text() -> None:
    with Gate([note], store="sqlite://:memory:") as gate:
        result = await gate.call(
            ToolCall(id="b", name="note", arguments=b'{"text": "bytes"}')  # type: ignore[arg-type]
        )
    assert result.route == Route.HELD  # valid: a write, asked by the default policy


async def test_an_unknown_name_with_a_lone_surrogate_is_recorded() -> None:
    gate = Gate([note], store="sqlite://:memory:")
    result = await gate.call(ToolCall(id="bad", name="note\ud800", arguments={}))
    assert result.route == Route.INVALID


# --- declarations ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("declaration", "expected"),
    [
        (
            {"name": "a", "description": "\ud800", "parameters": {"type": "object"}},
            "tool declaration 'a': 'description' contains a lone surrogate (\\ud800)",
        ),
        (
            {"name": "a", "parameters": {"properties": {"\ud800": {"type": "string"}}}},
            "tool declaration 'a': 'parameters.properties.\\ud800' contains a lone surrogate",
        ),
        (
            {
                "type": "function",
                "function": {
                    "name": "a",
                    "parameters": {"properties": {"x": {"maximum": float("nan")}}},
                },
            },
            "tool declaration 'a': 'function.parameters.properties.x.maximum' is NaN",
        ),
        (
            {"name": "a", "inputSchema": {"properties": {"x": {"default": float("inf")}}}},
            "'inputSchema.properties.x.default' is Infinity",
        ),
        ({"name": 10**5000}, "tool declaration without a name: 'name' is an integer of more"),
        (
            {"name": "a", "parameters": {"properties": {"x": {"minimum": 10**5000}}}},
            "'parameters.properties.x.minimum' is an integer of more than 4300 digits",
        ),
        ({"name": "a", "parameters": {"x": {1}}}, "'parameters.x' is not JSON data (a set)"),
    ],
)
def test_hostile_declarations_raise_user_error_naming_tool_and_field(
    declaration: dict[str, Any], expected: str
) -> None:
    for build in (
        read_declaration,
        tool_from_declaration,
        lambda d: Catalog.from_declarations([d]),
    ):
        with pytest.raises(UserError) as info:
            build(declaration)
        assert expected in str(info.value)
        str(info.value).encode("utf-8")


@pytest.mark.parametrize(
    "declaration",
    [
        {"name": "a", "description": "\ud800"},
        {"name": "a", "parameters": {"properties": {"x": {"maximum": float("nan")}}}},
        {"name": "a", "parameters": {"properties": {"x": {"default": float("-inf")}}}},
        {"name": 10**5000},
    ],
    ids=["surrogate", "nan", "infinity", "huge-name"],
)
def test_lint_and_scan_answer_hostile_declarations(declaration: dict[str, Any]) -> None:
    from callgate.lint import lint, scan

    assert lint([declaration]).findings  # the declaration it cannot use is reported
    scan([declaration])


def test_annotations_that_are_not_an_object_are_no_hints() -> None:
    made = tool_from_declaration(
        {"name": "t", "title": "T", "inputSchema": {}, "annotations": [{"readOnlyHint": True}]}
    )
    assert made.annotations.title == "T" and made.effect is Effect.WRITE


def test_a_deep_declaration_is_refused_before_it_is_read() -> None:
    schema: dict[str, Any] = {"type": "object"}
    for _ in range(5000):
        schema = {"type": "object", "properties": {"a": schema}}
    with pytest.raises(UserError, match=r"tool declaration 'a': .* is nested too deeply"):
        tool_from_declaration({"name": "a", "parameters": schema})


def test_catalog_declaration_errors_name_the_position() -> None:
    good = {"name": "ok", "parameters": {"type": "object"}}
    with pytest.raises(UserError, match=r"declaration \[1\]: tool declaration 'b'"):
        Catalog.from_declarations([good, {"name": "b", "description": "\ud800"}])
    with pytest.raises(UserError, match="expects a list of declarations, got dict"):
        Catalog.from_declarations(good)  # type: ignore[arg-type]
    with pytest.raises(UserError, match="unknown effect 'sometimes'"):
        Catalog.from_declarations([good], effect="sometimes")


@pytest.mark.parametrize(
    "schema",
    [{"maximum": float("nan")}, {"enum": ["\ud800"]}, {"x": {1, 2}}],
    ids=["nan", "surrogate", "set"],
)
def test_compile_refuses_schemas_that_are_not_json_data(schema: dict[str, Any]) -> None:
    with pytest.raises(UserError, match="invalid JSON Schema: '"):
        compile_schema(schema)


def test_examples_stay_small_whatever_the_schema_demands() -> None:
    made = Catalog.from_declarations(
        [
            {
                "name": "t",
                "parameters": {
                    "type": "object",
                    "required": ["a"],
                    "properties": {"a": {"type": "string", "minLength": 10**8}},
                },
            }
        ]
    )
    entry = made.compiled("t")
    assert entry is not None and entry.example is None


# --- MCP output schemas that wrap a plain value -------------------------------------------------

WRAPPED = {
    "type": "object",
    "properties": {"result": {"title": "Result", "type": "string"}},
    "required": ["result"],
    "title": "get_textOutput",
}


def test_the_mcp_sdk_wrapper_is_recognised() -> None:
    assert wrapped_result_schema(WRAPPED) == {"title": "Result", "type": "string"}
    assert wrapped_result_schema({**WRAPPED, "required": []}) is None
    assert wrapped_result_schema({**WRAPPED, "properties": {"result": {}, "b": {}}}) is None
    assert wrapped_result_schema({"type": "object", "additionalProperties": {}}) is None
    assert wrapped_result_schema(True) is None


def test_a_plain_value_is_checked_inside_the_wrapper() -> None:
    compiled = compile_schema(WRAPPED)
    assert check_result(compiled, "sunny") == []
    assert check_result(compiled, {"result": "sunny"}) == []
    [problem] = check_result(compiled, 42)
    assert problem.message == "'result' must be of type string (got integer 42)"
    [problem] = check_result(compiled, {"result": 42})
    assert problem.message == "'result' must be of type string (got integer 42)"


def test_results_are_named_as_results() -> None:
    compiled = compile_schema({"type": "object", "properties": {"n": {"type": "integer"}}})
    [problem] = check_result(compiled, "text")
    assert problem.message.startswith("'(result)' must be of type object")
    assert problem.field == "(result)"
    assert check(compiled, "text")[0].field == "(arguments)"


def test_a_text_result_under_the_mcp_wrapper_completes() -> None:
    weather = Tool(
        name="get_text",
        description="d",
        effect=Effect.READ,
        input_schema={"type": "object"},
        output_schema=WRAPPED,
        executor=lambda: "sunny",
    )
    result = Gate([weather]).call_sync(ToolCall(id="c", name="get_text", arguments={}))
    assert result.route == Route.COMPLETED, result.content


def test_annotations_leave_effect_to_the_caller_when_they_say_nothing() -> None:
    made = tool_from_declaration(
        {"name": "t", "inputSchema": {}, "annotations": {"readOnlyHint": False}}, effect="read"
    )
    assert made.effect is Effect.READ


# --- property: what parse_arguments returns is always within the limits ------------------------

TOKENS = [
    "1" * 120,
    "-" + "9" * 4400,
    "NaN",
    "-Infinity",
    "1e999",
    "2.5e-999",
    '"\\ud800"',
    '"\\ud83d\\ude00"',
    '"\\uDBFF"',
    '"' + "y" * 40_000 + '"',
    "[" * 40 + "]" * 40,
    "0",
    '"ok"',
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.text(max_size=5), st.sampled_from(TOKENS)), max_size=5))
def test_parsed_arguments_are_always_within_the_limits(members: list[tuple[str, str]]) -> None:
    text = "{" + ", ".join(f"{json.dumps(k)}: {v}" for k, v in members) + "}"
    limits = ArgumentLimits(max_bytes=1 << 20)
    parsed = parse_arguments(text, limits)
    if isinstance(parsed, ArgumentError):
        return
    problems = json_problems(
        parsed,
        max_depth=limits.max_depth,
        max_integer_digits=limits.max_integer_digits,
        max_string_chars=limits.max_string_chars,
    )
    assert next(problems, None) is None, text[:200]
    canonical_json(parsed).encode("utf-8")
