"""The worker threads behind sync tools and store calls (`callgate._threads`)."""

from __future__ import annotations

import asyncio
import contextvars
import gc
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


def test_work_no_thread_took_before_its_deadline_never_starts(threads: Threads) -> None:
    release = threading.Event()
    ran: list[int] = []

    def record(n: int) -> None:
        ran.append(n)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        busy = [threads.start(loop, release.wait, {"timeout": 5}) for _ in range(2)]
        threads.start(loop, record, {"n": 1}, 0.05)
        # The loop is busy past that deadline, so no timer of its own could fire.
        time.sleep(0.1)  # noqa: ASYNC251
        release.set()
        await asyncio.gather(*busy)
        await threads.start(loop, record, {"n": 2})

    asyncio.run(main())
    assert ran == [2]


def test_a_stop_iteration_is_the_functions_failure_at_once(threads: Threads) -> None:
    def stops() -> None:
        raise StopIteration("done")

    async def main() -> None:
        await asyncio.wait_for(threads.start(asyncio.get_running_loop(), stops, {}), 5)

    with pytest.raises(RuntimeError, match="raised StopIteration") as raised:
        asyncio.run(main())
    assert isinstance(raised.value.__cause__, StopIteration)


def test_idle_workers_exit_once_their_threads_are_dropped() -> None:
    pool = Threads(2, name="dropped")
    worker = pool.submit(threading.current_thread).result(timeout=5)
    del pool
    gc.collect()
    worker.join(timeout=5)
    assert not worker.is_alive()


def test_work_submitted_while_shutting_down_runs_or_is_refused() -> None:
    pool = Threads(1, name="racing")
    closing: list[threading.Thread] = []

    class Racing(queue.SimpleQueue[Any]):
        """Shuts the pool down from another thread just as work is queued."""

        def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
            if item is not None and not closing:
                closing.append(threading.Thread(target=pool.shutdown, kwargs={"wait": False}))
                closing[0].start()
                closing[0].join(0.2)  # done at once unless queueing holds the lock against it
            super().put(item)

    pool._queue = Racing()
    try:
        future = pool.submit(lambda: "ran")
    except RuntimeError:
        pass  # refused: as good as run, only never lost
    else:
        assert future.result(timeout=5) == "ran"
    closing[0].join(5)
    pool.shutdown(wait=True)


_EXIT_MID_WRITE = """
import sys, threading, time
from callgate._threads import Threads

started = threading.Event()

def write_halves(path):
    with open(path, "w") as out:
        out.write("first half;")
        out.flush()
        started.set()
        time.sleep(0.5)
        out.write("second half")

Threads(1, name="exiting").submit(write_halves, sys.argv[1])
started.wait(5)
"""


def test_work_running_at_interpreter_exit_is_allowed_to_finish(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    done = subprocess.run(
        [sys.executable, "-c", _EXIT_MID_WRITE, str(out)], capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert out.read_text() == "first half;second half"
