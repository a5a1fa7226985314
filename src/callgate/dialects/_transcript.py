"""Whole conversations: read a dialect's history into a canonical transcript and back."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from callgate.contract import ToolCall
from callgate.dialects._aliases import Aliases, make_aliases
from callgate.dialects._api import context_for
from callgate.dialects._errors import malformed
from callgate.dialects._kinds import Dialect
from callgate.dialects._model import Message, Rendered, WireContext
from callgate.dialects._registry import codec
from callgate.dialects._render import to_dialect

__all__ = ["Transcript", "WireConversation", "read_messages", "write_messages"]

_SEPARATE_SYSTEM = (Dialect.ANTHROPIC, Dialect.GEMINI)


@dataclass(frozen=True, kw_only=True, slots=True)
class Transcript:
    """A conversation in canonical form: dialect-neutral messages, in order."""

    messages: tuple[Message, ...] = ()
    notes: tuple[str, ...] = ()
    """What was dropped, rewritten or repaired on the way in (conversions add to it)."""

    def calls(self) -> list[ToolCall]:
        return [c for m in self.messages for c in m.calls]

    def names(self) -> list[str]:
        return list(
            dict.fromkeys(
                [c.name for c in self.calls()] + [r.name for m in self.messages for r in m.results]
            )
        )


@dataclass(frozen=True, kw_only=True, slots=True)
class WireConversation:
    """A conversation written for one dialect."""

    dialect: Dialect
    messages: list[dict[str, Any]]
    """`messages` (Chat, Anthropic), `input` items (Responses) or `contents` (Gemini)."""
    system: str | None = None
    """System text for dialects that take it apart from the messages (Anthropic, Gemini)."""
    aliases: Aliases = field(default_factory=Aliases)
    notes: tuple[str, ...] = ()

    def request(self) -> dict[str, Any]:
        """The request fields that carry this conversation."""
        if self.dialect is Dialect.OPENAI_RESPONSES:
            return {"input": self.messages}
        if self.dialect is Dialect.GEMINI:
            out: dict[str, Any] = {"contents": self.messages}
            if self.system:
                out["systemInstruction"] = {"parts": [{"text": self.system}]}
            return out
        out = {"messages": self.messages}
        if self.system:
            out["system"] = self.system
        return out


def read_messages(
    dialect: Dialect | str,
    messages: Sequence[Any],
    *,
    system: str | None = None,
    rendered: Rendered | None = None,
    aliases: Aliases | None = None,
) -> Transcript:
    """A canonical transcript of `messages` written in `dialect`.

    `system` is the separate system text of Anthropic and Gemini requests. Names are
    mapped back through `aliases` (or those of `rendered`). Results whose dialect carries
    no tool name (OpenAI) get the name of the call they answer.
    """
    target = to_dialect(dialect)
    ctx = _context(target, rendered, aliases)
    with malformed(target, "messages"):
        read = codec(target).read(messages, ctx)
    if system:
        read.insert(0, Message(role="system", text=system))
    return Transcript(messages=tuple(_name_results(read)))


def write_messages(
    dialect: Dialect | str,
    transcript: Transcript,
    *,
    rendered: Rendered | None = None,
    aliases: Aliases | None = None,
) -> WireConversation:
    """`transcript` written in `dialect`, names aliased where the dialect rejects them.

    Writes what it is given: use `convert` to also drop foreign provider state, rewrite
    ids and repair unanswered calls.
    """
    target = to_dialect(dialect)
    ctx = _context(target, rendered, aliases)
    ctx = replace(ctx, aliases=make_aliases(transcript.names(), target, ctx.aliases))
    messages = list(transcript.messages)
    system = None
    if target in _SEPARATE_SYSTEM:
        texts = [m.text for m in messages if m.role == "system"]
        system = "\n\n".join(texts) if texts else None
        messages = [m for m in messages if m.role != "system"]
    with malformed(target, "transcript"):
        written = codec(target).write(messages, ctx)
    return WireConversation(
        dialect=target,
        messages=written,
        system=system,
        aliases=ctx.aliases,
        notes=transcript.notes,
    )


def _context(dialect: Dialect, rendered: Rendered | None, aliases: Aliases | None) -> WireContext:
    ctx = context_for(dialect, rendered)
    if aliases:
        ctx = replace(ctx, aliases=aliases.merged(ctx.aliases))
    return ctx


def _name_results(messages: Iterable[Message]) -> list[Message]:
    names: dict[str, str] = {}
    out: list[Message] = []
    for message in messages:
        names.update((c.id, c.name) for c in message.calls)
        if message.role == "tool" and any(not r.name for r in message.results):
            results = tuple(
                r if r.name else replace(r, name=names.get(r.call_id, "")) for r in message.results
            )
            message = replace(message, results=results)
        out.append(message)
    return out
