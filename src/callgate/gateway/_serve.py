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
from typing import cast

import anyio
import anyio.abc
from starlette.types import ASGIApp

from callgate._extras import require
from callgate.gateway._gateway import Gateway
from callgate.gateway._identity import Authenticate
from callgate.gateway._stdin import claimed_stdin

__all__ = ["serve_http", "serve_stdio"]


async def serve_stdio(gateway: Gateway) -> None:
    """Serve one client on this process's stdin and stdout until it leaves or a signal."""
    from mcp.server.stdio import stdio_server

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(_on_signal, tasks.cancel_scope.cancel)
        await tasks.start(gateway.run)
        with claimed_stdin() as lines:
            # The transport only iterates its stdin, so the lines stand in for a file.
            async with stdio_server(stdin=cast("anyio.AsyncFile[str]", lines)) as (read, write):
                options = gateway.server.create_initialization_options()
                await gateway.server.run(read, write, options)
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
    oauth = gateway.settings.oauth
    if not len(gateway.credentials) and oauth is None:
        from callgate._errors import UserError

        raise UserError(
            "serving over HTTP needs at least one client in callgate.toml "
            "([[gateway.clients]] with a token, or [gateway.oauth]): unauthenticated "
            "requests are refused"
        )
    app = _app(gateway, host=host, path=path)

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


def _app(gateway: Gateway, *, host: str, path: str) -> Authenticate:
    """The SDK's streamable HTTP app behind `Authenticate`; with OAuth, also the protected
    resource metadata (RFC 9728) that tells clients which authorization server to ask."""
    oauth = gateway.settings.oauth
    if oauth is None:
        inner = gateway.server.streamable_http_app(host=host, streamable_http_path=path)
        return Authenticate(inner, gateway.credentials)
    import pydantic
    from mcp.server.auth.routes import build_resource_metadata_url, create_protected_resource_routes

    from callgate.gateway._oauth import AccessTokens

    # Issuers compare as exact strings (RFC 8414): no trailing slash may be added.
    url = pydantic.TypeAdapter(
        pydantic.AnyHttpUrl, config=pydantic.ConfigDict(url_preserve_empty_path=True)
    ).validate_python
    tokens = AccessTokens(oauth)
    routes = create_protected_resource_routes(
        resource_url=url(oauth.audience),
        authorization_servers=[url(oauth.issuer)],
        scopes_supported=list(oauth.required_scopes) or None,
    )
    inner = gateway.server.streamable_http_app(
        host=host, streamable_http_path=path, custom_starlette_routes=list(routes)
    )
    metadata = str(build_resource_metadata_url(url(oauth.audience)))
    public = frozenset(str(getattr(route, "path", "")) for route in routes)
    return Authenticate(
        inner, gateway.credentials, tokens=tokens, public=public, metadata_url=metadata
    )


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
