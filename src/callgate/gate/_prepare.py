"""resolve -> parse -> validate -> fill defaults: from a proposed call to checked arguments."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from callgate.contract import Catalog, CompiledTool, ToolCall, ToolResult
from callgate.gate import _outcome
from callgate.schema import ArgumentError, Limits, check, fill_defaults, parse_arguments

__all__ = ["Prepared", "prepare"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Prepared:
    """A call whose tool exists and whose arguments passed the schema, defaults filled."""

    call: ToolCall
    entry: CompiledTool
    arguments: dict[str, Any]


def prepare(catalog: Catalog, call: ToolCall, limits: Limits) -> Prepared | ToolResult:
    """Either a `Prepared` call or the `invalid` result that explains what to fix."""
    entry = catalog.compiled(call.name)
    if entry is None:
        return _outcome.unknown_tool(call, catalog.suggest(call.name), catalog.names)
    name = entry.tool.name
    arguments = parse_arguments(call.arguments, limits)
    if isinstance(arguments, ArgumentError):
        return _outcome.invalid_arguments(call, name, arguments.message, entry.example)
    problems = check(entry.input, arguments)
    if problems:
        return _outcome.invalid_arguments(call, name, problems, entry.example)
    return Prepared(call=call, entry=entry,
                    arguments=fill_defaults(entry.tool.input_schema, arguments))
