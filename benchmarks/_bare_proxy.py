"""The simplest MCP proxy the SDK allows (the skeleton of the reference notes, section 2.3):
a low-level `Server` whose handlers forward to one upstream `Client`, with no gate.

    python _bare_proxy.py stdio                       # upstream: the tracker over stdio
    python _bare_proxy.py http PORT UPSTREAM_URL      # serve HTTP, upstream over HTTP
    python _bare_proxy.py http PORT stdio:SCRIPT PREFIX   # upstream: SCRIPT over stdio, with
                                                      # this environment, tools PREFIX_NAME

It is the benchmark's measure of what one more MCP hop costs, so that the gateway's own
cost (the gate, the store) can be told apart from the hop's; and the fault benchmark's
baseline: a forwarding proxy with no idempotency.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.server import Server
from mcp.server.stdio import stdio_server

TRACKER = str(Path(__file__).resolve().parents[1] / "tests" / "mcp" / "servers" / "tracker.py")
PREFIX = (sys.argv[4] if len(sys.argv) > 4 else "tracker") + "_"


def _upstream() -> Client:
    if sys.argv[1] == "http" and sys.argv[3].startswith("stdio:"):
        script = sys.argv[3].removeprefix("stdio:")
        params = StdioServerParameters(command=sys.executable, args=[script], env=dict(os.environ))
        return Client(params, cache=None)
    if sys.argv[1] == "http":
        return Client(sys.argv[3], cache=None)
    return Client(StdioServerParameters(command=sys.executable, args=[TRACKER, "stdio"]))


@asynccontextmanager
async def lifespan(_: Server[Any]) -> AsyncIterator[dict[str, Client]]:
    async with _upstream() as client:
        yield {"upstream": client}


async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> Any:
    upstream: Client = ctx.lifespan_context["upstream"]
    listed = await upstream.list_tools()
    return types.ListToolsResult(
        tools=[t.model_copy(update={"name": PREFIX + t.name}) for t in listed.tools]
    )


async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> Any:
    upstream: Client = ctx.lifespan_context["upstream"]
    return await upstream.call_tool(
        params.name.removeprefix(PREFIX), params.arguments, meta=params.meta
    )


server = Server("bare-proxy", lifespan=lifespan, on_list_tools=list_tools, on_call_tool=call_tool)


async def _stdio() -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    if sys.argv[1] == "http":
        import uvicorn

        uvicorn.run(
            server.streamable_http_app(host="127.0.0.1"),
            host="127.0.0.1",
            port=int(sys.argv[2]),
            log_level="warning",
        )
    else:
        anyio.run(_stdio)
