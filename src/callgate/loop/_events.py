"""The events a run emits as it goes, for UIs: `async for event in agent.stream(...)`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from callgate.contract import Route, ToolCall, ToolResult
from callgate.models import Usage

if TYPE_CHECKING:
    from callgate.loop._result import RunResult

__all__ = [
    "ArgumentsStreamed",
    "CallProposed",
    "CallRouted",
    "Event",
    "FindingsReported",
    "ResultReady",
    "RunEnded",
    "StepFinished",
    "TextStreamed",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class TextStreamed:
    """A piece of the model's text, as it streams."""

    step: int
    text: str


@dataclass(frozen=True, kw_only=True, slots=True)
class CallProposed:
    """The model began (streaming) or finished (blocking) proposing a call."""

    step: int
    index: int
    """Position in the batch."""
    id: str
    name: str


@dataclass(frozen=True, kw_only=True, slots=True)
class ArgumentsStreamed:
    """A fragment of a proposed call's argument JSON, as it streams."""

    step: int
    index: int
    delta: str


@dataclass(frozen=True, kw_only=True, slots=True)
class CallRouted:
    """The gate decided the route of a call (before the result is shown to the model)."""

    step: int
    call: ToolCall
    route: Route


@dataclass(frozen=True, kw_only=True, slots=True)
class FindingsReported:
    """The scan of an untrusted tool's text found something (before `ResultReady` of the
    same call): what a UI raises to a person."""

    step: int
    call_id: str
    name: str
    findings: tuple[str, ...]
    """As on the result and in its receipt: `"S002 high at 120-161"`."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ResultReady:
    """The result that goes back to the model for one call."""

    step: int
    result: ToolResult


@dataclass(frozen=True, kw_only=True, slots=True)
class StepFinished:
    """A model turn and its batch are done."""

    step: int
    usage: Usage
    calls: int
    text: str | None


@dataclass(frozen=True, kw_only=True, slots=True)
class RunEnded:
    """The last event: the run finished, paused or stopped at a limit."""

    result: RunResult


Event = (
    TextStreamed
    | CallProposed
    | ArgumentsStreamed
    | CallRouted
    | FindingsReported
    | ResultReady
    | StepFinished
    | RunEnded
)
