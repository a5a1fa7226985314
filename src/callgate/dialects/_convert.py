"""Convert a conversation from one dialect to another (dialects.md §10.5).

On the way: provider-only state is dropped when the provider changes, ids a target
forbids are rewritten (in calls and results alike), arguments a target needs as objects
are repaired, and a call left without a result is answered with a synthetic error, so
the next request is not rejected. Everything done is listed in `notes`.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from callgate.contract import Route, ToolCall, ToolResult
from callgate.dialects._aliases import Aliases
from callgate.dialects._kinds import Dialect
from callgate.dialects._model import Message
from callgate.dialects._render import to_dialect
from callgate.dialects._repair import budgeted, repair
from callgate.dialects._transcript import (
    Transcript,
    WireConversation,
    read_messages,
    write_messages,
)
from callgate.schema import parse_arguments

__all__ = ["INTERRUPTED", "Converted", "convert", "prepare_transcript"]

INTERRUPTED = (
    "No result was recorded for this call: the run stopped before it returned. "
    "Its outcome is unknown; check before repeating it."
)
"""The text of the synthetic error result that answers a dangling call."""

_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
"""Anthropic's id pattern (and a length every provider takes); others document none."""
_ANY_ID = re.compile(r"^\S{1,256}$")
_OBJECT_ARGS = (Dialect.ANTHROPIC, Dialect.GEMINI, Dialect.MCP)


@dataclass(frozen=True, kw_only=True, slots=True)
class Converted(WireConversation):
    """A conversation converted to the target dialect."""

    transcript: Transcript = field(default_factory=Transcript)
    """The canonical transcript that was written (after the repairs)."""
    ids: Mapping[str, str] = field(default_factory=dict)
    """Source call id -> target call id, for every id that changed (for an id reused
    across turns, its first rewrite)."""
    restore: Mapping[str, str] = field(default_factory=dict)
    """Target call id -> source call id, for every id that changed, reused ids included:
    pass it as `convert(..., ids=)` on the way back to restore every original."""


@budgeted
def convert(
    messages: Sequence[Any],
    *,
    source: Dialect | str,
    target: Dialect | str,
    system: str | None = None,
    ids: Mapping[str, str] | None = None,
    aliases: Aliases | None = None,
) -> Converted:
    """`messages` of dialect `source` rewritten for dialect `target`.

    `ids` pins the id an original call gets in the target (for instance the inverse of an
    earlier conversion's `ids`). `aliases` are the source's name aliases.
    """
    read = read_messages(source, messages, system=system, aliases=aliases)
    prepared, id_map, restore = _prepare(read, to_dialect(target), ids or {})
    wire = write_messages(target, prepared)
    return Converted(
        dialect=wire.dialect,
        messages=wire.messages,
        system=wire.system,
        aliases=wire.aliases,
        notes=prepared.notes,
        transcript=prepared,
        ids=id_map,
        restore=restore,
    )


def prepare_transcript(
    transcript: Transcript, target: Dialect, ids: Mapping[str, str] | None = None
) -> tuple[Transcript, dict[str, str]]:
    """The repairs `convert` makes before writing `transcript` for `target`."""
    prepared, id_map, _ = _prepare(transcript, target, ids or {})
    return prepared, id_map


def _prepare(
    transcript: Transcript, target: Dialect, ids: Mapping[str, str]
) -> tuple[Transcript, dict[str, str], dict[str, str]]:
    notes = list(transcript.notes)
    messages = [_drop_state(m, target, notes) for m in transcript.messages]
    messages, renamed = _rewrite_ids(messages, ids, target)
    messages = _answer_dangling(messages, notes)
    if target in _OBJECT_ARGS:
        messages = [_object_arguments(m, notes) for m in messages]
    notes += [f"call id {old!r} sent as {new!r}" for new, old in renamed.items()]
    id_map: dict[str, str] = {}
    for new, old in renamed.items():
        id_map.setdefault(old, new)
    return Transcript(messages=tuple(messages), notes=tuple(notes)), id_map, renamed


def _drop_state(message: Message, target: Dialect, notes: list[str]) -> Message:
    keep = target.provider
    foreign = [p for p in message.state if p != keep]
    if foreign:
        notes.append(
            f"dropped {', '.join(foreign)} reasoning state: only that provider can read it"
        )
        message = replace(message, state={k: v for k, v in message.state.items() if k == keep})
    calls = []
    for call in message.calls:
        state = call.provider_state or {}
        if any(p != keep for p in state):
            notes.append(
                f"dropped {', '.join(p for p in state if p != keep)} state of call {call.id!r}"
            )
            call = replace(
                call, provider_state={k: v for k, v in state.items() if k == keep} or None
            )
        calls.append(call)
    return replace(message, calls=tuple(calls))


