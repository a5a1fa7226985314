"""The transcript of a run in canonical form: what every adapter converts to its dialect."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from callgate.contract import ToolCall, ToolResult

__all__ = ["AssistantMessage", "Message", "ToolResults", "UserMessage"]


@dataclass(frozen=True, kw_only=True, slots=True)
class UserMessage:
    """What the user said."""

    text: str


@dataclass(frozen=True, kw_only=True, slots=True)
class AssistantMessage:
    """One model turn: text, calls, and opaque state for the provider that issued it."""

    text: str | None = None
    calls: tuple[ToolCall, ...] = ()
    provider: str | None = None
    """Who produced this turn (`openai`, `anthropic`, `gemini`, ...): `provider_state` is only
    sent back to the same provider."""
    provider_state: Any = None


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolResults:
    """The results of one batch, in the order of its calls, every call answered."""

    results: tuple[ToolResult, ...]


Message = UserMessage | AssistantMessage | ToolResults
