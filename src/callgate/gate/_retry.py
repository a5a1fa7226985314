"""Transient failures: reads and idempotent tools are retried with capped, jittered backoff
inside the call's time budget; a write is retried only when its `reconcile` hook says the
failed attempt did not take effect."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass

from callgate.contract import ToolResult
from callgate.gate import _outcome
from callgate.gate._attempt import Attempt, Next
from callgate.gate._hooks import ask_reconcile

__all__ = ["Retry", "RetrySettings", "backoff"]


@dataclass(frozen=True, kw_only=True, slots=True)
class RetrySettings:
    """How transient failures are retried."""

    max_attempts: int = 3
    """Attempts in all, the first included."""
    base_delay: float = 0.05
    """Seconds before the first retry (the upper bound of its jitter)."""
    max_delay: float = 2.0
    """No wait is longer than this."""


def backoff(settings: RetrySettings, rng: random.Random) -> Iterator[float]:
    """Full jitter: each wait is uniform in [0, min(cap, base * 2**n)] (spreads out herds)."""
    n = 0
    while True:
        yield rng.uniform(0, min(settings.max_delay, settings.base_delay * 2**n))
        n += 1


class Retry:
    """Repeats a call that failed transiently, while the budget and the rules allow."""

    def __init__(self, settings: RetrySettings, rng: random.Random | None = None) -> None:
        self.settings = settings
        self.rng = rng or random.Random()

    async def __call__(self, attempt: Attempt, call_next: Next) -> ToolResult:
        return await self.after(attempt, await call_next(attempt), call_next)

    async def after(self, attempt: Attempt, result: ToolResult, call_next: Next) -> ToolResult:
        """Retry from a first `result` (the gate's lean path runs the first attempt itself)."""
        delays = backoff(self.settings, self.rng)
        while result.reason == _outcome.TRANSIENT and attempt.number < self.settings.max_attempts:
            if not attempt.tool.idempotent:
                blocked = await self._write_blocked(attempt, result)
                if blocked is not None:
                    return blocked
            delay = next(delays)
            if time.monotonic() + delay >= attempt.deadline:
                break
            await asyncio.sleep(delay)
            attempt.number += 1
            result = await call_next(attempt)
        return result

    async def _write_blocked(self, attempt: Attempt, failure: ToolResult) -> ToolResult | None:
        """None when the write may run again; else the result to return instead."""
        tool, key = attempt.tool, attempt.idempotency_key
        if tool.reconcile is None or key is None:
            return failure  # a write is never repeated blindly
        status = await ask_reconcile(tool.reconcile, key, tool.name)
        if status == "applied":
            return _outcome.reconciled(attempt.call, tool.name)
        if status == "unknown":
            return _outcome.earlier_attempt_unknown(
                attempt.call,
                tool.name,
                "a transient failure, and the target system could "
                "not say whether the write took effect",
            )
        return None
