"""The loop itself: ask the model, route its batch through the gate, answer, repeat.

Each function does one part of a step; `drive` strings them together. Limits are checked
before every model turn and before every batch, so a run always stops between steps.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from callgate.contract import ApprovalDecision, Catalog, Tool, ToolCall, ToolResult
from callgate.dialects import Message
from callgate.gate import Gate, Refusal
from callgate.loop import _events as ev
from callgate.loop._approval import Approver, BatchApprover, HeldCall, ask_batch, one_by_one
from callgate.loop._budget import Limits, check_before_batch, check_before_turn
from callgate.loop._codec import decode_result, decode_turn
from callgate.loop._durable import JSON, ApprovalWait
from callgate.loop._offer import offered, reveal_called
from callgate.loop._perform import approvals_arg, call_arg, turn_arg
from callgate.loop._result import LimitExceeded, ModelFailed, PendingApproval, RunResult
from callgate.loop._session import Session
from callgate.loop._state import CallRecord, PendingBatch
from callgate.models import (
    ArgumentsDelta,
    CallStarted,
    Model,
    ModelRequest,
    ModelTurn,
    StreamEvent,
    TextDelta,
)

if TYPE_CHECKING:  # a type only: the loop does not load retrieval unless a selector is given
    from callgate.retrieval import ToolSelector

__all__ = ["Plan", "drive"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Plan:
    """What stays fixed while a run is driven."""

    model: Model
    gate: Gate
    tools: tuple[Tool, ...]
    limits: Limits
    approver: Approver | None = None
    batch_approver: BatchApprover | None = None
    """Asked once per model step for all its held calls (instead of `approver`)."""
    decisions: Mapping[str, ApprovalDecision] | None = None
    """Decisions for held calls, by approval id (given to a resume)."""
    resumed: bool = False
    selector: ToolSelector | None = None
    """Chooses the tools each turn offers (the run's list) instead of the whole `tools`."""


async def drive(plan: Plan, session: Session) -> RunResult:
    """Run until the model answers, the run pauses for approval, or a limit stops it."""
    telemetry = plan.gate.telemetry
    if telemetry is None:
        return await _drive(plan, session)
    state, model = session.state, plan.model
    run = telemetry.run(
        run_id=state.run_id, model=model.name, provider=model.provider, resumed=plan.resumed
    )
    with run:
        result = await _drive(plan, session)
        run.finished(result.status, limit=session.state.limit)
    return result


async def _drive(plan: Plan, session: Session) -> RunResult:
    resumed = plan.resumed
    while True:
        if session.state.pending is not None:
            outcome = await _settle(plan, session, resumed=resumed)
            if outcome is not None:
                return outcome
        resumed = False
        stop = check_before_turn(plan.limits, session.state.spent, session.elapsed())
        if stop is not None:
            return await _stop(plan, session, *stop)
        turn = await _ask(plan, session, allow_calls=True)
        done = await _take(plan, session, turn)
        if done is not None:
            return done
        await session.save("running")


async def _take(plan: Plan, session: Session, turn: ModelTurn) -> RunResult | None:
    """Append the model's turn; the run ends here when it answered without calls."""
    step = session.state.spent.steps
    message = Message(role="assistant", text=turn.text or "", calls=turn.calls, state=turn.state)
    session.update(messages=(*session.state.messages, message))
    if turn.refusal:
        return RunResult(status="refused", answer=turn.text, state=await session.save("refused"))
    if not turn.calls:
        state = await session.save("finished")
        return RunResult(status="finished", answer=turn.text, state=state)
    session.update(pending=PendingBatch(step=step, calls=turn.calls))
    return None


# -- the model turn ---------------------------------------------------------------------------


async def _ask(plan: Plan, session: Session, *, allow_calls: bool) -> ModelTurn:
    step = session.state.spent.steps + 1
    # The final tool-less turn selects nothing new: the same tool block keeps the cache.
    request = ModelRequest(
        messages=session.state.messages,
        tools=_tools(plan, session, select=allow_calls),
        instructions=session.state.instructions,
        allow_calls=allow_calls,
    )
    streamed: set[int] = set()

    async def stream(item: StreamEvent) -> None:
        await session.emit(_stream_event(step, item, streamed))

    key = f"{session.state.run_id}/turn/{step}" + ("" if allow_calls else "/final")
    effects = replace(session.effects, stream=stream)
    answer = await session.durable.step(
        "model_turn", key, turn_arg(request, step=step), session.perform("model_turn", effects)
    )
    if "error" in answer:
        session.update(detail=f"model call failed: {answer['error']}")
        raise ModelFailed(answer["error"], state=await session.save("failed"))
    if answer.get("turn") is None:
        state = await session.save("failed")
        raise ModelFailed("the model adapter returned no turn", state=state)
    turn = decode_turn(answer["turn"])
    turn = replace(turn, calls=_unique_ids(turn.calls, session))
    session.update(
        spent=session.state.spent.after_turn(turn.usage, plan.limits.price(plan.model.name))
    )
    for index, call in enumerate(turn.calls):
        if index not in streamed:
            await session.emit(ev.CallProposed(step=step, index=index, id=call.id, name=call.name))
    return turn


def _tools(plan: Plan, session: Session, *, select: bool) -> tuple[Tool, ...]:
    if plan.selector is None:
        return plan.tools
    tools = offered(plan.selector, plan.gate.catalog, session.state.messages, select=select)
    session.update(shown=plan.selector.shown_names)
    return tools


def _stream_event(step: int, item: StreamEvent, streamed: set[int]) -> ev.Event:
    if isinstance(item, TextDelta):
        return ev.TextStreamed(step=step, text=item.text)
    if isinstance(item, CallStarted):
        streamed.add(item.index)
        return ev.CallProposed(step=step, index=item.index, id=item.id, name=item.name)
    if isinstance(item, ArgumentsDelta):
        return ev.ArgumentsStreamed(step=step, index=item.index, delta=item.delta)
    raise TypeError(f"unknown stream event {item!r}")  # pragma: no cover


def _unique_ids(calls: tuple[ToolCall, ...], session: Session) -> tuple[ToolCall, ...]:
    """Make every call id unique within the run.

    Idempotency keys derive from run id + call id, so a server that numbers its calls
    afresh each turn (`call_0` every time, as some OpenAI-compatible servers do) would
    otherwise make a new call look like a replay of an old one.
    """
    return tuple(
        call if new == call.id else replace(call, id=new, provider_id=call.provider_id or call.id)
        for call, new in zip(
            calls, unique_ids([c.id for c in calls], _run_ids(session)), strict=True
        )
    )


def _run_ids(session: Session) -> set[str]:
    return {r.call.id for r in session.state.records}


def unique_ids(ids: Sequence[str], taken: Collection[str] = ()) -> list[str]:
    """`ids` with each repeat renamed so that no two are equal and none is in `taken`; an id
    already unique among them all stays as it is."""
    seen = set(taken)
    out: list[str] = []
    for call_id in ids:
        new, n = call_id, 0
        # A new name never takes an id the step itself uses, so a later call keeps its own.
        while new in seen or (n and new in ids):
            n += 1
            new = f"{call_id}_s{n}"
        seen.add(new)
        out.append(new)
    return out


# -- the batch --------------------------------------------------------------------------------


async def _settle(plan: Plan, session: Session, *, resumed: bool) -> RunResult | None:
    """Route the pending batch; pause if calls stay held, else answer the model."""
    pending = session.state.pending
    assert pending is not None
    if not pending.admitted:
        stop = _admit(plan, session, pending, resumed=resumed)
        if stop is not None:
            return await _stop(plan, session, *stop)
    await _route(plan, session, plan.decisions or {})
    while (plan.approver or plan.batch_approver) is not None and _held(session):
        decisions = await _ask_approver(plan, session)
        if not decisions:
            break
        await _route(plan, session, decisions)
    wait = session.durable.approval_wait
    if wait is not None and _held(session):
        await _wait_for_decisions(plan, session, wait)
    if _held(session):
        return await _pause(session)
    await _answer(session)
    return None


def _admit(
    plan: Plan, session: Session, pending: PendingBatch, *, resumed: bool
) -> tuple[str, str] | None:
    stop = check_before_batch(
        plan.limits, session.state.spent, session.elapsed(), len(pending.calls)
    )
    if stop is not None:
        return stop
    stopped = session.state.breaker.stopped
    insisted = sorted({c.name for c in pending.calls if c.name in stopped})
    if insisted and not resumed:
        # The model was told the tool is stopped and called it anyway: end the run.
        return "circuit_breaker", (
            f"the model called {', '.join(insisted)} again after it was stopped"
        )
    spent = replace(
        session.state.spent, tool_calls=session.state.spent.tool_calls + len(pending.calls)
    )
    session.update(spent=spent, pending=replace(pending, admitted=True))
    return None


def _held(session: Session) -> list[ToolResult]:
    pending = session.state.pending
    return pending.held() if pending is not None else []


async def _route(
    plan: Plan,
    session: Session,
    decisions: Mapping[str, ApprovalDecision],
    *,
    only: Collection[str] | None = None,
) -> None:
    """Route the batch's open calls, each as one step (`only`: just the held calls with
    these approval ids)."""
    pending = session.state.pending
    assert pending is not None
    context = replace(session.state.context, run_id=session.state.run_id)
    batch = f"{session.state.run_id}/{pending.step}"
    stopped = session.state.breaker.stopped
    fresh: list[ToolCall] = []
    results: list[ToolResult] = []
    decided: list[JSON] = []
    used: set[str | None] = set()
    for call in pending.open_calls():
        held = pending.results.get(call.id)
        if held is not None:
            if only is not None and held.approval_id not in only:
                continue
            # Without a decision here, the call is resumed anyway: someone may have decided
            # elsewhere (`callgate approvals`, another process); if not, it stays held.
            # Identical calls share one approval: it is decided once, by the first of them;
            # the others resume on that decision.
            decision = None
            if held.approval_id not in used:
                decision = decisions.get(held.approval_id or "")
                used.add(held.approval_id)
            decided.append(call_arg(call, context, batch_id=batch, held=held, decision=decision))
        elif call.name in stopped:
            refusal = _breaker_refusal(stopped[call.name])
            arg = call_arg(call, context, batch_id=batch, refusal=refusal)
            results.append(await _call_step(session, arg))
        else:
            fresh.append(call)
    for group in _groups(plan.gate.catalog, fresh):
        args = [call_arg(call, context, batch_id=batch) for call in group]
        results += await asyncio.gather(*(_call_step(session, arg) for arg in args))
    for arg in decided:
        results.append(await _call_step(session, arg))
    await _record(plan, session, results)


async def _call_step(session: Session, arg: JSON) -> ToolResult:
    """One call through the gate, as a durable step keyed by its idempotency request id."""
    key = arg["request_id"]
    if arg["refusal"] is not None:
        key += "/refused"
    elif arg["approval_id"] is not None:
        key += f"/{arg['approval_id']}"
    answer = await session.durable.step("tool_call", key, arg, session.perform("tool_call"))
    return decode_result(answer["result"])


def _groups(catalog: Catalog, calls: Sequence[ToolCall]) -> list[list[ToolCall]]:
    """Consecutive ordinary calls run concurrently; a call of a sequential tool runs alone
    (the grouping `Gate.run_batch` gives a batch)."""
    groups: list[list[ToolCall]] = []
    current: list[ToolCall] = []
    for call in calls:
        tool = catalog.resolve(call.name)
        if tool is not None and tool.sequential:
            if current:
                groups.append(current)
                current = []
            groups.append([call])
        else:
            current.append(call)
    if current:
        groups.append(current)
    return groups


async def _record(plan: Plan, session: Session, results: list[ToolResult]) -> None:
    pending = session.state.pending
    assert pending is not None
    calls = {c.id: c for c in pending.calls}
    breaker, records, out = session.state.breaker, list(session.state.records), []
    for result in results:
        call = calls[result.call_id]
        before = set(breaker.stopped)
        breaker = breaker.observe(
            call,
            result,
            same_call_limit=plan.limits.same_failing_call,
            in_a_row_limit=plan.limits.same_tool_failures,
        )
        if result.name in set(breaker.stopped) - before:
            result = _breaker_refusal(breaker.stopped[result.name]).announce(result)
        records.append(CallRecord(step=pending.step, call=call, result=result))
        out.append(result)
        await session.emit(ev.CallRouted(step=pending.step, call=call, route=result.route))
        if result.findings:
            await session.emit(_flagged(pending.step, result))
        await session.emit(ev.ResultReady(step=pending.step, result=result))
    session.update(breaker=breaker, records=tuple(records), pending=pending.with_results(out))
    if plan.selector is not None:
        # Before any save: a batch that pauses must not lose what tool_search revealed.
        reveal_called(plan.selector, (calls[r.call_id] for r in results))
        session.update(shown=plan.selector.shown_names)


async def _wait_for_decisions(plan: Plan, session: Session, wait: ApprovalWait) -> None:
    """Under an engine: wait for people to decide the held calls, and route each call again
    as soon as its approval is decided, instead of pausing the run."""
    pending = session.state.pending
    assert pending is not None
    waited, interval, rounds = 0.0, wait.first, 0
    while (held := _held(session)) and waited < wait.total:
        timeout = min(interval, wait.total - waited)
        if not await session.durable.wait(held[0].approval_id or "", timeout):
            waited += timeout
            interval = min(interval * 2, wait.longest)
        # A message only wakes the run: the decision itself is read from the store, so a
        # message from anyone can never decide anything.
        ids = [r.approval_id for r in held if r.approval_id is not None]
        rounds += 1
        key = f"{session.state.run_id}/{pending.step}/approvals/{rounds}"
        answer = await session.durable.step(
            "approvals", key, approvals_arg(ids), session.perform("approvals")
        )
        decided = set(answer["decided"]) & set(ids)
        if decided:
            await _route(plan, session, {}, only=decided)


async def _ask_approver(plan: Plan, session: Session) -> dict[str, ApprovalDecision]:
    pending = session.state.pending
    assert pending is not None
    calls = {c.id: c for c in pending.calls}
    together = tuple(HeldCall(call=calls[h.call_id], held=h) for h in pending.held())
    if plan.batch_approver is not None:
        return await ask_batch(plan.batch_approver, together)
    assert plan.approver is not None
    return await ask_batch(one_by_one(plan.approver), together)


async def _pause(session: Session) -> RunResult:
    pending = session.state.pending
    assert pending is not None
    calls = {c.id: c for c in pending.calls}
    waiting = tuple(
        PendingApproval(approval_id=r.approval_id or "", call=calls[r.call_id], reason=r.reason)
        for r in pending.held()
    )
    state = await session.save("paused")
    return RunResult(status="paused", answer=None, state=state, pending=waiting)


async def _answer(session: Session) -> None:
    """All calls are settled: their results go to the model, in the order of the calls."""
    pending = session.state.pending
    assert pending is not None
    results = tuple(pending.results[c.id] for c in pending.calls)
    session.update(
        messages=(*session.state.messages, Message(role="tool", results=results)), pending=None
    )
    last = session.state.messages[-2] if len(session.state.messages) > 1 else None
    text = last.text if last is not None and last.role == "assistant" else None
    await session.emit(
        ev.StepFinished(
            step=pending.step, usage=session.state.spent.usage, calls=len(results), text=text
        )
    )


# -- limits -----------------------------------------------------------------------------------


async def _stop(plan: Plan, session: Session, limit: str, detail: str) -> RunResult:
    """A limit was reached: raise with the state saved, or ask once more for an answer."""
    session.update(limit=limit, detail=detail)
    if not plan.limits.final_answer:
        raise LimitExceeded(limit, detail, state=await session.save("stopped"))
    await _close_pending(plan, session, limit)
    turn = await _ask(plan, session, allow_calls=False)
    if turn.calls:
        # Proposed despite the tool-less request: refused (nothing may run now), and kept
        # in the run's record; the answer goes on without them.
        await _refuse_all(plan, session, turn.calls, limit, step=session.state.spent.steps)
    message = Message(role="assistant", text=turn.text or "")
    session.update(messages=(*session.state.messages, message))
    return RunResult(status="limited", answer=turn.text, state=await session.save("limited"))


async def _close_pending(plan: Plan, session: Session, limit: str) -> None:
    """Every call needs a result before the model is asked again (providers insist)."""
    pending = session.state.pending
    if pending is None:
        return
    unrouted = [c for c in pending.calls if c.id not in pending.results]
    refused = await _refuse_all(plan, session, unrouted, limit, step=pending.step)
    results = {**pending.results, **{r.call_id: r for r in refused}}
    message = Message(role="tool", results=tuple(results[c.id] for c in pending.calls))
    session.update(messages=(*session.state.messages, message), pending=None)


async def _refuse_all(
    plan: Plan, session: Session, calls: Sequence[ToolCall], limit: str, *, step: int
) -> list[ToolResult]:
    """Route `calls` as refused by the limit: each gets a result and a receipt."""
    context = replace(session.state.context, run_id=session.state.run_id)
    refusal = Refusal(kind="limit", rule_id=f"loop:{limit}", detail=limit)
    results, records = [], list(session.state.records)
    for call in calls:
        arg = call_arg(call, context, batch_id=f"{session.state.run_id}/{step}", refusal=refusal)
        result = await _call_step(session, arg)
        records.append(CallRecord(step=step, call=call, result=result))
        results.append(result)
        await session.emit(ev.CallRouted(step=step, call=call, route=result.route))
        await session.emit(ev.ResultReady(step=step, result=result))
    session.update(records=tuple(records))
    return results


def _flagged(step: int, result: ToolResult) -> ev.FindingsReported:
    return ev.FindingsReported(
        step=step, call_id=result.call_id, name=result.name, findings=result.findings
    )


def _breaker_refusal(why: str) -> Refusal:
    return Refusal(kind="stopped", rule_id="loop:circuit_breaker", detail=why)
