"""Run an ASGI app with uvicorn on 127.0.0.1 in a background thread.

A thread (rather than a task on the caller's loop) lets the same server serve synchronous
callers (the CLI demo, a subprocess) and async tests alike, and keeps the server's own
event loop out of the code under test.
"""

from __future__ import annotations

import socket
import threading
from typing import Any

from callgate._extras import require

__all__ = ["ServerThread"]


class ServerThread:
    """uvicorn on a free port of 127.0.0.1; `start()` returns once it accepts connections."""

    def __init__(self, app: Any) -> None:
        self._app = app
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._socket: socket.socket | None = None
        self.port = 0
        self._failure: BaseException | None = None

    def start(self) -> None:
        uvicorn = require("uvicorn", extra="server")
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))  # port 0: the OS picks a free port, no race with others
        self._socket, self.port = sock, sock.getsockname()[1]
        config = uvicorn.Config(
            self._app,
            log_level="error",
            lifespan="off",
            timeout_graceful_shutdown=2,
            access_log=False,
        )
        self._server = uvicorn.Server(config)
        ready = threading.Event()
        self._thread = threading.Thread(
            target=self._run,
            args=(sock, ready),
            daemon=True,
            name=f"callgate-fake-server-{self.port}",
        )
        self._thread.start()
        ready.wait()
        if self._failure is not None:
            raise RuntimeError("the fake server did not start") from self._failure

    def _run(self, sock: socket.socket, ready: threading.Event) -> None:
        import asyncio

        async def serve() -> None:
            task = asyncio.create_task(self._server.serve(sockets=[sock]))
            # uvicorn exposes readiness only as a flag, so it is polled.
            while not self._server.started and not task.done():  # noqa: ASYNC110
                await asyncio.sleep(0.005)
            ready.set()
            await task

        try:
            asyncio.run(serve())
        except BaseException as exc:  # reported to the starting thread, not lost in this one
            self._failure = exc
        finally:
            ready.set()

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None
        if self._socket is not None:
            self._socket.close()
            self._socket = None
