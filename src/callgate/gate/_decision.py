"""A policy decision as a value: allow, deny or ask, with the rule that made it and why."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Action", "Decision"]

Action = Literal["allow", "deny", "ask"]
"""What a rule or hook says about a call: run it, refuse it, or ask a human first."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Decision:
    """The outcome of authorization. Build one with `allow`, `deny` or `ask`."""

    action: Action
    rule_id: str
    """The rule (or `default:*`, or the hook's own id) that made the decision."""
    reason: str
    """Why, in words a person (and the model, on a denial) can act on."""

    @classmethod
    def allow(cls, reason: str = "allowed", *, rule_id: str = "hook") -> Decision:
        return cls(action="allow", rule_id=rule_id, reason=reason)

    @classmethod
    def deny(cls, reason: str, *, rule_id: str = "hook") -> Decision:
        return cls(action="deny", rule_id=rule_id, reason=reason)

    @classmethod
    def ask(cls, reason: str, *, rule_id: str = "hook") -> Decision:
        return cls(action="ask", rule_id=rule_id, reason=reason)
