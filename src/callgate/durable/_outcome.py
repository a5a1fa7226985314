"""A run's outcome as JSON, so an engine can hand it from the workflow to whoever waits.

`Agent.run` returns a `RunResult` or raises `LimitExceeded` / `ModelFailed` with the saved
state; a workflow returns `encode_outcome(...)` of either, and `decode_outcome` gives the
caller the very same result, or raises the very same error.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from callgate._errors import UserError
from callgate.loop import LimitExceeded, ModelFailed, PendingApproval, RunError, RunResult, RunState
from callgate.loop._codec import decode_call, encode

__all__ = ["DurableRun", "decode_outcome", "encode_outcome", "outcome_of"]


@dataclass(frozen=True, kw_only=True, slots=True)
class DurableRun:
    """A run started on an engine: its id (the workflow id) and how to wait for its end."""

    run_id: str
    wait: Callable[[], Awaitable[RunResult]]
    """Waits for the run's end: the `RunResult`, or raises `LimitExceeded` / `ModelFailed`."""

    async def result(self) -> RunResult:
        return await self.wait()


async def outcome_of(run: Awaitable[RunResult]) -> dict[str, Any]:
    """Await a run of the loop and encode how it ended (an answer, a pause, or a stop)."""
    try:
        return encode_outcome(await run)
    except RunError as exc:
        return encode_outcome(exc)


def encode_outcome(outcome: RunResult | RunError) -> dict[str, Any]:
    if isinstance(outcome, RunResult):
        return {
            "result": {
                "status": outcome.status,
                "answer": outcome.answer,
                "pending": [encode(p) for p in outcome.pending],
            },
            "state": outcome.state.to_dict(),
        }
    error: dict[str, Any]
    if isinstance(outcome, LimitExceeded):
        error = {"kind": "limit", "limit": outcome.limit, "detail": outcome.detail}
    else:
        error = {"kind": "model"}
    return {"error": error, "state": outcome.state.to_dict()}


def decode_outcome(data: Any) -> RunResult:
    """The `RunResult` a workflow returned, or raise the error it stopped with."""
    if not isinstance(data, Mapping) or "state" not in data:
        raise UserError("a run's outcome must be an object with its state")
    state = RunState.from_dict(data["state"])
    error = data.get("error")
    if error is not None:
        if error.get("kind") == "limit":
            raise LimitExceeded(error["limit"], error["detail"], state=state)
        # The loop wrote the model's error into the state's detail.
        cause = (state.detail or "").removeprefix("model call failed: ")
        raise ModelFailed(cause or "the model adapter returned no turn", state=state)
    result = data["result"]
    pending = tuple(
        PendingApproval(
            approval_id=p["approval_id"], call=decode_call(p["call"]), reason=p.get("reason")
        )
        for p in result["pending"]
    )
    return RunResult(status=result["status"], answer=result["answer"], state=state, pending=pending)