def _rewrite_ids(
    messages: Sequence[Message], pinned: Mapping[str, str], target: Dialect
) -> tuple[list[Message], dict[str, str]]:
    """Ids the target rejects or that repeat, rewritten in calls and their results;
    returns the new id -> old id of every call renamed.

    The mapping is scoped to one assistant turn and the results after it, because some
    servers reuse ids across turns. A pinned id (restoring an earlier conversion) may
    repeat an earlier turn's id where the target allows that; never within one turn.
    """
    rule = _ID if target is Dialect.ANTHROPIC else _ANY_ID
    out: list[Message] = []
    renamed: dict[str, str] = {}
    seen: set[str] = set()
    local: dict[str, str] = {}
    for message in messages:
        if message.role == "assistant":
            local = {}
            turn: set[str] = set()
            for call in message.calls:
                new = pinned.get(call.id, call.id)
                reuse_ok = call.id in pinned and target is not Dialect.ANTHROPIC
                if not rule.match(new) or new in turn or (new in seen and not reuse_ok):
                    new = _safe_id(call.id, seen | turn)
                seen.add(new)
                turn.add(new)
                if new != call.id:
                    local[call.id] = new
                    renamed[new] = call.id
        out.append(_rename(message, local))
    return out, renamed


def _safe_id(old: str, seen: set[str]) -> str:
    clean = re.sub(r"[^A-Za-z0-9_-]", "_", old)[:40] or "call"
    digest = hashlib.sha256(old.encode("utf-8", "surrogatepass")).hexdigest()
    for size in range(8, 65, 8):
        candidate = f"{clean}_{digest[:size]}"
        if candidate not in seen:
            return candidate
    return f"{clean}_{digest}_{len(seen)}"


def _rename(message: Message, id_map: Mapping[str, str]) -> Message:
    if not id_map:
        return message
    calls = tuple(
        replace(c, id=id_map[c.id], provider_id=c.provider_id or c.id) if c.id in id_map else c
        for c in message.calls
    )
    results = tuple(
        replace(r, call_id=id_map[r.call_id]) if r.call_id in id_map else r for r in message.results
    )
    return replace(message, calls=calls, results=results)


def _answer_dangling(messages: list[Message], notes: list[str]) -> list[Message]:
    """Every call answered by the next message; orphan results dropped."""
    out: list[Message] = []
    pending: list[ToolCall] = []
    for i, message in enumerate(messages):
        if message.role == "tool":
            known = {c.id for c in pending}
            kept = tuple(r for r in message.results if r.call_id in known)
            for orphan in (r for r in message.results if r.call_id not in known):
                notes.append(f"dropped result {orphan.call_id!r}: it answers no call")
            answered = {r.call_id for r in kept}
            pending = [c for c in pending if c.id not in answered]
            if not (i + 1 < len(messages) and messages[i + 1].role == "tool"):
                kept += _synthetic(pending, notes)
                pending = []
            if kept:
                out.append(replace(message, results=kept))
            continue
        if pending:
            out.append(Message(role="tool", results=_synthetic(pending, notes)))
            pending = []
        out.append(message)
        pending = list(message.calls)
    return out


def _synthetic(calls: Sequence[ToolCall], notes: list[str]) -> tuple[ToolResult, ...]:
    for call in calls:
        notes.append(f"call {call.id!r} had no result: answered with a synthetic error")
    return tuple(
        ToolResult(
            call_id=c.id,
            name=c.name,
            route=Route.UNKNOWN_OUTCOME,
            content=INTERRUPTED,
            is_error=True,
        )
        for c in calls
    )


def _object_arguments(message: Message, notes: list[str]) -> Message:
    calls = []
    for call in message.calls:
        parsed = parse_arguments(call.arguments)
        if not isinstance(parsed, dict):
            repaired = repair(call.arguments) if isinstance(call.arguments, str) else None
            parsed = repaired[0] if repaired and isinstance(repaired[0], dict) else {}
            notes.append(
                f"arguments of call {call.id!r} were not a JSON object; sent as {parsed!r}"
            )
            call = replace(call, arguments=parsed)
        calls.append(call)
    return replace(message, calls=tuple(calls))
