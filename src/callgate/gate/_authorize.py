"""authorize: the policy's decision and the Rule of Two, before anything runs."""

from __future__ import annotations

import dataclasses
import secrets

from callgate.gate import _outcome
from callgate.gate._attempt import Attempt, Handler, Outcome, settled
from callgate.gate._decision import Decision
from callgate.gate._log import GateLog
from callgate.gate._policy import Policy
from callgate.gate._rule_of_two import RULE_OF_TWO, acts, violation
from callgate.gate._rules import PolicyRequest
from callgate.gate._untrusted import SUSPECTED_INJECTION, suspected_hold
from callgate.store import AsyncStore, StoreError, StoreUnavailable

__all__ = ["Authorize", "labels_unreadable"]


class Authorize:
    """Denies what the policy denies; marks for approval what it asks about, whatever
    would complete the Rule of Two and, with `hold_suspected`, whatever acts once a flagged
    result entered the run. A policy that cannot decide, or labels that cannot be read, stop
    the call (fail closed)."""

    def __init__(
        self,
        next: Handler,
        *,
        policy: Policy,
        store: AsyncStore,
        log: GateLog,
        hold_suspected: bool = False,
    ) -> None:
        self.next = next
        self.policy = policy
        self.store = store
        self.log = log
        self.hold_suspected = hold_suspected

    async def __call__(self, attempt: Attempt) -> Outcome:
        request = PolicyRequest(
            tool=attempt.tool, arguments=attempt.all_arguments(), context=attempt.context
        )
        try:
            decision = await self.policy.decide(request)
        except Exception:
            reference = secrets.token_hex(4)
            self.log.exception(
                "policy failed for %s (call %s, reference %s)",
                attempt.tool.name,
                attempt.call.id,
                reference,
            )
            return Outcome(
                result=_outcome.policy_failed(attempt.call, attempt.tool.name, reference),
                attempt=attempt,
            )
        attempt = dataclasses.replace(attempt, decision=decision)
        if decision.action == "deny":
            return Outcome(
                result=_outcome.denied(
                    attempt.call, attempt.tool.name, decision.reason, rule_id=decision.rule_id
                ),
                attempt=attempt,
            )
        if acts(attempt.tool, decision.labels):
            try:
                held = await self._rule_of_two(attempt)
            except StoreError as exc:
                return labels_unreadable(attempt, exc, self.log)
            if held is not None:
                attempt = dataclasses.replace(attempt, decision=held)
        return await settled(self.next(attempt))

    async def _rule_of_two(self, attempt: Attempt) -> Decision | None:
        run_id, decision = attempt.context.run_id, attempt.decision
        assert decision is not None
        seen = await self.store.run(self.store.store.labels.of, run_id) if run_id else {}
        why = violation(attempt.tool, seen, attempt.context, decision.labels)
        rule_id = RULE_OF_TWO
        if why is None and self.hold_suspected:
            why, rule_id = suspected_hold(attempt.tool, seen, decision.labels), SUSPECTED_INJECTION
        if why is None:
            return None
        if decision.action == "ask":  # the policy's own reason stays in view
            why = f"{why}; also {decision.rule_id}: {decision.reason}"
        return Decision.ask(why, rule_id=rule_id, labels=decision.labels)


def labels_unreadable(attempt: Attempt, exc: StoreError, log: GateLog) -> Outcome:
    """The route of an acting call whose run's labels cannot be read: fail closed, since
    unread labels allow nothing and vouch for nothing."""
    log.error("labels of run %s unreadable: %s", attempt.context.run_id, exc)
    return Outcome(
        result=_outcome.store_unavailable(attempt.call, attempt.tool.name),
        attempt=attempt,
        store_down=isinstance(exc, StoreUnavailable),
    )
