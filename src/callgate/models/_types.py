"""The canonical shapes between a model adapter and the loop: turns, usage, stream events."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from callgate.contract import ToolCall

__all__ = ["ArgumentsDelta", "CallStarted", "ModelTurn", "StreamEvent", "TextDelta", "Usage"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Usage:
    """Tokens one model turn consumed, as the provider reported them."""

    input_tokens: int = 0
    output_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(input_tokens=self.input_tokens + other.input_tokens,
                     output_tokens=self.output_tokens + other.output_tokens)


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
    provider_state: Any = None
    """Opaque data the adapter needs to replay this turn to the same provider (reasoning items,
    thinking blocks); it is dropped when the history goes to another provider."""


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
