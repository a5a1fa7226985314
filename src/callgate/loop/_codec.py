"""JSON forms of calls, results, contexts and messages, for the saved run state.

Written against the dataclass fields rather than a fixed list, so a field added to the
contract is saved without touching this module; keys a reader does not know are ignored.
Bytes (Gemini thought signatures) are kept as base64 so they survive the round trip.
"""

from __future__ import annotations

import base64
import dataclasses
from collections.abc import Mapping
from enum import Enum
from typing import Any

from callgate._errors import UserError
from callgate.contract import (
    ApprovalDecision,
    Approve,
    Context,
    Decline,
    Edit,
    Route,
    Timings,
    ToolCall,
    ToolResult,
)
from callgate.dialects import Message
from callgate.models import ModelTurn, Usage

__all__ = [
    "decode",
    "decode_call",
    "decode_context",
    "decode_decision",
    "decode_message",
    "decode_result",
    "decode_turn",
    "encode",
    "encode_decision",
    "encode_message",
]

_BYTES = "$bytes"


def encode(value: Any) -> Any:
    """A JSON-able copy of `value` (dataclasses, enums, tuples, sets and bytes included)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, bytes | bytearray):
        return {_BYTES: base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, Mapping):
        return {str(k): encode(v) for k, v in value.items()}
    if isinstance(value, frozenset | set):
        return sorted(encode(v) for v in value)
    if isinstance(value, list | tuple):
        return [encode(v) for v in value]
    return value


def decode(value: Any) -> Any:
    """Undo `encode` for plain data (bytes come back; lists stay lists)."""
    if isinstance(value, dict):
        if set(value) == {_BYTES}:
            return base64.b64decode(value[_BYTES])
        return {k: decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [decode(v) for v in value]
    return value


def _known(cls: type, data: Mapping[str, Any]) -> dict[str, Any]:
    names = {f.name for f in dataclasses.fields(cls) if f.init}
    return {k: v for k, v in data.items() if k in names}


def decode_call(data: Mapping[str, Any]) -> ToolCall:
    fields = _known(ToolCall, decode(dict(data)))
    if "repairs" in fields:
        fields["repairs"] = tuple(fields["repairs"])
    return ToolCall(**fields)


def decode_result(data: Mapping[str, Any]) -> ToolResult:
    fields = _known(ToolResult, decode(dict(data)))
    fields["route"] = Route(fields["route"])
    if "findings" in fields:
        fields["findings"] = tuple(fields["findings"])
    if fields.get("timings") is not None:
        fields["timings"] = Timings(**_known(Timings, fields["timings"]))
    return ToolResult(**fields)


def decode_context(data: Mapping[str, Any]) -> Context:
    fields = _known(Context, decode(dict(data)))
    for name in ("roles", "scopes"):
        if name in fields:
            fields[name] = frozenset(fields[name])
    return Context(**fields)


def encode_message(message: Message) -> dict[str, Any]:
    out: dict[str, Any] = encode(message)
    return out


def decode_message(data: Mapping[str, Any]) -> Message:
    role = data.get("role")
    if role not in ("system", "user", "assistant", "tool"):
        raise UserError(f"saved run state holds a message with unknown role {role!r}")
    return Message(
        role=role,
        text=data.get("text", ""),
        calls=tuple(decode_call(c) for c in data.get("calls", ())),
        results=tuple(decode_result(r) for r in data.get("results", ())),
        state=decode(data.get("state") or {}),
    )


def decode_turn(data: Mapping[str, Any]) -> ModelTurn:
    fields = _known(ModelTurn, decode(dict(data)))
    fields["calls"] = tuple(decode_call(c) for c in fields.get("calls", ()))
    fields["usage"] = Usage(**_known(Usage, fields.get("usage") or {}))
    return ModelTurn(**fields)


_DECISIONS: dict[str, type[Approve | Decline | Edit]] = {
    "approve": Approve,
    "decline": Decline,
    "edit": Edit,
}


def encode_decision(decision: ApprovalDecision) -> dict[str, Any]:
    kind = next(k for k, cls in _DECISIONS.items() if isinstance(decision, cls))
    out: dict[str, Any] = encode(decision)
    return {"kind": kind, **out}


def decode_decision(data: Any) -> ApprovalDecision:
    """A decision from its JSON form; a clear `UserError` for anything else (decisions can
    arrive from outside the process)."""
    if not isinstance(data, Mapping) or data.get("kind") not in _DECISIONS:
        raise UserError("a decision is an object with kind 'approve', 'decline' or 'edit'")
    cls = _DECISIONS[data["kind"]]
    fields = {k: v for k, v in data.items() if k != "kind"}
    unknown = set(fields) - {f.name for f in dataclasses.fields(cls)}
    if unknown:
        raise UserError(f"a {data['kind']} decision has no field {sorted(unknown)[0]!r}")
    text = {"by", "note"}
    for name, value in fields.items():
        if name in text and not (isinstance(value, str) or (name == "note" and value is None)):
            raise UserError(f"decision field {name!r} must be a string")
        if name == "grant" and not isinstance(value, bool):
            raise UserError("decision field 'grant' must be true or false")
        if name == "arguments" and not isinstance(value, Mapping):
            raise UserError("the arguments of an edit must be an object")
    return cls(**fields)
