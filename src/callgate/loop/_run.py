"""`Agent`: a model, a catalog and a gate, run as describe -> decide -> execute -> observe."""

from __future__ import annotations

import asyncio
import dataclasses
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from callgate._errors import UserError
from callgate.contract import ApprovalDecision, Catalog, Context, Tool
from callgate.dialects import Message
from callgate.gate import REQUEST_ATTRIBUTE, Gate
from callgate.loop import _events as ev
from callgate.loop._approval import Approver, BatchApprover
from callgate.loop._budget import Limits
from callgate.loop._durable import JSON, Durability, InProcess, StepKind
from callgate.loop._offer import check_selector, restore
from callgate.loop._perform import Effects, perform
from callgate.loop._result import RunResult
from callgate.loop._session import Emit, Session
from callgate.loop._state import RunState
from callgate.loop._steps import Plan, drive
from callgate.models import Model
from callgate.store import AsyncStore, Store

if TYPE_CHECKING:  # a type only: the loop does not load retrieval unless a selector is given
    from callgate.retrieval import ToolSelector

__all__ = ["Agent"]


async def _ignore(event: ev.Event) -> None:
    return None


class Agent:
    """Runs a model against a catalog, with every proposed call routed through the gate.

    The run ends when the model answers in text, pauses when a batch has calls held for
    approval (completed calls are kept, never run again), and stops cleanly at a limit
    (`Limits`): the state is saved to `store` (if given) and `LimitExceeded` names the
    limit, or, with `Limits(final_answer=True)`, the model writes one last answer.

    Close it when done (`async with Agent(...) as agent:`, or `agent.close()`): a gate it
    made from `tools` is closed with it; a gate passed in stays open.
    """

    def __init__(
        self,
        model: Model,
        tools: Catalog | Iterable[Tool] | None = None,
        *,
        gate: Gate | None = None,
        instructions: str | None = None,
        limits: Limits | None = None,
        store: Store | None = None,
        approver: Approver | None = None,
        batch_approver: BatchApprover | None = None,
        context: Context | None = None,
        selector: ToolSelector | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if (tools is None) == (gate is None):
            raise UserError("Agent needs either tools or a gate (a gate brings its catalog)")
        self._owns_gate = gate is None
        if gate is None:
            assert tools is not None
            gate = Gate(tools)
        self.model = model
        self.gate = gate
        self.instructions = instructions
        self.limits = limits or Limits()
        self.store = store
        self._io = AsyncStore(store) if store is not None else None
        self.approver = approver
        self.batch_approver = batch_approver
        self.context = context or gate.context
        if selector is not None:
            check_selector(selector, gate.catalog)
        self.selector = selector
        self._clock = clock
        self._check_prices(self.limits)

    @property
    def tools(self) -> tuple[Tool, ...]:
        return tuple(self.gate.catalog)

    # -- starting ---------------------------------------------------------------------------

    async def run(
        self,
        prompt: str | Sequence[Message],
        *,
        context: Context | None = None,
        run_id: str | None = None,
        durable: Durability | None = None,
    ) -> RunResult:
        """Run to an answer, a pause for approval, or a limit (`LimitExceeded`).

        `durable` gives the run's durable points to an engine (`callgate.durable`); the
        default is the plain loop (`InProcess`)."""
        durable = durable or InProcess()
        state = self._new_state(prompt, context, run_id or durable.run_id())
        return await self._go(state, _ignore, durable=durable)

    def stream(
        self,
        prompt: str | Sequence[Message],
        *,
        context: Context | None = None,
        run_id: str | None = None,
    ) -> AsyncIterator[ev.Event]:
        """`run`, as events; the last one is `RunEnded`. Errors are raised after the events
        that came before them."""
        state = self._new_state(prompt, context, run_id)
        return _events(lambda emit: self._go(state, emit))

    # -- resuming ---------------------------------------------------------------------------

    async def resume(
        self,
        run: str | RunState,
        decisions: Mapping[str, ApprovalDecision] | None = None,
        *,
        limits: Limits | None = None,
        durable: Durability | None = None,
        version: int | None = None,
    ) -> RunResult:
        """Continue a paused, stopped or failed run from its saved state.

        `run` is a run id (loaded from the store) or a `RunState`. `decisions` answers held
        calls by approval id; calls that completed before the pause are not run again.
        `limits` replaces the agent's limits for this resume (raise the one that stopped it).
        With a `RunState` and a store, `version` is the stored version it was read at
        (looked up when not given)."""
        if isinstance(run, RunState) and version is not None:
            state = run
        else:
            state, version = await self._load(run)
        return await self._go(
            state,
            _ignore,
            decisions=decisions,
            limits=limits,
            version=version,
            resumed=True,
            durable=durable,
        )

    def resume_stream(
        self,
        run: str | RunState,
        decisions: Mapping[str, ApprovalDecision] | None = None,
        *,
        limits: Limits | None = None,
    ) -> AsyncIterator[ev.Event]:
        async def start(emit: Emit) -> RunResult:
            state, version = await self._load(run)
            return await self._go(
                state, emit, decisions=decisions, limits=limits, version=version, resumed=True
            )

        return _events(start)

    # -- steps performed elsewhere ----------------------------------------------------------

    async def perform(self, kind: StepKind, arg: JSON) -> JSON:
        """Do one step of a run whose loop runs elsewhere (a Temporal activity on a worker):
        the same code the loop runs for that step in its own process."""
        return await perform(self._effects(), kind, arg)

    # -- closing ----------------------------------------------------------------------------

    def close(self) -> None:
        """Close the gate the agent made (not one passed in) and its store threads."""
        if self._io is not None:
            self._io.close()
        if self._owns_gate:
            self.gate.close()

    async def __aenter__(self) -> Agent:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()

    def __enter__(self) -> Agent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals --------------------------------------------------------------------------

    async def _go(
        self,
        state: RunState,
        emit: Emit,
        *,
        decisions: Mapping[str, ApprovalDecision] | None = None,
        limits: Limits | None = None,
        version: int | None = None,
        resumed: bool = False,
        durable: Durability | None = None,
    ) -> RunResult:
        limits = limits or self.limits
        self._check_prices(limits)
        if self.selector is not None:
            restore(self.selector, self.gate.catalog, state.shown)
        plan = Plan(
            model=self.model,
            gate=self.gate,
            tools=self.tools,
            limits=limits,
            approver=self.approver,
            batch_approver=self.batch_approver,
            decisions=decisions,
            resumed=resumed,
            selector=self.selector,
        )
        session = Session(
            state,
            emit=emit,
            clock=self._clock,
            effects=self._effects(),
            version=version,
            durable=durable,
        )
        session.update(status="running", limit=None, detail=None)
        result = await drive(plan, session)
        await emit(ev.RunEnded(result=result))
        return result

    def _effects(self) -> Effects:
        return Effects(model=self.model, gate=self.gate, store=self._io)

    def _new_state(
        self, prompt: str | Sequence[Message], context: Context | None, run_id: str | None
    ) -> RunState:
        messages = (
            (Message(role="user", text=prompt),) if isinstance(prompt, str) else tuple(prompt)
        )
        return RunState(
            run_id=run_id or f"run_{uuid.uuid4().hex[:16]}",
            model=self.model.name,
            context=_with_request(context or self.context, messages),
            instructions=self.instructions,
            messages=messages,
        )

    async def _load(self, run: str | RunState) -> tuple[RunState, int | None]:
        io = self._io
        if isinstance(run, RunState):
            if io is None:
                return run, None
            record = await io.run(io.store.runs.load, run.run_id)
            return run, None if record is None else record.version
        if io is None:
            raise UserError("resuming by run id needs a store; pass the RunState instead")
        record = await io.run(io.store.runs.load, run)
        if record is None:
            raise UserError(f"no saved run {run!r} in the store")
        return RunState.from_dict(record.state), record.version

    def _check_prices(self, limits: Limits) -> None:
        if limits.cost is not None and limits.price(self.model.name) is None:
            raise UserError(
                f"a cost limit needs a price for model {self.model.name!r} in Limits.prices"
            )


def _with_request(context: Context, messages: Sequence[Message]) -> Context:
    """`context` with the user's words as the run's request, which value provenance trusts
    (`UntrustedResults(provenance=...)`), unless the host set a request of its own."""
    words = [m.text for m in messages if m.role == "user" and m.text]
    if not words or REQUEST_ATTRIBUTE in context.attributes:
        return context
    attributes = {**context.attributes, REQUEST_ATTRIBUTE: "\n".join(words)}
    return dataclasses.replace(context, attributes=attributes)


def _events(start: Callable[[Emit], Any]) -> AsyncIterator[ev.Event]:
    """Run `start(emit)` as a task and yield what it emits, then its error if it failed."""

    async def generate() -> AsyncIterator[ev.Event]:
        queue: asyncio.Queue[ev.Event | None] = asyncio.Queue()

        async def emit(event: ev.Event) -> None:
            await queue.put(event)

        async def work() -> None:
            try:
                await start(emit)
            finally:
                await queue.put(None)

        task = asyncio.create_task(work())
        try:
            while (event := await queue.get()) is not None:
                yield event
            await task  # re-raises the run's error, after every event before it
        finally:
            if not task.done():
                task.cancel()

    return generate()
