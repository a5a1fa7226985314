"""`perform`: what each kind of step does, from its JSON argument to its JSON answer.

The same code runs a step in the plain loop, inside a DBOS step and inside a Temporal
activity on a worker, so a run behaves the same on every engine. The loop builds the
arguments (`turn_arg`, `call_arg`, ...) and reads the answers.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from callgate._errors import UserError
from callgate.contract import ApprovalDecision, Context, Tool, ToolCall, ToolResult
from callgate.gate import Gate, Refusal
from callgate.loop._approval import settle_held
from callgate.loop._codec import (
    decode_call,
    decode_context,
    decode_decision,
    decode_message,
    encode,
    encode_decision,
    encode_message,
)
from callgate.loop._durable import JSON, StepKind
from callgate.loop._state import FORMAT
from callgate.models import Model, ModelRequest, ModelTurn, StreamEvent
from callgate.store import AsyncStore, StoreConflict

__all__ = [
    "Effects",
    "approvals_arg",
    "call_arg",
    "decide_arg",
    "perform",
    "request_id",
    "save_arg",
    "turn_arg",
]

StreamSink = Callable[[StreamEvent], Awaitable[None]]


@dataclass(frozen=True, kw_only=True, slots=True)
class Effects:
    """What steps act on: the model, the gate and the store of run states."""

    model: Model
    gate: Gate
    store: AsyncStore | None = None
    stream: StreamSink | None = None
    """Where a model turn's stream events go (the plain loop's events); None drops them."""


async def perform(effects: Effects, kind: StepKind, arg: JSON) -> JSON:
    """Do one step; raises `UserError` for an argument no step of the loop would build."""
    if not isinstance(arg, Mapping):
        raise UserError(f"the argument of a {kind} step must be a JSON object")
    if kind == "model_turn":
        return await _model_turn(effects, arg)
    if kind == "tool_call":
        return {"result": encode(await _tool_call(effects.gate, arg))}
    if kind == "approvals":
        return {"decided": await _decided(effects.gate, arg["ids"])}
    if kind == "save":
        return {"version": await _save(effects.store, arg)}
    if kind == "decide":
        return {"state": await _decide(effects.gate, arg)}
    raise UserError(f"unknown step kind {kind!r}")


# -- arguments --------------------------------------------------------------------------------


def turn_arg(request: ModelRequest, *, step: int) -> JSON:
    return {
        "step": step,
        "messages": [encode_message(m) for m in request.messages],
        "tools": [t.name for t in request.tools],
        "instructions": request.instructions,
        "allow_calls": request.allow_calls,
    }


def call_arg(
    call: ToolCall,
    context: Context,
    *,
    batch_id: str | None = None,
    refusal: Refusal | None = None,
    held: ToolResult | None = None,
    decision: ApprovalDecision | None = None,
) -> JSON:
    """A call to route: fresh (with `batch_id`), refused by the host, or a held call to
    route again (with the decision given for it, if any)."""
    return {
        "call": encode(call),
        "context": encode(context),
        "request_id": request_id(call, context),
        "batch_id": batch_id,
        "refusal": None if refusal is None else encode(refusal),
        "approval_id": None if held is None else held.approval_id,
        "decision": None if decision is None else encode_decision(decision),
    }


def request_id(call: ToolCall, context: Context) -> str:
    """The request part of a call's idempotency key: the run (a workflow id under an engine)
    and the call id, which the loop keeps unique within the run."""
    return f"{context.run_id}/{call.id}"


def approvals_arg(ids: Sequence[str]) -> JSON:
    return {"ids": list(ids)}


def save_arg(run_id: str, state: JSON, *, expected_version: int | None, status: str) -> JSON:
    return {
        "run_id": run_id,
        "state": state,
        "expected_version": expected_version,
        "status": status,
    }


def decide_arg(approval_id: str, decision: ApprovalDecision) -> JSON:
    return {"approval_id": approval_id, "decision": encode_decision(decision)}


# -- the steps --------------------------------------------------------------------------------


async def _model_turn(effects: Effects, arg: Mapping[str, Any]) -> JSON:
    tools = tuple(_tool(effects.gate, name) for name in arg["tools"])
    request = ModelRequest(
        messages=tuple(decode_message(m) for m in arg["messages"]),
        tools=tools,
        instructions=arg["instructions"],
        allow_calls=bool(arg["allow_calls"]),
    )
    turn: ModelTurn | None = None
    try:
        with _traced(effects, int(arg.get("step", 0))) as seen:
            async for item in effects.model.respond(request):
                if isinstance(item, ModelTurn):
                    turn = seen(item)
                elif effects.stream is not None:
                    await effects.stream(item)
    except Exception as exc:
        # An answer, not an error of the step: the loop saves the run as failed and says why.
        return {"error": str(exc)}
    if turn is None:
        return {"turn": None}
    return {"turn": encode(turn)}


def _traced(
    effects: Effects, step: int
) -> AbstractContextManager[Callable[[ModelTurn], ModelTurn]]:
    """The model call's `chat` span when the gate has telemetry (a replayed turn calls no
    model, so it has none)."""
    telemetry = effects.gate.telemetry
    if telemetry is None:
        return nullcontext(_same)
    model = effects.model
    return telemetry.turn(model=model.name, provider=model.provider, step=step)


def _same(turn: ModelTurn) -> ModelTurn:
    return turn


def _tool(gate: Gate, name: str) -> Tool:
    tool = gate.catalog.resolve(name)
    if tool is None:
        raise UserError(f"tool {name!r} is not in the gate's catalog")
    return tool


async def _tool_call(gate: Gate, arg: Mapping[str, Any]) -> ToolResult:
    call = decode_call(arg["call"])
    context = decode_context(arg["context"])
    if arg.get("refusal") is not None:
        refusal = Refusal(**arg["refusal"])
        return await gate.refuse(call, refusal, context=context, batch_id=arg["batch_id"])
    if arg.get("approval_id") is not None:
        decision = None if arg.get("decision") is None else decode_decision(arg["decision"])
        return await settle_held(
            gate,
            call,
            arg["approval_id"],
            decision,
            context,
            request_id=arg["request_id"],
            batch_id=arg["batch_id"],
        )
    return await gate.call(
        call, context=context, request_id=arg["request_id"], batch_id=arg["batch_id"]
    )


async def _decided(gate: Gate, ids: Sequence[str]) -> list[str]:
    """The approvals among `ids` that are no longer pending (decided, expired, used)."""
    approvals = gate.approvals
    found = await asyncio.gather(*(asyncio.to_thread(approvals.get, i) for i in ids))
    return [a.id for a in found if a.state != "pending"]


async def _save(store: AsyncStore | None, arg: Mapping[str, Any]) -> int:
    if store is None:
        raise UserError("a save step needs the agent's store")
    run_id, expected = arg["run_id"], arg["expected_version"]
    try:
        record = await store.run(
            store.store.runs.save,
            run_id,
            arg["state"],
            expected_version=expected,
            status=arg["status"],
            state_format=FORMAT,
        )
    except StoreConflict:
        # A step runs at least once: the save may have committed before its process died.
        # Then the stored record is this very save (one version on, the same point of the
        # run; only the running time a second attempt measures can differ).
        stored = await store.run(store.store.runs.load, run_id)
        if stored is None or stored.version != (expected or 0) + 1:
            raise
        if _without_time(stored.state) != _without_time(arg["state"]):
            raise
        return stored.version
    return record.version


def _without_time(state: Any) -> Any:
    out = copy.deepcopy(state)
    if isinstance(out, dict) and isinstance(out.get("spent"), dict):
        out["spent"].pop("elapsed", None)
    return out


async def _decide(gate: Gate, arg: Mapping[str, Any]) -> str:
    decision = decode_decision(arg["decision"])
    approval = await gate.decide(arg["approval_id"], decision)
    return approval.state
