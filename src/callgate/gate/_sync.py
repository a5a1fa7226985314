"""Synchronous callers of the gate, served in their own thread without a hand-off.

A call whose path never suspends (an `invalid` or `denied` call, a held call's answer)
completes in one step of its coroutine. So the coroutine is stepped right in the caller's
thread, with this thread's event loop installed as the running loop for that step; only when
it suspends (a sync tool's worker thread, a store round trip, an async tool, which always
runs inside a task because asyncio.timeout, anyio and httpx need one) does the loop
actually run, here in the same thread, until the call is done. Each calling
thread has an event loop of its own, kept for the life of the gate.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Coroutine
from typing import Any, TypeVar

from callgate._errors import UserError
from callgate.gate._bounded import Continue

__all__ = ["SyncRunner"]

T = TypeVar("T")


class SyncRunner:
    def __init__(self) -> None:
        self._local = threading.local()
        self._loops: list[asyncio.AbstractEventLoop] = []
        self._lock = threading.Lock()
        # A gate dropped without `close()` still closes its loops.
        weakref.finalize(self, _close_loops, self._loops)

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        if asyncio._get_running_loop() is not None:
            coro.close()
            raise UserError(
                "the synchronous API was called inside a running event loop; use "
                "`await gate.run_batch(...)` / `await gate.call(...)` there"
            )
        loop = self._loop()
        # The first step runs as if on `loop` (futures and tasks made now belong to it);
        # the loop itself runs only if the coroutine suspends.
        asyncio._set_running_loop(loop)
        try:
            pending = coro.send(None)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
        finally:
            asyncio._set_running_loop(None)
        # The rest runs as a task that stops the loop itself as it ends, so the loop turns no
        # more than the call needs (`run_until_complete` would turn once more to stop).
        leash = _Leash(loop)
        task = loop.create_task(_finish(coro, pending, leash))
        try:
            loop.run_forever()
        except BaseException:
            _give_up(task, leash)
            raise
        return task.result()

    def close(self) -> None:
        with self._lock:
            _close_loops(self._loops)

    def _loop(self) -> asyncio.AbstractEventLoop:
        loop: asyncio.AbstractEventLoop | None = getattr(self._local, "loop", None)
        if loop is None or loop.is_closed():
            loop = asyncio.new_event_loop()
            self._local.loop = loop
            with self._lock:
                self._loops.append(loop)
        return loop


def _close_loops(loops: list[asyncio.AbstractEventLoop]) -> None:
    for loop in loops:
        if not loop.is_running() and not loop.is_closed():
            loop.close()
    loops.clear()


class _Leash:
    """Stops the loop as its call ends; a call given up on stops nothing (a later call's
    run of this loop is not its to end)."""

    __slots__ = ("loop",)

    def __init__(self, loop: asyncio.AbstractEventLoop | None) -> None:
        self.loop = loop

    def stop(self) -> None:
        if self.loop is not None:
            self.loop.stop()


def _give_up(task: asyncio.Task[Any], leash: _Leash) -> None:
    """A call interrupted mid-run (Ctrl-C in `run_forever`) is cancelled and run to its end
    now, as `asyncio.run` does, so that nothing of it is left in this thread's loop to run
    during the next call."""
    try:
        if not task.done():
            task.cancel()
            assert leash.loop is not None
            leash.loop.run_forever()  # until the cancelled call ends and stops it
    finally:
        leash.loop = None
    if task.done() and not task.cancelled():
        task.exception()  # retrieved: the interruption is what the caller sees


async def _finish(coro: Coroutine[Any, Any, T], pending: Any, leash: _Leash) -> T:
    try:
        if pending is None:
            # A bare yield (`asyncio.sleep(0)`: "let the loop turn once", the gate's way into
            # a task): this task's first step already is a turn of the loop.
            try:
                pending = coro.send(None)
            except StopIteration as done:
                return done.value  # type: ignore[no-any-return]
        return await Continue(coro, pending)  # type: ignore[no-any-return]
    finally:
        leash.stop()
