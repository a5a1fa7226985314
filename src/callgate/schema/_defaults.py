"""Fill the defaults a schema declares into a validated instance, at any depth."""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Mapping
from typing import Any

from callgate.schema._canonical import canonical_json
from callgate.schema._pointer import resolve_local

__all__ = ["defaults_filler", "fill_defaults"]


def fill_defaults(schema: Mapping[str, Any] | bool, instance: Any) -> Any:
    """Add missing properties that declare a `default`, in place; returns `instance`.

    Follows `properties`, `items`, `prefixItems`, `allOf`, local `$ref`s, and an
    `anyOf`/`oneOf` whose only object branch applies (how pydantic writes `Model | None`).
    """
    if isinstance(schema, Mapping):
        _fill(schema, schema, instance, depth=0)
    return instance


def _fill(root: Mapping[str, Any], node: Mapping[str, Any], value: Any, depth: int) -> None:
    if depth > 64:
        return
    node = resolve_local(root, node)
    for sub in node.get("allOf", ()):
        if isinstance(sub, Mapping):
            _fill(root, sub, value, depth + 1)
    branch = _single_object_branch(root, node)
    if branch is not None and isinstance(value, dict):
        _fill(root, branch, value, depth + 1)
    if isinstance(value, dict):
        _fill_object(root, node, value, depth)
    elif isinstance(value, list):
        _fill_array(root, node, value, depth)


def _fill_object(
    root: Mapping[str, Any], node: Mapping[str, Any], value: dict[str, Any], depth: int
) -> None:
    props = node.get("properties")
    if not isinstance(props, Mapping):
        return
    for name, sub in props.items():
        if not isinstance(sub, Mapping):
            continue
        if name not in value:
            # A default written beside a `$ref` wins over one inside the referenced schema.
            source = sub if "default" in sub else resolve_local(root, sub)
            if "default" in source:
                value[name] = copy.deepcopy(source["default"])
        if name in value:
            _fill(root, sub, value[name], depth + 1)


def _fill_array(
    root: Mapping[str, Any], node: Mapping[str, Any], value: list[Any], depth: int
) -> None:
    prefix = node.get("prefixItems")
    start = 0
    if isinstance(prefix, list):
        for sub, item in zip(prefix, value, strict=False):
            if isinstance(sub, Mapping):
                _fill(root, sub, item, depth + 1)
        start = len(prefix)
    items = node.get("items")
    if isinstance(items, Mapping):
        for item in value[start:]:
            _fill(root, items, item, depth + 1)


def _single_object_branch(
    root: Mapping[str, Any], node: Mapping[str, Any]
) -> Mapping[str, Any] | None:
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if not isinstance(branches, list):
            continue
        objects = [
            resolve_local(root, b)
            for b in branches
            if isinstance(b, Mapping) and _is_object_schema(resolve_local(root, b))
        ]
        if len(objects) == 1:
            return objects[0]
    return None


def _is_object_schema(node: Mapping[str, Any]) -> bool:
    return node.get("type") == "object" or "properties" in node


def defaults_filler(schema: Mapping[str, Any] | bool) -> Callable[[Any], Any]:
    """`fill_defaults` specialised for one schema, computed once at registration.

    Most tool schemas declare defaults only on top-level properties; those get a flat
    loop instead of a walk over the schema on every call.
    """
    if not isinstance(schema, Mapping) or '"default"' not in canonical_json(schema):
        return _unchanged
    props = schema.get("properties")
    flat = (
        isinstance(props, Mapping)
        and set(schema) <= _FLAT_KEYS
        and all(isinstance(p, Mapping) and _is_leaf(p) for p in props.values())
    )
    if not flat:
        return lambda instance: fill_defaults(schema, instance)
    assert isinstance(props, Mapping)
    pairs = tuple((name, p["default"]) for name, p in props.items() if "default" in p)
    return functools.partial(_fill_flat, pairs)


_FLAT_KEYS = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "description",
        "title",
        "$schema",
        "$id",
        "examples",
    }
)
_NESTING = ("properties", "items", "prefixItems", "allOf", "anyOf", "oneOf", "$ref")


def _is_leaf(node: Mapping[str, Any]) -> bool:
    return not any(key in node for key in _NESTING)


def _fill_flat(pairs: tuple[tuple[str, Any], ...], instance: Any) -> Any:
    if isinstance(instance, dict):
        for name, default in pairs:
            if name not in instance:
                instance[name] = (
                    copy.deepcopy(default) if isinstance(default, dict | list) else default
                )
    return instance


def _unchanged(instance: Any) -> Any:
    return instance
