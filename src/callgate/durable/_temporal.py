"""Agent runs as Temporal workflows (`callgate[temporal]`).

The workflow `callgate.agent` runs the loop itself; every step the loop takes is an activity
named `callgate.<agent name>.<kind>` (`model_turn`, `tool_call`, `approvals`, `save`,
`decide`) that a worker performs with `Agent.perform`, so the model and the gate (with its
store) live on the workers and the workflow holds only the run's history. Temporal runs an
activity at least once: a worker that dies mid-way stops heartbeating and the activity is
given to another worker, where the gate, under the same idempotency key, replays a finished
call and reconciles one caught after its claim instead of running it again.

The workflow is not sandboxed: the loop does no I/O outside its steps, takes its time from
`workflow.time()` and its run id from the workflow id, so it replays deterministically, and
it finds its agent in this worker process (`TemporalAgent` registers it by name).

A held call waits for the update `callgate.decide` (records a decision through the worker's
gate and wakes the run; an invalid decision is refused to the caller) or the signal
`callgate.notify` (a decision recorded elsewhere, e.g. `callgate approvals approve`), and
reads the store at each poll.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from callgate._errors import CallgateError, UserError
from callgate._extras import require
from callgate.contract import ApprovalDecision, Context
from callgate.dialects import Message
from callgate.durable._outcome import DurableRun, decode_outcome
from callgate.loop import Agent, RunResult
from callgate.loop._codec import encode, encode_message
from callgate.loop._durable import JSON, STEP_KINDS, ApprovalWait, Perform, StepKind
from callgate.loop._perform import decide_arg
from callgate.store import StoreUnavailable

if TYPE_CHECKING:
    from temporalio.client import Client
    from temporalio.worker import Worker

__all__ = ["WORKFLOW", "TemporalAgent", "TemporalDurability"]

WORKFLOW = "callgate.agent"
"""The name of the workflow type every `TemporalAgent` runs under."""
DECIDE = "callgate.decide"
NOTIFY = "callgate.notify"

_NAME = re.compile(r"[A-Za-z0-9_-]{1,100}")
_AGENTS: dict[str, TemporalAgent] = {}
"""The agents of this worker process, by name: what a workflow of that name runs."""


def _temporal() -> Any:
    """temporalio, with the submodules used here loaded."""
    for module in ("activity", "client", "exceptions", "worker", "workflow"):
        require(f"temporalio.{module}", extra="temporal")
    return require("temporalio", extra="temporal")


class TemporalAgent:
    """An `Agent` whose runs are Temporal workflows, its steps activities on the workers.

    Make it with the same `name` in every worker process and give each worker
    `agent.worker(client)`. `heartbeat` is how soon a dead worker's activity is handed to
    another (an activity heartbeats while it works); `step_timeout` bounds one attempt of
    one step (a model turn, a tool call).
    """

    def __init__(
        self,
        agent: Agent,
        *,
        name: str,
        task_queue: str = "callgate",
        approval_wait: ApprovalWait | None = None,
        heartbeat: float = 30.0,
        step_timeout: float = 600.0,
    ) -> None:
        if not _NAME.fullmatch(name):
            raise UserError(f"agent name {name!r}: use 1-100 letters, digits, '_', '-'")
        if not 0 < heartbeat <= step_timeout:
            raise UserError("TemporalAgent needs 0 < heartbeat <= step_timeout")
        _temporal()
        self.agent = agent
        self.name = name
        self.task_queue = task_queue
        self.approval_wait = approval_wait if approval_wait is not None else ApprovalWait()
        self.heartbeat = heartbeat
        self.step_timeout = step_timeout
        _AGENTS[name] = self

    # -- the worker side ----------------------------------------------------------------------

    def activity_name(self, kind: StepKind) -> str:
        return f"callgate.{self.name}.{kind}"

    def activities(self) -> list[Callable[[JSON], Awaitable[JSON]]]:
        """One activity per kind of step, named `callgate.<name>.<kind>`."""
        return [self._activity(kind) for kind in STEP_KINDS]

    def worker(self, client: Client, **options: Any) -> Worker:
        """A `temporalio` worker for this agent's task queue (`options` go to `Worker`)."""
        return _temporal().worker.Worker(  # type: ignore[no-any-return]
            client,
            task_queue=self.task_queue,
            workflows=[_workflow_class()],
            activities=self.activities(),
            **options,
        )

    def _activity(self, kind: StepKind) -> Callable[[JSON], Awaitable[JSON]]:
        temporal = _temporal()

        async def perform_step(arg: JSON) -> JSON:
            async with _heartbeats(self.heartbeat / 3):
                try:
                    return await self.agent.perform(kind, arg)
                except StoreUnavailable:
                    raise  # may pass: Temporal retries the activity
                except CallgateError as exc:
                    # A wrong argument or a refused decision: another attempt would fail alike.
                    raise temporal.exceptions.ApplicationError(
                        str(exc), type=type(exc).__name__, non_retryable=True
                    ) from exc

        activity = temporal.activity.defn(name=self.activity_name(kind))
        return activity(perform_step)  # type: ignore[no-any-return]

    # -- the client side ----------------------------------------------------------------------

    async def start(
        self,
        client: Client,
        prompt: str | Sequence[Message],
        *,
        run_id: str | None = None,
        context: Context | None = None,
    ) -> DurableRun:
        """Start a run: a `callgate.agent` workflow with id `run_id`."""
        run_id = run_id or f"run_{uuid.uuid4().hex[:16]}"
        job = {
            "agent": self.name,
            "prompt": prompt if isinstance(prompt, str) else [encode_message(m) for m in prompt],
            "context": None if context is None else encode(context),
        }
        handle = await client.start_workflow(
            WORKFLOW, job, id=run_id, task_queue=self.task_queue, result_type=dict
        )

        async def wait() -> RunResult:
            return decode_outcome(await handle.result())

        return DurableRun(run_id=run_id, wait=wait)

    def attach(self, client: Client, run_id: str) -> DurableRun:
        """The run of an existing workflow."""

        async def wait() -> RunResult:
            return decode_outcome(await client.get_workflow_handle(run_id).result())

        return DurableRun(run_id=run_id, wait=wait)

    async def decide(
        self, client: Client, run_id: str, approval_id: str, decision: ApprovalDecision
    ) -> str:
        """Record a decision on a held call of the run through the workers' gate, and wake
        the run; returns the approval's new state. A decision the gate refuses (an edit the
        schema rejects, an approval already decided) raises here, for the caller."""
        temporal = _temporal()
        handle = client.get_workflow_handle(run_id)
        try:
            answer = await handle.execute_update(DECIDE, decide_arg(approval_id, decision))
        except temporal.client.WorkflowUpdateFailedError as exc:
            raise UserError(
                f"the decision on approval {approval_id} was refused: {_innermost(exc)}"
            ) from exc
        return str(answer)

    async def notify(self, client: Client, run_id: str, approval_id: str) -> None:
        """Wake the run after a decision recorded elsewhere (`callgate approvals approve`)."""
        await client.get_workflow_handle(run_id).signal(NOTIFY, approval_id)


