"""Serve the operator page on its own (`callgate ui`) with uvicorn."""

from __future__ import annotations

import contextlib
import signal
import socket
import sys
from collections.abc import Callable, Iterator

import anyio

from callgate._errors import UserError
from callgate._extras import require
from callgate.ui._app import OperatorApp

__all__ = ["serve_ui"]


async def serve_ui(
    app: OperatorApp,
    *,
    host: str = "127.0.0.1",
    port: int = 8766,
    announce: Callable[[str], None] | None = None,
) -> None:
    """Serve `app` on `host:port` until SIGINT or SIGTERM; `announce` gets the address once
    it listens (port 0 picks a free one)."""
    uvicorn = require("uvicorn", extra="server")
    # Behind a TLS proxy on this machine the page sees https (and marks its cookies Secure).
    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", proxy_headers=True, lifespan="off"
    )

    class Server(uvicorn.Server):  # type: ignore[name-defined,misc]
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            yield  # handled below: shut down cleanly, then return to the caller

    server = Server(config)

    async def stop_on_signal() -> None:
        with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
            async for _ in signals:
                server.should_exit = True
                return

    listening = _listen(host, port)
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(stop_on_signal)
        tasks.start_soon(_announce_when_up, server, host, announce)
        await server.serve(sockets=[listening])
        tasks.cancel_scope.cancel()


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound here so that an address in use is one clear error
    (uvicorn would exit the process from inside its startup)."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        return socket.create_server((host, port), family=family, backlog=128)
    except OSError as exc:
        raise UserError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


async def _announce_when_up(
    server: object, host: str, announce: Callable[[str], None] | None
) -> None:
    while not getattr(server, "started", False):  # noqa: ASYNC110 - uvicorn has only a flag
        await anyio.sleep(0.02)
    sockets = [s for srv in getattr(server, "servers", []) for s in srv.sockets]
    port = sockets[0].getsockname()[1] if sockets else 0
    shown = f"[{host}]" if ":" in host else host
    (announce or _stderr)(f"http://{shown}:{port}/")


def _stderr(url: str) -> None:
    print(f"callgate ui listening on {url}", file=sys.stderr, flush=True)
