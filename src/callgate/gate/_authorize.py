"""authorize: the policy's decision and the Rule of Two, before anything runs."""

from __future__ import annotations

from callgate.contract import Route, ToolResult
from callgate.gate import _outcome
from callgate.gate._attempt import Attempt, Next
from callgate.gate._decision import Decision
from callgate.gate._policy import Policy
from callgate.gate._rules import PolicyRequest
from callgate.gate._taint import TaintTracker

__all__ = ["RULE_OF_TWO", "Authorize"]

RULE_OF_TWO = "rule-of-two"
"""The rule id of a call held by the Rule of Two (a grant for the tool does not lift it)."""


class Authorize:
    """Denies what the policy denies; marks for approval what it asks about, and whatever
    would complete the Rule of Two; records the labels a finished call brought in."""

    def __init__(self, policy: Policy, taint: TaintTracker) -> None:
        self.policy = policy
        self.taint = taint

    async def __call__(self, attempt: Attempt, call_next: Next) -> ToolResult:
        decision = await self._decide(attempt)
        if decision.action == "deny":
            return _outcome.denied(
                attempt.call, attempt.tool.name, decision.reason, rule_id=decision.rule_id
            )
        violation = self.taint.violation(attempt.tool, attempt.context)
        if violation is not None:
            decision = Decision.ask(violation, rule_id=RULE_OF_TWO)
        attempt.decision = decision
        result = await call_next(attempt)
        if result.route in (Route.COMPLETED, Route.VERIFIED):
            self.taint.observe(attempt.tool, attempt.context.run_id)
        return result

    async def _decide(self, attempt: Attempt) -> Decision:
        arguments = {**attempt.prepared.arguments, **attempt.injected}
        request = PolicyRequest(tool=attempt.tool, arguments=arguments, context=attempt.context)
        return await self.policy.decide(request)
