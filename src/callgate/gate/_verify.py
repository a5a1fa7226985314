"""verify: a write is read back from the target system before it counts as done."""

from __future__ import annotations

import dataclasses

from callgate.contract import Route
from callgate.gate import _outcome
from callgate.gate._attempt import Attempt, Handler, Outcome, Step, settled
from callgate.gate._hooks import confirm_write
from callgate.gate._log import GateLog

__all__ = ["Verify"]


class Verify:
    """`completed` + a confirming `read_back` -> `verified`; not confirmed -> `failed`."""

    def __init__(self, next: Handler, *, log: GateLog) -> None:
        self.next = next
        self.log = log

    def __call__(self, attempt: Attempt) -> Step:
        if attempt.entry.tool.read_back is None:
            return self.next(attempt)  # as it is: no frame of this step's own
        return self._verified(attempt)

    async def _verified(self, attempt: Attempt) -> Outcome:
        outcome = await settled(self.next(attempt))
        hook = attempt.tool.read_back
        if hook is None or outcome.result.route is not Route.COMPLETED:
            return outcome
        result = outcome.result
        value = result.structured if result.structured is not None else result.content
        if await confirm_write(hook, attempt.all_arguments(), value, attempt.tool.name, self.log):
            verified = dataclasses.replace(
                result, route=Route.VERIFIED, reason="confirmed by read-back"
            )
        else:
            verified = _outcome.not_confirmed(attempt.call, attempt.tool.name, result.timings)
        return dataclasses.replace(outcome, result=verified)
