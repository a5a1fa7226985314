"""Worker threads that hand blocking work to and from an event loop in one step each way.

`loop.run_in_executor` on a `ThreadPoolExecutor` makes a `concurrent.futures.Future` (with
its condition and lock), a work item, and an asyncio future chained to it by callbacks, for
every call: on a sync tool or a store call that returns in microseconds, that bookkeeping
costs more than the work. Here the caller's loop gets a plain asyncio future, the worker
runs the function in a copy of the caller's context (as `asyncio.to_thread` does) and posts
the outcome back with one `call_soon_threadsafe`. Threads start on demand, up to `size`, as
a `ThreadPoolExecutor` starts them; `submit` serves code that wants an `Executor`.

As with a `ThreadPoolExecutor`, the workers hold no reference to their `Threads` (idle ones
exit once it is collected), and at interpreter exit they finish what they hold and are
joined: a tool that started is never cut off half-way.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import contextvars
import functools
import math
import queue
import threading
import time
import weakref
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

__all__ = ["Threads"]

T = TypeVar("T")

_Work = tuple[
    "asyncio.AbstractEventLoop | None",
    "asyncio.Future[Any] | concurrent.futures.Future[Any]",
    contextvars.Context,
    Callable[..., Any],
    Mapping[str, Any],
    float,  # the `time.monotonic()` past which the work is not started
]
_Queue = queue.SimpleQueue[_Work | None]

# Every live `Threads` and every worker thread, for the exit hook. Workers are daemon threads
# (an idle one must not hold up exit) that the hook joins, as `concurrent.futures` joins its own.
_pools: weakref.WeakSet[Threads] = weakref.WeakSet()
_workers: weakref.WeakSet[threading.Thread] = weakref.WeakSet()
_exiting = False


class Threads(concurrent.futures.Executor):
    """Up to `size` daemon threads named `{name}_{n}`, started when work finds none idle."""

    def __init__(self, size: int, *, name: str) -> None:
        self._size = size
        self._name = name
        self._queue: _Queue = queue.SimpleQueue()
        self._idle = threading.Semaphore(0)
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._closed = False
        # Dropped without `shutdown`, it still lets its idle workers go.
        self._finalizer = weakref.finalize(self, _stop, self._queue, self._threads)
        self._finalizer.atexit = False  # the exit hook joins them instead
        _pools.add(self)

    def start(
        self,
        loop: asyncio.AbstractEventLoop,
        fn: Callable[..., T],
        kwargs: Mapping[str, Any],
        seconds: float = math.inf,
    ) -> asyncio.Future[T]:
        """`fn(**kwargs)` in a worker thread; its outcome is the returned future's (a
        future cancelled meanwhile is left as it is). Work that no worker took within
        `seconds` never starts, and its future is left to the caller's own deadline."""
        future: asyncio.Future[T] = loop.create_future()
        deadline = time.monotonic() + seconds
        self._put((loop, future, contextvars.copy_context(), fn, kwargs, deadline))
        return future

    def submit(
        self, fn: Callable[..., T], /, *args: Any, **kwargs: Any
    ) -> concurrent.futures.Future[T]:
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        call = functools.partial(fn, *args) if args else fn
        self._put((None, future, contextvars.copy_context(), call, kwargs, math.inf))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._closed = True
            threads = list(self._threads)
        self._finalizer.detach()
        if cancel_futures:
            while True:
                try:
                    work = self._queue.get_nowait()
                except queue.Empty:
                    break
                if work is not None:
                    _cancel(work)
        _stop(self._queue, threads)
        if wait:
            for thread in threads:
                thread.join()

    def _put(self, work: _Work) -> None:
        # Under the lock that `shutdown` closes with: work is either queued ahead of the
        # workers' stop marks (and runs, or is cancelled by `cancel_futures`) or refused.
        with self._lock:
            if self._closed or _exiting:
                raise RuntimeError("cannot schedule new work after shutdown")
            self._queue.put(work)
            if self._idle.acquire(blocking=False):
                return  # an idle thread takes it
            if len(self._threads) < self._size:
                thread = threading.Thread(
                    target=_work,
                    args=(self._queue, self._idle),
                    name=f"{self._name}_{len(self._threads)}",
                    daemon=True,
                )
                thread.start()
                self._threads.append(thread)
                _workers.add(thread)


def _work(work_queue: _Queue, idle: threading.Semaphore) -> None:
    while True:
        work = work_queue.get()
        if work is None:
            return
        _run(*work)
        del work  # the finished call's arguments and outcome are not kept alive here
        idle.release()


def _stop(work_queue: _Queue, threads: list[threading.Thread]) -> None:
    """One stop mark per worker, behind the work already queued."""
    for _ in threads:
        work_queue.put(None)


@atexit.register
def _join_at_exit() -> None:
    global _exiting
    _exiting = True
    for pool in list(_pools):
        pool.shutdown(wait=False)
    for thread in list(_workers):
        thread.join()


def _run(
    loop: asyncio.AbstractEventLoop | None,
    future: asyncio.Future[Any] | concurrent.futures.Future[Any],
    context: contextvars.Context,
    fn: Callable[..., Any],
    kwargs: Mapping[str, Any],
    deadline: float,
) -> None:
    if loop is None:
        assert isinstance(future, concurrent.futures.Future)
        if not future.set_running_or_notify_cancel():
            return
        try:
            future.set_result(context.run(fn, **kwargs))
        except BaseException as exc:
            future.set_exception(exc)
        return
    assert isinstance(future, asyncio.Future)
    if future.done() or time.monotonic() >= deadline:
        return  # given up while it waited (cancelled or past its deadline): never started
    failure: BaseException | None = None
    value = None
    try:
        value = context.run(fn, **kwargs)
    except StopIteration as exc:
        # A future cannot hold a StopIteration (it would end the coroutine awaiting it);
        # as PEP 479 does for generators, it becomes a RuntimeError.
        failure = RuntimeError(f"{_name(fn)} raised StopIteration")
        failure.__cause__ = exc
    except BaseException as exc:
        failure = exc
    with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits for it any more
        loop.call_soon_threadsafe(_set, future, value, failure)


def _name(fn: Callable[..., Any]) -> str:
    return getattr(fn, "__qualname__", None) or repr(fn)


def _set(future: asyncio.Future[Any], value: Any, exc: BaseException | None) -> None:
    if future.done():
        return  # cancelled, or past its deadline
    if exc is None:
        future.set_result(value)
    else:
        future.set_exception(exc)


def _cancel(work: _Work) -> None:
    loop, future = work[0], work[1]
    if loop is None:
        future.cancel()
        return
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(future.cancel)
