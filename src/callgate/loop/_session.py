"""One stretch of a run in this process: its state, its clock, its events and its saves."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from callgate.loop._budget import Spent
from callgate.loop._durable import Durability, InProcess, Perform, StepKind
from callgate.loop._events import Event
from callgate.loop._perform import Effects, perform, save_arg
from callgate.loop._state import RunState, Status

__all__ = ["Emit", "Session"]

Emit = Callable[[Event], Awaitable[None]]


class Session:
    """Holds the current `RunState` (replaced, never mutated) while the loop works on it,
    and the durable points it runs under (`InProcess`: the plain loop)."""

    def __init__(
        self,
        state: RunState,
        *,
        emit: Emit,
        clock: Callable[[], float],
        effects: Effects,
        version: int | None,
        durable: Durability | None = None,
    ) -> None:
        self.state = state
        self.emit = emit
        self.durable: Durability = durable or InProcess()
        self._clock = self.durable.clock or clock
        self._started = self._clock()
        self.effects = effects
        self._version = version

    def perform(self, kind: StepKind, effects: Effects | None = None) -> Perform:
        """The in-process performer of one kind of step, for `Durability.step`."""
        on = effects or self.effects
        return lambda arg: perform(on, kind, arg)

    def update(self, **changes: Any) -> RunState:
        self.state = replace(self.state, **changes)
        return self.state

    def elapsed(self) -> float:
        """Running time of the whole run: earlier stretches plus this one."""
        return self.state.spent.elapsed + (self._clock() - self._started)

    async def save(self, status: Status) -> RunState:
        """Fold the running time into the state, set `status`, and store it (if a store)."""
        now = self._clock()
        spent: Spent = replace(
            self.state.spent, elapsed=self.state.spent.elapsed + (now - self._started)
        )
        self._started = now
        self.update(status=status, spent=spent)
        if self.effects.store is not None:
            arg = save_arg(
                self.state.run_id,
                self.state.to_dict(),
                expected_version=self._version,
                status=status,
            )
            key = f"{self.state.run_id}/save/{(self._version or 0) + 1}"
            answer = await self.durable.step("save", key, arg, self.perform("save"))
            self._version = int(answer["version"])
        return self.state
