"""Check what a tool returned against its output schema, MCP's `{"result": ...}` included.

The MCP SDK declares, for a function that returns a plain value (a string, a number, a
list), the output schema `{"type": "object", "properties": {"result": ...},
"required": ["result"]}` and sends `structuredContent` `{"result": value}`. The value
itself is what the tool returned, so it is checked as `{"result": value}`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from callgate.schema._compile import CompiledSchema
from callgate.schema._report import FieldError
from callgate.schema._validate import check

__all__ = ["check_result", "wrapped_result_schema"]

_WRAPPER_KEYS = frozenset(
    {"type", "properties", "required", "title", "description", "additionalProperties", "$schema"}
)


def wrapped_result_schema(
    schema: Mapping[str, Any] | bool | None,
) -> Mapping[str, Any] | bool | None:
    """The schema of `result` when `schema` only wraps one value as `{"result": value}`.

    None for any other schema. A tool that returns an object with one required field
    called `result` declares the same shape; `check_result` accepts both readings.
    """
    if not isinstance(schema, Mapping) or schema.get("type") != "object":
        return None
    properties = schema.get("properties")
    if not isinstance(properties, Mapping) or list(properties) != ["result"]:
        return None
    if schema.get("required") != ["result"] or not set(schema) <= _WRAPPER_KEYS:
        return None
    inner = properties["result"]
    return inner if isinstance(inner, Mapping | bool) else None


def check_result(compiled: CompiledSchema, value: Any) -> list[FieldError]:
    """Every reason `value`, what a tool returned, breaks its output schema; empty if none.

    Pass the structured value when the tool gave one (MCP `structuredContent`), else its
    text. Under a `{"result": ...}` wrapper schema a value that is not already wrapped is
    checked as `{"result": value}`. Messages name the value `(result)`.
    """
    problems = check(compiled, value, root="(result)")
    if not problems or wrapped_result_schema(compiled.schema) is None:
        return problems
    if isinstance(value, Mapping) and "result" in value:
        return problems
    return check(compiled, {"result": value}, root="(result)")
