"""Run a `Gateway` over stdio (one desktop client) or streamable HTTP (many clients).

SIGTERM and SIGINT end the gateway cleanly: the MCP server stops, every upstream
connection is closed, and the SDK's stdio transport kills each upstream's process group,
so no upstream process outlives the gateway. Over stdio the gateway also ends when its
client closes stdin.
"""

from __future__ import annotations

import contextlib
import signal
import sys
from collections.abc import Callable, Iterator

import anyio
import anyio.abc
from starlette.types import ASGIApp

from callgate._extras import require
from callgate.gateway._gateway import Gateway
from callgate.gateway._identity import Authenticate

__all__ = ["serve_http", "serve_stdio"]


async def serve_stdio(gateway: Gateway) -> None:
    """Serve one client on this process's stdin and stdout until it leaves or a signal."""
    from mcp.server.stdio import stdio_server

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(_on_signal, tasks.cancel_scope.cancel)
        await tasks.start(gateway.run)
        async with stdio_server() as (read, write):
            await gateway.server.run(read, write, gateway.server.create_initialization_options())
        tasks.cancel_scope.cancel()


async def serve_http(
    gateway: Gateway,
    *,
    host: str = "127.0.0.1",
    port: int = 8765,
    path: str = "/mcp",
    announce: Callable[[str], None] | None = None,
    wrap: Callable[[ASGIApp], ASGIApp] | None = None,  # around the authenticated app: mount_ui
) -> None:
    """Serve streamable HTTP on `host:port`; `announce` gets the URL once it listens."""
    uvicorn = require("uvicorn", extra="server")
    if not len(gateway.credentials):
        from callgate._errors import UserError

        raise UserError(
            "serving over HTTP needs at least one client in callgate.toml "
            "([[gateway.clients]] with a token): unauthenticated requests are refused"
        )
    app = Authenticate(
        gateway.server.streamable_http_app(host=host, streamable_http_path=path),
        gateway.credentials,
    )

    class Server(uvicorn.Server):  # type: ignore[name-defined,misc]
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            yield  # signals are handled below, so shutdown finishes before the process ends

    outer = app if wrap is None else wrap(app)
    server = Server(uvicorn.Config(outer, host=host, port=port, log_level="warning"))
    async with anyio.create_task_group() as tasks:
        await tasks.start(gateway.run)

        def stop() -> None:
            server.should_exit = True

        tasks.start_soon(_on_signal, stop)
        tasks.start_soon(_announce_when_up, server, host, path, announce)
        await server.serve()
        tasks.cancel_scope.cancel()


async def _announce_when_up(
    server: object, host: str, path: str, announce: Callable[[str], None] | None
) -> None:
    while not getattr(server, "started", False):  # noqa: ASYNC110 - uvicorn has only a flag
        await anyio.sleep(0.02)
    sockets = [s for srv in getattr(server, "servers", []) for s in srv.sockets]
    port = sockets[0].getsockname()[1] if sockets else 0
    url = f"http://{host}:{port}{path}"
    (announce or _stderr)(url)


def _stderr(url: str) -> None:
    print(f"callgate gateway listening on {url}", file=sys.stderr, flush=True)


async def _on_signal(stop: Callable[[], None]) -> None:
    with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
        async for _ in signals:
            stop()
            return
