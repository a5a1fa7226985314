"""The telemetry step: one `execute_tool` span and the call metrics per routed call.

It is the outermost step of a traced gate's chain (outside record), so it sees the route
the caller gets: the receipt written (or a read withheld because it could not be), the
rule, approval and idempotency key the record step adds to the result. Its span is the
current span while the rest of the chain runs, so spans a tool opens are its children.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.trace import Span, SpanKind, Status, StatusCode

from callgate._errors import shown
from callgate.contract import Catalog, Route, Tool, ToolResult
from callgate.telemetry import _names as n
from callgate.telemetry._names import encodable, identifier

if TYPE_CHECKING:
    from callgate.gate._attempt import Outcome, Request
    from callgate.gate._redact import Redactor
    from callgate.gate._setup import Awaited
    from callgate.telemetry._telemetry import Telemetry

__all__ = ["TraceCalls"]


class TraceCalls:
    """Wraps the chain: a span per call, its route and decisions, and the call metrics."""

    def __init__(
        self, next: Awaited, *, telemetry: Telemetry, catalog: Catalog, redactor: Redactor
    ) -> None:
        self.next = next
        self.telemetry = telemetry
        self.catalog = catalog
        self.redactor = redactor

    async def __call__(self, request: Request) -> Outcome:
        call = request.call
        tool = self.catalog.resolve(call.name)
        name = tool.name if tool is not None else identifier(call.name)
        span = self.telemetry.tracer.start_span(
            f"{n.EXECUTE_TOOL} {name}" if tool is not None else n.EXECUTE_TOOL,
            kind=SpanKind.INTERNAL,
            attributes=self._opening(request, tool, name),
        )
        started = time.perf_counter()
        try:
            outcome = await self._inside(span, request)
        except BaseException as exc:
            # A defect or a cancellation, not a route: the type is all a span may carry.
            span.set_attribute(n.ERROR_TYPE, type(exc).__qualname__)
            span.set_status(Status(StatusCode.ERROR))
            span.end()
            raise
        result = outcome.result
        self._closing(span, request, result)
        span.end()
        metric = {n.ROUTE: result.route.value, n.TOOL_NAME: tool.name if tool else n.UNKNOWN_TOOL}
        self.telemetry.calls.add(1, metric)
        self.telemetry.call_duration.record(time.perf_counter() - started, metric)
        return outcome

    async def _inside(self, span: Span, request: Request) -> Outcome:
        """The rest of the chain with `span` current (every call runs in a task, so the
        context is restored when the call ends)."""
        token = otel_context.attach(trace.set_span_in_context(span))
        try:
            return await self.next(request)
        finally:
            otel_context.detach(token)

    def _opening(self, request: Request, tool: Tool | None, name: str) -> dict[str, Any]:
        call, context = request.call, request.context
        attributes: dict[str, Any] = {
            n.OPERATION: n.EXECUTE_TOOL,
            n.TOOL_NAME: name,
            n.TOOL_CALL_ID: identifier(call.id),
            n.TOOL_TYPE: "function",
            n.PRINCIPAL: identifier(context.principal),
        }
        if tool is not None:
            attributes[n.EFFECT] = tool.effect.value
            if tool.source is not None:
                attributes[n.SOURCE] = tool.source
        optional = {
            n.TENANT: context.tenant,
            n.RUN_ID: context.run_id,
            n.BATCH_ID: request.batch_id,
        }
        attributes.update({k: identifier(v) for k, v in optional.items() if v is not None})
        if self.telemetry.capture_payloads:
            attributes[n.TOOL_ARGUMENTS] = self._arguments(call.arguments)
        return attributes

    def _closing(self, span: Span, request: Request, result: ToolResult) -> None:
        if not span.is_recording():  # a no-op or sampled-out span takes nothing
            return
        route = result.route
        attributes: dict[str, Any] = {n.ROUTE: route.value, n.REPLAYED: result.replayed}
        for key, value in (
            (n.RULE_ID, result.rule_id),
            (n.APPROVAL_ID, result.approval_id),
            (n.REASON, result.reason),
        ):
            if value:
                attributes[key] = identifier(value)
        if self.telemetry.capture_payloads:
            attributes[n.TOOL_RESULT] = encodable(self.redactor.text(result.content))
        if route.is_error:
            attributes[n.ERROR_TYPE] = route.value
            span.set_status(Status(StatusCode.ERROR, identifier(result.reason or route.value)))
        span.set_attributes(attributes)  # one lock, not one per attribute
        _approval_events(span, request, result)

    def _arguments(self, raw: Any) -> str:
        """The model's arguments as JSON text, redacted (its own text when it sent text)."""
        if raw is None:
            return ""
        if isinstance(raw, str):
            return encodable(self.redactor.text(raw))
        try:
            text = json.dumps(self.redactor.value(raw), ensure_ascii=False)
        except (TypeError, ValueError, RecursionError):
            text = self.redactor.text(shown(raw))
        return encodable(text)


def _approval_events(span: Span, request: Request, result: ToolResult) -> None:
    """`callgate.approval.held` when the call waits for a person; `callgate.approval.decided`
    when it went on (or stopped) on a person's decision."""
    approval_id = result.approval_id
    if approval_id is None:
        return
    if result.route is Route.HELD:
        held = {n.APPROVAL_ID: identifier(approval_id), n.REASON: identifier(result.reason or "")}
        if result.rule_id is not None:
            held[n.RULE_ID] = identifier(result.rule_id)
        span.add_event(n.HELD_EVENT, held)
        return
    decision = "declined" if result.route is Route.DECLINED else "approved"
    decided: dict[str, Any] = {n.APPROVAL_ID: identifier(approval_id), n.DECISION: decision}
    approval = request.approval
    if approval is not None and approval.id == approval_id:
        if approval.edited_arguments is not None and decision == "approved":
            decided[n.DECISION] = "edited"
        if approval.decided_by is not None:
            decided[n.DECIDED_BY] = identifier(approval.decided_by)
    span.add_event(n.DECIDED_EVENT, decided)
