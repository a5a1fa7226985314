"""Agent runs as DBOS workflows (`callgate[dbos]`).

A run is one workflow whose id is the run id; every model turn, every tool call, every read
of the approvals and every save of the run's state is a DBOS step named `callgate.<kind>`.
When a process dies, DBOS runs the workflow again in the next process that launches: the
steps that finished give back their checkpointed answers, and the loop goes on from the
first step that did not. A tool call caught mid-way is routed again under the same
idempotency key (`tenant:<run id>/<call id>:tool`), so the gate's ledger, not the step,
decides whether it runs: a finished call is replayed, a call whose process died after its
claim is reconciled (`Tool.reconcile`) and never re-run blindly.

Why the gate's writes are not in the step's checkpoint transaction: DBOS commits a step's
output after the step's body returns (a `@ds.transaction()` of a datasource commits the
body's SQL with the checkpoint, but only SQL run inside the body's open transaction). The
gate's claim must be committed *before* the tool runs, or a crash would leave a side effect
with no record of it; and the receipt with the finished claim is committed by the gate in
its own store transaction (`Store.settle`). So between the gate's commit and DBOS's
checkpoint there is a window: a crash there makes DBOS run the step again, and the gate
answers it from its ledger (`replayed`, with a receipt of its own) without running the tool.

A held call waits with `DBOS.recv` on its approval id (durable: a restarted process waits
on), reading the store for decisions whenever a message arrives and at each poll.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from callgate._errors import UserError
from callgate._extras import require
from callgate.contract import ApprovalDecision, Context
from callgate.dialects import Message
from callgate.durable._outcome import DurableRun, decode_outcome, outcome_of
from callgate.loop import Agent, RunResult, RunState
from callgate.loop._codec import (
    decode_context,
    decode_decision,
    decode_message,
    encode,
    encode_decision,
    encode_message,
)
from callgate.loop._durable import JSON, ApprovalWait, Perform, StepKind

if TYPE_CHECKING:
    from dbos import DBOSClient

__all__ = ["DBOSAgent", "DBOSDurability", "notify_approval"]

_NAME = re.compile(r"[A-Za-z0-9_.-]{1,100}")


def _dbos() -> Any:
    return require("dbos", extra="dbos")


class DBOSDurability:
    """The loop's durable points inside a DBOS workflow."""

    def __init__(self, approval_wait: ApprovalWait | None = None) -> None:
        self._DBOS = _dbos().DBOS
        self._approval_wait = approval_wait if approval_wait is not None else ApprovalWait()

    def run_id(self) -> str | None:
        workflow_id: str | None = self._DBOS.workflow_id
        return workflow_id

    async def step(self, kind: StepKind, key: str, arg: JSON, perform: Perform) -> JSON:
        async def body() -> JSON:
            return await perform(arg)

        return await self._DBOS.run_step_async({"name": f"callgate.{kind}"}, body)

    async def wait(self, topic: str, seconds: float) -> bool:
        message = await self._DBOS.recv_async(topic, timeout_seconds=seconds)
        return message is not None

    @property
    def approval_wait(self) -> ApprovalWait | None:
        return self._approval_wait

    @property
    def clock(self) -> Callable[[], float] | None:
        return None


