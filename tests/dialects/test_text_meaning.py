"""Text mode takes a call the way the model meant it, and never more calls than it meant."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from callgate import Catalog, Gate, Route
from callgate.contract import Effect, Tool, ToolCall
from callgate.dialects import extract_calls
from callgate.dialects._text_assign import MAX_ENTRIES
from callgate.dialects._text_decode import MAX_ARGUMENTS
from callgate.dialects._text_extract import MAX_CHARS
from callgate.schema import ArgumentError, parse_arguments

CIRCLE = Tool(
    name="circle_area",
    description="Area of a circle.",
    effect=Effect.READ,
    input_schema={
        "type": "object",
        "properties": {"radius": {"type": "number"}, "unit": {"type": "string"}},
        "required": ["radius"],
    },
)
SEARCH = Tool(
    name="search",
    description="Search companies.",
    effect=Effect.READ,
    metadata={"source_name": "finance.search"},
    input_schema={
        "type": "object",
        "properties": {
            "entity": {"type": "string"},
            "limit": {"type": "integer"},
            "exact": {"type": "boolean"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "filters": {"type": "object"},
        },
        "required": ["entity"],
    },
)
CONFIG = Tool(
    name="configure",
    description="Apply one settings object.",
    effect=Effect.READ,
    input_schema={
        "type": "object",
        "properties": {"settings": {"type": "object"}},
        "required": ["settings"],
    },
)
TOOLS = [CIRCLE, SEARCH, CONFIG]


def one(text: str) -> ToolCall:
    (call,) = extract_calls(text, TOOLS).calls
    return call


def args(text: str) -> list[tuple[str, Any]]:
    return [(c.name, c.arguments) for c in extract_calls(text, TOOLS).calls]


# --- arguments that are not literals ----------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "circle_area(radius=2*pi)",
        "circle_area(radius=math.pi * 2, unit='cm')",
        "circle_area(radius=float(input()))",
        "circle_area(radius=r)",
        '{"name": "circle_area", "arguments": {"radius": function_call[0]["return"]}}',
        "[circle_area(radius=x**2)]",
    ],
)
def test_a_call_whose_arguments_are_not_literals_is_kept_invalid(text: str) -> None:
    call = one(text)
    assert call.name == "circle_area"
    assert isinstance(call.arguments, str)
    assert isinstance(parse_arguments(call.arguments), ArgumentError)
    assert any("not evaluated" in r and "radius" in r for r in call.repairs)


def test_the_gate_answers_such_a_call_invalid_with_what_to_send() -> None:
    gate = Gate(Catalog([replace(CIRCLE, executor=lambda radius, unit="m": radius)]))
    (result,) = gate.run_batch_sync([one("circle_area(radius=2*pi)")])
    assert result.route is Route.INVALID
    assert "not valid JSON" in result.content and "Example of a valid call" in result.content


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("circle_area(radius=2*3.5)", 7.0),
        ("circle_area(radius=8.854 * 10**-12)", 8.854e-12),
        ("circle_area(radius=1/3)", 1 / 3),
        ("circle_area(radius=-(2+3))", -5),
        ("{'name': 'circle_area', 'arguments': {'radius': 4.22 + 6.1 + 5.88}}", 16.2),
    ],
)
def test_arithmetic_on_number_literals_is_computed_exactly_and_reported(
    text: str, value: float
) -> None:
    call = one(text)
    assert call.arguments == {"radius": value}
    assert type(call.arguments["radius"]) is type(value)
    assert any(r.startswith("computed ") for r in call.repairs)


def test_a_value_computed_in_one_call_of_a_list_is_reported_on_that_call_only() -> None:
    text = (
        "[{'name': 'circle_area', 'arguments': {'radius': 4.22}}, "
        "{'name': 'circle_area', 'arguments': {'radius': 4.22 + 6.1}}]"
    )
    plain, computed = extract_calls(text, TOOLS).calls
    assert computed.arguments == {"radius": 10.32}
    assert any("computed" in r for r in computed.repairs)
    assert not any("computed" in r for r in plain.repairs)


@pytest.mark.parametrize("text", ["circle_area(radius=9**9**9)", "circle_area(radius=1/0)"])
def test_arithmetic_that_cannot_be_computed_safely_is_not(text: str) -> None:
    assert isinstance(one(text).arguments, str)


# --- how models write calls -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("search({'entity': 'Google', 'limit': 5})", {"entity": "Google", "limit": 5}),
        ('{"name": "search", "entity": "Google", "limit": 5}', {"entity": "Google", "limit": 5}),
        ("['search', {'entity': 'Google'}]", {"entity": "Google"}),
        ("[('search', {'entity': 'Google'})]", {"entity": "Google"}),
        ("['search(entity=\"Google\", limit=2)']", {"entity": "Google", "limit": 2}),
        ("search(entity=Google)", {"entity": "Google"}),
        ("search(entity=Alpha Beta Inc, limit=3)", {"entity": "Alpha Beta Inc", "limit": 3}),
        ('search\n{"entity": "Google", "exact": true}', {"entity": "Google", "exact": True}),
        ('I will call finance.search:\n```json\n{"entity": "X"}\n```', {"entity": "X"}),
        (
            'Use the function `search` with the parameters `{"entity": "X", "limit": 5}`.',
            {"entity": "X", "limit": 5},
        ),
        ("search(entity: 'Google', limit: 4)", {"entity": "Google", "limit": 4}),
        (
            "search('Google', {limit: 4, exact: true})",
            {"entity": "Google", "limit": 4, "exact": True},
        ),
        ("recipe\\_search(a=1) or search(entity='A\\_B')", {"entity": "A_B"}),
        ("[('search', 'entity=\"Google\"', 'limit=2')]", {"entity": "Google", "limit": 2}),
        ("['finance.search', 'entity=Google']", {"entity": "Google"}),
    ],
)
def test_call_shapes_models_write(text: str, expected: dict[str, Any]) -> None:
    call = one(text)
    assert (call.name, call.arguments) == ("search", expected)
    assert call.repairs  # every reading that is not plain JSON is reported


@pytest.mark.parametrize(
    "text", ["['search', 'Google']", "['search', 'entity=A', 'page=2']", "['search', 'limit=2', 7]"]
)
def test_a_list_led_by_a_tool_name_is_a_call_only_when_the_rest_are_its_keywords(
    text: str,
) -> None:
    assert args(text) == []


def test_a_json_call_may_name_its_tool_under_func() -> None:
    text = '[{"func": "finance.search", "params": {"entity": "A"}}, {"func": "x", "params": {}}]'
    assert args(text) == [("search", {"entity": "A"})]


def test_a_single_dict_goes_to_an_object_parameter_when_its_keys_are_not_parameters() -> None:
    assert args("configure({'theme': 'dark'})") == [("configure", {"settings": {"theme": "dark"}})]


def test_a_single_dict_naming_the_one_object_parameter_is_the_keyword_arguments() -> None:
    named = args("configure({'settings': {'theme': 'dark'}})")
    assert named == [("configure", {"settings": {"theme": "dark"}})]
    assert args("configure({'settings': 'x'})") == [("configure", {"settings": {"settings": "x"}})]


def test_a_variable_assigned_a_literal_before_the_call_is_read_as_that_literal() -> None:
    text = (
        "```python\nparams = {'entity': 'Tech Inc', 'limit': 3}\nresult = search(params)\n```\n"
        '```java\nString who = "Acme";\nsearch(who, 2);\n```'
    )
    calls = extract_calls(text, TOOLS).calls
    assert [c.arguments for c in calls] == [
        {"entity": "Tech Inc", "limit": 3},
        {"entity": "Acme", "limit": 2},
    ]
    assert all(any("variable" in r for r in c.repairs) for c in calls)


@pytest.mark.parametrize(
    "text",
    [
        '```java\nMap<String, Object> p = new HashMap<>();\np.put("entity", "Acme");\n'
        'p.put("limit", 3); // at most three\n\n// Call the function\nsearch(p);\n```',
        "```python\np = {}\np['entity'] = 'Acme'\np[\"limit\"] = 3\nsearch(p)\n```",
        "```js\nconst p = {};\np.entity = 'Acme';\np.limit = 3;\nsearch(p);\n```",
    ],
)
def test_a_map_filled_entry_by_entry_before_the_call_is_its_arguments(text: str) -> None:
    call = one(text)
    assert call.arguments == {"entity": "Acme", "limit": 3}
    assert any("variable p" in r for r in call.repairs)


def test_entries_written_after_the_call_or_into_no_map_are_not_read() -> None:
    later = "p = {}\np['entity'] = 'A'\nsearch(p)\np['limit'] = 9"
    assert one(later).arguments == {"entity": "A"}
    unknown = 'p.put("entity", "A");\nsearch(p);'
    assert one(unknown).arguments == {"entity": "p"}  # `p` was never set: its name


def test_a_map_filled_past_its_bound_is_not_read() -> None:
    entries = "".join(f"p['k{i}'] = {i}\n" for i in range(MAX_ENTRIES + 1))
    call = one(f"p = {{}}\n{entries}configure(p)")
    assert isinstance(call.arguments, str)
    assert any(f"more than {MAX_ENTRIES} entries" in r for r in call.repairs)


def test_a_name_the_text_sets_to_no_literal_is_the_word_written() -> None:
    call = one("```java\nString who = lookup(id);\nsearch(who, 2);\n```")
    assert call.arguments == {"entity": "who", "limit": 2}
    assert any(r.startswith("unquoted: took 'who'") for r in call.repairs)


def test_a_loop_variable_is_no_value_even_where_a_string_is_admitted() -> None:
    call = one("for city in ['Oslo', 'Rome']:\n    search(entity=city)")
    assert isinstance(call.arguments, str)
    assert any("loop variable" in r for r in call.repairs)


@pytest.mark.parametrize(
    "text",
    [
        "```python\nfor c in companies:\n    q = {'entity': c}\n    search(q)\n```",
        "```python\nq = {}\nfor c in companies:\n    q['entity'] = c\nsearch(q)\n```",
        "```python\nq = {}\nfor c in companies:\n    q['entity'] = c\n    search(q)\n```",
        "```python\nfor c in companies:\n    who = c\n    search(entity=who)\n```",
    ],
)
def test_a_loop_variable_inside_an_assigned_literal_or_entry_is_no_value(text: str) -> None:
    call = one(text)
    assert isinstance(call.arguments, str)
    assert any("loop variable" in r or "inside a block" in r for r in call.repairs)


def test_a_loop_variable_inside_an_assigned_literal_never_runs_the_tool() -> None:
    ran: list[dict[str, Any]] = []

    def search(**kw: Any) -> str:
        ran.append(kw)
        return "ok"

    gate = Gate(Catalog([replace(SEARCH, executor=search)]))
    text = "```python\nfor c in companies:\n    q = {'entity': c}\n    search(q)\n```"
    (result,) = gate.run_batch_sync(list(extract_calls(text, TOOLS).calls))
    assert result.route is Route.INVALID and ran == []


_MAP = (
    '```java\nMap<String, Object> p = new HashMap<>();\np.put("entity", "A");\n{}\nsearch(p);\n```'
)


@pytest.mark.parametrize(
    ("code", "why"),
    [
        ('p.put("limit", 3);\np.remove("limit");', "p.remove"),
        ('if (more) {\n  p.put("limit", 3);\n}', "inside a block"),
        ("p.put(LIMIT, 3);", "not a string literal"),
        ('p.put("limit", 3).put("exact", true);', "chained"),
        ('p.put("limit", 3, x);', "3 arguments"),
        ("p.clear();", "p.clear"),
        ('Map<String, Object> q = p;\nq.put("limit", 3);', "q = p"),
    ],
)
def test_a_map_touched_by_anything_but_plain_entries_is_no_value(code: str, why: str) -> None:
    call = one(_MAP.replace("{}", code))
    assert isinstance(call.arguments, str)
    assert any(why in r and "not evaluated" in r for r in call.repairs)


@pytest.mark.parametrize(
    "code",
    [
        "p = {'entity': 'A', 'limit': 3}\ndel p['limit']",
        "p = {'entity': 'A', 'limit': 3}\np.pop('limit')",
        "p = {'entity': 'A'}\nif more:\n    p = {'entity': 'B'}",
        "p = {'entity': 'A'}\nq = p\nq['limit'] = 3",
    ],
)
def test_a_python_dict_changed_after_its_literal_is_no_value(code: str) -> None:
    call = one(f"```python\n{code}\nsearch(p)\n```")
    assert isinstance(call.arguments, str)


def test_a_map_read_reports_each_entry_and_the_repairs_of_its_literal() -> None:
    call = one("```js\nconst p = {entity: 'A',};\np.limit = 3;\nsearch(p);\n```")
    assert call.arguments == {"entity": "A", "limit": 3}
    assert any("entry 'limit'" in r for r in call.repairs)
    assert len(call.repairs) > 3  # the variable, the entry, the literal's own repairs, the dict


@pytest.mark.parametrize("text", ["search(entity=undefined)", "search({entity: undefined})"])
def test_javascript_undefined_is_neither_a_word_nor_null(text: str) -> None:
    call = one(text)
    assert isinstance(call.arguments, str)
    assert any("undefined" in r and "not evaluated" in r for r in call.repairs)


def test_the_gate_answers_a_name_where_no_string_is_admitted_invalid() -> None:
    gate = Gate(Catalog([replace(CIRCLE, executor=lambda radius, unit="m": radius)]))
    call = one("circle_area(radius=r, unit=cm)")
    assert any(r.startswith("unquoted: took 'cm'") for r in call.repairs)
    (result,) = gate.run_batch_sync([call])
    assert result.route is Route.INVALID
    assert "Example of a valid call" in result.content


def test_a_call_written_with_its_parameter_names_is_a_template_not_a_call() -> None:
    assert isinstance(one("You can call search(entity) for that.").arguments, str)


@pytest.mark.parametrize(
    ("text", "expected", "repair"),
    [
        ("circle\\_area(radius=5\\*2)", ("circle_area", {"radius": 10}), "Markdown escapes"),
        ("search(\\{'entity': 'A'\\})", ("search", {"entity": "A"}), "Markdown escapes"),
        ('["search", {"arguments": {"entity": "A"}}]', ("search", {"entity": "A"}), "pair"),
        (
            "search(properties={'entity': 'A', 'limit': 2})",
            ("search", {"entity": "A", "limit": 2}),
            "under 'properties'",
        ),
        (
            "search(properties={'entity': 'A'}, limit=2)",
            ("search", {"entity": "A", "limit": 2}),
            "under 'properties'",
        ),
        (
            '{"name": "search", "parameters": {"type": "dict", "properties": {"entity": "G"}}}',
            ("search", {"entity": "G"}),
            "under 'properties'",
        ),
        (
            "search(entity='McDonald's', limit=2)",
            ("search", {"entity": "McDonald's", "limit": 2}),
            "apostrophe",
        ),
        (
            "search('entity=Acme Corp', 'limit=3')",
            ("search", {"entity": "Acme Corp", "limit": 3}),
            "as the keyword argument",
        ),
        (
            "[search({'entity': 'I love it! It''s fresh.', 'limit': 2})]",
            ("search", {"entity": "I love it! It's fresh.", "limit": 2}),
            "doubled",
        ),
        (
            '{"name": "search", "arguments": {"entity": "A", "tags": "[-v, 2, fast]"}}',
            ("search", {"entity": "A", "tags": ["-v", "2", "fast"]}),
            "coerced 'tags'",
        ),
        (
            "```java\nInputStream in = ...;\nsearch(in, 3);\n```",
            ("search", {"entity": "in", "limit": 3}),
            "unquoted",
        ),
    ],
)
def test_shapes_found_in_real_outputs(
    text: str, expected: tuple[str, dict[str, Any]], repair: str
) -> None:
    call = one(text)
    assert (call.name, call.arguments) == expected
    assert any(repair in r for r in call.repairs), call.repairs


@pytest.mark.parametrize(
    "text",
    [
        "[search(\n  filters={'\n    'k': str(v)\n  })]",
        "[search(entity='A',\n  filters={'\n    'k': str(v)\n  })]",
    ],
)
def test_a_text_that_runs_on_is_not_cut_at_a_line_end_to_make_it_parse(text: str) -> None:
    # Cutting after `(`, `,` or inside a string would drop the arguments written after it.
    call = one(text)
    assert isinstance(call.arguments, str) and "filters" in call.arguments
    assert not any("cut" in r for r in call.repairs)


def test_an_output_cut_off_before_prose_is_closed_and_the_prose_reported() -> None:
    found = extract_calls("[search(entity='A'), circle_area(radius=2)\n\nThis does it.", TOOLS)
    assert [(c.name, c.arguments) for c in found.calls] == [
        ("search", {"entity": "A"}),
        ("circle_area", {"radius": 2}),
    ]
    assert all(any("ignored the text after the cut" in r for r in c.repairs) for c in found.calls)


@pytest.mark.parametrize(
    "text",
    [
        "[search(limit=2, entity='Illinois), search(entity='Oregon', limit=3)]",
        "Call search(limit=2, entity='Illinois), search(entity='Oregon', limit=3) now",
    ],
)
def test_a_string_left_open_before_the_next_call_ends_at_its_call(text: str) -> None:
    found = extract_calls(text, TOOLS).calls
    assert [c.arguments for c in found] == [
        {"limit": 2, "entity": "Illinois"},
        {"entity": "Oregon", "limit": 3},
    ]
    assert any("string left open" in r for r in found[0].repairs)


def test_a_list_of_calls_that_does_not_parse_is_read_call_by_call_not_repaired() -> None:
    # json-repair would read the pythonic list as broken JSON and drop or mix the calls.
    found = extract_calls("[search(entity='A'),\n circle_area(radius=2 cm)]", TOOLS).calls
    assert (found[0].name, found[0].arguments) == ("search", {"entity": "A"})
    assert found[1].name == "circle_area" and isinstance(found[1].arguments, str)
    assert not any("repaired" in r for c in found for r in c.repairs)


def test_a_string_left_open_inside_a_closed_list_is_not_read_as_a_cut_off_output() -> None:
    text = "[search(limit=2, entity='A'), search(entity='B), circle_area(radius=2)]"
    assert args(text) == [
        ("search", {"limit": 2, "entity": "A"}),
        ("search", {"entity": "B"}),
        ("circle_area", {"radius": 2}),
    ]


def test_a_string_that_holds_a_call_and_is_closed_stays_one_string() -> None:
    assert args("search(entity='x), search(y)')") == [("search", {"entity": "x), search(y)"})]


@pytest.mark.parametrize("text", ["search('entity=x', 'Acme')", "search('x=1')"])
def test_a_string_is_a_keyword_only_when_every_positional_one_names_a_parameter(
    text: str,
) -> None:
    assert not any("keyword argument" in r for r in one(text).repairs)


def test_strings_side_by_side_are_still_one_string() -> None:
    assert args("search(entity='ab' 'cd')") == [("search", {"entity": "abcd"})]


@pytest.mark.parametrize("quoted", ["'search(entity=\"Google\")'", "'search(entity='Google')'"])
def test_a_call_quoted_in_prose_ends_at_its_own_parenthesis(quoted: str) -> None:
    text = f"The call is {quoted} and\nthen it's done (soon)."
    assert args(text) == [("search", {"entity": "Google"})]


def test_a_javascript_shorthand_object_names_its_variables() -> None:
    text = "```js\nlet entity = 'Acme';\nlet limit = 4;\nsearch({entity, limit});\n```"
    call = one(text)
    assert call.arguments == {"entity": "Acme", "limit": 4}
    assert any("shorthand" in r for r in call.repairs)


def test_a_shorthand_of_names_that_are_not_parameters_is_no_object() -> None:
    call = one("configure({theme, mode})")
    assert not any("shorthand" in r for r in call.repairs)


@pytest.mark.parametrize(
    "text",
    ["search(String entity, int limit)", "search(entity: string, limit: number)"],
)
def test_a_signature_written_out_is_not_a_call(text: str) -> None:
    found = extract_calls(text, TOOLS)
    assert found.calls == () and any("signature" in d for d in found.dropped)


def test_a_tool_named_in_prose_beside_its_call_is_not_another_call() -> None:
    found = extract_calls("Call `search(entity='A')`. Then `search()` returns a list.", TOOLS)
    assert [c.arguments for c in found.calls] == [{"entity": "A"}]
    assert any("named again" in d for d in found.dropped)


def test_a_complete_text_is_not_cut_at_a_line_end_to_make_it_parse() -> None:
    # Cutting after the first line would close `[...]` and silently drop the rest.
    call = one("circle_area(radius=2,\n unit=cm)")
    assert call.arguments == {"radius": 2, "unit": "cm"}


# --- never more calls than the model meant ----------------------------------------------


def test_a_call_restated_in_a_second_fence_or_a_summary_is_taken_once() -> None:
    text = (
        '```json\n{"name": "search", "arguments": {"entity": "Google"}}\n```\n'
        "That is:\n```python\nsearch(entity='Google')\n```\n"
        'In short, `search(entity="Google")` does it.'
    )
    found = extract_calls(text, TOOLS)
    (call,) = found.calls
    assert call.arguments == {"entity": "Google"}
    assert any("written 2 more times" in r for r in call.repairs)
    assert any("restated" in d for d in found.dropped)


def test_the_same_words_read_as_two_different_calls_are_two_calls() -> None:
    text = "limit = 1\nsearch(entity='A', limit=limit)\nlimit = 2\nsearch(entity='A', limit=limit)"
    assert [c.arguments for c in extract_calls(text, TOOLS).calls] == [
        {"entity": "A", "limit": 1},
        {"entity": "A", "limit": 2},
    ]


@pytest.mark.parametrize(
    "lead",
    ["If you want a bigger limit, you can specify it like this:", "For example:", "Alternatively,"],
)
def test_a_call_offered_as_an_example_after_the_call_is_not_another_call(lead: str) -> None:
    text = (
        f"```python\nresult = search(entity='Acme')\n```\n{lead}\n"
        "```python\nresult = search(entity='Acme', limit=10)\n```"
    )
    found = extract_calls(text, TOOLS)
    assert [c.arguments for c in found.calls] == [{"entity": "Acme"}]
    assert any("as an example" in d for d in found.dropped)


def test_an_example_phrase_before_a_first_call_or_another_tool_keeps_the_call() -> None:
    text = "For example: search(entity='A'). Alternatively, circle_area(radius=2)."
    assert [c.name for c in extract_calls(text, TOOLS).calls] == ["search", "circle_area"]


def test_the_same_call_twice_in_one_list_is_meant_twice() -> None:
    assert len(extract_calls("[search(entity='A'), search(entity='A')]", TOOLS).calls) == 2


def test_the_same_call_inside_expressions_is_one_call() -> None:
    text = "[search(entity='A')['rating'], search(entity='A')['count']]"
    assert len(extract_calls(text, TOOLS).calls) == 1


def test_an_echoed_tool_declaration_is_not_a_call() -> None:
    text = (
        "You have this tool:\n"
        '{"name": "search", "description": "Search companies.", "parameters": '
        '{"type": "dict", "properties": {"entity": {"type": "string"}}, "required": ["entity"]}}'
    )
    found = extract_calls(text, TOOLS)
    assert found.calls == ()
    assert any("declaration" in d for d in found.dropped)


@pytest.mark.parametrize(
    "text",
    [
        "def search(entity, limit=3):\n    return []",
        "function search(entity) { return fetch(entity); }",
        "results = client.search(entity='x')",
        "new search('x')",
    ],
)
def test_a_function_defined_or_called_on_an_object_is_not_a_call(text: str) -> None:
    assert extract_calls(text, TOOLS).calls == ()


@pytest.mark.parametrize(
    "text",
    [
        "```java\nprivate static List search(AbstractBuild<?, ?> b, String entity) {\n}\n```",
        "public Result search(String entity) throws IOException, X.Y {\n  return null;\n}",
    ],
)
def test_a_function_with_a_body_is_defined_not_called(text: str) -> None:
    found = extract_calls(text, TOOLS)
    assert found.calls == () and any("defined here" in d for d in found.dropped)


def test_a_comment_ending_in_function_does_not_hide_the_call_below() -> None:
    assert args("// now call the function\nsearch(entity='A')") == [("search", {"entity": "A"})]


@pytest.mark.parametrize(
    "text",
    [
        'I will not call search here; its input would look like {"entity": "ACME"}.',
        'client.search({"entity": "ACME"})',
        'new search({"entity": "ACME"})',
        '```python\ndef search(args={"entity": "ACME"}):\n    pass\n```',
        '{"name": "search", "parameters": {"type": "object", "properties": {"entity": '
        '{"type": "string"}}}}\nExample input: {"entity": "ACME"}',
        'The search tool returned {"entity": "ACME", "limit": 3} earlier.',
        'search is not needed.\n```json\n{"entity": "ACME"}\n```',
        "Use the `search` function with these parameters:\n"
        '```json\n{"entity": "Acme", "limit": 3}\n```',
        '```json\n{"entity": "Acme", "limit": 3}\n```',
    ],
)
def test_an_object_of_a_tools_parameters_with_no_call_written_is_no_call(text: str) -> None:
    assert extract_calls(text, TOOLS).calls == ()


def test_a_call_that_uses_the_result_of_another_call_waits_for_it() -> None:
    text = "[search(entity='A'), circle_area(radius=search(entity='A')['limit'] * 2)]"
    found = extract_calls(text, TOOLS)
    assert [(c.name, c.arguments) for c in found.calls] == [("search", {"entity": "A"})]
    assert any("result of search" in d for d in found.dropped)


def test_a_tool_named_inside_a_string_argument_is_no_composition() -> None:
    text = "[search(entity='A'), circle_area(radius=r, unit='search units')]"
    assert [c.name for c in extract_calls(text, TOOLS).calls] == ["search", "circle_area"]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('Arrays.asList("a", "b")', ["a", "b"]),
        ('new String[]{"a", "b"}', ["a", "b"]),
        ("List.of()", []),
    ],
)
def test_a_java_collection_written_as_code_is_read_where_only_an_array_is_admitted(
    source: str, expected: list[str]
) -> None:
    call = one(f"search(entity='A', tags={source})")
    assert call.arguments == {"entity": "A", "tags": expected}
    assert any(r.startswith("source: read") for r in call.repairs)


def test_java_code_that_builds_no_literal_stays_no_value() -> None:
    call = one("search(entity='A', tags=Arrays.asList(name.split(',')))")
    assert isinstance(call.arguments, str)


@pytest.mark.parametrize(
    "definition",
    [
        "def search(limit, entity):\n    ...",
        "function search(limit, entity) { }",
        "const search = (limit, entity) => { };",
        "static List search(final int limit, String entity) {\n}",
        "def search(limit: int = 2, entity: str = ''):",
    ],
)
def test_positional_arguments_follow_the_texts_own_definition_of_the_tool(
    definition: str,
) -> None:
    call = one(f"```\n{definition}\n```\nThen: search(3, 'Acme')")
    assert call.arguments == {"entity": "Acme", "limit": 3}
    assert any("order the text defines" in r for r in call.repairs)


def test_a_definition_with_other_parameters_leaves_the_declared_order() -> None:
    call = one("def search(query, n):\n    ...\nsearch('Acme', 3)")
    assert call.arguments == {"entity": "Acme", "limit": 3}


@pytest.mark.parametrize(
    "text",
    [
        "def SEARCH(limit, entity):\n    ...\nsearch(3, 'Acme')",  # not the tool's exact name
        "search(3, 'Acme')\ndef search(limit, entity):\n    ...",  # defined after the call
        "def search(limit):\n    ...\nsearch(3, 'Acme')",  # fewer parameters than arguments
    ],
)
def test_only_an_exact_earlier_definition_with_room_orders_positional_arguments(
    text: str,
) -> None:
    call = one(text)
    assert not any("order the text defines" in r for r in call.repairs)
    assert call.arguments == {"entity": "3", "limit": "Acme"} or isinstance(call.arguments, str)


def test_outside_call_markup_nothing_is_a_call() -> None:
    text = (
        '<tool_call>\n{"name": "search", "arguments": {"entity": "A"}}\n</tool_call>\n'
        "Next I could also run circle_area(radius=2)."
    )
    found = extract_calls(text, TOOLS)
    assert args(text) == [("search", {"entity": "A"})]
    assert any("commentary" in d for d in found.dropped)


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>\n{"arguments": {"entity": "A"}, "name": "search"}\n'
        '{"arguments": {"radius": 2}, "name": "circle_area"}\n</tool_call>',
        "<tool_call>\nsearch(entity='A')\ncircle_area(radius=2)\n</tool_call>",
        "<|python_tag|>search(entity='A'); circle_area(radius=2)<|eot_id|>",
        '[TOOL_CALLS] {"name": "search", "arguments": {"entity": "A"}}\n'
        '{"name": "circle_area", "arguments": {"radius": 2}}',
    ],
)
def test_every_call_of_a_markup_block_is_taken_one_per_line(text: str) -> None:
    found = extract_calls(text, TOOLS)
    assert args(text) == [("search", {"entity": "A"}), ("circle_area", {"radius": 2})]
    assert not any("cut" in r for c in found.calls for r in c.repairs)


def test_a_markup_block_may_give_name_and_arguments_as_tags() -> None:
    text = "<tool_call>\n<name>search</name>\n<arguments>{entity: 'A'}</arguments>\n</tool_call>"
    assert args(text) == [("search", {"entity": "A"})]


def test_a_markup_block_with_no_call_in_it_is_reported() -> None:
    found = extract_calls("<tool_call>I cannot call anything here.</tool_call>", TOOLS)
    assert found.calls == () and any("holds no call" in d for d in found.dropped)


def test_prose_inside_a_markup_block_is_not_part_of_the_call() -> None:
    text = (
        '<tool_call>I will search: {"name": "search", "arguments": {"entity": "A"}}\n'
        "Then I look at the results.</tool_call>"
    )
    assert args(text) == [("search", {"entity": "A"})]


def test_a_tool_call_block_naming_an_unknown_tool_still_reaches_the_gate() -> None:
    text = '<tool_call>\n{"name": "serch", "arguments": {"entity": "A"}}\n</tool_call>'
    gate = Gate(Catalog([replace(SEARCH, executor=lambda **kw: kw)]))
    (call,) = extract_calls(text, TOOLS).calls
    (result,) = gate.run_batch_sync([call])
    assert call.name == "serch" and result.route is Route.INVALID and "search" in result.content


# --- Java and JavaScript values ---------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ('"limit": "25L"', {"limit": 25}),
        ('"exact": "true"', {"exact": True}),
        ('"exact": "\'false\'"', {"exact": False}),
        ('"entity": "\'Acme\'"', {"entity": "Acme"}),
        ('"tags": "new String[]{\\"a\\", \\"b\\"}"', {"tags": ["a", "b"]}),
        ('"tags": "Arrays.asList(\\"a\\", \\"b\\")"', {"tags": ["a", "b"]}),
        ('"tags": "new ArrayList<>(Arrays.asList(\\"x\\"))"', {"tags": ["x"]}),
        ("\"tags\": \"['a', 'b']\"", {"tags": ["a", "b"]}),
        (
            '"filters": "new HashMap<String, Object>() {{ put(\\"k\\", 1L); }}"',
            {"filters": {"k": 1}},
        ),
        ('"filters": "{region: \'EU\', open: true}"', {"filters": {"region": "EU", "open": True}}),
        ('"tags": ["solo"], "entity": ["Acme"]', {"tags": ["solo"], "entity": "Acme"}),
        ('"entity": 25, "tags": [1, 2.5]', {"entity": "25", "tags": ["1", "2.5"]}),
    ],
)
def test_values_written_as_java_or_javascript_source_are_typed(
    written: str, expected: dict[str, Any]
) -> None:
    call = one('{"name": "search", "arguments": {' + written + "}}")
    assert call.arguments == expected
    assert any("coerced" in r for r in call.repairs)


@pytest.mark.parametrize("entity", ["True", "1e-09", "float('nan')"])
def test_only_a_plain_number_becomes_text_where_text_is_wanted(entity: str) -> None:
    call = one(f"search(entity={entity})")
    assert not any("coerced" in r for r in call.repairs)


def test_a_string_that_only_looks_like_a_value_stays_a_string() -> None:
    either = Tool(
        name="f",
        description="",
        input_schema={"type": "object", "properties": {"v": {"type": ["string", "integer"]}}},
    )
    (call,) = extract_calls('{"name": "f", "arguments": {"v": "25L"}}', [either]).calls
    assert call.arguments == {"v": "25L"} and not call.repairs


def test_one_quoted_string_may_write_several_keyword_arguments() -> None:
    call = one("['search', 'entity=Acme, Inc', 'tags=[\"x, y\", \"z\"], limit=3']")
    assert call.arguments == {"entity": "Acme, Inc", "tags": ["x, y", "z"], "limit": 3}
    assert any("as the keyword arguments" in note for note in call.repairs)


def test_a_keyword_string_in_prose_or_repeating_a_key_is_no_call_of_its_values() -> None:
    prose = "The search tool reads strings such as 'tags=[\"a\"], limit=2' for its options."
    assert extract_calls(prose, TOOLS).calls == ()
    (call,) = extract_calls("['search', 'limit=2, limit=3']", TOOLS).calls
    assert call.arguments != {"limit": 2} and call.arguments != {"limit": 3}


def test_a_keyword_name_is_taken_only_as_written_alone_or_among_others() -> None:
    # `ast` folds full-width names by NFKC; a name the text does not spell is no keyword.
    (together,) = extract_calls("['search', 'entity=a, ｌｉｍｉｔ=5']", TOOLS).calls
    assert isinstance(together.arguments, dict) and "limit" not in together.arguments
    alone = extract_calls("['search', 'entity=a', 'ｌｉｍｉｔ=5']", TOOLS).calls
    assert all(not isinstance(c.arguments, dict) or "limit" not in c.arguments for c in alone)


@pytest.mark.timeout(20)
@pytest.mark.parametrize(
    "text",
    [
        "['search', '" + "limit=1, " * 12_000 + "']",
        "['search', '" + ", ".join(f"k{i}=1" for i in range(12_000)) + "']",
        "['search', 'entity=x" + " " * 100_000 + "y']",
    ],
    ids=["a name repeated", "many names", "a run of spaces"],
)
def test_a_keyword_string_of_100_kb_is_read_in_linear_time(text: str) -> None:
    # Quadratic reading of these takes minutes; linear takes well under a second.
    started = time.perf_counter()
    extract_calls(text, TOOLS)
    assert time.perf_counter() - started < 2.0


# --- hostile text -----------------------------------------------------------------------


HOSTILE = {
    "a thousand [": "[" * 1000,
    "a hundred thousand [": "[" * 100_000,
    "64 KB of {": "{" * 65_536,
    "a call opened again and again": "search(" * 10_000,
    "a call prefix repeated": '{"name": "search", "arguments": ' * 2_000,
    "tagged prefix repeated": '<tool_call>{"name": "search", "arguments": ' * 2_000,
    "64 KB of quotes": '"' * 65_536,
    "thirty thousand arguments": "search(" + "a," * 30_000 + ")",
    "twenty thousand assignments": "x = 1\n" * 20_000 + "search(entity=x)",
    "a put opened again and again": "p = {}\n" + "p.put(\n" * 20_000 + "search(p)",
    "a 5,000-digit number": '{"name": "search", "arguments": {"limit": ' + "9" * 5_000 + "}}",
    "a 5,000-digit number in text": '{"name": "search", "arguments": {"limit": "'
    + "9" * 5_000
    + '"}}',
    "nested arguments": '{"name": "search", "arguments": {"tags": ' + "[" * 500 + "]" * 500 + "}}",
    "NaN and Infinity": "search(entity=NaN, limit=Infinity)",
    "a lone surrogate": '{"name": "search", "arguments": {"entity": "\\ud800"}}',
    "NUL bytes": "search(entity='a\x00b')\x00" * 100,
    "calls quoted again and again": "'search(entity=1) " * 8_000,
    "quoted calls never closed": "'search(" * 10_000 + "'",
    "strings left open before calls": "search(entity='x), " * 8_000,
    "names before special tokens": "search <|content|>" * 14_500 + "{",
    "function tags without end": "<function=" * 25_000,
    "a keyword string of 100 KB of brackets": "['search', 'tags=" + "[, " * 34_000 + "']",
    "a keyword string of 100 KB of quotes": "['search', 'entity=" + "\", ' " * 34_000 + "']",
    "function tags named without end": "<function=search>" * 15_000,
    # json-repair is quadratic on this; texts this long are not given to it.
    "a list of 200 KB of quotes and brackets": "['search', 'tags=" + "')" * 100_000 + "']",
    # ... and each of these is short enough to repair: one extraction repairs a few only.
    "a hundred broken lists just under the repair limit": "".join(
        '<function=search>{"tags": [' + "')" * 1_000 + f"{n}}}</function>\n" for n in range(120)
    ),
    "a function body nested 5,000 deep": "<function=search>"
    + '{"a":' * 5_000
    + "1"
    + "}" * 5_000
    + "</function>",
}


@pytest.mark.timeout(20)
@pytest.mark.parametrize("text", list(HOSTILE.values()), ids=list(HOSTILE))
def test_hostile_text_gives_an_answer_not_an_exception(text: str) -> None:
    found = extract_calls(text, TOOLS)
    for call in found.calls:
        assert call.name in {t.name for t in TOOLS}
        assert isinstance(call.arguments, dict | str)
        if isinstance(call.arguments, str):
            assert call.repairs


@pytest.mark.parametrize(
    "text",
    [
        '{"name": "circle_area", "arguments": {"radius": NaN}}',
        'circle_area\n{"radius": Infinity}',
        '<tool_call>{"name": "circle_area", "arguments": {"radius": -Infinity}}</tool_call>',
        '{"name": "circle_area", "arguments": "{\\"radius\\": NaN}"}',
    ],
)
def test_nan_and_infinity_in_json_are_no_values(text: str) -> None:
    # Python's json module accepts them; JSON does not, and a number schema would pass NaN.
    call = one(text)
    assert isinstance(call.arguments, str)
    assert isinstance(parse_arguments(call.arguments), ArgumentError)


def test_what_a_bound_stops_is_reported() -> None:
    deep = extract_calls('{"name": "search", "arguments": ' * 50, TOOLS)
    assert deep.calls == () and any("nested more than 32" in d for d in deep.dropped)
    long = extract_calls("x" * 300_000 + " search(entity='a')", TOOLS)
    assert long.calls == () and any("only the first" in d for d in long.dropped)


def test_repairs_never_pass_invented_text_as_the_models_value(tmp_path: Path) -> None:
    # json-repair would keep 4.22 and drop "+ 6.1"; the call is left invalid instead.
    call = one('{"name": "circle_area", "arguments": {"radius": 4.22 +* 6.1}}')
    assert isinstance(call.arguments, str)


# --- markup beside prose and strings ---------------------------------------------------


@pytest.mark.parametrize(
    "body",
    ['{"entity": "x"} trailing', "{{{", '{"entity" "x" 5 ]'],
)
def test_a_function_tag_body_no_reading_accepts_is_the_call_with_an_argument_error(
    body: str,
) -> None:
    call = one(f"<function=search>{body}</function>")
    assert call.name == "search" and isinstance(call.arguments, str)
    assert isinstance(parse_arguments(call.arguments), ArgumentError)


def test_a_function_tag_body_nested_too_deep_is_reported_not_read() -> None:
    found = extract_calls(
        "<function=search>" + '{"a":' * 40 + "1" + "}" * 40 + "</function>", TOOLS
    )
    assert found.calls == () and any("nested more than 32" in d for d in found.dropped)


@pytest.mark.parametrize(
    "prose",
    ["Converting 5'11\" to cm: ", 'A 27" monitor: ', "Checking the 'Big Apple: ", 'He said "go '],
)
@pytest.mark.parametrize(
    "markup",
    [
        '<tool_call>{"name": "search", "arguments": {"entity": "x"}}</tool_call>',
        '[TOOL_CALLS][{"name": "search", "arguments": {"entity": "x"}}]',
        '<|python_tag|>search(entity="x")',
        '<function=search>{"entity": "x"}</function>',
    ],
)
def test_a_quote_in_the_prose_before_markup_hides_no_call(prose: str, markup: str) -> None:
    found = extract_calls(prose + markup, TOOLS).calls
    assert [(c.name, c.arguments) for c in found] == [("search", {"entity": "x"})]


@pytest.mark.parametrize("tag", ["<function=circle_area>", "<tool_call>", "</function>"])
def test_a_function_tag_inside_a_quoted_argument_is_text(tag: str) -> None:
    assert one(f'search(entity="{tag}")').arguments == {"entity": tag}


def test_a_closing_function_tag_inside_a_json_string_does_not_end_the_block() -> None:
    call = one('<function=search>{"entity": "a</function>b"}</function>')
    assert call.arguments == {"entity": "a</function>b"}


def test_a_prose_list_of_quoted_names_with_notes_is_no_call() -> None:
    text = 'The tools I could use: ["search" (beta), "circle_area" (stable)]'
    assert extract_calls(text, TOOLS).calls == ()


@pytest.mark.parametrize("order", [("2", "2 * pi"), ("2 * pi", "2")])
def test_the_same_words_after_a_variable_changed_are_two_calls(order: tuple[str, str]) -> None:
    text = f"r = {order[0]}\ncircle_area(radius=r)\nr = {order[1]}\ncircle_area(radius=r)"
    found = extract_calls(text, TOOLS).calls
    assert len(found) == 2 and sum(isinstance(c.arguments, str) for c in found) == 1


def test_reasoning_in_the_harmony_analysis_channel_is_no_call() -> None:
    text = (
        '<|channel|>analysis<|message|>Maybe search {"entity": "LA"}? No, Acme.<|end|>'
        "<|start|>assistant<|channel|>commentary to=functions.search <|constrain|>json"
        '<|message|>{"entity": "Acme"}<|call|>'
    )
    found = extract_calls(text, TOOLS).calls
    assert [(c.name, c.arguments) for c in found] == [("search", {"entity": "Acme"})]


@pytest.mark.parametrize(
    "text",
    [
        "['search', 'entity=A', 'entity=B']",
        "['search', 'entity=']",
        "['search', 'limit=2', 'limit=3']",
    ],
)
def test_a_name_and_keywords_list_with_a_key_repeated_or_empty_is_an_argument_error(
    text: str,
) -> None:
    call = one(text)
    assert call.name == "search" and isinstance(call.arguments, str)
    assert isinstance(parse_arguments(call.arguments), ArgumentError)


@pytest.mark.timeout(20)
@pytest.mark.parametrize(
    "head", ["search(" + "'a',", "search(" + "'é',", "search(entity=,", "search(1,", "search(a,"]
)
def test_a_call_of_many_arguments_is_read_in_linear_time(head: str) -> None:
    # Each quoted string searched the whole text for a doubled quote, each line not ASCII
    # was encoded again for each value on it, and each empty argument was tried as JSON,
    # Python and repaired JSON: a text at the limit took from 20 s to minutes.
    unit = head[head.index("(") + 1 :].removeprefix("entity=")
    text = (head + unit * MAX_CHARS)[:MAX_CHARS]
    (call,) = extract_calls(text, TOOLS).calls
    assert call.name == "search"
    assert any(f"more than the {MAX_ARGUMENTS} read" in r for r in call.repairs)


@pytest.mark.parametrize(("head", "unit"), [("", "1,"), ("entity=x", ",")], ids=repr)
def test_past_the_argument_bound_a_call_keeps_its_text_for_an_invalid_answer(
    head: str, unit: str
) -> None:
    # `entity=x,,,` is not Python: it is read argument by argument.
    (within,) = extract_calls(f"search({head}{unit * (MAX_ARGUMENTS - 1)}1)", TOOLS).calls
    assert not any("more than the" in r for r in within.repairs)
    (past,) = extract_calls(f"search({head}{unit * MAX_ARGUMENTS}1)", TOOLS).calls
    assert past.arguments == head + unit * MAX_ARGUMENTS + "1"
    assert f"the call's {MAX_ARGUMENTS + 1} arguments, more than the {MAX_ARGUMENTS} read" in (
        " ".join(past.repairs)
    )


@pytest.mark.timeout(20)
def test_brackets_owed_are_found_once_for_a_text_and_its_prefixes() -> None:
    # A cut-off value is closed at up to 16 line ends, each a scan of the text in full: a
    # `<tool_call>` of 256 KB of short lines took 16 s, char by char. Prefixes of the text
    # scanned last resume from a state kept on the way.
    from callgate.dialects._text_values import _open

    text = '{"a": [' + "a\n'(\n'" * (MAX_CHARS // 6)
    for cut in range(400):
        assert _open(text[: len(text) - 6 * cut])[:2] == (["}", "]"], "")
    assert _open("""{'a': "x\\"(", 'b': [1, {""") == (["}", "]", "}"], "", 14)
    assert _open("f(a='it\\'s") == ([")"], "'", 4)
    head = '<tool_call>{"name": "search", "arguments": {"entity": "x"'
    (call,) = extract_calls(head + "\n" * 16, TOOLS).calls
    assert call.arguments == {"entity": "x"}
