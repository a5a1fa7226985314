"""Random schemas rendered strict for every provider: the result keeps every provider rule.

The rules are written here from the providers' documentation (dialects.md §4.6, §6), not
taken from the transforms, so a transform that breaks one is caught.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from callgate.contract import Tool
from callgate.dialects import render_tools

PROPERTIES = settings(
    max_examples=250,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

_NAMES = st.sampled_from(["a", "b", "city", "a/b", "x~y", "with space", "n1", "é"])
_SCALAR = st.sampled_from(["string", "integer", "number", "boolean"])


def _leaf() -> st.SearchStrategy[dict[str, Any]]:
    return st.one_of(
        st.builds(lambda t: {"type": t}, _SCALAR),
        st.just({}),
        st.just({"description": "any value"}),
        st.just({"type": "string", "format": "uri", "maxLength": 9, "pattern": "^a"}),
        st.just({"type": "string", "format": "date-time", "default": "x"}),
        st.just({"type": "integer", "minimum": 1, "maximum": 9, "default": 2}),
        st.just({"type": "string", "enum": ["a", "b"]}),
        st.just({"enum": [1, 2, None]}),
        st.just({"type": "boolean", "enum": [True]}),
        st.just({"const": "fixed"}),
        st.just({"type": ["string", "null"]}),
        st.just({"$ref": "#/$defs/Shared"}),
        st.just({"type": "array", "items": {"type": "string"}, "minItems": 2, "uniqueItems": True}),
    )


def _node(children: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    props = st.dictionaries(_NAMES, children, max_size=4)
    return st.one_of(
        st.builds(
            lambda p, required, extra: {
                "type": "object",
                "properties": p,
                "required": [k for k in p if required],
                **extra,
            },
            props,
            st.booleans(),
            st.sampled_from([{}, {"additionalProperties": False}, {"additionalProperties": True}]),
        ),
        st.builds(lambda p: {"properties": p}, props),
        st.builds(lambda c: {"type": "array", "items": c}, children),
        st.builds(lambda cs: {"anyOf": cs}, st.lists(children, min_size=1, max_size=3)),
        st.builds(lambda cs: {"oneOf": cs}, st.lists(children, min_size=1, max_size=3)),
        st.builds(lambda c: {"allOf": [c]}, children),
        st.builds(lambda c: {"allOf": [{"allOf": [c]}]}, children),
        st.builds(lambda a, b: {"allOf": [a, b]}, children, children),
        st.builds(lambda c: {"not": c}, children),
    )


_SCHEMA = st.recursive(_leaf(), _node, max_leaves=12)


def _deep(depth: int) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "object", "properties": {"v": {"type": "string"}}}
    for _ in range(depth):
        node = {"type": "object", "properties": {"c": node}}
    return node


_ROOTS = st.one_of(
    st.builds(
        lambda p: {
            "type": "object",
            "properties": p,
            "$defs": {"Shared": {"type": "object", "properties": {"s": {"type": "string"}}}},
        },
        st.dictionaries(_NAMES, _SCHEMA, min_size=1, max_size=4),
    ),
    st.integers(min_value=1, max_value=14).map(_deep),
)


def _nodes(schema: Any) -> Iterator[Mapping[str, Any]]:
    stack = [schema]
    while stack:
        node = stack.pop()
        if not isinstance(node, Mapping):
            continue
        yield node
        for key in ("properties", "$defs", "definitions"):
            if isinstance(node.get(key), Mapping):
                stack += list(node[key].values())
        if isinstance(node.get("items"), Mapping):
            stack.append(node["items"])
        for key in ("anyOf", "oneOf", "allOf"):
            stack += list(node.get(key) or [])


def _is_object(node: Mapping[str, Any]) -> bool:
    kind = node.get("type")
    return kind == "object" or (isinstance(kind, list) and "object" in kind)


def _object_depth(node: Any, depth: int = 0) -> int:
    if not isinstance(node, Mapping):
        return depth
    here = depth + 1 if _is_object(node) else depth
    children = list((node.get("properties") or {}).values()) + list(node.get("anyOf") or [])
    if isinstance(node.get("items"), Mapping):
        children.append(node["items"])
    return max([here, *(_object_depth(c, here) for c in children)])


def _refs_resolve(schema: Mapping[str, Any]) -> bool:
    for node in _nodes(schema):
        ref = node.get("$ref")
        if isinstance(ref, str):
            target: Any = schema
            for token in ref.removeprefix("#/").split("/"):
                if not isinstance(target, Mapping) or token not in target:
                    return False
                target = target[token]
    return True


_OPENAI_KEYS = {
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "anyOf",
    "enum",
    "const",
    "description",
    "title",
    "$ref",
    "$defs",
    "definitions",
    "pattern",
    "format",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "minItems",
    "maxItems",
}
_OPENAI_FORMATS = {
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
}


def _openai_rules(schema: Mapping[str, Any]) -> None:
    assert _is_object(schema) and "anyOf" not in schema
    assert _refs_resolve(schema)
    assert _object_depth(schema) <= 10
    for node in _nodes(schema):
        assert set(node) <= _OPENAI_KEYS, set(node) - _OPENAI_KEYS
        assert {"type", "anyOf", "$ref"} & set(node), node  # every node typed
        assert node.get("format") in (None, *_OPENAI_FORMATS)
        if _is_object(node):
            assert node["additionalProperties"] is False
            assert set(node["required"]) == set(node["properties"])  # all required


_ANTHROPIC_KEYS = {
    "type",
    "anyOf",
    "allOf",
    "$ref",
    "$defs",
    "definitions",
    "enum",
    "const",
    "description",
    "title",
    "default",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "format",
    "pattern",
    "minItems",
}
_ANTHROPIC_FORMATS = _OPENAI_FORMATS | {"uri"}


def _anthropic_rules(schema: Mapping[str, Any]) -> tuple[int, int]:
    """Checks one strict schema; returns its optional parameters and unions."""
    assert _refs_resolve(schema)
    optional = unions = 0
    for node in _nodes(schema):
        assert set(node) <= _ANTHROPIC_KEYS, set(node) - _ANTHROPIC_KEYS
        assert node.get("format") in (None, *_ANTHROPIC_FORMATS)
        assert node.get("minItems") in (None, 0, 1)
        if _is_object(node) or "properties" in node:
            assert node.get("additionalProperties") is False
            optional += len(set(node.get("properties") or {}) - set(node.get("required") or []))
        unions += "anyOf" in node or isinstance(node.get("type"), list)
    return optional, unions


_GEMINI_KEYS = {
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "items",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "anyOf",
    "default",
    "example",
    "propertyOrdering",
}
_GEMINI_TYPES = {"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"}


def _gemini_rules(schema: Mapping[str, Any]) -> None:
    for node in _nodes(schema):
        assert set(node) <= _GEMINI_KEYS, set(node) - _GEMINI_KEYS
        assert node.get("type") in (None, *_GEMINI_TYPES)
        if "enum" in node:
            assert all(isinstance(v, str) for v in node["enum"]) and node["format"] == "enum"


@PROPERTIES
@given(st.lists(_ROOTS, min_size=1, max_size=3))
def test_strict_rendering_keeps_every_provider_rule(schemas: list[dict[str, Any]]) -> None:
    tools = [Tool(name=f"t{i}", description="d", input_schema=s) for i, s in enumerate(schemas)]
    for dialect in ("openai_chat", "openai_responses"):
        rendered = render_tools(tools, dialect, strict=True)
        for tool in rendered.payload["tools"]:
            body = tool.get("function", tool)
            if body["strict"]:
                _openai_rules(body["parameters"])
            else:
                assert any(
                    w.tool == body["name"] and w.action == "not_strict" for w in rendered.warnings
                )
    rendered = render_tools(tools, "anthropic", strict=True)
    strict = [t for t in rendered.payload["tools"] if t.get("strict")]
    assert len(strict) <= 20
    costs = [_anthropic_rules(t["input_schema"]) for t in strict]
    assert sum(c[0] for c in costs) <= 24 and sum(c[1] for c in costs) <= 16
    for tool in rendered.payload["tools"]:
        if not tool.get("strict"):
            assert any(
                w.tool == tool["name"] and w.action == "not_strict" for w in rendered.warnings
            )
    rendered = render_tools(tools, "gemini", gemini_schema="openapi")
    for declaration in rendered.payload["tools"][0]["functionDeclarations"]:
        _gemini_rules(declaration["parameters"])


@PROPERTIES
@given(_ROOTS)
def test_every_warning_path_points_into_the_original_schema(schema: dict[str, Any]) -> None:
    tool = Tool(name="t", description="d", input_schema=schema)
    for dialect, options in (
        ("openai_chat", {"strict": True}),
        ("anthropic", {"strict": True}),
        ("gemini", {"gemini_schema": "openapi"}),
    ):
        for warning in render_tools([tool], dialect, **options).warnings:
            node: Any = schema
            for token in warning.path.split("/")[1:] if warning.path else []:
                token = token.replace("~1", "/").replace("~0", "~")
                node = node[int(token)] if isinstance(node, list) else node[token]