class DBOSAgent:
    """An `Agent` whose runs are DBOS workflows named `callgate.<name>`.

    Make it, with the same `name`, in every process that serves these runs and before
    `DBOS.launch()`: DBOS recovers a workflow by its name when it launches. The agent's
    gate should keep its store in a database every such process reaches (PostgreSQL, or a
    SQLite file on one machine); give the agent that store too (`Agent(store=...)`) to keep
    the run's state there as well (`callgate resume`, `DBOSAgent.resume`).
    """

    def __init__(
        self, agent: Agent, *, name: str, approval_wait: ApprovalWait | None = None
    ) -> None:
        if not _NAME.fullmatch(name):
            raise UserError(f"workflow name {name!r}: use 1-100 letters, digits, '_', '.', '-'")
        self.agent = agent
        self.name = name
        self.durable = DBOSDurability(approval_wait)
        self._DBOS = _dbos().DBOS

        async def run_agent(job: dict[str, Any]) -> dict[str, Any]:
            return await self._execute(job)

        self._workflow = self._DBOS.workflow(name=f"callgate.{name}")(run_agent)

    async def start(
        self,
        prompt: str | Sequence[Message],
        *,
        run_id: str | None = None,
        context: Context | None = None,
    ) -> DurableRun:
        """Start a run (a workflow with id `run_id`). Starting the same run id again joins
        the workflow already there instead of starting another."""
        run_id = run_id or f"run_{uuid.uuid4().hex[:16]}"
        job = {
            "kind": "run",
            "prompt": prompt if isinstance(prompt, str) else [encode_message(m) for m in prompt],
            "context": None if context is None else encode(context),
        }
        return await self._launch(run_id, job)

    async def run(
        self,
        prompt: str | Sequence[Message],
        *,
        run_id: str | None = None,
        context: Context | None = None,
    ) -> RunResult:
        """`start` and wait for the end of the run."""
        return await (await self.start(prompt, run_id=run_id, context=context)).result()

    async def resume(
        self, run_id: str, decisions: Mapping[str, ApprovalDecision] | None = None
    ) -> DurableRun:
        """Continue a run that paused (its approval wait ran out) or stopped at a limit, as a
        new workflow `<run id>:resume:<version>` from the state in the agent's store."""
        store = self.agent.store
        if store is None:
            raise UserError("DBOSAgent.resume needs the agent's store: Agent(..., store=...)")
        record = store.runs.load(run_id)
        if record is None:
            raise UserError(f"no saved run {run_id!r} in the store")
        job = {
            "kind": "resume",
            "state": record.state,
            "version": record.version,
            "decisions": {k: encode_decision(d) for k, d in (decisions or {}).items()},
        }
        return await self._launch(f"{run_id}:resume:{record.version}", job)

    def attach(self, workflow_id: str) -> DurableRun:
        """The run of an existing workflow (e.g. one DBOS recovered after a restart)."""

        async def wait() -> RunResult:
            handle = await self._DBOS.retrieve_workflow_async(workflow_id)
            return decode_outcome(await handle.get_result())

        return DurableRun(run_id=workflow_id, wait=wait)

    async def _launch(self, workflow_id: str, job: dict[str, Any]) -> DurableRun:
        with _dbos().SetWorkflowID(workflow_id):
            handle = await self._DBOS.start_workflow_async(self._workflow, job)

        async def wait() -> RunResult:
            return decode_outcome(await handle.get_result())

        return DurableRun(run_id=workflow_id, wait=wait)

    async def _execute(self, job: Mapping[str, Any]) -> dict[str, Any]:
        if job["kind"] == "run":
            raw = job["prompt"]
            prompt = raw if isinstance(raw, str) else [decode_message(m) for m in raw]
            context = None if job["context"] is None else decode_context(job["context"])
            return await outcome_of(self.agent.run(prompt, context=context, durable=self.durable))
        decisions = {k: decode_decision(v) for k, v in job["decisions"].items()}
        state = RunState.from_dict(job["state"])
        return await outcome_of(
            self.agent.resume(state, decisions, version=job["version"], durable=self.durable)
        )


async def notify_approval(
    run_id: str,
    approval_id: str,
    *,
    client: DBOSClient | None = None,
    system_database_url: str | None = None,
) -> int:
    """Wake the workflows of `run_id` that wait on `approval_id`; returns how many were told.

    Record the decision first, where decisions are recorded (`Gate.decide`, `callgate
    approvals approve`, an approval page): the message only wakes the workflow, which reads the
    decision from the store (a workflow that is not woken sees it at its next poll). Call it
    from a process where DBOS is launched, or from any other with a `DBOSClient` or the URL
    of DBOS's system database (`system_database_url`: a client made for this call).
    """
    if client is None and system_database_url is not None:
        made = _client(system_database_url)
        try:
            return await notify_approval(run_id, approval_id, client=made)
        finally:
            made.destroy()
    dbos = _dbos()
    api: Any = client if client is not None else dbos.DBOS
    # ENQUEUED: a workflow DBOS is recovering waits in its queue for an executor.
    live = {"status": ["PENDING", "ENQUEUED"], "load_input": False, "load_output": False}
    pending = [
        *await api.list_workflows_async(workflow_ids=[run_id], **live),
        *await api.list_workflows_async(workflow_id_prefix=f"{run_id}:resume:", **live),
    ]
    for workflow in pending:
        # On the approval id's topic; the message itself decides nothing.
        await api.send_async(workflow.workflow_id, {"approval_id": approval_id}, approval_id)
    return len(pending)


def _client(url: str) -> DBOSClient:
    """A client on DBOS's system database at `url`, which must exist: opening a SQLite file
    that is not there would create an empty one."""
    sqlalchemy = require("sqlalchemy", extra="dbos")
    try:
        parsed = sqlalchemy.engine.make_url(url)
    except sqlalchemy.exc.ArgumentError as exc:
        raise UserError(f"{url!r} is not a database URL") from exc
    path = parsed.database
    in_file = parsed.get_backend_name() == "sqlite" and path not in (None, "", ":memory:")
    if in_file and not Path(path).is_file():
        raise UserError(f"no DBOS system database at {path} (nothing was created)")
    # Fail at once on a database that is down: a decision is recorded either way.
    client: DBOSClient = _dbos().DBOSClient(system_database_url=url, retry_connection_errors=False)
    return client
