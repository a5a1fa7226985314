"""Process-isolated execution for synchronous tools that may hang or leak (`run_in="process"`).

A thread cannot be stopped from outside; a process can. Each call runs in a worker process
of a small pool (`python -m callgate._worker`, a fresh interpreter, never a copy of
this process's threads and locks); when the call's deadline passes, that worker is killed
(SIGKILL) and replaced, so a tool that loops forever costs one process and nothing else.
The executor is sent by name (module and qualified name), so it must be a module-level
function; the worker imports it with this process's `sys.path`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import threading
from collections.abc import Mapping
from typing import Any, BinaryIO, cast

from callgate._errors import ToolError
from callgate._worker import KINDS, read_frame, write_frame
from callgate.gate._bounded import Expired

__all__ = ["ProcessFailure", "ProcessRunner", "executor_reference"]


class ProcessFailure(Exception):
    """The tool raised an unexpected exception in its worker (the text is its traceback),
    or the worker died."""


def executor_reference(executor: Any) -> tuple[str, str] | None:
    """(module, qualified name) under which a worker can import `executor`, or None."""
    module = getattr(executor, "__module__", None)
    qualname = getattr(executor, "__qualname__", None)
    if not module or not qualname or "<" in qualname or module == "__main__":
        return None
    return module, qualname


class _Worker:
    def __init__(self, module: str) -> None:
        """Start a worker that has imported `module` (the tool's) when it says ready."""
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        self.module = module
        self.process = subprocess.Popen(
            [sys.executable, "-m", "callgate._worker", module],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        try:
            ready = read_frame(cast(BinaryIO, self.process.stdout))
        except EOFError:
            ready = None
        if ready != ("ready", None):
            self.kill()
            raise ProcessFailure("the worker process did not start")

    def ask(self, call: tuple[str, str, Mapping[str, Any]]) -> tuple[str, Any]:
        """Send one call and wait for its answer (blocking: run it in a thread)."""
        write_frame(cast(BinaryIO, self.process.stdin), call)
        answer: tuple[str, Any] = read_frame(cast(BinaryIO, self.process.stdout))
        return answer

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()


def _retrieve(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


class ProcessRunner:
    """A pool of worker processes, started on first use, killed on `close`."""

    def __init__(self) -> None:
        self._idle: list[_Worker] = []
        self._lock = threading.Lock()
        self._closed = False

    async def run(self, executor: Any, kwargs: Mapping[str, Any], *, seconds: float) -> Any:
        reference = executor_reference(executor)
        if reference is None:
            raise ToolError("this tool cannot run in a worker process on this host")
        worker = await asyncio.to_thread(self._take, reference[0])
        answer = asyncio.ensure_future(asyncio.to_thread(worker.ask, (*reference, kwargs)))
        answer.add_done_callback(_retrieve)  # a killed worker's read ends in EOFError
        try:
            kind, value = await asyncio.wait_for(asyncio.shield(answer), max(seconds, 0.0))
        except TimeoutError:
            worker.kill()  # past the deadline: it never runs again
            raise Expired() from None
        except (EOFError, OSError) as exc:
            worker.kill()
            raise ProcessFailure("the worker process died during the call") from exc
        except BaseException:  # cancelled: the call is abandoned, and so is its worker
            worker.kill()
            raise
        self._give_back(worker)
        if kind == "ok":
            return value
        if kind in KINDS:
            raise KINDS[kind](value)
        raise ProcessFailure(value)

    def _take(self, module: str) -> _Worker:
        """An idle worker that has imported `module`, or a new one."""
        with self._lock:
            if self._closed:
                raise ToolError("the gate is closed")
            for worker in [w for w in self._idle if not w.alive()]:
                self._idle.remove(worker)
                worker.kill()
            for worker in self._idle:
                if worker.module == module:
                    self._idle.remove(worker)
                    return worker
        return _Worker(module)

    def _give_back(self, worker: _Worker) -> None:
        with self._lock:
            if not self._closed:
                self._idle.append(worker)
                return
        worker.kill()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.kill()
