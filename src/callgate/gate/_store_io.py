"""Calls into the (synchronous) store from the gate's event loop."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Sequence
from typing import Any, Literal, TypeVar

from callgate.gate._batch import Batcher
from callgate.store import (
    BatchResult,
    Claim,
    ClaimRequest,
    FinishRequest,
    GroupCommitStore,
    IdempotencyRecord,
    Receipt,
    ReceiptDraft,
    SQLiteStore,
    Store,
)

__all__ = ["StoreIO"]

T = TypeVar("T")

MAX_BATCH = 64
"""Members of one group commit at most (PostgreSQL sends their rows in one pipeline)."""

Settled = tuple[IdempotencyRecord, Receipt]


class StoreIO:
    """Runs store methods: inline for SQLite (microseconds, no network), in a worker thread
    for a networked store so that a slow round trip never stalls the other calls.

    Claims and finishes of concurrent calls are group-committed when the store can do it
    (`GroupCommitStore`): one transaction for all that are waiting (see `_batch`).
    """

    def __init__(
        self, store: Store, *, in_thread: bool | None = None, group_commit: bool = True
    ) -> None:
        self.store = store
        self.in_thread = not isinstance(store, SQLiteStore) if in_thread is None else in_thread
        self._claims: Batcher[ClaimRequest, Claim] | None = None
        self._finishes: Batcher[FinishRequest, Settled] | None = None
        if group_commit and isinstance(store, GroupCommitStore):
            self._claims = Batcher(functools.partial(self._claim_many, store), max_size=MAX_BATCH)
            self._finishes = Batcher(
                functools.partial(self._finish_many, store), max_size=MAX_BATCH
            )

    async def __call__(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        if not self.in_thread:
            return fn(*args, **kwargs)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, functools.partial(fn, *args, **kwargs))

    async def begin(
        self, key: str, *, request_hash: str, owner: str, lease_seconds: float
    ) -> Claim:
        """`idempotency.begin`, group-committed with the other calls' claims."""
        if self._claims is None:
            return await self(
                self.store.idempotency.begin,
                key,
                request_hash=request_hash,
                owner=owner,
                lease_seconds=lease_seconds,
            )
        return await self._claims.submit(
            ClaimRequest(
                key=key, request_hash=request_hash, owner=owner, lease_seconds=lease_seconds
            )
        )

    async def finish_and_record(
        self,
        key: str,
        *,
        owner: str,
        state: Literal["completed", "failed"],
        outcome: Any,
        receipt: ReceiptDraft,
    ) -> Settled:
        """`store.finish_and_record`, group-committed with the other calls' finishes."""
        if self._finishes is None:
            return await self(
                self.store.finish_and_record,
                key,
                owner=owner,
                state=state,
                outcome=outcome,
                receipt=receipt,
            )
        return await self._finishes.submit(
            FinishRequest(key=key, owner=owner, state=state, outcome=outcome, receipt=receipt)
        )

    async def _claim_many(
        self, store: GroupCommitStore, requests: Sequence[ClaimRequest]
    ) -> list[BatchResult[Claim]]:
        if len(requests) == 1:  # a lone call takes the plain path: same statements as ever
            return [
                await self(
                    self.store.idempotency.begin,
                    requests[0].key,
                    request_hash=requests[0].request_hash,
                    owner=requests[0].owner,
                    lease_seconds=requests[0].lease_seconds,
                )
            ]
        return await self(store.begin_many, requests)

    async def _finish_many(
        self, store: GroupCommitStore, requests: Sequence[FinishRequest]
    ) -> list[BatchResult[Settled]]:
        if len(requests) == 1:
            one = requests[0]
            return [
                await self(
                    self.store.finish_and_record,
                    one.key,
                    owner=one.owner,
                    state=one.state,
                    outcome=one.outcome,
                    receipt=one.receipt,
                )
            ]
        return await self(store.finish_and_record_many, requests)
