"""Synchronous callers of the gate, served in their own thread without a hand-off.

Each call runs as a task of the calling thread's own event loop (kept for the life of the
gate), because an async tool needs one (asyncio.timeout, anyio and httpx look for it). Most
calls end in the task's first step: an async tool that never suspends, an inline tool, an
`invalid` or `denied` call, a held call's answer. That step is run directly, with the loop
installed as the running loop, and the loop itself turns only for a call that suspends (a
sync tool's worker thread, a store round trip, a tool that waits), here in the same thread,
until the call is done.
"""

from __future__ import annotations

import asyncio
import collections
import threading
import weakref
from collections.abc import Coroutine
from typing import Any, TypeVar

from callgate._errors import UserError

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
        loop: asyncio.AbstractEventLoop | None = getattr(self._local, "loop", None)
        if loop is None or loop.is_closed():
            loop = self._new_loop()
        # The call runs as a task (asyncio.timeout, anyio and so httpx need one) that stops
        # the loop itself as it ends, so the loop turns no more than the call needs
        # (`run_until_complete` would turn once more to stop); a call that does not suspend
        # ends in the task's first step, which runs without a turn of the loop.
        leash = _Leash()
        task = asyncio.Task(_finish(coro, leash), loop=loop)  # this loop has no task factory
        try:
            if not _step_alone(loop, task):
                leash.loop = loop
                loop.run_forever()
        except BaseException:
            _give_up(loop, task, leash)
            raise
        return task.result()

    def close(self) -> None:
        with self._lock:
            _close_loops(self._loops)

    def _new_loop(self) -> asyncio.AbstractEventLoop:
        """This thread's loop, kept for the life of the gate."""
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
    """Stops the loop as its call ends, while the loop runs for that call (`loop` is set
    only then); a call given up on stops nothing (a later call's run of this loop is not its
    to end)."""

    __slots__ = ("loop",)

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None

    def stop(self) -> None:
        if self.loop is not None:
            self.loop.stop()


def _step_alone(loop: asyncio.AbstractEventLoop, task: asyncio.Task[Any]) -> bool:
    """Run the new task's first step without turning the loop, when nothing else is waiting
    to run before it; True if that finished the call. Most calls end in that step (one that
    waits for no thread, store or network), and one turn of the loop (its setup, a poll of
    the selector) costs more than the whole call. Anything else ready, or a loop that keeps
    no such queue, gets the loop's own turn, in its order."""
    ready = getattr(loop, "_ready", None)
    if not isinstance(ready, collections.deque) or len(ready) != 1:
        return False
    handle = ready.popleft()  # the task's step, just scheduled by create_task
    asyncio._set_running_loop(loop)
    try:
        handle._run()
    finally:
        asyncio._set_running_loop(None)
    return task.done()


def _give_up(loop: asyncio.AbstractEventLoop, task: asyncio.Task[Any], leash: _Leash) -> None:
    """A call interrupted mid-run (Ctrl-C in `run_forever`) is cancelled and run to its end
    now, as `asyncio.run` does, so that nothing of it is left in this thread's loop to run
    during the next call."""
    try:
        if not task.done():
            task.cancel()
            leash.loop = loop
            loop.run_forever()  # until the cancelled call ends and stops it
    finally:
        leash.loop = None
    if task.done() and not task.cancelled():
        task.exception()  # retrieved: the interruption is what the caller sees


async def _finish(coro: Coroutine[Any, Any, T], leash: _Leash) -> T:
    try:
        return await coro
    finally:
        leash.stop()
