"""Bring parsed arguments back to the tool's own schema, reporting every change.

Two sources of mismatch are undone here: nulls that strict mode made the model send for
optional properties, and values of the wrong JSON type where the intent is unambiguous
("3" for an integer; Gemini's 3.0 for an integer). Anything else is left for the host's
validation to report.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Literal

from callgate.schema import resolve_local

__all__ = ["Coercion", "coerce_arguments", "drop_strict_nulls"]

Coercion = Literal["float_int", "text"]
"""`float_int`: integral floats for integers only; `text`: also strings for scalars and
JSON text for arrays and objects."""

_INT = re.compile(r"^-?\d+$")
_NUM = re.compile(r"^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")
_MISSING = object()


def drop_strict_nulls(
    args: dict[str, Any], schema: Mapping[str, Any]
) -> tuple[dict[str, Any], list[str]]:
    """Remove nulls the original schema does not allow for optional properties."""
    notes: list[str] = []
    return _drop(args, schema, schema, "", notes), notes


def _drop(
    value: dict[str, Any],
    node: Mapping[str, Any],
    root: Mapping[str, Any],
    where: str,
    notes: list[str],
) -> dict[str, Any]:
    node = resolve_local(root, node)
    props = node.get("properties")
    if not isinstance(props, Mapping):
        return value
    required = set(node.get("required") or ())
    out: dict[str, Any] = {}
    for key, item in value.items():
        sub = props.get(key)
        sub = resolve_local(root, sub) if isinstance(sub, Mapping) else None
        if item is None and key not in required and sub is not None and not _allows_null(sub):
            notes.append(f"dropped null for optional '{where}{key}' (strict mode)")
            continue
        if isinstance(item, dict) and sub is not None:
            item = _drop(item, sub, root, f"{where}{key}.", notes)
        out[key] = item
    return out


def coerce_arguments(
    args: dict[str, Any], schema: Mapping[str, Any], kind: Coercion
) -> tuple[dict[str, Any], list[str]]:
    """Convert values whose schema names one type and whose meaning is unambiguous."""
    notes: list[str] = []
    value = _walk(args, schema, schema, "", kind, notes)
    return (value if isinstance(value, dict) else args), notes


def _walk(
    value: Any,
    node: Mapping[str, Any],
    root: Mapping[str, Any],
    where: str,
    kind: Coercion,
    notes: list[str],
) -> Any:
    node = resolve_local(root, node)
    declared = node.get("type")
    if isinstance(declared, str):
        value = _convert(value, declared, where, kind, notes)
    if isinstance(value, dict) and isinstance(node.get("properties"), Mapping):
        props = node["properties"]
        return {
            k: _walk(v, props[k], root, f"{where}{k}.", kind, notes)
            if isinstance(props.get(k), Mapping)
            else v
            for k, v in value.items()
        }
    if isinstance(value, list) and isinstance(node.get("items"), Mapping):
        return [
            _walk(v, node["items"], root, f"{where}{i}.", kind, notes) for i, v in enumerate(value)
        ]
    return value


def _convert(value: Any, declared: str, where: str, kind: Coercion, notes: list[str]) -> Any:
    new = _MISSING
    if declared == "integer" and isinstance(value, float) and value.is_integer():
        new = int(value)
    elif kind == "text":
        new = _from_text(value, declared)
    if new is _MISSING or (new == value and type(new) is type(value)):
        return value
    notes.append(
        f"coerced '{where.rstrip('.') or '(arguments)'}' {value!r} -> {new!r} ({declared})"
    )
    return new


def _from_text(value: Any, declared: str) -> Any:
    if not isinstance(value, str):
        return _MISSING
    text = value.strip()
    if declared == "integer" and _INT.match(text):
        return int(text)
    if declared == "number" and _NUM.match(text):
        number = float(text)
        return int(number) if _INT.match(text) else number
    if declared == "boolean" and text.lower() in ("true", "false"):
        return text.lower() == "true"
    if declared in ("array", "object") and text[:1] in "[{":
        try:
            parsed = json.loads(text)
        except ValueError:
            return _MISSING
        wanted = list if declared == "array" else dict
        return parsed if isinstance(parsed, wanted) else _MISSING
    return _MISSING


def _allows_null(node: Mapping[str, Any]) -> bool:
    kind = node.get("type")
    if kind is None and not any(k in node for k in ("anyOf", "oneOf", "enum", "const")):
        return True
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    if isinstance(node.get("enum"), list) and None in node["enum"]:
        return True
    branches = (node.get("anyOf") or []) + (node.get("oneOf") or [])
    return any(isinstance(b, Mapping) and _allows_null(b) for b in branches)
