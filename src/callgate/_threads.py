"""Worker threads that hand blocking work to and from an event loop in one step each way.

`loop.run_in_executor` on a `ThreadPoolExecutor` makes a `concurrent.futures.Future` (with
its condition and lock), a work item, and an asyncio future chained to it by callbacks, for
every call: on a sync tool or a store call that returns in microseconds, that bookkeeping
costs more than the work. Here the caller's loop gets a plain asyncio future, the worker
runs the function in a copy of the caller's context (as `asyncio.to_thread` does) and posts
the outcome back with one `call_soon_threadsafe`. Threads start on demand, up to `size`, as
a `ThreadPoolExecutor` starts them; `submit` serves code that wants an `Executor`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import contextvars
import functools
import queue
import threading
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
]


class Threads(concurrent.futures.Executor):
    """Up to `size` daemon threads named `{name}_{n}`, started when work finds none idle."""

    def __init__(self, size: int, *, name: str) -> None:
        self._size = size
        self._name = name
        self._queue: queue.SimpleQueue[_Work | None] = queue.SimpleQueue()
        self._idle = threading.Semaphore(0)
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._closed = False

    def start(
        self, loop: asyncio.AbstractEventLoop, fn: Callable[..., T], kwargs: Mapping[str, Any]
    ) -> asyncio.Future[T]:
        """`fn(**kwargs)` in a worker thread; its outcome is the returned future's (a
        future cancelled meanwhile is left as it is)."""
        future: asyncio.Future[T] = loop.create_future()
        self._put((loop, future, contextvars.copy_context(), fn, kwargs))
        return future

    def submit(
        self, fn: Callable[..., T], /, *args: Any, **kwargs: Any
    ) -> concurrent.futures.Future[T]:
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        call = functools.partial(fn, *args) if args else fn
        self._put((None, future, contextvars.copy_context(), call, kwargs))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._closed = True
            threads = list(self._threads)
        if cancel_futures:
            while True:
                try:
                    work = self._queue.get_nowait()
                except queue.Empty:
                    break
                if work is not None:
                    _cancel(work)
        for _ in threads:
            self._queue.put(None)
        if wait:
            for thread in threads:
                thread.join()

    def _put(self, work: _Work) -> None:
        if self._closed:
            raise RuntimeError("cannot schedule new work after shutdown")
        self._queue.put(work)
        if self._idle.acquire(timeout=0):
            return  # an idle thread takes it
        with self._lock:
            if len(self._threads) < self._size and not self._closed:
                thread = threading.Thread(
                    target=self._work, name=f"{self._name}_{len(self._threads)}", daemon=True
                )
                thread.start()
                self._threads.append(thread)

    def _work(self) -> None:
        while True:
            work = self._queue.get()
            if work is None:
                return
            _run(*work)
            del work  # the finished call's arguments and outcome are not kept alive here
            self._idle.release()


def _run(
    loop: asyncio.AbstractEventLoop | None,
    future: asyncio.Future[Any] | concurrent.futures.Future[Any],
    context: contextvars.Context,
    fn: Callable[..., Any],
    kwargs: Mapping[str, Any],
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
    if future.done():
        return  # given up while it waited (cancelled or past its deadline): never started
    failure: BaseException | None = None
    value = None
    try:
        value = context.run(fn, **kwargs)
    except BaseException as exc:
        failure = exc
    with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits for it any more
        loop.call_soon_threadsafe(_set, future, value, failure)


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
