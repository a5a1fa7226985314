"""The gate's policy as a retrieval filter: never offer a tool every call of which is denied.

Offering is not authorizing. The filter hides only tools that no call could get through
(a `deny` rule that matches the tool and the principal whatever the arguments, or a
deny-by-default policy with no rule that could allow it); everything else is offered and
then decided call by call by the gate, arguments, hook and Rule of Two included.
"""

from __future__ import annotations

from dataclasses import replace

from callgate.contract import Context, Tool
from callgate.gate import Policy, PolicyRequest
from callgate.retrieval._index import ToolFilter

__all__ = ["policy_filter"]


def policy_filter(policy: Policy, context: Context | None = None) -> ToolFilter:
    """A `ToolFilter` that hides the tools `policy` denies outright to `context`'s principal."""
    ctx = context or Context()
    # Matched without their argument predicates: "could some call match this rule?"
    rules = [
        (rule, replace(rule, arguments=None) if rule.arguments is not None else rule)
        for rule in policy.rules
    ]
    deny_by_default = policy.default == "deny"

    def allowed(tool: Tool) -> bool:
        request = PolicyRequest(tool=tool, arguments={}, context=ctx)
        could_pass = not deny_by_default
        for original, loose in rules:
            if not loose.matches(request):
                continue
            if original.action == "deny" and original.arguments is None:
                return False
            if original.action != "deny":
                could_pass = True
        return could_pass

    return allowed
