"""The agent loop: describe -> decide -> execute -> observe, with limits, pause and resume."""

from callgate.contract import ApprovalDecision, Approve, Decline, Edit
from callgate.loop._approval import Approver, BatchApprover, HeldCall
from callgate.loop._breaker import Breaker
from callgate.loop._budget import LimitName, Limits, Price, Spent
from callgate.loop._events import (
    ArgumentsStreamed,
    CallProposed,
    CallRouted,
    Event,
    FindingsReported,
    ResultReady,
    RunEnded,
    StepFinished,
    TextStreamed,
)
from callgate.loop._result import (
    LimitExceeded,
    ModelFailed,
    PendingApproval,
    RunError,
    RunResult,
)
from callgate.loop._run import Agent
from callgate.loop._state import FORMAT, CallRecord, PendingBatch, RunState, Status

__all__ = [
    "FORMAT",
    "Agent",
    "ApprovalDecision",
    "Approve",
    "Approver",
    "ArgumentsStreamed",
    "BatchApprover",
    "Breaker",
    "CallProposed",
    "CallRecord",
    "CallRouted",
    "Decline",
    "Edit",
    "Event",
    "FindingsReported",
    "HeldCall",
    "LimitExceeded",
    "LimitName",
    "Limits",
    "ModelFailed",
    "PendingApproval",
    "PendingBatch",
    "Price",
    "ResultReady",
    "RunEnded",
    "RunError",
    "RunResult",
    "RunState",
    "Spent",
    "Status",
    "StepFinished",
    "TextStreamed",
]
