"""A model that plays a script: the loop's tests, and users' tests, without any network."""

from __future__ import annotations

import itertools
import json
from collections.abc import AsyncIterator, Iterable, Mapping
from typing import Any

from callgate._errors import UserError
from callgate.contract import ToolCall
from callgate.models._retry import RetryPolicy
from callgate.models._script import ScriptError, Turn, TurnSource
from callgate.models._types import (
    ArgumentsDelta,
    CallStarted,
    ModelRequest,
    ModelTurn,
    StreamEvent,
    TextDelta,
)

__all__ = ["ScriptExhausted", "ScriptedHTTPError", "ScriptedModel"]


class ScriptExhausted(UserError):
    """The model was asked for more turns than its script has."""


class ScriptedHTTPError(Exception):
    """What a scripted `Turn.fail(...)` raises: shaped like an SDK status error."""

    def __init__(self, error: ScriptError) -> None:
        self.status_code = error.status
        headers = {} if error.retry_after is None else {"retry-after": f"{error.retry_after:g}"}
        self.response = _Response(headers)
        super().__init__(f"HTTP {error.status}: {error.message}")


class _Response:
    def __init__(self, headers: Mapping[str, str]) -> None:
        self.headers = headers


class ScriptedModel:
    """Answers each request with the next scripted `Turn`.

    A turn may be a function of the `ModelRequest`, to answer what the loop actually sent.
    `requests` keeps every request; `stream=True` makes the turns arrive as stream events.
    Error turns go through the same retry policy as the real adapters.
    """

    def __init__(
        self,
        turns: Iterable[TurnSource],
        *,
        name: str = "scripted",
        provider: str = "scripted",
        stream: bool = False,
        retry: RetryPolicy | None = None,
    ) -> None:
        self._turns = list(turns)
        self._name, self._provider = name, provider
        self.stream = stream
        self.retry = retry or RetryPolicy()
        self.requests: list[ModelRequest] = []
        self._ids = itertools.count(1)

    @property
    def name(self) -> str:
        return self._name

    @property
    def provider(self) -> str:
        return self._provider

    @property
    def remaining(self) -> int:
        return len(self._turns)

    def add_turns(self, *turns: TurnSource) -> None:
        self._turns.extend(turns)

    async def respond(self, request: ModelRequest) -> AsyncIterator[StreamEvent | ModelTurn]:
        turn = await self.retry.run(lambda: self._next(request))
        final = self._model_turn(turn)
        if self.stream:
            for event in _events(final):
                yield event
        yield final

    async def _next(self, request: ModelRequest) -> Turn:
        self.requests.append(request)
        if not self._turns:
            raise ScriptExhausted(
                f"the scripted model has no turn left for request {len(self.requests)}"
            )
        source = self._turns.pop(0)
        turn = source(request) if callable(source) else source
        if turn.error is not None:
            raise ScriptedHTTPError(turn.error)
        return turn

    def _model_turn(self, turn: Turn) -> ModelTurn:
        calls = tuple(
            ToolCall(
                id=c.id or f"call_{next(self._ids)}",
                name=c.name,
                arguments=c.arguments if isinstance(c.arguments, str) else json.dumps(c.arguments),
            )
            for c in turn.calls
        )
        stop = "refusal" if turn.refusal else ("tool_calls" if calls else "stop")
        return ModelTurn(
            text=turn.text, calls=calls, usage=turn.usage, stop_reason=stop, refusal=turn.refusal
        )


def _events(turn: ModelTurn) -> Iterable[StreamEvent]:
    text = turn.text or ""
    for i in range(0, len(text), 6):
        yield TextDelta(text=text[i : i + 6])
    for index, call in enumerate(turn.calls):
        yield CallStarted(index=index, id=call.id, name=call.name)
        raw: Any = call.arguments
        yield ArgumentsDelta(index=index, delta=raw if isinstance(raw, str) else json.dumps(raw))
