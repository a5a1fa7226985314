"""callgate: the host side of tool calling.

A model only proposes a call; callgate resolves it, validates the arguments, checks
identity and policy, holds irreversible actions for a human, executes each action once,
verifies it, records a receipt and tells the model what happened in words it can act on.

The most used names are here; each subpackage (`callgate.dialects`, `callgate.gate`,
`callgate.store`, `callgate.loop`, `callgate.models`, `callgate.lint`,
`callgate.retrieval`, `callgate.testing`) exports the rest of its API.
"""

import typing as _typing

from callgate._lazy import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from callgate._backoff import Backoff
    from callgate._errors import (
        CallgateError,
        ConflictError,
        MissingExtraError,
        OutcomeUnknownError,
        ToolError,
        TransientError,
        UnknownToolError,
        UserError,
    )
    from callgate.contract import (
        ApprovalDecision,
        Approve,
        CallContext,
        Catalog,
        Context,
        Decline,
        Edit,
        Effect,
        FromContext,
        Route,
        Timings,
        Tool,
        ToolAnnotations,
        ToolCall,
        ToolResult,
        tool,
        tool_from_declaration,
    )
    from callgate.dialects import Dialect
    from callgate.gate import (
        Decision,
        ExecutionSettings,
        Gate,
        Policy,
        Redactor,
        Rule,
    )
    from callgate.loop import Agent, RunResult
    from callgate.schema import ArgumentLimits
    from callgate.store import (
        Store,
        StoreUnavailable,
        open_store,
    )

__version__ = "0.1.0"

__all__ = [
    "Agent",
    "ApprovalDecision",
    "Approve",
    "ArgumentLimits",
    "Backoff",
    "CallContext",
    "CallgateError",
    "Catalog",
    "ConflictError",
    "Context",
    "Decision",
    "Decline",
    "Dialect",
    "Edit",
    "Effect",
    "ExecutionSettings",
    "FromContext",
    "Gate",
    "MissingExtraError",
    "OutcomeUnknownError",
    "Policy",
    "Redactor",
    "Route",
    "Rule",
    "RunResult",
    "Store",
    "StoreUnavailable",
    "Timings",
    "Tool",
    "ToolAnnotations",
    "ToolCall",
    "ToolError",
    "ToolResult",
    "TransientError",
    "UnknownToolError",
    "UserError",
    "open_store",
    "tool",
    "tool_from_declaration",
]

# Imported on first use, so that `import callgate` (and with it `callgate --help`) does not
# pay for every subpackage: each name is bound on first access and then found directly.
_LAZY = {
    "Agent": "callgate.loop",
    "ApprovalDecision": "callgate.contract",
    "Approve": "callgate.contract",
    "ArgumentLimits": "callgate.schema",
    "Backoff": "callgate._backoff",
    "CallContext": "callgate.contract",
    "CallgateError": "callgate._errors",
    "Catalog": "callgate.contract",
    "ConflictError": "callgate._errors",
    "Context": "callgate.contract",
    "Decision": "callgate.gate",
    "Decline": "callgate.contract",
    "Dialect": "callgate.dialects",
    "Edit": "callgate.contract",
    "Effect": "callgate.contract",
    "ExecutionSettings": "callgate.gate",
    "FromContext": "callgate.contract",
    "Gate": "callgate.gate",
    "MissingExtraError": "callgate._errors",
    "OutcomeUnknownError": "callgate._errors",
    "Policy": "callgate.gate",
    "Redactor": "callgate.gate",
    "Route": "callgate.contract",
    "Rule": "callgate.gate",
    "RunResult": "callgate.loop",
    "Store": "callgate.store",
    "StoreUnavailable": "callgate.store",
    "Timings": "callgate.contract",
    "Tool": "callgate.contract",
    "ToolAnnotations": "callgate.contract",
    "ToolCall": "callgate.contract",
    "ToolError": "callgate._errors",
    "ToolResult": "callgate.contract",
    "TransientError": "callgate._errors",
    "UnknownToolError": "callgate._errors",
    "UserError": "callgate._errors",
    "open_store": "callgate.store",
    "tool": "callgate.contract",
    "tool_from_declaration": "callgate.contract",
}


__getattr__, __dir__ = _lazy_exports("callgate", globals(), _LAZY)
