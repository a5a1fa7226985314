"""callgate: the host side of tool calling.

A model only proposes a call; callgate resolves it, validates the arguments, checks
identity and policy, holds irreversible actions for a human, executes each action once,
verifies it, records a receipt and tells the model what happened in words it can act on.

The most used names are here; each subpackage (`callgate.dialects`, `callgate.gate`,
`callgate.store`, `callgate.loop`, `callgate.models`, `callgate.lint`,
`callgate.retrieval`, `callgate.testing`) exports the rest of its API.
"""

from callgate._backoff import Backoff
from callgate._errors import (
    CallgateError,
    ConflictError,
    MissingExtraError,
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
from callgate.gate import Decision, ExecutionSettings, Gate, Policy, Redactor, Rule
from callgate.loop import Agent, RunResult
from callgate.schema import ArgumentLimits
from callgate.store import Store, StoreUnavailable, open_store

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
