"""The worker threads behind sync tools and store calls (`callgate._threads`)."""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time
from collections.abc import Iterator

import pytest

from callgate._threads import Threads

REQUEST: contextvars.ContextVar[str] = contextvars.ContextVar("request", default="none")


@pytest.fixture
def threads() -> Iterator[Threads]:
    pool = Threads(2, name="test-worker")
    yield pool
    pool.shutdown(wait=True, cancel_futures=True)


def test_start_runs_in_a_worker_with_the_callers_context(threads: Threads) -> None:
    def where(suffix: str) -> str:
        return f"{threading.current_thread().name}:{REQUEST.get()}:{suffix}"

    async def main() -> str:
        REQUEST.set("r-1")
        return await threads.start(asyncio.get_running_loop(), where, {"suffix": "x"})

    assert asyncio.run(main()) == "test-worker_0:r-1:x"


def test_an_exception_reaches_the_awaiting_caller(threads: Threads) -> None:
    def fails() -> None:
        raise KeyError("gone")

    async def main() -> None:
        await threads.start(asyncio.get_running_loop(), fails, {})

    with pytest.raises(KeyError, match="gone"):
        asyncio.run(main())


def test_threads_start_on_demand_up_to_the_size(threads: Threads) -> None:
    started = threading.Barrier(2, timeout=5)
    release = threading.Event()
    seen: list[str] = []

    def hold() -> str:
        seen.append(threading.current_thread().name)
        if len(seen) <= 2:
            started.wait()
        release.wait(5)
        return threading.current_thread().name

    async def main() -> list[str]:
        loop = asyncio.get_running_loop()
        futures = [threads.start(loop, hold, {}) for _ in range(3)]
        await asyncio.sleep(0.05)
        assert len(seen) == 2  # the third waits for a free thread
        release.set()
        return list(await asyncio.gather(*futures))

    names = asyncio.run(main())
    assert sorted(set(names)) == ["test-worker_0", "test-worker_1"]


def test_work_given_up_before_it_started_never_runs(threads: Threads) -> None:
    release = threading.Event()
    ran: list[int] = []

    def block() -> None:
        release.wait(5)

    def record(n: int) -> None:
        ran.append(n)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        busy = [threads.start(loop, block, {}) for _ in range(2)]
        late = threads.start(loop, record, {"n": 1})
        late.cancel()
        release.set()
        await asyncio.gather(*busy)
        await threads.start(loop, record, {"n": 2})

    asyncio.run(main())
    assert ran == [2]


def test_an_outcome_for_a_closed_loop_is_dropped(threads: Threads) -> None:
    release = threading.Event()
    loop = asyncio.new_event_loop()
    future = threads.start(loop, release.wait, {"timeout": 5})
    loop.close()
    release.set()
    assert threads.submit(lambda: "still serving").result(timeout=5) == "still serving"
    assert not future.done()


def test_submit_serves_run_in_executor_and_shutdown_cancels_queued_work() -> None:
    pool = Threads(1, name="one")
    release = threading.Event()
    first = pool.submit(release.wait, 5)
    for _ in range(500):  # until the one thread holds it
        if first.running():
            break
        time.sleep(0.01)
    queued = pool.submit(lambda: "never")

    async def via_loop() -> str:
        return await asyncio.get_running_loop().run_in_executor(pool, str.upper, "abc")

    pool.shutdown(wait=False, cancel_futures=True)
    release.set()
    assert first.result(timeout=5) is True
    assert queued.cancelled()
    with pytest.raises(RuntimeError, match="after shutdown"):
        asyncio.run(via_loop())
    pool.shutdown(wait=True)
