"""The saved state of a run: enough to resume it in another process, and versioned.

A state is immutable; the loop makes a new one after every change and saves it where it
stops (paused, limit, model failure). `FORMAT` is written into every saved state so that
a later loop can read (or migrate) an older one, and refuses a newer one it cannot read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from callgate._errors import UserError
from callgate.contract import Context, Route, ToolCall, ToolResult
from callgate.dialects import Message
from callgate.loop._breaker import Breaker
from callgate.loop._budget import Spent
from callgate.loop._codec import (
    decode_call,
    decode_context,
    decode_message,
    decode_result,
    encode,
    encode_message,
)

__all__ = ["FORMAT", "CallRecord", "PendingBatch", "RunState", "Status"]

FORMAT = 2
"""The layout version of a saved state (2 added `shown`)."""

_READABLE = frozenset({1, 2})
"""Formats `RunState.from_dict` reads; a format 1 state simply has no `shown` list."""

Status = Literal["running", "paused", "stopped", "failed", "finished", "limited", "refused"]
"""`paused`: waits for approvals; `stopped`: a limit was hit (resumable); `failed`: the model
could not be reached (resumable); `limited`: a limit was hit and the model wrote a final
answer; `finished`: the model answered; `refused`: the provider refused."""


@dataclass(frozen=True, kw_only=True, slots=True)
class CallRecord:
    """One routed call of the run (a held call that was decided later appears twice)."""

    step: int
    call: ToolCall
    result: ToolResult

    @property
    def route(self) -> Route:
        return self.result.route


@dataclass(frozen=True, kw_only=True, slots=True)
class PendingBatch:
    """A batch of calls whose results have not all gone back to the model yet."""

    step: int
    calls: tuple[ToolCall, ...]
    results: Mapping[str, ToolResult] = field(default_factory=dict)
    """Call id -> result so far; a `held` result is waiting for a decision."""
    admitted: bool = False
    """The batch passed the limits and was counted against `Limits.tool_calls`."""

    def open_calls(self) -> list[ToolCall]:
        """Calls still to route: never routed, or held for approval."""
        return [
            c
            for c in self.calls
            if c.id not in self.results or self.results[c.id].route is Route.HELD
        ]

    def held(self) -> list[ToolResult]:
        return [r for r in self.results.values() if r.route is Route.HELD]

    def with_results(self, results: list[ToolResult]) -> PendingBatch:
        return replace(self, results={**self.results, **{r.call_id: r for r in results}})


@dataclass(frozen=True, kw_only=True, slots=True)
class RunState:
    """Everything a run needs to continue."""

    run_id: str
    status: Status = "running"
    model: str = ""
    """The model id the run started with (for prices and for the record)."""
    context: Context = field(default_factory=Context)
    instructions: str | None = None
    messages: tuple[Message, ...] = ()
    pending: PendingBatch | None = None
    records: tuple[CallRecord, ...] = ()
    spent: Spent = field(default_factory=Spent)
    breaker: Breaker = field(default_factory=Breaker)
    limit: str | None = None
    """The limit that stopped the run, when one did."""
    detail: str | None = None
    """Why the run stopped, in words."""
    shown: tuple[str, ...] = ()
    """With a tool selector: the names of every tool offered so far, in first-offered order.
    Saved so a resumed run offers the same list (provider prompt caches key on it)."""

    def to_dict(self) -> dict[str, Any]:
        pending = None
        if self.pending is not None:
            p = self.pending
            pending = {
                "step": p.step,
                "calls": encode(p.calls),
                "admitted": p.admitted,
                "results": [encode(r) for r in p.results.values()],
            }
        return {
            "format": FORMAT,
            "run_id": self.run_id,
            "status": self.status,
            "model": self.model,
            "context": encode(self.context),
            "instructions": self.instructions,
            "messages": [encode_message(m) for m in self.messages],
            "pending": pending,
            "records": [
                {"step": r.step, "call": encode(r.call), "result": encode(r.result)}
                for r in self.records
            ],
            "spent": self.spent.to_dict(),
            "breaker": self.breaker.to_dict(),
            "limit": self.limit,
            "detail": self.detail,
            "shown": list(self.shown),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RunState:
        version = data.get("format")
        if type(version) is not int or version not in _READABLE:
            raise UserError(
                f"saved run state has format {version!r}; this callgate reads "
                f"formats {', '.join(map(str, sorted(_READABLE)))}"
            )
        return cls(
            run_id=data["run_id"],
            status=data["status"],
            model=data["model"],
            context=decode_context(data["context"]),
            instructions=data["instructions"],
            messages=tuple(decode_message(m) for m in data["messages"]),
            pending=_pending(data["pending"]),
            records=tuple(
                CallRecord(
                    step=r["step"], call=decode_call(r["call"]), result=decode_result(r["result"])
                )
                for r in data["records"]
            ),
            spent=Spent.from_dict(data["spent"]),
            breaker=Breaker.from_dict(data["breaker"]),
            limit=data["limit"],
            detail=data["detail"],
            shown=tuple(data.get("shown", ())),
        )

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> RunState:
        return cls.from_dict(json.loads(text))


def _pending(data: Mapping[str, Any] | None) -> PendingBatch | None:
    if data is None:
        return None
    results = (decode_result(r) for r in data["results"])
    return PendingBatch(
        step=data["step"],
        calls=tuple(decode_call(c) for c in data["calls"]),
        results={r.call_id: r for r in results},
        admitted=data["admitted"],
    )
