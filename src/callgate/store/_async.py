"""`AsyncStore`: the one way async code reaches a (synchronous) store.

No store call blocks the event loop. A PostgreSQL call (a network round trip) runs in the
store's worker threads. A SQLite call is first tried right on the loop's thread with a
connection that never waits — it takes microseconds, less than a thread hand-off — and
goes to the store's thread (where it may wait the busy timeout for another process's write
lock) only when it would have had to wait.

The two writes of a call, `claim` and `settle`, are group-committed: while one batch is
being written the requests that arrive queue up, and when it is done they all go into the
next batch, one transaction. So a lone call waits for nothing (its batch starts at once,
with whatever else became ready in the same turn of the loop), and under load the number of
commits, and of chain-head locks on PostgreSQL, falls with the number of calls in flight
instead of growing with it. No timer: waiting "for company" would only delay the lone call.

A caller's future resolves only after its batch committed, so a claim is durable before
its tool runs, exactly as with one transaction per call. When a batch as a whole fails (the
store is out of reach, the commit fails) every member gets that error and nothing of the
batch was written: each caller fails closed on its own path.
"""

from __future__ import annotations

import asyncio
import functools
import weakref
from collections.abc import Callable, Sequence
from typing import Any, Generic, ParamSpec, TypeVar

from callgate._threads import Threads
from callgate.store._errors import StoreError
from callgate.store._protocol import Store
from callgate.store._records import Claim, ClaimRequest, Settle, Settled
from callgate.store._sqlite import SQLiteStore, WouldWait

__all__ = ["MAX_BATCH", "AsyncStore"]

P = ParamSpec("P")
T = TypeVar("T")
Req = TypeVar("Req")
Res = TypeVar("Res")

MAX_BATCH = 64
"""Members of one group commit at most."""


