"""Retry transient provider errors (429, 5xx, connection resets) with backoff.

Each SDK has its own retry loop, and they disagree: `google-genai` never retries unless
told to and ignores `Retry-After`. The adapters switch the SDK retries off and use this
one policy instead, so every provider backs off the same way and honours the server's
`Retry-After`. Refusals and other 4xx answers are final: repeating them cannot help.
"""

from __future__ import annotations

import email.utils
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from callgate._backoff import SYSTEM_CLOCK, Backoff, Clock

__all__ = ["NO_RETRY", "RetryPolicy", "retry_after", "status_of", "transient"]

T = TypeVar("T")

_RETRY_STATUSES = frozenset({408, 429})
# Class names (not classes) so that no optional SDK has to be imported to classify its
# errors; httpx and httpx2 share these names.
_CONNECTION_ERRORS = frozenset(
    {
        "APIConnectionError",
        "APITimeoutError",
        "TransportError",
        "RemoteProtocolError",
        "ServerDisconnectedError",
    }
)


@dataclass(frozen=True, kw_only=True, slots=True)
class RetryPolicy:
    """How often and how long to wait before asking a provider again."""

    attempts: int = 4
    """Total attempts, the first included; 1 means never retry."""
    backoff: Backoff = field(
        default_factory=lambda: Backoff(initial=0.5, multiplier=2.0, max_delay=30.0, jitter=0.2)
    )
    """Waits when the server does not say; `max_delay` is also the longest wait a server may
    ask for (a longer `Retry-After` ends the retries with its error)."""
    clock: Clock = field(default=SYSTEM_CLOCK, compare=False)
    """Where waiting happens (`callgate.testing.ManualClock` in tests)."""

    def delay(self, retry: int, server_asked: float | None) -> float | None:
        """Seconds before retry number `retry` (1-based), or None to give up."""
        if server_asked is not None:
            return server_asked if server_asked <= self.backoff.max_delay else None
        return self.backoff.delay(retry)

    async def run(
        self,
        attempt: Callable[[], Awaitable[T]],
        on_retry: Callable[[BaseException, float], None] | None = None,
    ) -> T:
        """Await `attempt()` until it succeeds, fails for good, or the attempts run out."""
        for retry in range(1, self.attempts + 1):
            try:
                return await attempt()
            except Exception as exc:
                wait = self.delay(retry, retry_after(exc)) if transient(exc) else None
                if wait is None or retry == self.attempts:
                    raise
                if on_retry is not None:
                    on_retry(exc, wait)
                await self.clock.sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises


NO_RETRY = RetryPolicy(attempts=1)


def status_of(exc: BaseException) -> int | None:
    """The HTTP status of an SDK error (openai/anthropic `status_code`, google-genai `code`)."""
    for attr in ("status_code", "code", "status"):
        value = getattr(exc, attr, None)
        if isinstance(value, int) and 100 <= value < 600:
            return value
    return None


def transient(exc: BaseException) -> bool:
    """True for rate limits, server errors and broken connections."""
    status = status_of(exc)
    if status is not None:
        return status in _RETRY_STATUSES or status >= 500
    names = {cls.__name__ for cls in type(exc).__mro__}
    return bool(names & _CONNECTION_ERRORS) or isinstance(exc, ConnectionError)


def retry_after(exc: BaseException) -> float | None:
    """Seconds the server asked to wait (`retry-after-ms`, `Retry-After` seconds or date)."""
    response = getattr(exc, "response", None)
    headers: Mapping[str, Any] | None = getattr(response, "headers", None)
    if headers is None:
        return None
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return max(float(millis) / 1000, 0.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(when.timestamp() - time.time(), 0.0)
