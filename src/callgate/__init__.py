"""callgate: the host side of tool calling.

A model only proposes a call; callgate resolves it, validates the arguments, executes it
within bounds and tells the model what happened in words it can act on.
"""

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
    CallContext,
    Catalog,
    Context,
    Effect,
    Route,
    Timings,
    Tool,
    ToolAnnotations,
    ToolCall,
    ToolResult,
    tool,
    tool_from_declaration,
)
from callgate.gate import Gate
from callgate.schema import Limits

__version__ = "0.1.0"

__all__ = [
    "CallContext",
    "CallgateError",
    "Catalog",
    "ConflictError",
    "Context",
    "Effect",
    "Gate",
    "Limits",
    "MissingExtraError",
    "Route",
    "Timings",
    "Tool",
    "ToolAnnotations",
    "ToolCall",
    "ToolError",
    "ToolResult",
    "TransientError",
    "UnknownToolError",
    "UserError",
    "tool",
    "tool_from_declaration",
]
