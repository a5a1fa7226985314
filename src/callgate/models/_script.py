"""What a scripted model says, turn by turn: shared by `ScriptedModel` and the fake servers.

A script is a list of `Turn`s. The scripted model hands them to the loop directly; the
fake provider servers render each one in their provider's wire format, so the same script
exercises the official SDK clients over real HTTP.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from callgate.models._types import Usage

__all__ = ["ScriptError", "ScriptedCall", "Turn", "TurnSource"]

_SOME_USAGE = Usage(input_tokens=10, output_tokens=5)


@dataclass(frozen=True, kw_only=True, slots=True)
class ScriptedCall:
    """One tool call in a scripted turn."""

    name: str
    arguments: Mapping[str, Any] | str = field(default_factory=dict)
    """An object, or raw text (to script malformed JSON exactly as a model might send it)."""
    id: str | None = None
    """The provider call id; the fake servers and the scripted model number calls if unset."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ScriptError:
    """Instead of a turn, the provider answers with an HTTP error."""

    status: int = 429
    retry_after: float | None = None
    """Seconds, sent as the `Retry-After` header."""
    message: str = "rate limit reached; try again later"


@dataclass(frozen=True, kw_only=True, slots=True)
class Turn:
    """One model turn: optional text, tool calls, the usage to report, or an error."""

    text: str | None = None
    calls: Sequence[ScriptedCall] = ()
    usage: Usage = _SOME_USAGE
    """Reported to the client; nonzero by default so that token budgets see something."""
    error: ScriptError | None = None
    refusal: bool = False
    """Report the turn as a refusal (stop reason) where the provider has one."""

    @classmethod
    def say(cls, text: str, **kwargs: Any) -> Turn:
        """A final answer."""
        return cls(text=text, **kwargs)

    @classmethod
    def call(
        cls,
        *calls: ScriptedCall | tuple[str, Mapping[str, Any] | str],
        text: str | None = None,
        **kwargs: Any,
    ) -> Turn:
        """A batch of calls; each is a `ScriptedCall` or a `(name, arguments)` pair."""
        made = tuple(
            c if isinstance(c, ScriptedCall) else ScriptedCall(name=c[0], arguments=c[1])
            for c in calls
        )
        return cls(text=text, calls=made, **kwargs)

    @classmethod
    def fail(
        cls,
        status: int = 429,
        *,
        retry_after: float | None = None,
        message: str = "rate limit reached; try again later",
    ) -> Turn:
        """An HTTP error answer (for retry tests)."""
        return cls(error=ScriptError(status=status, retry_after=retry_after, message=message))


TurnSource = Turn | Callable[[Any], Turn]
"""A fixed turn, or a function of the request received: the wire body (a dict) for the fake
servers, the `ModelRequest` for `ScriptedModel`."""
