"""resolve -> parse -> validate -> fill defaults: from a proposed call to checked arguments."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from callgate.contract import Catalog, CompiledTool, ToolCall, ToolResult
from callgate.gate import _outcome
from callgate.gate._inject import supplied_by_model
from callgate.schema import ArgumentError, ArgumentLimits, check, parse_arguments

__all__ = ["Prepared", "prepare"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Prepared:
    """A call whose tool exists and whose arguments passed the schema, defaults filled."""

    call: ToolCall
    entry: CompiledTool
    arguments: dict[str, Any]


def prepare(catalog: Catalog, call: ToolCall, limits: ArgumentLimits) -> Prepared | ToolResult:
    """Either a `Prepared` call or the `invalid` result that explains what to fix."""
    entry = catalog.compiled(call.name)
    if entry is None:
        return _outcome.unknown_tool(call, catalog.suggest(call.name), catalog.names)
    name = entry.tool.name
    arguments = parse_arguments(call.arguments, limits)
    if isinstance(arguments, ArgumentError):
        return _outcome.invalid_arguments(call, name, arguments.message, entry.example)
    if entry.tool.server_parameters:
        sent = supplied_by_model(entry.tool, arguments)
        if sent:
            return _outcome.host_parameter(call, name, sent)
    problems = check(entry.input, arguments)
    if problems:
        return _outcome.invalid_arguments(call, name, problems, entry.example)
    return Prepared(call=call, entry=entry, arguments=entry.fill_defaults(arguments))
