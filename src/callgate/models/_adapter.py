"""What the four SDK adapters share: render, send with retries, stream, parse.

An adapter only knows its SDK: which method to call, how a request is laid out, where
usage is, and which stream events carry text, call starts and argument fragments. The
conversions themselves (catalog, history, responses, results) are `callgate.dialects`'.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any, ClassVar

from callgate.dialects import (
    Dialect,
    ParsedTurn,
    Rendered,
    ToolChoice,
    parse_response,
    render_tools,
)
from callgate.models._retry import RetryPolicy
from callgate.models._types import ModelRequest, ModelTurn, StreamEvent, Usage
from callgate.models._wire import history

__all__ = ["Final", "SDKModel"]


class SDKModel:
    """Base of the adapters; subclasses fill in the SDK calls."""

    dialect: ClassVar[Dialect]
    provider_name: ClassVar[str]

    def __init__(
        self,
        model: str,
        *,
        client: Any = None,
        stream: bool = False,
        retry: RetryPolicy | None = None,
        native_tools: bool = True,
        strict: bool = False,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self.model = model
        self.stream = stream
        self.retry = retry or RetryPolicy()
        self.native_tools = native_tools
        """False for a model without tool calling: tools go in the prompt (text mode)."""
        self.strict = strict
        self.options = dict(options or {})
        """Extra request fields (temperature, max tokens, ...), sent as given."""
        self.client = client
        self.owns_client = False
        """True when the adapter made its client, and so closes it in `aclose`."""

    async def aclose(self) -> None:
        """Close the SDK client if the adapter created it (a client passed in is the
        caller's to close)."""
        if self.owns_client:
            await self.client.close()

    async def __aenter__(self) -> SDKModel:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    @property
    def name(self) -> str:
        return self.model

    @property
    def provider(self) -> str:
        return self.provider_name

    @property
    def wire_dialect(self) -> Dialect:
        return self.dialect if self.native_tools else Dialect.TEXT

    async def respond(self, request: ModelRequest) -> AsyncIterator[StreamEvent | ModelTurn]:
        rendered = self.render(request)
        messages = history(self.wire_dialect, request.messages, rendered, self.dialect)
        if not self.stream:
            response = await self.retry.run(lambda: self.create(request, rendered, messages))
            yield self.turn(response, rendered)
            return
        async with contextlib.AsyncExitStack() as stack:
            events = await self.retry.run(
                lambda: self.open_stream(stack, request, rendered, messages)
            )
            final: Any = None
            async for item in self.read_stream(events):
                if isinstance(item, _Final):
                    final = item.value
                else:
                    yield item
            yield self.turn(await self.finish_stream(events, final), rendered)

    def render(self, request: ModelRequest) -> Rendered | None:
        if not request.tools:
            return None
        choice = None if request.allow_calls else ToolChoice.none()
        return render_tools(request.tools, self.wire_dialect, strict=self.strict, choice=choice)

    def instructions(self, request: ModelRequest, rendered: Rendered | None) -> str | None:
        """The system prompt, with the tool section appended in text mode."""
        parts = [request.instructions] if request.instructions else []
        if rendered is not None and rendered.dialect is Dialect.TEXT:
            parts.append(str(rendered.payload.get("prompt", "")))
        return "\n\n".join(parts) or None

    def tool_fields(self, rendered: Rendered | None) -> dict[str, Any]:
        if rendered is None or rendered.dialect is Dialect.TEXT:
            return {}
        return dict(rendered.payload)

    def turn(self, response: Any, rendered: Rendered | None) -> ModelTurn:
        parsed = self.parse(response, rendered)
        state = dict(parsed.state)
        if self.wire_dialect is Dialect.TEXT:
            # Text mode: the history must show the model its own calls as it wrote them.
            state["text"] = {"raw": self.raw_text(response)}
        return ModelTurn(
            text=parsed.text or None,
            calls=parsed.calls,
            usage=self.usage(response),
            stop_reason=parsed.finish_reason,
            refusal=self.refused(response, parsed),
            state=state,
        )

    def parse(self, response: Any, rendered: Rendered | None) -> ParsedTurn:
        if self.wire_dialect is Dialect.TEXT:
            return parse_response(Dialect.TEXT, self.raw_text(response), rendered=rendered)
        return parse_response(self.dialect, response, rendered=rendered)

    # -- what each SDK defines ------------------------------------------------------------------

    async def create(
        self, request: ModelRequest, rendered: Rendered | None, messages: Sequence[Any]
    ) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    async def open_stream(
        self,
        stack: contextlib.AsyncExitStack,
        request: ModelRequest,
        rendered: Rendered | None,
        messages: Sequence[Any],
    ) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def read_stream(self, events: Any) -> AsyncIterator[StreamEvent | _Final]:  # pragma: no cover
        raise NotImplementedError

    async def finish_stream(self, events: Any, final: Any) -> Any:
        """The complete response once the stream ended (`final` if the stream carried it)."""
        return final

    def usage(self, response: Any) -> Usage:  # pragma: no cover - abstract
        raise NotImplementedError

    def raw_text(self, response: Any) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def refused(self, response: Any, parsed: ParsedTurn) -> bool:
        return False


class _Final:
    """Wraps the complete response when a stream delivers it as its last event."""

    def __init__(self, value: Any) -> None:
        self.value = value


Final = _Final
