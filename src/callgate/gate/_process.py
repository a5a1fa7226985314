"""Process-isolated execution for synchronous tools that may hang or leak (`run_in="process"`).

A thread cannot be stopped from outside; a process can. Each call runs in a worker process
of a small pool; when the call's deadline passes, that worker is killed (SIGKILL) and
replaced, so a tool that loops forever costs one process and nothing else. Workers are
started with `forkserver`: a fresh interpreter that imports the tool's module, never a copy
of this process's threads and locks. The executor is sent by name (module and qualified
name), so it must be a module-level function.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import multiprocessing
import os
import signal
import threading
import traceback
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from callgate._errors import ConflictError, ToolError, TransientError
from callgate.gate._bounded import Expired

__all__ = ["ProcessFailure", "ProcessRunner", "executor_reference"]

_ERRORS: dict[str, type[ToolError]] = {
    "conflict": ConflictError,
    "transient": TransientError,
    "tool": ToolError,
}


class ProcessFailure(Exception):
    """The tool raised an unexpected exception in its worker (its traceback is the text)."""


def executor_reference(executor: Any) -> tuple[str, str] | None:
    """(module, qualified name) under which a worker can import `executor`, or None."""
    module = getattr(executor, "__module__", None)
    qualname = getattr(executor, "__qualname__", None)
    if not module or not qualname or "<" in qualname:
        return None
    return module, qualname


def _resolve(module: str, qualname: str) -> Any:
    target: Any = importlib.import_module(module)
    for part in qualname.split("."):
        target = getattr(target, part)
    executor = getattr(target, "executor", None)  # `@tool` put a Tool under the name
    return executor if executor is not None and callable(executor) else target


def _serve(conn: Connection) -> None:
    """The worker: run calls until the parent closes the pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            module, qualname, kwargs = conn.recv()
        except EOFError:
            return
        try:
            value = _resolve(module, qualname)(**kwargs)
            conn.send(("ok", value))
        except Exception as exc:
            kind = next((k for k, cls in _ERRORS.items() if isinstance(exc, cls)), "other")
            text = exc.message if isinstance(exc, ToolError) else traceback.format_exc()
            try:
                conn.send((kind, text))
            except Exception:  # the value or the error would not pickle
                conn.send(("other", traceback.format_exc()))


class _Worker:
    def __init__(self, context: Any) -> None:
        parent, child = context.Pipe()
        self.conn: Connection = parent
        self.process: BaseProcess = context.Process(target=_serve, args=(child,), daemon=True)
        self.process.start()
        child.close()

    def kill(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            if self.process.pid is not None:
                os.kill(self.process.pid, signal.SIGKILL)
        self.process.join(timeout=5)
        self.conn.close()


class ProcessRunner:
    """A pool of worker processes, started on first use, killed on `close`."""

    def __init__(self) -> None:
        self._idle: list[_Worker] = []
        self._lock = threading.Lock()
        self._context: Any = None
        self._closed = False

    async def run(self, executor: Any, kwargs: dict[str, Any], *, seconds: float) -> Any:
        reference = executor_reference(executor)
        if reference is None:
            raise ToolError("this tool cannot run in a worker process on this host")
        worker = await asyncio.to_thread(self._take)
        try:
            worker.conn.send((*reference, kwargs))
            kind, value = await asyncio.wait_for(self._answer(worker), timeout=max(seconds, 0.0))
        except (TimeoutError, asyncio.CancelledError, EOFError, OSError) as exc:
            worker.kill()  # past the deadline, cancelled, or dead: it never runs again
            if isinstance(exc, asyncio.CancelledError):
                raise
            if isinstance(exc, TimeoutError):
                raise Expired() from None
            raise ProcessFailure("the worker process died during the call") from exc
        except BaseException:
            worker.kill()
            raise
        self._give_back(worker)
        if kind == "ok":
            return value
        if kind in _ERRORS:
            raise _ERRORS[kind](value)
        raise ProcessFailure(value)

    async def _answer(self, worker: _Worker) -> tuple[str, Any]:
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()
        fd = worker.conn.fileno()

        def readable() -> None:
            if not ready.done():
                ready.set_result(None)

        loop.add_reader(fd, readable)
        try:
            await ready
        finally:
            loop.remove_reader(fd)
        answer: tuple[str, Any] = worker.conn.recv()
        return answer

    def _take(self) -> _Worker:
        with self._lock:
            if self._closed:
                raise ToolError("the gate is closed")
            while self._idle:
                worker = self._idle.pop()
                if worker.process.is_alive():
                    return worker
                worker.kill()
            if self._context is None:
                self._context = multiprocessing.get_context("forkserver")
        return _Worker(self._context)

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
