"""Calls into the (synchronous) store from the gate's event loop."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import Any, TypeVar

from callgate.store import SQLiteStore, Store

__all__ = ["StoreIO"]

T = TypeVar("T")


class StoreIO:
    """Runs store methods: inline for SQLite (microseconds, no network), in a worker thread
    for a networked store so that a slow round trip never stalls the other calls."""

    def __init__(self, store: Store, *, in_thread: bool | None = None) -> None:
        self.store = store
        self.in_thread = not isinstance(store, SQLiteStore) if in_thread is None else in_thread

    async def __call__(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        if not self.in_thread:
            return fn(*args, **kwargs)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, functools.partial(fn, *args, **kwargs))
