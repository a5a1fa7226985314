"""Server-side arguments: values a tool receives from the call's context, never from the model."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from callgate.contract import Context, Tool
from callgate.contract._tool import CONTEXT_FIELDS

__all__ = ["MissingContext", "context_values", "supplied_by_model"]


class MissingContext(Exception):
    """The context lacks a value a tool needs; the call is denied (fail closed)."""

    def __init__(self, parameter: str, key: str) -> None:
        self.parameter = parameter
        self.key = key
        super().__init__(f"the call context has no {key!r} for parameter {parameter!r}")


def supplied_by_model(tool: Tool, arguments: Mapping[str, Any]) -> list[str]:
    """Server-side parameters the model tried to set (it must not)."""
    return [name for name in tool.server_parameters if name in arguments]


def context_values(tool: Tool, context: Context) -> dict[str, Any]:
    """The injected arguments of one call; `MissingContext` when one has no value."""
    values: dict[str, Any] = {}
    for parameter, key in tool.server_parameters.items():
        value = getattr(context, key) if key in CONTEXT_FIELDS else context.attributes.get(key)
        if value is None:
            raise MissingContext(parameter, key)
        values[parameter] = value
    return values
