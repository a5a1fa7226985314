"""Property tests for the parsers and generators on the path of every call."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from callgate.schema import (
    ArgumentError,
    ArgumentLimits,
    compile_schema,
    example_for,
    fill_defaults,
    parse_arguments,
)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4)
    ),
    max_leaves=20,
)
json_objects = st.dictionaries(st.text(), json_values, max_size=5)


@given(st.text() | st.binary())
def test_parse_never_raises_on_hostile_text(raw: str | bytes) -> None:
    parsed = parse_arguments(raw)
    assert isinstance(parsed, dict | ArgumentError)


@given(json_objects)
def test_parse_round_trips_objects(value: dict[str, Any]) -> None:
    assert parse_arguments(json.dumps(value)) == value
    assert parse_arguments(value) == value


@given(st.integers(min_value=1, max_value=60))
def test_depth_limit_is_exact(depth: int) -> None:
    text = '{"a": ' * depth + "1" + "}" * depth
    parsed = parse_arguments(text, ArgumentLimits(max_depth=30))
    assert isinstance(parsed, dict) == (depth <= 30)


scalar_schemas = st.one_of(
    st.builds(
        lambda lo, hi: {"type": "integer", "minimum": min(lo, hi), "maximum": max(lo, hi)},
        st.integers(-50, 50),
        st.integers(-50, 50),
    ),
    st.builds(lambda n: {"type": "string", "minLength": n}, st.integers(0, 20)),
    st.sampled_from(
        [
            {"type": "string", "format": f}
            for f in ("date", "date-time", "email", "uuid", "uri", "ipv4", "hostname")
        ]
    ),
    st.lists(st.text(min_size=1), min_size=1, max_size=4, unique=True).map(lambda e: {"enum": e}),
    st.just({"type": "boolean"}),
    st.just({"type": "number", "exclusiveMinimum": 0}),
)
object_schemas = st.recursive(
    scalar_schemas,
    lambda inner: st.dictionaries(
        st.from_regex(r"[a-z]{1,8}", fullmatch=True), inner, min_size=1, max_size=4
    ).flatmap(
        lambda props: st.lists(st.sampled_from(sorted(props)), unique=True).map(
            lambda req: {
                "type": "object",
                "properties": props,
                "required": req,
                "additionalProperties": False,
            }
        )
    ),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(object_schemas)
def test_generated_examples_are_valid_or_absent(schema: dict[str, Any]) -> None:
    compiled = compile_schema(schema)
    example = example_for(schema, compiled.is_valid)
    assert example is None or compiled.is_valid(example)


@given(json_objects)
def test_fill_defaults_is_idempotent(value: dict[str, Any]) -> None:
    schema = {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "default": 1},
            "o": {"type": "object", "default": {}, "properties": {"k": {"default": "v"}}},
        },
    }
    once = fill_defaults(schema, copy.deepcopy(value))
    assert fill_defaults(schema, copy.deepcopy(once)) == once
    assert "n" in once and "o" in once


flat_defaults = st.dictionaries(
    st.from_regex(r"[a-z]{1,6}", fullmatch=True),
    st.fixed_dictionaries({"type": st.just("string")}, optional={"default": st.text(max_size=3)}),
    max_size=5,
).map(lambda props: {"type": "object", "properties": props})


@given(st.one_of(flat_defaults, object_schemas), json_objects)
def test_specialised_filler_matches_the_general_walk(
    schema: dict[str, Any], value: dict[str, Any]
) -> None:
    from callgate.schema import defaults_filler

    assert defaults_filler(schema)(copy.deepcopy(value)) == fill_defaults(
        schema, copy.deepcopy(value)
    )
