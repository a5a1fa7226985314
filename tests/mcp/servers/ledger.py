"""A ledger as a real MCP server over stdio (the SDK's low-level `Server`): a write whose
side effect is counted outside callgate, in a SQLite file every server process shares.

    LEDGER_DB=/tmp/ledger.db python ledger.py

Tools:
    append(entry)            one row per call (the side effect), with the idempotency key
                             the call carried in `_meta["callgate/idempotency-key"]`
    status(idempotency_key)  {"applied": true|false}: whether a row with that key exists
                             (what `reconcile` asks after a write of unknown outcome)
    count()                  {"rows": N}

Environment: LEDGER_DB (required); LEDGER_DELAY, seconds: `append` waits a random time up
to this before and after writing, so a process killed during a call dies before the
write, during it, or after it; LEDGER_PIDDIR gets an empty file named by this process's
pid (to check that no server outlives its gateway).
"""

from __future__ import annotations

import contextlib
import os
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.server import Server
from mcp.server.stdio import stdio_server

DB = os.environ.get("LEDGER_DB", "")
DELAY = float(os.environ.get("LEDGER_DELAY", "0"))


def _connect() -> sqlite3.Connection:
    conn = sqlite3.connect(DB, timeout=30, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(
        "CREATE TABLE IF NOT EXISTS ledger (id INTEGER PRIMARY KEY, entry TEXT, key TEXT,"
        " pid INTEGER, at REAL)"
    )
    return conn


def _tools() -> list[types.Tool]:
    return [
        types.Tool(
            name="append",
            description="Append an entry to the ledger.",
            input_schema={
                "type": "object",
                "properties": {"entry": {"type": "string"}},
                "required": ["entry"],
                "additionalProperties": False,
            },
            output_schema={
                "type": "object",
                "properties": {"row": {"type": "integer"}},
                "required": ["row"],
            },
            annotations=types.ToolAnnotations(destructive_hint=False, open_world_hint=False),
        ),
        types.Tool(
            name="status",
            description="Whether a write with this idempotency key is in the ledger.",
            input_schema={
                "type": "object",
                "properties": {"idempotency_key": {"type": "string"}},
                "required": ["idempotency_key"],
            },
            annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False),
        ),
        types.Tool(
            name="count",
            description="How many rows the ledger has.",
            input_schema={"type": "object"},
            annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False),
        ),
    ]


def _result(data: dict[str, Any]) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=str(data))], structured_content=data
    )


async def list_tools(_ctx: Any, _params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=_tools())


async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    args = params.arguments or {}
    with contextlib.closing(_connect()) as conn:
        if params.name == "append":
            await anyio.sleep(random.uniform(0, DELAY))
            key = (params.meta or {}).get("callgate/idempotency-key")
            cursor = conn.execute(
                "INSERT INTO ledger (entry, key, pid, at) VALUES (?, ?, ?, ?)",
                (str(args.get("entry")), key, os.getpid(), time.time()),
            )
            await anyio.sleep(random.uniform(0, DELAY))
            return _result({"row": int(cursor.lastrowid or 0)})
        if params.name == "status":
            found = conn.execute(
                "SELECT 1 FROM ledger WHERE key = ?", (str(args.get("idempotency_key")),)
            ).fetchone()
            return _result({"applied": found is not None})
        if params.name == "count":
            (rows,) = conn.execute("SELECT count(*) FROM ledger").fetchone()
            return _result({"rows": int(rows)})
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=f"unknown tool {params.name}")],
        is_error=True,
    )


server = Server("ledger", on_list_tools=list_tools, on_call_tool=call_tool)


async def main() -> None:
    if os.environ.get("LEDGER_PIDDIR"):
        (Path(os.environ["LEDGER_PIDDIR"]) / str(os.getpid())).touch()
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
