"""`AsyncStore`: store calls run off the event loop, and the two writes of a call are
group-committed with every member answered on its own."""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import replace
from multiprocessing.context import SpawnProcess
from pathlib import Path
from typing import TypeVar

import pytest

from callgate.store import (
    AsyncStore,
    Claim,
    ClaimRequest,
    Finish,
    PostgresStore,
    RecordNotFound,
    Settle,
    Settled,
    SQLiteStore,
    Store,
    StoreConflict,
    StoreUnavailable,
)
from callgate.store._sql_store import SQLStore
from tests.conftest import WAIT
from tests.store import _workers
from tests.store._calls import claim
from tests.store._workers import receipt
from tests.store.conftest import StoreFactory

T = TypeVar("T")

TICK = 0.01


async def ticks_during(call: Awaitable[T]) -> tuple[T, int]:
    """Await `call` while a task on the same loop ticks every 10 ms; a store call that
    blocked the loop would leave the ticker (almost) no turn."""
    ticks = 0
    done = asyncio.Event()

    async def ticker() -> None:
        nonlocal ticks
        while not done.is_set():
            await asyncio.sleep(TICK)
            ticks += 1

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0)  # the ticker is running before the call starts
    try:
        result = await call
    finally:
        done.set()
        await task
    return result, ticks


@pytest.fixture
async def facade(make_store: StoreFactory) -> AsyncIterator[AsyncStore]:
    io = AsyncStore(make_store())
    yield io
    io.close()


def settle_of(n: int, key: str | None = None, owner: str = "a") -> Settle:
    end = Finish(key=key, owner=owner, state="completed", outcome=n) if key else None
    return Settle(receipt=replace(receipt(0, n), run_id="run-1"), finish=end)


async def test_where_a_store_call_runs(facade: AsyncStore) -> None:
    """PostgreSQL: always in the store's threads (a round trip). SQLite: right here, unless
    it would have to wait (then in the store's thread: the next test)."""
    thread = await facade.run(threading.current_thread)
    if isinstance(facade.store, SQLiteStore):
        assert thread is threading.current_thread()
    else:
        assert thread is not threading.current_thread()
        assert thread.name.startswith("callgate-store")
    assert await facade.run(facade.store.approvals.get, "missing") is None


async def test_the_loop_keeps_running_while_sqlite_waits_for_another_writer(
    tmp_path: Path, spawn: Callable[..., SpawnProcess]
) -> None:
    path = tmp_path / "gate.db"
    store = SQLiteStore(path, busy_timeout=WAIT)
    io = AsyncStore(store)
    ctx = multiprocessing.get_context("spawn")
    held, release = ctx.Event(), ctx.Event()
    try:
        spawn(_workers.hold_sqlite_write_lock, str(path), held, release, 0.3)
        assert held.wait(WAIT)
        request = ClaimRequest(key="k", request_hash="h", owner="a", lease_seconds=30)
        claimed, ticks = await ticks_during(io.claim(request))
        assert claimed.status == "claimed"  # it waited for the lock, then claimed
        assert ticks >= 5, f"the event loop ticked {ticks} times during the claim"
    finally:
        release.set()
        io.close()
        store.close()


@pytest.mark.postgres
async def test_the_loop_keeps_running_while_postgres_waits_for_the_chain_head(
    pg_schema: tuple[str, str],
) -> None:
    import psycopg

    dsn, schema = pg_schema
    store = PostgresStore(dsn, schema=schema)
    io = AsyncStore(store)
    held = threading.Event()

    def hold_the_chain_head() -> None:
        # Another gateway process in the middle of an append: it holds the head's row lock.
        with psycopg.connect(dsn, options=f"-c search_path={schema}") as conn:
            conn.execute("SELECT seq FROM callgate_chain_head WHERE id = 1 FOR UPDATE")
            held.set()
            conn.execute("SELECT pg_sleep(0.3)")

    holder = threading.Thread(target=hold_the_chain_head)
    holder.start()
    try:
        assert held.wait(WAIT)
        settled, ticks = await ticks_during(io.settle(settle_of(1)))
        assert settled.receipt.seq == 1
        assert ticks >= 5, f"the event loop ticked {ticks} times during the settle"
    finally:
        holder.join(WAIT)
        io.close()
        store.close()


def _counting(store: SQLStore, name: str) -> list[int]:
    """Record the batch size of every call of `store.<name>`."""
    sizes: list[int] = []
    original: Callable[[Sequence[object]], list[object]] = getattr(store, name)

    def counted(requests: Sequence[object]) -> list[object]:
        sizes.append(len(requests))
        return original(requests)

    setattr(store, name, counted)
    return sizes


async def test_concurrent_settles_share_commits_and_each_gets_its_own_answer(
    make_store: StoreFactory,
) -> None:
    store = make_store()
    keys = [f"k{n}" for n in range(20)]
    store.claim([ClaimRequest(key=k, request_hash="h", owner="a", lease_seconds=30) for k in keys])
    sizes = _counting(store, "settle")
    io = AsyncStore(store)
    try:
        requests = [settle_of(n, key) for n, key in enumerate(keys)]
        requests[7] = settle_of(7, "k7", owner="intruder")
        results = await asyncio.gather(*(io.settle(r) for r in requests), return_exceptions=True)
    finally:
        io.close()
    assert isinstance(results[7], StoreConflict)
    settled = [r for r in results if isinstance(r, Settled)]
    assert len(settled) == 19
    assert sorted(s.receipt.seq for s in settled) == list(range(1, 20))
    assert [s.record.key for s in settled if s.record] == [k for k in keys if k != "k7"]
    assert sum(sizes) == 20 and len(sizes) < 20  # group-committed, not one commit per call
    assert store.idempotency.get("k7").state == "started"  # type: ignore[union-attr]
    assert store.receipts.verify().ok


