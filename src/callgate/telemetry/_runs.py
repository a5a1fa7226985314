"""Spans of the agent loop: `invoke_agent` for a stretch of a run, `chat` for a model turn.

Both are context managers that make their span current, so the calls a run routes (and
the HTTP requests a model adapter sends, when those are instrumented) are its children.
"""

from __future__ import annotations

import time
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.trace import Span, SpanKind, Status, StatusCode

from callgate.telemetry import _names as n
from callgate.telemetry._names import identifier

if TYPE_CHECKING:
    from callgate.telemetry._telemetry import Telemetry

__all__ = ["RunTrace", "TurnTrace"]


class _Usage(Protocol):
    @property
    def input_tokens(self) -> int: ...
    @property
    def output_tokens(self) -> int: ...


class _Turn(Protocol):
    """What a span needs of a model turn (`callgate.models.ModelTurn`)."""

    @property
    def usage(self) -> _Usage: ...
    @property
    def stop_reason(self) -> str | None: ...


TurnT = TypeVar("TurnT", bound=_Turn)


class Seen(Protocol):
    """Records a model turn on its span and hands it back."""

    def __call__(self, turn: TurnT, /) -> TurnT: ...


class _Current:
    """A span made current on entry and ended on exit, an exception's type recorded."""

    span: Span
    _token: object

    def _enter(self, span: Span) -> None:
        self.span = span
        self._token = otel_context.attach(trace.set_span_in_context(span))

    def _exit(self, exc: BaseException | None) -> None:
        if exc is not None:
            self.span.set_attribute(n.ERROR_TYPE, type(exc).__qualname__)
            self.span.set_status(Status(StatusCode.ERROR))
        otel_context.detach(self._token)  # type: ignore[arg-type]
        self.span.end()


class RunTrace(_Current):
    """`invoke_agent`: one stretch of a run, from a start or a resume to its result."""

    def __init__(
        self, telemetry: Telemetry, *, run_id: str, model: str, provider: str, resumed: bool
    ) -> None:
        self.telemetry = telemetry
        self.attributes: dict[str, Any] = {
            n.OPERATION: n.INVOKE_AGENT,
            n.PROVIDER: n.PROVIDERS.get(provider, provider),
            n.REQUEST_MODEL: identifier(model),
            n.CONVERSATION: identifier(run_id),
            n.RUN_ID: identifier(run_id),
            "callgate.run.resumed": resumed,
        }

    def __enter__(self) -> RunTrace:
        tracer = self.telemetry.tracer
        self._enter(
            tracer.start_span(n.INVOKE_AGENT, kind=SpanKind.INTERNAL, attributes=self.attributes)
        )
        return self

    def finished(self, status: str, *, limit: str | None) -> None:
        """How the stretch ended: `finished`, `paused`, `limited`, `refused`."""
        self.span.set_attribute(n.STATUS, status)
        if limit is not None:
            self.span.set_attribute(n.LIMIT, limit)

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._exit(exc)


class TurnTrace(_Current):
    """`chat`: one model turn, with its token usage and the conventions' two metrics."""

    def __init__(self, telemetry: Telemetry, *, model: str, provider: str, step: int) -> None:
        self.telemetry = telemetry
        self.metric: dict[str, Any] = {
            n.OPERATION: n.CHAT,
            n.PROVIDER: n.PROVIDERS.get(provider, provider),
            n.REQUEST_MODEL: identifier(model),
        }
        self.step = step
        self._started = 0.0

    def __enter__(self) -> Seen:
        model = self.metric[n.REQUEST_MODEL]
        span = self.telemetry.tracer.start_span(
            f"{n.CHAT} {model}",
            kind=SpanKind.CLIENT,
            attributes={**self.metric, n.STEP: self.step},
        )
        self._enter(span)
        self._started = time.perf_counter()
        return self.seen

    def seen(self, turn: TurnT) -> TurnT:
        """Record the turn the model gave (usage, finish reason) and hand it back."""
        usage = turn.usage
        self.span.set_attribute(n.INPUT_TOKENS, usage.input_tokens)
        self.span.set_attribute(n.OUTPUT_TOKENS, usage.output_tokens)
        if turn.stop_reason is not None:
            self.span.set_attribute(n.FINISH_REASONS, [identifier(turn.stop_reason)])
        for kind, count in (("input", usage.input_tokens), ("output", usage.output_tokens)):
            self.telemetry.token_usage.record(count, {**self.metric, n.TOKEN_TYPE: kind})
        return turn

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        metric = (
            self.metric if exc is None else {**self.metric, n.ERROR_TYPE: type(exc).__qualname__}
        )
        self.telemetry.operation_duration.record(time.perf_counter() - self._started, metric)
        self._exit(exc)
