"""`Telemetry`: where callgate's spans and metrics go, and what they may contain.

Nothing here imports OpenTelemetry until a `Telemetry` is made, so a gate without one (and
an install without the `otel` extra) pays nothing: its chain has no telemetry step at all.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Iterable
from typing import TYPE_CHECKING

from callgate._extras import require
from callgate.telemetry import _names as n

if TYPE_CHECKING:
    from opentelemetry.metrics import CallbackOptions, MeterProvider, Observation
    from opentelemetry.trace import TracerProvider

    from callgate.contract import Catalog
    from callgate.gate._redact import Redactor
    from callgate.gate._setup import Awaited
    from callgate.store import Store
    from callgate.telemetry._runs import RunTrace, TurnTrace

__all__ = ["Telemetry", "current", "instrument", "uninstrument"]

_log = logging.getLogger("callgate.telemetry")

_PAGE = 1000
_MAX_COUNTED = 100_000
"""Pending approvals counted at most per store and collection (the gauge says "at least")."""


class Telemetry:
    """Spans and metrics of the gate and the agent loop, following the OpenTelemetry GenAI
    semantic conventions (docs/telemetry.md).

    `tracer_provider` and `meter_provider` default to the global ones (set by your
    OpenTelemetry setup, even after this object is made). Arguments and results never enter
    a span unless `capture_payloads` is true; then they are redacted with the gate's
    `Redactor` first (`gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`).
    """

    def __init__(
        self,
        *,
        tracer_provider: TracerProvider | None = None,
        meter_provider: MeterProvider | None = None,
        capture_payloads: bool = False,
    ) -> None:
        from callgate import __version__

        trace = require("opentelemetry.trace", extra="otel", package="opentelemetry-api")
        metrics = require("opentelemetry.metrics", extra="otel", package="opentelemetry-api")
        self.capture_payloads = capture_payloads
        self.tracer = trace.get_tracer("callgate", __version__, tracer_provider=tracer_provider)
        meter = metrics.get_meter("callgate", __version__, meter_provider=meter_provider)
        self.calls = meter.create_counter(
            n.CALLS, unit="{call}", description="Calls routed by the gate, by route and tool."
        )
        self.call_duration = meter.create_histogram(
            n.CALL_DURATION,
            unit="s",
            description="Time of a call through the gate, from proposal to route.",
            explicit_bucket_boundaries_advisory=list(n.DURATION_BUCKETS),
        )
        self.operation_duration = meter.create_histogram(
            n.OPERATION_DURATION,
            unit="s",
            description="GenAI operation duration.",
            explicit_bucket_boundaries_advisory=list(n.DURATION_BUCKETS),
        )
        self.token_usage = meter.create_histogram(
            n.TOKEN_USAGE,
            unit="{token}",
            description="Number of input and output tokens used.",
            explicit_bucket_boundaries_advisory=list(n.TOKEN_BUCKETS),
        )
        self._stores: weakref.WeakSet[Store] = weakref.WeakSet()
        meter.create_observable_gauge(
            n.APPROVALS_WAITING,
            callbacks=[self._waiting],
            unit="{approval}",
            description="Held calls waiting for a decision, in the stores of traced gates.",
        )

    # -- what the gate and the loop ask for --------------------------------------------------

    def traced(
        self, chain: Awaited, *, catalog: Catalog, redactor: Redactor, store: Store | None
    ) -> Awaited:
        """The gate's chain with a span and metrics per call (the outermost step)."""
        from callgate.telemetry._calls import TraceCalls

        if store is not None:
            self._stores.add(store)
        return TraceCalls(chain, telemetry=self, catalog=catalog, redactor=redactor)

    def run(self, *, run_id: str, model: str, provider: str, resumed: bool) -> RunTrace:
        """The `invoke_agent` span of one stretch of an agent run (a start or a resume)."""
        from callgate.telemetry._runs import RunTrace

        return RunTrace(self, run_id=run_id, model=model, provider=provider, resumed=resumed)

    def turn(self, *, model: str, provider: str, step: int) -> TurnTrace:
        """The `chat` span of one model turn."""
        from callgate.telemetry._runs import TurnTrace

        return TurnTrace(self, model=model, provider=provider, step=step)

    # -- approvals waiting -------------------------------------------------------------------

    def _waiting(self, options: CallbackOptions) -> Iterable[Observation]:
        from opentelemetry.metrics import Observation

        stores = list(self._stores)
        if not stores:
            return []
        return [Observation(sum(_pending(store) for store in stores))]


def _pending(store: Store) -> int:
    """Pending approvals in `store` (0 when it cannot be read: closed or unreachable)."""
    counted = 0
    try:
        while counted < _MAX_COUNTED:
            page = store.approvals.list(pending_only=True, limit=_PAGE, offset=counted)
            counted += len(page)
            if len(page) < _PAGE:
                break
    except Exception as exc:  # a metric must never break the process that collects it
        _log.debug("approvals of %r not counted: %s", store, exc)
        return 0
    return counted


_default: Telemetry | None = None


def instrument(telemetry: Telemetry | None = None) -> Telemetry:
    """Trace every gate (and so every agent) made from now on without `telemetry=`: with
    `telemetry`, or `Telemetry()` (the global providers). Returns the telemetry in force."""
    global _default
    _default = telemetry if telemetry is not None else Telemetry()
    return _default


def uninstrument() -> None:
    """Gates made from now on are not traced (those already made keep their telemetry)."""
    global _default
    _default = None


def current() -> Telemetry | None:
    """The telemetry `instrument()` put in force, if any."""
    return _default
