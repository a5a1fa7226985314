"""The `callgate.agent` workflow: the loop of one run, its steps activities (`_temporal`).

Imported only by a worker (`TemporalAgent.worker`): it needs temporalio at import, and
Temporal wants workflow classes at module level.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from temporalio import workflow

from callgate._errors import UserError
from callgate.durable._outcome import outcome_of
from callgate.durable._temporal import _AGENTS, DECIDE, NOTIFY, WORKFLOW, TemporalDurability
from callgate.loop._codec import decode_context, decode_decision, decode_message

__all__ = ["AgentWorkflow"]


@workflow.defn(name=WORKFLOW, sandboxed=False)
class AgentWorkflow:
    """One run of a `TemporalAgent` registered in this worker under the job's name."""

    @workflow.init
    def __init__(self, job: dict[str, Any]) -> None:
        agent = _AGENTS.get(job["agent"])
        if agent is None:
            # A workflow task failure, retried: a worker that has this agent takes it.
            raise RuntimeError(f"no agent {job['agent']!r} in this worker")
        self.agent = agent
        self.durable = TemporalDurability(agent)

    @workflow.run
    async def run(self, job: dict[str, Any]) -> dict[str, Any]:
        raw = job["prompt"]
        prompt = raw if isinstance(raw, str) else [decode_message(m) for m in raw]
        context = None if job["context"] is None else decode_context(job["context"])
        return await outcome_of(self.agent.agent.run(prompt, context=context, durable=self.durable))

    @workflow.update(name=DECIDE)
    async def decide(self, arg: dict[str, Any]) -> str:
        answer = await workflow.execute_activity(
            self.agent.activity_name("decide"),
            arg,
            start_to_close_timeout=timedelta(seconds=self.agent.step_timeout),
        )
        self.durable.woken.add(arg["approval_id"])
        return str(answer["state"])

    @decide.validator
    def check_decision(self, arg: dict[str, Any]) -> None:
        # Refused before it enters the history: the caller gets the reason.
        if not isinstance(arg, Mapping) or not isinstance(arg.get("approval_id"), str):
            raise UserError("a decision names its approval_id")
        decode_decision(arg.get("decision"))

    @workflow.signal(name=NOTIFY)
    def notify(self, approval_id: str) -> None:
        if isinstance(approval_id, str):
            self.durable.woken.add(approval_id)
