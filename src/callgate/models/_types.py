"""The canonical shapes between a model adapter and the loop: turns, usage, stream events."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from callgate.contract import Tool, ToolCall
from callgate.dialects import Message

__all__ = [
    "ArgumentsDelta",
    "CallStarted",
    "Model",
    "ModelRequest",
    "ModelTurn",
    "StreamEvent",
    "TextDelta",
    "Usage",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class Usage:
    """Tokens one model turn consumed, as the provider reported them."""

    input_tokens: int = 0
    output_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
        )


@dataclass(frozen=True, kw_only=True, slots=True)
class ModelTurn:
    """What a model answered in one turn, converted from its dialect."""

    text: str | None = None
    calls: tuple[ToolCall, ...] = ()
    usage: Usage = Usage()
    stop_reason: str | None = None
    """The provider's own stop/finish reason, verbatim."""
    refusal: bool = False
    """The provider reported a refusal: the loop ends the run instead of asking again."""
    state: Mapping[str, Any] = field(default_factory=dict)
    """Opaque turn state by provider (reasoning items, thinking blocks, thought parts), to
    echo to the same provider; dropped when the history goes to another provider."""


@dataclass(frozen=True, kw_only=True, slots=True)
class TextDelta:
    """A piece of the answer text, as it streams."""

    text: str


@dataclass(frozen=True, kw_only=True, slots=True)
class CallStarted:
    """The model began a tool call; its arguments follow as `ArgumentsDelta`s."""

    index: int
    """Position of the call in this turn's batch."""
    id: str
    name: str


@dataclass(frozen=True, kw_only=True, slots=True)
class ArgumentsDelta:
    """A fragment of a call's argument JSON, as it streams."""

    index: int
    delta: str


StreamEvent = TextDelta | CallStarted | ArgumentsDelta
"""What a streaming adapter yields before the finished `ModelTurn`."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ModelRequest:
    """One request to a model: the transcript so far and the tools it may call."""

    messages: tuple[Message, ...]
    tools: tuple[Tool, ...] = ()
    instructions: str | None = None
    """The system prompt."""
    allow_calls: bool = True
    """False for the last, tool-less turn at a limit: the tools stay declared (Anthropic
    rejects tool blocks in history otherwise) but the model is told not to call them."""


class Model(Protocol):
    """A model the loop can talk to. Adapters wrap the official SDK clients.

    `respond` yields stream events while the model answers (nothing, when it does not
    stream) and ends with exactly one `ModelTurn`. Call ids must be unique within a run and
    stable: they name one invocation for the life of the run and its resumes, and the
    idempotency key of every call derives from them.
    """

    @property
    def name(self) -> str:
        """The model id, used to look up prices (`gpt-4o-mini`, `claude-sonnet-4-5`)."""
        ...

    @property
    def provider(self) -> str:
        """Who issues this model's opaque state (`openai`, `anthropic`, `gemini`, ...)."""
        ...

    def respond(self, request: ModelRequest) -> AsyncIterator[StreamEvent | ModelTurn]: ...
