"""Group commit on the gate's side: concurrent calls of one event loop share transactions.

While one batch is being written, the operations that arrive queue up; when it is done they
all go into the next batch, one transaction. So a lone call waits for nothing (its batch
starts at once, on the next turn of the loop, with whatever else became ready in the same
turn), and under load the number of commits, and of chain-head locks on PostgreSQL, falls
with the number of calls in flight instead of growing with it. No timer: waiting a few
hundred microseconds "for company" would only add latency to the lone call.

A caller's future resolves only after the batch committed, so a claim is durable before its
tool runs, exactly as with one transaction per call. When the batch as a whole fails (the
store is out of reach, the commit fails) every member gets that error and nothing of the
batch was written: each caller fails closed on its own path.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

from callgate.store import BatchResult, StoreError

__all__ = ["Batcher"]

Req = TypeVar("Req")
Res = TypeVar("Res")


class _Queue(Generic[Req, Res]):
    """The waiting members of one event loop, and whether a batch of theirs is running."""

    __slots__ = ("busy", "drainer", "pending")

    def __init__(self) -> None:
        self.pending: list[tuple[Req, asyncio.Future[Res]]] = []
        self.busy = False
        self.drainer: asyncio.Task[None] | None = None
        """Held so the running task is not garbage-collected."""


class Batcher(Generic[Req, Res]):
    """Collects requests and writes them with `write`, at most `max_size` in one batch.

    State is kept per event loop: a gate may serve several loops (the synchronous API has
    its own), and a future belongs to one.
    """

    def __init__(
        self, write: Callable[[Sequence[Req]], Awaitable[list[BatchResult[Res]]]], *, max_size: int
    ) -> None:
        self._write_batch = write
        self._max_size = max_size
        self._queues: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Queue[Req, Res]]
        self._queues = weakref.WeakKeyDictionary()

    async def submit(self, request: Req) -> Res:
        loop = asyncio.get_running_loop()
        queue = self._queues.get(loop)
        if queue is None:
            queue = self._queues[loop] = _Queue()
        future: asyncio.Future[Res] = loop.create_future()
        queue.pending.append((request, future))
        if not queue.busy:
            queue.busy = True
            queue.drainer = loop.create_task(self._drain(queue))
        return await future

    async def _drain(self, queue: _Queue[Req, Res]) -> None:
        try:
            while queue.pending:
                batch = queue.pending[: self._max_size]
                del queue.pending[: self._max_size]
                await self._write(batch)
        finally:
            queue.busy = False
            queue.drainer = None
            for _, future in queue.pending:  # only left over when the loop shuts down
                future.cancel()
            queue.pending.clear()

    async def _write(self, batch: list[tuple[Req, asyncio.Future[Res]]]) -> None:
        try:
            results = await self._write_batch([request for request, _ in batch])
        except Exception as exc:  # the whole batch failed: every member fails closed
            for _, future in batch:
                if not future.done():
                    future.set_exception(exc)
            return
        except BaseException:
            for _, future in batch:
                future.cancel()
            raise
        for (_, future), result in zip(batch, results, strict=True):
            if future.done():  # the caller stopped waiting; what was written stands
                continue
            if isinstance(result, StoreError):
                future.set_exception(result)
            else:
                future.set_result(result)
