"""Shape pydantic's JSON Schema into what a model should read."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["tidy_schema"]

_MAPS = ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas")
_ONE = (
    "items",
    "additionalProperties",
    "not",
    "contains",
    "propertyNames",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
)
_MANY = ("anyOf", "oneOf", "allOf", "prefixItems")


def tidy_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """Drop generated `title`s (noise in the prompt) and close objects to unknown fields.

    A model that invents a field should hear about it instead of having it silently
    ignored, so every object with declared properties gets `additionalProperties: false`
    unless it says otherwise.
    """
    return _tidy(schema)


def _tidy(node: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "title" and isinstance(value, str):
            continue
        if key in _MAPS and isinstance(value, Mapping):
            out[key] = {k: _tidy(v) if isinstance(v, Mapping) else v for k, v in value.items()}
        elif key in _ONE and isinstance(value, Mapping):
            out[key] = _tidy(value)
        elif key in _MANY and isinstance(value, list):
            out[key] = [_tidy(v) if isinstance(v, Mapping) else v for v in value]
        else:
            out[key] = value
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out
