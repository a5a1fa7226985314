"""A policy decision as a value: allow, deny or ask, with the rule that made it and why."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from callgate.contract import Label

__all__ = ["Action", "Decision"]

Action = Literal["allow", "deny", "ask"]
"""What a rule or hook says about a call: run it, refuse it, or ask a human first."""

_RANK = {"deny": 0, "ask": 1, "allow": 2}


@dataclass(frozen=True, kw_only=True, slots=True)
class Decision:
    """The outcome of authorization. Build one with `allow`, `deny` or `ask`."""

    action: Action
    rule_id: str
    """The rule (or `default:*`, or the hook's own id) that made the decision."""
    reason: str
    """Why, in words a person (and the model, on a denial) can act on."""
    labels: frozenset[Label] = frozenset()
    """Rule of Two labels this call has besides its tool's, where they depend on the
    arguments: a fetch from a host nobody gave is a `public_sink`. The Rule of Two and the
    suspected-injection hold judge the call with them."""
    values: tuple[str, ...] = ()
    """On a hold: the values no trusted source gave that the call carries, every one
    shown whole wherever the hold is asked about (stored with its approval); approving the
    call vouches for exactly these."""

    @classmethod
    def allow(
        cls, reason: str = "allowed", *, rule_id: str = "hook", labels: Iterable[Label] = ()
    ) -> Decision:
        return cls(action="allow", rule_id=rule_id, reason=reason, labels=frozenset(labels))

    @classmethod
    def deny(cls, reason: str, *, rule_id: str = "hook") -> Decision:
        return cls(action="deny", rule_id=rule_id, reason=reason)

    @classmethod
    def ask(cls, reason: str, *, rule_id: str = "hook", labels: Iterable[Label] = ()) -> Decision:
        return cls(action="ask", rule_id=rule_id, reason=reason, labels=frozenset(labels))

    def joined(self, other: Decision) -> Decision:
        """The stronger of the two (deny over ask over allow; this one on a tie), with the
        labels of both: what a call is does not depend on which rule won."""
        strong = other if _RANK[other.action] < _RANK[self.action] else self
        labels = self.labels | other.labels
        if labels == strong.labels:
            return strong
        return Decision(
            action=strong.action,
            rule_id=strong.rule_id,
            reason=strong.reason,
            labels=labels,
            values=strong.values,
        )
