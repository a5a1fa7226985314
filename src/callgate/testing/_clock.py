"""A clock for tests: its time moves only when something sleeps on it (or `advance` is
called), so retries and waits run at once and deterministically."""

from __future__ import annotations

import asyncio

__all__ = ["ManualClock"]


class ManualClock:
    """A `callgate` clock (`Gate(clock=...)`, `RetryPolicy(clock=...)`) for tests.

    `sleep(s)` moves the time forward by `s` at once (yielding to the event loop once) and
    records the wait in `sleeps`.
    """

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self.sleeps: list[float] = []

    def monotonic(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += max(seconds, 0.0)
        await asyncio.sleep(0)

    def advance(self, seconds: float) -> None:
        self.now += seconds
