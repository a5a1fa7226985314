"""Decode one payload found in model text into raw calls: JSON, pythonic or XML.

Broken JSON is repaired by `json_repair`; pythonic calls are read from the `ast` tree
(literals only, never evaluated). Every repair is reported with the call.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import json_repair

__all__ = ["RawCall", "calls_from_value", "decode_json", "decode_python", "decode_xml"]

_ARG_KEYS = (
    "arguments",
    "parameters",
    "args",
    "input",
    "tool_input",
    "action_input",
    "params",
    "kwargs",
)
_NAME_KEYS = ("name", "tool", "tool_name", "function", "action", "function_name")
_JS_LITERALS = {
    "true": True,
    "false": False,
    "null": None,
    "True": True,
    "False": False,
    "None": None,
}


@dataclass(frozen=True, kw_only=True, slots=True)
class RawCall:
    """A call as written: name and arguments not yet checked against the catalog."""

    name: str
    arguments: Any
    positional: tuple[Any, ...] = ()
    repairs: tuple[str, ...] = ()


def decode_json(payload: str) -> tuple[Any, list[str]] | None:
    """The JSON value of `payload`, repaired if need be, with the repairs made."""
    try:
        return json.loads(payload), []
    except ValueError as exc:
        reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
    try:
        value, log = json_repair.repair_json(payload, return_objects=True, logging=True)
    except Exception:  # json_repair gives up with assorted errors on hopeless input
        return None
    if not isinstance(value, dict | list) or not value:
        return None
    notes = [f"repaired malformed JSON ({reason})"]
    notes += [str(entry.get("text")) for entry in log[:4] if isinstance(entry, Mapping)]
    return value, notes


def calls_from_value(value: Any, repairs: list[str]) -> list[RawCall]:
    """Calls in a decoded JSON value, in the shapes models write them."""
    if isinstance(value, list):
        return [c for item in value for c in calls_from_value(item, repairs)]
    if not isinstance(value, Mapping):
        return []
    if isinstance(value.get("tool_calls"), list):
        return calls_from_value(value["tool_calls"], repairs)
    if isinstance(value.get("function"), Mapping):
        return calls_from_value(value["function"], repairs)
    name = next((value[k] for k in _NAME_KEYS if isinstance(value.get(k), str)), None)
    if name is None:
        return _single_key(value, repairs)
    args: Any = next((value[k] for k in _ARG_KEYS if k in value), {})
    notes = list(repairs)
    if isinstance(args, str):
        args, notes = _string_arguments(args, notes)
    return [RawCall(name=name, arguments=args, repairs=tuple(notes))]


def _single_key(value: Mapping[str, Any], repairs: list[str]) -> list[RawCall]:
    """`{"tool_name": {...arguments}}`, the shape of several leaderboards' answers."""
    if len(value) == 1:
        name, args = next(iter(value.items()))
        if isinstance(args, Mapping):
            return [RawCall(name=name, arguments=dict(args), repairs=tuple(repairs))]
    return []


def _string_arguments(text: str, notes: list[str]) -> tuple[Any, list[str]]:
    if not text.strip():
        return {}, notes
    decoded = decode_json(text)
    if decoded is None or not isinstance(decoded[0], dict):
        return text, notes
    return decoded[0], notes + decoded[1]


def decode_python(payload: str) -> list[RawCall] | None:
    """Calls written as Python: `f(a=1)`, `[f(a=1), g(b="x")]`, one per line."""
    text = payload.strip().rstrip(";")
    try:
        tree = ast.parse(text, mode="exec")
    except SyntaxError:
        return None
    nodes: list[ast.expr] = []
    for statement in tree.body:
        if not isinstance(statement, ast.Expr):
            return None
        value = statement.value
        nodes += list(value.elts) if isinstance(value, ast.List | ast.Tuple) else [value]
    calls = [_python_call(node) for node in nodes]
    if not calls or any(c is None for c in calls):
        return None
    return [c for c in calls if c is not None]


def _python_call(node: ast.expr) -> RawCall | None:
    if not isinstance(node, ast.Call):
        return None
    name = _dotted(node.func)
    if name is None:
        return None
    notes: list[str] = []
    try:
        kwargs = {kw.arg: _literal(kw.value, notes) for kw in node.keywords if kw.arg}
        positional = tuple(_literal(arg, notes) for arg in node.args)
    except ValueError:
        return None
    if any(kw.arg is None for kw in node.keywords):
        return None
    return RawCall(
        name=name, arguments=kwargs, positional=positional, repairs=tuple(dict.fromkeys(notes))
    )


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def _literal(node: ast.expr, notes: list[str]) -> Any:
    """A JSON value from a literal expression; anything else raises ValueError."""
    if isinstance(node, ast.Constant) and isinstance(
        node.value, str | int | float | bool | type(None)
    ):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _literal(node.operand, notes)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.List | ast.Tuple):
        return [_literal(e, notes) for e in node.elts]
    if isinstance(node, ast.Dict) and all(k is not None for k in node.keys):
        keys = [_literal(k, notes) for k in node.keys if k is not None]
        if all(isinstance(k, str) for k in keys):
            return dict(zip(keys, [_literal(v, notes) for v in node.values], strict=True))
    if isinstance(node, ast.Name) and node.id in _JS_LITERALS:
        if node.id in ("true", "false", "null"):
            notes.append(f"read '{node.id}' as a JSON literal in a Python call")
        return _JS_LITERALS[node.id]
    raise ValueError("not a literal")


_FUNCTION = re.compile(r"<function=([^>\s]+)>(.*?)(?:</function>|(?=<function=)|\Z)", re.S)
_PARAMETER = re.compile(
    r"<parameter=([^>\s]+)>\n?(.*?)\n?(?:</parameter>|(?=<parameter=)|(?=</function>)|\Z)", re.S
)


def decode_xml(payload: str) -> list[RawCall]:
    """Qwen3-Coder's `<function=name><parameter=key>value</parameter></function>`.

    Values are text by the format's own convention; the schema types them later.
    """
    return [
        RawCall(name=name, arguments={k: v for k, v in _PARAMETER.findall(body)})
        for name, body in _FUNCTION.findall(payload)
    ]