class AsyncStore:
    """Async access to `store`: `claim` and `settle` group-committed, everything else with
    `await facade.run(store.approvals.get, approval_id)`."""

    def __init__(self, store: Store, *, threads: int | None = None) -> None:
        self.store = store
        self._sqlite = store if isinstance(store, SQLiteStore) else None
        workers = threads or (1 if self._sqlite is not None else 8)
        self._threads = Threads(workers, name="callgate-store")
        self._claims: _Batcher[ClaimRequest, Claim] = _Batcher(
            self._claim_batch, self._now("claim")
        )
        self._settles: _Batcher[Settle, Settled] = _Batcher(self._settle_batch, self._now("settle"))

    async def run(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """Run one store method and wait for it, never blocking the
        event loop: on SQLite it is tried right here first and goes to the store's thread
        only if it would have to wait (`SQLiteStore.now`)."""
        if self._sqlite is not None:
            try:
                return self._sqlite.now(fn, *args, **kwargs)
            except WouldWait:
                pass
        return await self._in_thread(fn, *args, **kwargs)

    async def _in_thread(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        # Threads as sync tools get them: one hand-off each way, and a call whose caller
        # gave up before a thread took it is never started.
        return await self._threads.start(
            asyncio.get_running_loop(), functools.partial(fn, *args), kwargs
        )

    async def claim(self, request: ClaimRequest) -> Claim:
        """`Store.claim` of one request, batched with the other calls' claims; raises the
        member's own `StoreError`."""
        return await self._claims.submit(request)

    async def settle(self, request: Settle) -> Settled:
        """`Store.settle` of one call, batched with the other calls' settles."""
        return await self._settles.submit(request)

    def close(self) -> None:
        """Stop the worker threads (the store itself stays open: its owner closes it)."""
        self._threads.shutdown(wait=True)

    async def _claim_batch(self, requests: Sequence[ClaimRequest]) -> list[Claim | StoreError]:
        # On SQLite a batch of claims is one transaction, so it can be tried right here.
        return await self.run(self.store.claim, requests)

    async def _settle_batch(self, requests: Sequence[Settle]) -> list[Settled | StoreError]:
        return await self.run(self.store.settle, requests)

    def _now(self, method: str) -> Callable[[Sequence[Any]], Any] | None:
        """The store's `method` made right here without waiting (SQLite), or None
        (PostgreSQL). Looked up at each call, as the batch writers above look it up."""
        sqlite = self._sqlite
        if sqlite is None:
            return None
        return lambda requests: sqlite.now(getattr(self.store, method), requests)


class _Queue(Generic[Req, Res]):
    """The waiting members of one event loop, and whether a batch of theirs is running."""

    __slots__ = ("busy", "drainer", "pending")

    def __init__(self) -> None:
        self.pending: list[tuple[Req, asyncio.Future[Res]]] = []
        self.busy = False
        self.drainer: asyncio.Task[None] | None = None
        """Held so the running task is not garbage-collected."""


class _Batcher(Generic[Req, Res]):
    """Collects requests and writes them with `write`, at most `MAX_BATCH` in one batch.

    With `write_now` (SQLite), the caller that finds no batch running writes the first one
    itself: after one turn of the loop, in which the other calls ready join it, at once and
    without waiting; only what would have to wait, and what arrives meanwhile, goes to a
    drainer task. Without it, a drainer task writes every batch.

    State is kept per event loop: a store may serve several loops (the synchronous API
    runs one per calling thread), and a future belongs to one.
    """

    def __init__(
        self,
        write: Callable[[Sequence[Req]], Any],
        write_now: Callable[[Sequence[Req]], list[Res | StoreError]] | None = None,
    ) -> None:
        self._write_batch = write
        self._write_now = write_now
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
            if self._write_now is None:
                queue.drainer = loop.create_task(self._drain(queue))
            else:
                await self._lead(loop, queue)
        return await future

    async def _lead(self, loop: asyncio.AbstractEventLoop, queue: _Queue[Req, Res]) -> None:
        try:
            await asyncio.sleep(0)  # the calls ready in this turn of the loop join
        except GeneratorExit:
            # Closed unrun (its loop is gone): none of these calls will run, so none of
            # their requests may be written.
            queue.pending.clear()
            queue.busy = False
            raise
        except BaseException:
            # Cancelled meanwhile: the others this caller leads are still served.
            self._write_first(loop, queue)
            raise
        self._write_first(loop, queue)

    def _write_first(self, loop: asyncio.AbstractEventLoop, queue: _Queue[Req, Res]) -> None:
        assert self._write_now is not None
        batch = queue.pending[:MAX_BATCH]
        try:
            results = self._write_now([request for request, _ in batch])
        except WouldWait:
            pass  # still queued: the drainer writes it in a thread, where waiting is allowed
        except BaseException as exc:
            # Taken out before anything else: an interrupt raised just after the commit
            # must not leave the batch queued to be written a second time.
            del queue.pending[: len(batch)]
            if not isinstance(exc, Exception):
                for _, future in batch:
                    future.cancel()
                raise
            _deliver(batch, exc)
        else:
            del queue.pending[: len(batch)]
            _deliver(batch, results)
        finally:
            if queue.pending:
                queue.drainer = loop.create_task(self._drain(queue))
            else:
                queue.busy = False

    async def _drain(self, queue: _Queue[Req, Res]) -> None:
        try:
            while queue.pending:
                batch = queue.pending[:MAX_BATCH]
                del queue.pending[:MAX_BATCH]
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
        except Exception as exc:
            _deliver(batch, exc)
            return
        except BaseException:
            for _, future in batch:
                future.cancel()
            raise
        _deliver(batch, results)


def _deliver(
    batch: list[tuple[Req, asyncio.Future[Res]]], results: Sequence[Res | StoreError] | Exception
) -> None:
    """Each member's answer, or the error of the whole batch (every member fails closed)."""
    answers = [results] * len(batch) if isinstance(results, Exception) else results
    for (_, future), result in zip(batch, answers, strict=True):
        if future.done():  # the caller stopped waiting; what was written stands
            continue
        if isinstance(result, Exception):
            future.set_exception(result)
        else:
            future.set_result(result)
