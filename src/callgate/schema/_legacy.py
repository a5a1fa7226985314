"""Map the non-standard type names found in real tool catalogs onto JSON Schema.

BFCL function docs write `dict`, `float` and Java names; Gemini's OpenAPI subset writes
`STRING`, `OBJECT`. Such a schema does not compile, so these names are rewritten and every
rewrite is reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["normalize_types"]

_TYPES: Mapping[str, str | None] = {
    "dict": "object",
    "hashmap": "object",
    "map": "object",
    "float": "number",
    "double": "number",
    "long": "integer",
    "int": "integer",
    "tuple": "array",
    "arraylist": "array",
    "list": "array",
    "str": "string",
    "char": "string",
    "bool": "boolean",
    "any": None,
    "": None,
}
_STANDARD = {"object", "array", "string", "number", "integer", "boolean", "null"}
_CHILD_MAPS = ("properties", "$defs", "definitions", "patternProperties")
_CHILD_ONE = ("items", "additionalProperties", "not", "contains")
_CHILD_MANY = ("anyOf", "oneOf", "allOf", "prefixItems")
_CHILD_KEYS = frozenset(_CHILD_MAPS + _CHILD_ONE + _CHILD_MANY)


def normalize_types(schema: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Return a rewritten copy of `schema` and one line per rewrite made."""
    notes: list[str] = []
    return _node(schema, "", notes), notes


def _node(node: Mapping[str, Any], where: str, notes: list[str]) -> dict[str, Any]:
    out = dict(node)
    if "type" in out:
        _fix_type(out, where, notes)
    if "optional" in out and isinstance(out["optional"], bool):
        notes.append(f"{where or '/'}: dropped non-standard 'optional'")
        del out["optional"]
    if _CHILD_KEYS.isdisjoint(out):
        return out  # a leaf, as most nodes are: nothing below to rewrite
    for key in _CHILD_MAPS:
        if _is_map(out.get(key)):
            out[key] = {
                k: _node(v, f"{where}/{key}/{k}", notes) if _is_map(v) else v
                for k, v in out[key].items()
            }
    for key in _CHILD_ONE:
        if _is_map(out.get(key)):
            out[key] = _node(out[key], f"{where}/{key}", notes)
    for key in _CHILD_MANY:
        if isinstance(out.get(key), list):
            out[key] = [
                _node(v, f"{where}/{key}/{i}", notes) if _is_map(v) else v
                for i, v in enumerate(out[key])
            ]
    return out


def _is_map(value: Any) -> bool:
    # JSON's own dict first: the ABC check costs more than the rest of a leaf's rewrite
    return type(value) is dict or (value is not None and isinstance(value, Mapping))


def _fix_type(out: dict[str, Any], where: str, notes: list[str]) -> None:
    kind = out["type"]
    if isinstance(kind, list):
        fixed = [_one(k) for k in kind]
        kept = [k for k in fixed if k is not None]
        if kept != kind:
            notes.append(f"{where or '/'}: type {kind!r} -> {kept!r}")
            out["type"] = kept
        return
    if not isinstance(kind, str) or kind in _STANDARD:
        return
    new = _one(kind)
    if new == kind:
        return
    notes.append(f"{where or '/'}: type {kind!r} -> {new!r}")
    if new is None:
        del out["type"]
    else:
        out["type"] = new


def _one(kind: Any) -> Any:
    if not isinstance(kind, str) or kind in _STANDARD:
        return kind
    lowered = kind.lower()
    if lowered in _STANDARD:
        return lowered
    return _TYPES.get(lowered, kind)
