"""`callgate serve`: the MCP gateway in front of an `mcpServers` config and local tools."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from callgate.cli._store_option import StoreOpt

if TYPE_CHECKING:
    from callgate.gateway import Gateway

__all__ = ["serve"]

_SETTINGS = "callgate.toml"


def serve(
    mcp_config: Annotated[
        Path | None,
        typer.Option(
            "--mcp-config", help="The mcpServers JSON (.mcp.json, Claude Desktop, Cursor, VS Code)."
        ),
    ] = None,
    tools: Annotated[
        str | None,
        typer.Option("--tools", help="MODULE:ATTR naming the host's own tools (a Catalog, ...)."),
    ] = None,
    policy: Annotated[
        Path | None,
        typer.Option(
            "--policy",
            help="Policy TOML (default: reads allowed, "
            "writes and irreversible calls held for approval).",
        ),
    ] = None,
    store: StoreOpt = None,
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            help=f"callgate.toml: clients, tokens, per-server settings (default ./{_SETTINGS} "
            "when present).",
        ),
    ] = None,
    transport: Annotated[
        str, typer.Option("--transport", help="stdio (one desktop client) or http.")
    ] = "stdio",
    host: Annotated[str, typer.Option("--host", help="HTTP address to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="HTTP port (0: any free port).")] = 8765,
    hash_token: Annotated[
        bool,
        typer.Option(
            "--hash-token", help="Read a token on stdin, print its token_sha256 and exit."
        ),
    ] = False,
    ui: Annotated[
        bool,
        typer.Option(
            "--ui",
            help="Also serve the operator page (approvals inbox, receipts journal) at /ui/ "
            "(HTTP only); clients with the approver or auditor role sign in to it.",
        ),
    ] = False,
) -> None:
    """Serve upstream MCP servers and local tools as one MCP server, every call gated."""
    if hash_token:
        from callgate.gateway import hash_token as digest

        typer.echo(digest(sys.stdin.readline().strip()))
        return
    import anyio

    from callgate._errors import UserError
    from callgate.store import StoreError

    if transport not in ("stdio", "http"):
        _fail(f"--transport must be stdio or http, not {transport!r}", 2)
    if ui and transport != "http":
        _fail("--ui needs --transport http: the page is served beside the HTTP endpoint", 2)
    try:
        gateway = _gateway(mcp_config, tools, policy, store, config, transport)
    except (UserError, StoreError) as exc:
        _fail(str(exc), 2)
    try:
        anyio.run(_serve, gateway, transport, host, port, ui)
    except (UserError, BaseExceptionGroup) as exc:
        problem = _user_error(exc)
        if problem is None:
            raise
        _fail(str(problem), 2)
    except KeyboardInterrupt:
        pass
    finally:
        gateway.close()
        gateway.store.close()


def _gateway(
    mcp_config: Path | None,
    tools: str | None,
    policy: Path | None,
    store: str | None,
    config: Path | None,
    transport: str,
) -> Gateway:
    from callgate.cli._run import load_tools
    from callgate.cli._store_option import open_cli_store
    from callgate.gate import Policy
    from callgate.gateway import Gateway, load_settings
    from callgate.mcp import load_upstreams

    if mcp_config is None and tools is None:
        from callgate._errors import UserError

        raise UserError("nothing to serve: give --mcp-config, --tools, or both")
    if config is None and Path(_SETTINGS).is_file():
        config = Path(_SETTINGS)
    settings = load_settings(config)
    upstreams = load_upstreams(mcp_config, settings=settings.servers) if mcp_config else None
    return Gateway(
        upstreams=upstreams,
        tools=load_tools(tools) if tools else (),
        policy=Policy.from_toml(policy) if policy else None,
        store=open_cli_store(store, create=True),  # the gateway keeps its own receipts
        settings=settings,
        transport="http" if transport == "http" else "stdio",
    )


async def _serve(gateway: Gateway, transport: str, host: str, port: int, ui: bool) -> None:
    from callgate.gateway import serve_http, serve_stdio

    if transport != "http":
        await serve_stdio(gateway)
    elif not ui:
        await serve_http(gateway, host=host, port=port)
    else:
        await _serve_with_page(gateway, host, port)


async def _serve_with_page(gateway: Gateway, host: str, port: int) -> None:
    """The gateway with the operator page at /ui/, outside its bearer-token check (the page
    signs people in itself) and over the gateway's own store, catalog and redactor."""
    from callgate._extras import require
    from callgate.gateway import serve_http

    require("jinja2", extra="server")
    from callgate.ui import UI_PREFIX, OperatorApp, UISettings, loopback_hosts, mount_ui

    page = OperatorApp(
        gateway.store,
        credentials=gateway.credentials,
        catalog=gateway.catalog,
        redactor=gateway.redactor,
        settings=UISettings(hosts=loopback_hosts(host)),
    )

    def announce(url: str) -> None:
        typer.echo(f"callgate gateway listening on {url}", err=True)
        typer.echo(f"callgate ui listening on {url.rsplit('/', 1)[0]}{UI_PREFIX}/", err=True)

    try:
        await serve_http(
            gateway,
            host=host,
            port=port,
            announce=announce,
            wrap=lambda app: mount_ui(app, page, prefix=UI_PREFIX),
        )
    finally:
        page.close()


def _user_error(exc: BaseException) -> BaseException | None:
    """The configuration error inside what the task groups raised, if that is what it is."""
    from callgate._errors import UserError

    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            found = _user_error(inner)
            if found is not None:
                return found
        return None
    return exc if isinstance(exc, UserError) else None


def _fail(message: str, code: int) -> NoReturn:
    typer.echo(f"error: {message.splitlines()[0] if message else 'failed'}", err=True)
    raise typer.Exit(code)
