"""Run an executor within a deadline, paying for the timer only when the call suspends.

Arming `asyncio.timeout` costs more than a trivial tool does. An async tool that
completes without ever suspending cannot be interrupted by any asyncio timeout anyway,
so the coroutine takes its first step directly; only when it suspends is the deadline
armed and the rest of the coroutine awaited under it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Generator, Mapping
from typing import Any

from callgate._threads import Threads

__all__ = ["Continue", "Expired", "finish_async", "in_task", "run_in_thread"]


class Expired(Exception):
    """The gate's deadline passed (as opposed to a TimeoutError raised by the tool)."""


async def finish_async(coro: Coroutine[Any, Any, Any], pending: Any, seconds: float) -> Any:
    """The rest of an async executor whose first step suspended (yielding `pending`), under
    the deadline of what is left of `seconds`."""
    return await _deadline(Continue(coro, pending), seconds)


async def run_in_thread(
    executor: Any, kwargs: Mapping[str, Any], seconds: float, threads: Threads
) -> Any:
    """A sync executor in a worker thread. One that overruns keeps its thread until it
    returns (Python cannot stop a thread): the gate stops waiting and reports the timeout.
    The thread runs in a copy of the caller's context, as `asyncio.to_thread` does, so a
    span or a contextvar the tool reads is the call's. The deadline is a timer on the
    thread's future, not `asyncio.timeout`: waiting on a future needs no task. The worker
    checks the deadline too, as the timer may fire late on a busy loop: a call no thread
    took in time never starts."""
    loop = asyncio.get_running_loop()
    work = threads.start(loop, executor, kwargs, seconds)
    timer = loop.call_later(max(seconds, 0.0), _expire, work)
    try:
        return await work
    finally:
        timer.cancel()


def _expire(work: asyncio.Future[Any]) -> None:
    if not work.done():
        work.set_exception(Expired())


async def _deadline(awaitable: Any, seconds: float) -> Any:
    await in_task()
    try:
        async with asyncio.timeout(max(seconds, 0.0)) as deadline:
            return await awaitable
    except TimeoutError:
        if deadline.expired():
            raise Expired() from None
        raise


class Continue:
    """Awaits the rest of a coroutine whose first step has already run."""

    __slots__ = ("_coro", "_pending")

    def __init__(self, coro: Coroutine[Any, Any, Any], pending: Any) -> None:
        self._coro = coro
        self._pending = pending

    def __await__(self) -> Generator[Any, Any, Any]:
        coro, pending = self._coro, self._pending
        while True:
            try:
                sent = yield pending
            except BaseException as exc:  # cancellation and timeouts go into the tool
                try:
                    pending = coro.throw(exc)
                except StopIteration as done:
                    return done.value
            else:
                try:
                    pending = coro.send(sent)
                except StopIteration as done:
                    return done.value


async def in_task() -> None:
    """Make sure the code after this runs inside a task (`asyncio.timeout` needs one): a gate
    call stepped outside any task (by hand) runs there until it suspends."""
    if asyncio.current_task() is None:
        await asyncio.sleep(0)
