"""The loop's durable points: where a durable-execution engine (DBOS, Temporal) takes over.

The loop touches the world in four kinds of steps: it asks the model (`model_turn`), routes
a call through the gate (`tool_call`), reads whether held calls were decided (`approvals`)
and saves its state (`save`); a person's decision is recorded by a fifth (`decide`). Every
step is a JSON argument in and a JSON answer out, performed by `perform` (the same code
wherever it runs), so an engine can checkpoint the answer, or carry the argument to another
process, and hand the answer back when a run is replayed after a crash instead of doing the
step again.

`Durability` is what the loop asks: run this step, wait for a message on this topic, which
run is this. `InProcess` is the plain loop: steps run right here, nothing waits (a held call
pauses the run), and the run id is the loop's own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

__all__ = ["JSON", "STEP_KINDS", "ApprovalWait", "Durability", "InProcess", "Perform", "StepKind"]

JSON = Any
"""A value of JSON: what a step takes and gives back."""

StepKind = Literal["model_turn", "tool_call", "approvals", "save", "decide"]
STEP_KINDS: tuple[StepKind, ...] = ("model_turn", "tool_call", "approvals", "save", "decide")
"""The stable names of the loop's steps (an engine names its steps or activities after them)."""

Perform = Callable[[JSON], Awaitable[JSON]]
"""Does one step in this process: its argument in, its answer out."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ApprovalWait:
    """How a run waits for decisions on its held calls instead of pausing.

    The run waits for a message on the first held call's approval id; whenever one arrives,
    and at each poll, it reads the store for decisions, so a decision recorded by a process
    that sent nothing (`callgate approvals approve`) is seen within the poll interval. The
    interval starts at `first` seconds and doubles up to `longest`. After `total` seconds of
    waiting the run pauses as the plain loop does.
    """

    total: float = 24 * 3600.0
    first: float = 1.0
    longest: float = 60.0

    def __post_init__(self) -> None:
        if not (0 < self.first <= self.longest) or self.total < 0:
            raise ValueError("ApprovalWait needs 0 < first <= longest and total >= 0")


class Durability(Protocol):
    """The durable points of a run: its steps, its waits, its id and its clock."""

    def run_id(self) -> str | None:
        """The engine's id of the run being executed (a workflow id), or None."""
        ...

    async def step(self, kind: StepKind, key: str, arg: JSON, perform: Perform) -> JSON:
        """Run one step exactly as `perform(arg)` would and give back its answer; an engine
        records it and gives the recorded answer back on replay. `key` names the step
        within the run (a tool call's key is its idempotency request id)."""
        ...

    async def wait(self, topic: str, seconds: float) -> bool:
        """Wait up to `seconds` for a message sent to this run on `topic`; True if
        one came. Only called when `approval_wait` is set."""
        ...

    @property
    def approval_wait(self) -> ApprovalWait | None:
        """How long held calls wait for a decision; None: the run pauses at once."""
        ...

    @property
    def clock(self) -> Callable[[], float] | None:
        """The run's clock when the engine replays time (Temporal); None: the agent's."""
        ...


class InProcess:
    """The plain loop: every step runs here and now, a held call pauses the run."""

    def run_id(self) -> str | None:
        return None

    async def step(self, kind: StepKind, key: str, arg: JSON, perform: Perform) -> JSON:
        return await perform(arg)

    async def wait(self, topic: str, seconds: float) -> bool:
        return False

    @property
    def approval_wait(self) -> ApprovalWait | None:
        return None

    @property
    def clock(self) -> Callable[[], float] | None:
        return None
