"""What a run hands back: the answer, the transcript, every call with its route, the cost."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from callgate._errors import CallgateError
from callgate.contract import ToolCall
from callgate.dialects import Message
from callgate.loop._state import CallRecord, RunState, Status
from callgate.models import Usage

__all__ = ["LimitExceeded", "ModelFailed", "PendingApproval", "RunError", "RunResult"]


@dataclass(frozen=True, kw_only=True, slots=True)
class PendingApproval:
    """A held call of a paused run, waiting for a human decision."""

    approval_id: str
    call: ToolCall
    reason: str | None
    """Why the gate held it (the rule, or the Rule of Two)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class RunResult:
    """The outcome of `Agent.run` (or of a resume)."""

    status: Status
    """`finished`, `paused` (see `pending`), `limited` (final answer at a limit) or `refused`."""
    answer: str | None
    """The model's final text (None while paused)."""
    state: RunState
    """The full state; `state.to_json()` is what a resume in another process needs."""
    pending: tuple[PendingApproval, ...] = ()

    @property
    def run_id(self) -> str:
        return self.state.run_id

    @property
    def transcript(self) -> tuple[Message, ...]:
        return self.state.messages

    @property
    def calls(self) -> tuple[CallRecord, ...]:
        """Every routed call, in order, with its route."""
        return self.state.records

    @property
    def usage(self) -> Usage:
        return self.state.spent.usage

    @property
    def cost(self) -> float:
        """Priced with `Limits.prices`; 0.0 when the model has no price."""
        return self.state.spent.cost

    @property
    def steps(self) -> int:
        return self.state.spent.steps

    @property
    def limit(self) -> str | None:
        return self.state.limit


class RunError(CallgateError):
    """A run stopped before an answer. Its state was saved and can be resumed."""

    def __init__(self, message: str, *, state: RunState) -> None:
        self.state = state
        self.run_id = state.run_id
        super().__init__(message)


class LimitExceeded(RunError):
    """A limit of the run was reached (`limit` names it: steps, tool_calls, wall_time,
    tokens, cost or circuit_breaker)."""

    def __init__(self, limit: str, detail: str, *, state: RunState) -> None:
        self.limit = limit
        self.detail = detail
        super().__init__(
            f"run {state.run_id} stopped: the {limit} limit was reached ({detail}); "
            "its state was saved and can be resumed with higher limits",
            state=state,
        )


class ModelFailed(RunError):
    """The model could not be reached or refused the request (after any retries)."""

    def __init__(self, cause: Any, *, state: RunState) -> None:
        super().__init__(
            f"run {state.run_id} stopped: the model call failed ({cause}); its "
            "state was saved and can be resumed",
            state=state,
        )
