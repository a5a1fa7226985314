"""Waiting between attempts: one backoff for the gate's retries, its wait for a claimed key
and the model adapters' retries, with a clock that tests replace so they never sleep."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

__all__ = ["SYSTEM_CLOCK", "Backoff", "Clock", "SystemClock"]


class Clock(Protocol):
    """Where time comes from: a monotonic reading, and a way to wait."""

    def monotonic(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """The real clock: `time.monotonic` and `asyncio.sleep`."""

    __slots__ = ()

    monotonic = staticmethod(time.monotonic)  # read on every call's path: no frame of its own

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


SYSTEM_CLOCK = SystemClock()


@dataclass(frozen=True, kw_only=True, slots=True)
class Backoff:
    """Capped exponential waits with jitter: wait n is `min(max_delay, initial *
    multiplier**(n-1))`, of which the fraction `jitter` is drawn at random below it."""

    initial: float = 0.05
    """Seconds before the first retry (before jitter)."""
    multiplier: float = 2.0
    max_delay: float = 2.0
    """No wait is longer than this."""
    jitter: float = 1.0
    """1.0 is full jitter (uniform in [0, wait]): it spreads out clients that failed together;
    0.0 waits exactly."""

    def __post_init__(self) -> None:
        if self.initial < 0 or self.max_delay < 0 or self.multiplier < 1:
            raise ValueError("Backoff needs initial >= 0, max_delay >= 0 and multiplier >= 1")
        if not 0.0 <= self.jitter <= 1.0:
            raise ValueError("Backoff.jitter is a fraction between 0 and 1")

    def delay(self, retry: int, rng: random.Random | None = None) -> float:
        """Seconds before retry number `retry` (1-based)."""
        exponent = min(retry - 1, 64)  # beyond this the cap holds anyway; avoids overflow
        base = min(self.max_delay, self.initial * self.multiplier**exponent)
        draw = (rng or random).random()
        return base * (1.0 - self.jitter * draw)

    def delays(self, rng: random.Random | None = None) -> Iterator[float]:
        """The waits before retry 1, 2, 3, ... (endless: the caller decides when to stop)."""
        retry = 1
        while True:
            yield self.delay(retry, rng)
            retry += 1
