"""Transient failures: reads and idempotent tools are retried with capped, jittered backoff
inside the call's time budget; a write is retried only when its `reconcile` hook says the
failed attempt did not take effect."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field

from callgate._backoff import Backoff, Clock
from callgate.gate import _outcome
from callgate.gate._attempt import Attempt, Handler, Outcome, Step, settled
from callgate.gate._hooks import ask_reconcile
from callgate.gate._log import GateLog

__all__ = ["Retry", "RetrySettings"]


@dataclass(frozen=True, kw_only=True, slots=True)
class RetrySettings:
    """How transient failures (`TransientError`) are retried."""

    max_attempts: int = 3
    """Attempts in all, the first included."""
    backoff: Backoff = field(default_factory=lambda: Backoff(initial=0.05, max_delay=2.0))


class Retry:
    """Repeats a call that failed transiently, while the budget and the rules allow."""

    def __init__(
        self,
        next: Handler,
        *,
        settings: RetrySettings,
        clock: Clock,
        log: GateLog,
        rng: random.Random | None = None,
    ) -> None:
        self.next = next
        self.log = log
        self.settings = settings
        self.clock = clock
        self.rng = rng or random.Random()

    def __call__(self, attempt: Attempt) -> Step:
        # Not a coroutine: an outcome that is there and not transient goes up as it is.
        step = self.next(attempt)
        if type(step) is Outcome and not step.transient:
            return step
        return self._retried(attempt, step)

    async def _retried(self, attempt: Attempt, first: Step) -> Outcome:
        outcome = await settled(first)
        if not outcome.transient:
            return outcome
        delays = self.settings.backoff.delays(self.rng)
        while outcome.transient and attempt.number < self.settings.max_attempts:
            if not attempt.tool.idempotent:
                blocked = await self._write_blocked(attempt, outcome)
                if blocked is not None:
                    return blocked
            delay = next(delays)
            if self.clock.monotonic() + delay >= attempt.deadline:
                break
            await self.clock.sleep(delay)
            attempt = dataclasses.replace(attempt, number=attempt.number + 1)
            outcome = await settled(self.next(attempt))
        return outcome

    async def _write_blocked(self, attempt: Attempt, failure: Outcome) -> Outcome | None:
        """None when the write may run again; else the outcome to return instead."""
        tool, key = attempt.tool, attempt.key
        if tool.reconcile is None or key is None:
            return failure  # a write is never repeated blindly
        status = await ask_reconcile(tool.reconcile, key, tool.name, self.log)
        if status == "applied":
            return Outcome(result=_outcome.reconciled(attempt.call, tool.name), attempt=attempt)
        if status == "unknown":
            why = (
                "a transient failure, and the target system could not say whether the "
                "write took effect"
            )
            result = _outcome.earlier_attempt_unknown(attempt.call, tool.name, why)
            return Outcome(result=result, attempt=attempt)
        return None
