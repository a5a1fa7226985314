"""One stretch of a run in this process: its state, its clock, its events and its saves."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from callgate.loop._budget import Spent
from callgate.loop._events import Event
from callgate.loop._state import FORMAT, RunState, Status
from callgate.store import AsyncStore

__all__ = ["Emit", "Session"]

Emit = Callable[[Event], Awaitable[None]]


class Session:
    """Holds the current `RunState` (replaced, never mutated) while the loop works on it."""

    def __init__(
        self,
        state: RunState,
        *,
        emit: Emit,
        clock: Callable[[], float],
        store: AsyncStore | None,
        version: int | None,
    ) -> None:
        self.state = state
        self.emit = emit
        self._clock = clock
        self._started = clock()
        self._store = store
        self._version = version

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
        if self._store is not None:
            record = await self._store.run(
                self._store.store.runs.save,
                self.state.run_id,
                self.state.to_dict(),
                expected_version=self._version,
                status=status,
                state_format=FORMAT,
            )
            self._version = record.version
        return self.state
