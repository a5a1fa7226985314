"""`callgate ui`: the operator's page (approvals inbox, receipts journal) in a browser."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from callgate.cli._store_option import StoreOpt

if TYPE_CHECKING:
    from callgate.ui import OperatorApp

__all__ = ["ui"]

_SETTINGS = "callgate.toml"


def ui(
    store: StoreOpt = None,
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            help=f"callgate.toml whose [[gateway.clients]] may sign in: role approver decides, "
            f"role auditor reads (default ./{_SETTINGS} when present).",
        ),
    ] = None,
    tools: Annotated[
        str | None,
        typer.Option(
            "--tools",
            help="MODULE:ATTR naming the tool catalog, to edit held calls' arguments "
            "(checked against each tool's schema); without it editing is not offered.",
        ),
    ] = None,
    anchor: Annotated[
        str | None,
        typer.Option(
            "--anchor", metavar="SEQ:HASH", help="A chain head published earlier to verify against."
        ),
    ] = None,
    host: Annotated[str, typer.Option("--host", help="Address to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port (0: any free port).")] = 8766,
) -> None:
    """Serve the approvals inbox and the receipts journal of a store to a browser."""
    from callgate._errors import UserError
    from callgate._extras import require

    for module in ("starlette", "jinja2", "uvicorn", "mcp"):  # mcp: the gateway's clients
        require(module, extra="server")

    import anyio

    from callgate.cli._run import load_tools
    from callgate.cli._store_option import open_cli_store
    from callgate.gateway import load_settings
    from callgate.ui import OperatorApp, UISettings, loopback_hosts

    if config is None and Path(_SETTINGS).is_file():
        config = Path(_SETTINGS)
    if config is None:
        raise UserError(
            f"nobody could sign in: give --config {_SETTINGS} with [[gateway.clients]] "
            'holding roles = ["approver"] (or "auditor") and a token'
        )
    settings = load_settings(config)
    if not len(settings.credentials):
        raise UserError(f"{config}: no [[gateway.clients]] with a token, so nobody could sign in")
    catalog = load_tools(tools) if tools else None
    hosts = loopback_hosts(host)
    if hosts is None:
        typer.echo(
            f"warning: serving plain HTTP on {host}; put a TLS proxy in front (cookies are "
            "marked Secure only over HTTPS)",
            err=True,
        )
    with open_cli_store(store) as opened:
        app = OperatorApp(
            opened,
            credentials=settings.credentials,
            catalog=catalog,
            settings=UISettings(anchor=anchor, hosts=hosts),
        )
        try:
            anyio.run(_serve, app, host, port)
        finally:
            app.close()


async def _serve(app: OperatorApp, host: str, port: int) -> None:
    from callgate.ui import serve_ui

    await serve_ui(app, host=host, port=port)
