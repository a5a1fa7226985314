"""Generate a small valid instance of a schema, to show the model what a good call looks like."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from callgate.schema._pointer import resolve_local

__all__ = ["example_for"]

_FORMAT_SAMPLES: Mapping[str, str] = {
    "date": "2026-01-31",
    "date-time": "2026-01-31T09:00:00Z",
    "time": "09:00:00Z",
    "email": "user@example.com",
    "idn-email": "user@example.com",
    "uuid": "123e4567-e89b-12d3-a456-426614174000",
    "uri": "https://example.com",
    "iri": "https://example.com",
    "uri-reference": "https://example.com",
    "hostname": "example.com",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "duration": "P1D",
}

_MISSING = object()


def example_for(schema: Mapping[str, Any] | bool, is_valid: Callable[[Any], bool]) -> Any:
    """A plausible instance built from examples, defaults, enums, formats and minimums.

    Returns `None` when no instance the schema accepts could be built: an example that
    fails validation would teach the model the wrong thing.
    """
    if not isinstance(schema, Mapping):
        return None
    value = _sample(schema, schema, "", depth=0)
    if value is _MISSING or not is_valid(value):
        return None
    return value


def _sample(root: Mapping[str, Any], node: Mapping[str, Any], name: str, depth: int) -> Any:
    node = resolve_local(root, node)
    if depth > 8:
        return _MISSING
    given = _given(node)
    if given is not _MISSING:
        return given
    for key in ("anyOf", "oneOf", "allOf"):
        branches = [b for b in node.get(key, ()) if isinstance(b, Mapping)]
        non_null = [b for b in branches if resolve_local(root, b).get("type") != "null"]
        if non_null:
            return _sample(root, non_null[0], name, depth + 1)
    kind = node.get("type")
    if isinstance(kind, list):
        kind = next((t for t in kind if t != "null"), "null")
    if kind == "object" or (kind is None and "properties" in node):
        return _object(root, node, depth)
    if kind == "array":
        return _array(root, node, name, depth)
    return _scalar(node, kind, name)


def _given(node: Mapping[str, Any]) -> Any:
    examples = node.get("examples")
    if isinstance(examples, list) and examples:
        return examples[0]
    for key in ("example", "default", "const"):
        if key in node:
            return node[key]
    enum = node.get("enum")
    if isinstance(enum, list) and enum:
        return enum[0]
    return _MISSING


def _object(root: Mapping[str, Any], node: Mapping[str, Any], depth: int) -> Any:
    props = node.get("properties")
    if not isinstance(props, Mapping):
        return {}
    required = [n for n in node.get("required", ()) if n in props]
    # Show the required fields and the ones that carry a default: the shape a model should send.
    shown = required + [n for n in props if n not in required and _has_default(root, props[n])]
    out: dict[str, Any] = {}
    for name in shown[:12]:
        sub = props[name]
        if isinstance(sub, Mapping):
            value = _sample(root, sub, name, depth + 1)
            if value is _MISSING:
                return _MISSING
            out[name] = value
    return out


def _has_default(root: Mapping[str, Any], sub: Any) -> bool:
    return isinstance(sub, Mapping) and ("default" in sub or "default" in resolve_local(root, sub))


def _array(root: Mapping[str, Any], node: Mapping[str, Any], name: str, depth: int) -> Any:
    items = node.get("items")
    count = _size(node.get("minItems", 1))
    if count is None:
        return _MISSING
    count = max(count, 1)
    if not isinstance(items, Mapping):
        return _MISSING
    item = _sample(root, items, name, depth + 1)
    return _MISSING if item is _MISSING else [item] * count


def _scalar(node: Mapping[str, Any], kind: Any, name: str) -> Any:
    if kind in ("integer", "number"):
        return _number(node, integer=kind == "integer")
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    if kind == "string" or kind is None:
        sample = _FORMAT_SAMPLES.get(str(node.get("format")), name or "example")
        min_len = _size(node.get("minLength", 0))
        return _MISSING if min_len is None else sample + "x" * max(0, min_len - len(sample))
    return _MISSING


_LARGEST_SAMPLE = 64
"""An example is shown in every message about a wrong call: a string or array that must
be longer than this makes no example rather than a long one."""


def _size(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return int(value) if 0 <= value <= _LARGEST_SAMPLE else None


def _number(node: Mapping[str, Any], *, integer: bool) -> Any:
    low = node.get("minimum")
    if (
        low is None
        and "exclusiveMinimum" in node
        and not isinstance(node["exclusiveMinimum"], bool)
    ):
        low = node["exclusiveMinimum"] + 1
    high = node.get("maximum")
    value = low if low is not None else 1
    if high is not None and value > high:
        value = high
    return int(value) if integer else value