async def test_concurrent_claims_are_decided_by_the_database(make_store: StoreFactory) -> None:
    store = make_store()
    sizes = _counting(store, "claim")
    io = AsyncStore(store)
    try:
        requests = [
            ClaimRequest(key="same", request_hash="h", owner=f"w{n}", lease_seconds=30)
            for n in range(10)
        ]
        claims: list[Claim] = await asyncio.gather(*(io.claim(r) for r in requests))
    finally:
        io.close()
    assert [c.status for c in claims].count("claimed") == 1
    assert {c.status for c in claims} == {"claimed", "in_progress"}
    assert sum(sizes) == 10 and len(sizes) < 10


async def test_a_batch_that_fails_fails_every_member_and_writes_nothing(
    make_store: StoreFactory,
) -> None:
    store, reader = make_store(), make_store()
    for n in range(3):
        claim(store, f"k{n}")

    def down() -> None:
        raise StoreUnavailable("the database went away mid-batch")

    _workers.inject(store, "INSERT INTO callgate_receipts", down)
    io = AsyncStore(store)
    try:
        results = await asyncio.gather(
            *(io.settle(settle_of(n, f"k{n}")) for n in range(3)), return_exceptions=True
        )
    finally:
        io.close()
    assert all(isinstance(r, StoreUnavailable) for r in results), results
    assert reader.receipts.head().seq == 0
    assert {reader.idempotency.get(f"k{n}").state for n in range(3)} == {"started"}  # type: ignore[union-attr]


async def test_a_members_refusal_is_raised_to_that_caller(store: Store) -> None:
    io = AsyncStore(store)
    try:
        with pytest.raises(RecordNotFound):  # the key was never claimed
            await io.settle(settle_of(1, "never-claimed"))
        assert (await io.settle(settle_of(2))).receipt.seq == 1
    finally:
        io.close()


async def test_a_lone_call_is_one_batch_and_a_cancelled_leader_still_serves_the_rest(
    make_store: StoreFactory,
) -> None:
    """The first caller of a turn leads the batch (on SQLite it writes it itself): the calls
    that became ready in the same turn of the loop are in it, and when the leader is
    cancelled before it is written, the others are answered all the same (the leader's own
    claim, written with them, stands)."""
    store = make_store()
    sizes = _counting(store, "claim")
    io = AsyncStore(store)

    def request(key: str) -> ClaimRequest:
        return ClaimRequest(key=key, request_hash="h", owner="a", lease_seconds=30)

    try:
        alone = await io.claim(request("alone"))
        tasks = [asyncio.create_task(io.claim(request(f"k{n}"))) for n in range(4)]
        await asyncio.sleep(0)  # each has asked once; the first leads the batch
        tasks[0].cancel()
        claims = await asyncio.gather(*tasks[1:])
        with pytest.raises(asyncio.CancelledError):
            await tasks[0]
    finally:
        io.close()
    assert alone.status == "claimed"
    assert [c.status for c in claims] == ["claimed"] * 3
    assert sizes == [1, 4]
    assert store.idempotency.get("k0") is not None


def _claims(n: int) -> list[ClaimRequest]:
    return [
        ClaimRequest(key=f"k{i}", request_hash="h", owner="a", lease_seconds=30) for i in range(n)
    ]


def test_an_interrupt_just_after_the_leaders_commit_does_not_write_the_batch_again(
    tmp_path: Path,
) -> None:
    """A Ctrl-C is raised at the first bytecode after the C call returns, so one that
    arrives during COMMIT surfaces right after it: the batch is written and must not stay
    queued for a drainer to write a second time."""
    store = SQLiteStore(tmp_path / "s.db")
    sizes = _counting(store, "claim")
    claim_batch = store.claim

    def interrupted(requests: Sequence[ClaimRequest]) -> list[object]:
        claim_batch(requests)
        raise KeyboardInterrupt

    store.claim = interrupted  # type: ignore[method-assign,assignment]
    io = AsyncStore(store)
    loop = asyncio.new_event_loop()
    try:
        tasks = [loop.create_task(io.claim(request)) for request in _claims(3)]
        with pytest.raises(KeyboardInterrupt):
            loop.run_until_complete(asyncio.gather(*tasks))
        store.claim = claim_batch  # type: ignore[method-assign]
        loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
    finally:
        loop.close()
        io.close()
    assert sizes == [3]
    assert all(task.cancelled() for task in tasks[1:])
    for i in range(3):
        record = store.idempotency.get(f"k{i}")
        assert record is not None and record.attempts == 1
    store.close()


def test_a_batch_whose_loop_closed_before_it_was_written_writes_nothing(tmp_path: Path) -> None:
    """When the loop stops and closes while the leader waits its turn, the garbage
    collector closes the leader's coroutine: none of those calls will run, so none of
    their claims may be written."""
    store = SQLiteStore(tmp_path / "s.db")
    io = AsyncStore(store)
    loop = asyncio.new_event_loop()
    held: list[asyncio.Task[object]] = []

    async def start() -> None:
        held.extend(loop.create_task(io.claim(request)) for request in _claims(3))
        await asyncio.sleep(0)  # the leader is now waiting its turn
        loop.stop()

    held.append(loop.create_task(start()))
    loop.run_forever()
    loop.close()
    held.clear()
    gc.collect()
    try:
        assert [store.idempotency.get(f"k{i}") for i in range(3)] == [None] * 3
    finally:
        io.close()
        store.close()
