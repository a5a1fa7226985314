"""The circuit breaker: stop a tool that keeps failing, and tell the model why.

Two patterns trip it: the same call (tool and canonical arguments) failing N times, which
is a model retrying byte-identically (a livelock that can run for minutes), and one tool
failing N times in a row with any arguments (a broken tool or target system). A tripped
tool stays stopped for the rest of the run; further calls of it are not executed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from callgate._errors import shown
from callgate.contract import Route, ToolCall, ToolResult
from callgate.schema import canonical_json

__all__ = ["Breaker", "call_signature"]

# A held or declined call is a decision, not a failure; denials are policy, but repeating a
# denied call is exactly the livelock this guards against, so they count.
_NOT_FAILURES = frozenset({Route.COMPLETED, Route.VERIFIED, Route.HELD, Route.DECLINED})


def call_signature(call: ToolCall) -> str:
    """Tool name plus canonical arguments (raw text when it is not JSON)."""
    args = call.arguments
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except (ValueError, RecursionError):
            return f"{call.name}\x00{args}"
    try:
        return f"{call.name}\x00{canonical_json(args)}"
    except (TypeError, ValueError, RecursionError):
        return f"{call.name}\x00{shown(args)}"


@dataclass(frozen=True, kw_only=True, slots=True)
class Breaker:
    """Failure counts over a run; immutable, saved with the run state."""

    same_call: Mapping[str, int] = field(default_factory=dict)
    in_a_row: Mapping[str, int] = field(default_factory=dict)
    stopped: Mapping[str, str] = field(default_factory=dict)
    """Tool name -> why it was stopped."""

    def observe(
        self, call: ToolCall, result: ToolResult, *, same_call_limit: int, in_a_row_limit: int
    ) -> Breaker:
        """Count one routed call; trips the breaker for its tool when a threshold is met."""
        tool = result.name
        if result.route in _NOT_FAILURES:
            return replace(self, in_a_row={**self.in_a_row, tool: 0})
        sig = call_signature(call)
        same = self.same_call.get(sig, 0) + 1
        row = self.in_a_row.get(tool, 0) + 1
        stopped = dict(self.stopped)
        if tool not in stopped and same >= same_call_limit:
            stopped[tool] = f"the same call of {tool} failed {same} times with the same arguments"
        elif tool not in stopped and row >= in_a_row_limit:
            stopped[tool] = f"{tool} failed {row} times in a row"
        return Breaker(
            same_call={**self.same_call, sig: same},
            in_a_row={**self.in_a_row, tool: row},
            stopped=stopped,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "same_call": dict(self.same_call),
            "in_a_row": dict(self.in_a_row),
            "stopped": dict(self.stopped),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Breaker:
        return cls(
            same_call=dict(data["same_call"]),
            in_a_row=dict(data["in_a_row"]),
            stopped=dict(data["stopped"]),
        )
