"""The tool contract: `Tool`, `ToolCall`, `ToolResult`, `Route`, `Effect`, `Catalog`, `@tool`."""

from callgate.contract._approval import ApprovalDecision, Approve, Decline, Edit
from callgate.contract._call import CallContext, Context, Timings, ToolCall, ToolResult
from callgate.contract._catalog import Catalog, CompiledTool
from callgate.contract._declaration import Declaration, read_declaration, tool_from_declaration
from callgate.contract._function import tool
from callgate.contract._kinds import Effect, Route, ToolAnnotations
from callgate.contract._names import NAME_RULE, check_name, qualify
from callgate.contract._tool import (
    CONTEXT_FIELDS,
    LABELS,
    Executor,
    FromContext,
    Label,
    RunIn,
    Tool,
)

__all__ = [
    "CONTEXT_FIELDS",
    "LABELS",
    "NAME_RULE",
    "ApprovalDecision",
    "Approve",
    "CallContext",
    "Catalog",
    "CompiledTool",
    "Context",
    "Declaration",
    "Decline",
    "Edit",
    "Effect",
    "Executor",
    "FromContext",
    "Label",
    "Route",
    "RunIn",
    "Timings",
    "Tool",
    "ToolAnnotations",
    "ToolCall",
    "ToolResult",
    "check_name",
    "qualify",
    "read_declaration",
    "tool",
    "tool_from_declaration",
]
