"""Synchronous callers of the gate, served in their own thread without a hand-off.

Each call runs as a task of the calling thread's own event loop (kept for the life of the
gate), because an async tool needs one (asyncio.timeout, anyio and httpx look for it). The
loop runs here, in the caller's thread, until the call's task ends and stops it, so timers,
I/O and callbacks already waiting on the loop take their turn in the loop's own order, and a
tool sees a running loop with its async-generator hooks installed.
"""

from __future__ import annotations

import asyncio
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
        # (`run_until_complete` would turn once more to stop).
        leash = _Leash(loop)
        task = asyncio.Task(_finish(coro, leash), loop=loop)  # this loop has no task factory
        try:
            loop.run_forever()
        except BaseException:
            _give_up(loop, task, leash)
            coro.close()  # a call cancelled before its first step was never awaited
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
            # As `asyncio.run` ends: a generator a tool left unfinished runs its `finally`.
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()
    loops.clear()


class _Leash:
    """Stops the loop as its call ends; a call given up on stops nothing (a later call's
    run of this loop is not its to end)."""

    __slots__ = ("loop",)

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop: asyncio.AbstractEventLoop | None = loop

    def stop(self) -> None:
        if self.loop is not None:
            self.loop.stop()


def _give_up(loop: asyncio.AbstractEventLoop, task: asyncio.Task[Any], leash: _Leash) -> None:
    """A call interrupted mid-run (Ctrl-C in `run_forever`) is cancelled and run to its end
    now, as `asyncio.run` does, so that nothing of it is left in this thread's loop to run
    during the next call. A task cancelled before its first step never enters `_finish`, so
    its end, not the leash, stops the loop."""
    leash.loop = None
    if not task.done():
        task.cancel()
        # Interrupted again, the call ends during a later call, whose run is not its to stop.
        ending = _Leash(loop)
        task.add_done_callback(lambda _: ending.stop())
        try:
            loop.run_forever()  # until the cancelled call ends
        finally:
            ending.loop = None
    if task.done() and not task.cancelled():
        task.exception()  # retrieved: the interruption is what the caller sees


async def _finish(coro: Coroutine[Any, Any, T], leash: _Leash) -> T:
    try:
        return await coro
    finally:
        leash.stop()