class TemporalDurability:
    """The loop's durable points inside a `callgate.agent` workflow: a step is an activity,
    which a worker performs with `Agent.perform` (the `perform` given here is not called:
    the workflow does no I/O of its own)."""

    def __init__(self, agent: TemporalAgent) -> None:
        self._agent = agent
        self._workflow = _temporal().workflow
        self.woken: set[str] = set()

    def run_id(self) -> str | None:
        workflow_id: str = self._workflow.info().workflow_id
        return workflow_id

    async def step(self, kind: StepKind, key: str, arg: JSON, perform: Perform) -> JSON:
        seconds = self._agent.step_timeout
        return await self._workflow.execute_activity(
            self._agent.activity_name(kind),
            arg,
            start_to_close_timeout=timedelta(seconds=seconds),
            heartbeat_timeout=timedelta(seconds=self._agent.heartbeat),
            summary=key[:400],
        )

    async def wait(self, topic: str, seconds: float) -> bool:
        try:
            await self._workflow.wait_condition(lambda: topic in self.woken, timeout=seconds)
        except TimeoutError:
            return False
        self.woken.discard(topic)
        return True

    @property
    def approval_wait(self) -> ApprovalWait | None:
        return self._agent.approval_wait

    @property
    def clock(self) -> Callable[[], float] | None:
        time: Callable[[], float] = self._workflow.time
        return time


def _innermost(exc: BaseException) -> str:
    """The message of the failure at the bottom of Temporal's chain (the gate's own words)."""
    while exc.__cause__ is not None:
        exc = exc.__cause__
    message: str = getattr(exc, "message", None) or str(exc)
    return message


@contextlib.asynccontextmanager
async def _heartbeats(every: float) -> AsyncIterator[None]:
    """Heartbeat while the step works, so a dead worker is noticed within `heartbeat`."""
    activity = _temporal().activity

    async def beat() -> None:
        while True:
            activity.heartbeat()
            await asyncio.sleep(every)

    task = asyncio.create_task(beat())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def _workflow_class() -> type:
    """The `callgate.agent` workflow (its module imports temporalio, so only now)."""
    from callgate.durable._temporal_workflow import AgentWorkflow

    return AgentWorkflow
