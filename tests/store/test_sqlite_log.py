"""SQLite's write-ahead log: a call's commits append to it and never copy it back into the
database file themselves (that is the checkpointing thread's work, off the caller's path)."""

from __future__ import annotations

from pathlib import Path

import pytest

from callgate.store import AsyncStore, ClaimRequest, Finish, Settle, SQLiteStore
from callgate.store._sqlite import _Checkpointer
from tests.store._workers import receipt

SQLITE_DEFAULT_THRESHOLD = 1000
"""Pages of log past which a connection left at SQLite's default checkpoints in its commit."""


def _frames(path: Path) -> int:
    """Frames the log file has held at most: after a checkpoint the log is written again from
    its start, and the file keeps its size."""
    log = path.with_name(path.name + "-wal")
    return (log.stat().st_size - 32) // (4096 + 24)  # a header, then each page with its own


async def test_calls_on_the_event_loop_never_checkpoint_in_their_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The claims and settles that `AsyncStore` makes right on the loop's thread (its
    never-waiting connection) leave the log growing past SQLite's own threshold: none of
    them stopped to checkpoint (two fsyncs, inside one call's commit)."""
    monkeypatch.setattr(_Checkpointer, "EVERY", 10**9)  # the background thread stays idle
    path = tmp_path / "log.db"
    store = SQLiteStore(path)
    facade = AsyncStore(store)
    try:
        n = 0
        while _frames(path) <= SQLITE_DEFAULT_THRESHOLD + 100 and n < 500:
            for _ in range(50):
                key = f"k{n}"
                await facade.claim(ClaimRequest(key=key, request_hash="h", owner="a",
                                                lease_seconds=30))  # fmt: skip
                finish = Finish(key=key, owner="a", state="completed", outcome=n)
                await facade.settle(Settle(receipt=receipt(0, n), finish=finish))
                n += 1
        assert _frames(path) > SQLITE_DEFAULT_THRESHOLD + 100
        assert store.receipts.verify().ok
    finally:
        facade.close()
        store.close()
