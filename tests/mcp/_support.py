"""Helpers for tests that run real MCP servers: the tracker server, free ports, processes."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from pathlib import Path
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from callgate.gateway import Gateway

TRACKER = str(Path(__file__).parent / "servers" / "tracker.py")
LIBRARY = str(Path(__file__).parent / "servers" / "library.py")
ROOT = Path(__file__).resolve().parents[2]
WAIT = 30.0


def tracker(env: Mapping[str, str] | None = None, **settings: Any) -> dict[str, Any]:
    """A stdio `mcpServers` entry that starts the tracker server."""
    entry: dict[str, Any] = {
        "command": sys.executable,
        "args": [TRACKER, "stdio"],
        "env": dict(env or {}),
    }
    if settings:
        entry["callgate"] = settings
    return entry


def library(env: Mapping[str, str] | None = None, **settings: Any) -> dict[str, Any]:
    """A stdio `mcpServers` entry that starts the library server (calls time out in 2 s)."""
    return {
        "command": sys.executable,
        "args": [LIBRARY, "stdio"],
        "env": dict(env or {}),
        "callgate": {"call_timeout": 2, **settings},
    }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def http_tracker(env: Mapping[str, str] | None = None) -> Iterator[str]:
    """The tracker over streamable HTTP on 127.0.0.1; yields its URL."""
    port = free_port()
    child = subprocess.Popen(
        [sys.executable, TRACKER, "http", str(port)],
        env={**os.environ, **(env or {})},
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, child)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        child.terminate()
        child.wait(WAIT)


def wait_for_port(port: int, child: subprocess.Popen[Any]) -> None:
    """Until something listens on 127.0.0.1:`port` (fails when `child` exits first)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if child.poll() is not None:
            raise RuntimeError(f"server exited with {child.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on port {port}")


@contextlib.asynccontextmanager
async def running(gateway: Gateway) -> AsyncIterator[Gateway]:
    """The gateway started in this event loop (upstreams connected and pinned)."""
    async with anyio.create_task_group() as tasks:
        await tasks.start(gateway.run)
        try:
            yield gateway
        finally:
            tasks.cancel_scope.cancel()


async def startup_error(run: Any) -> BaseException:
    """What `run` (a `task_status` coroutine function) raised before it started."""
    try:
        async with anyio.create_task_group() as tasks:
            await tasks.start(run)
            tasks.cancel_scope.cancel()
    except BaseException as exc:
        while isinstance(exc, BaseExceptionGroup):
            exc = exc.exceptions[0]
        return exc
    raise AssertionError("it started")


async def eventually(predicate: Any, seconds: float = WAIT) -> None:
    """Wait until `predicate()` holds (state changed by other tasks or processes)."""
    with anyio.fail_after(seconds):
        while not predicate():  # noqa: ASYNC110 - polls state no event announces
            await anyio.sleep(0.05)


def callgate_command() -> list[str]:
    """How to run the `callgate` command line of this checkout."""
    script = shutil.which("callgate", path=str(Path(sys.executable).parent))
    return [script] if script else [sys.executable, "-c", "from callgate.cli import main; main()"]


def http_client(url: str, token: str | None, **options: Any) -> Client:
    """The SDK `Client` over streamable HTTP with a bearer token; `options` go to `Client`
    (`mode`, `elicitation_callback`, ...)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    http = create_mcp_http_client(headers=headers)
    return Client(_owned(url, http), **options)


@contextlib.asynccontextmanager
async def _owned(url: str, http: httpx2.AsyncClient) -> AsyncIterator[Any]:
    async with http, streamable_http_client(url, http_client=http) as streams:
        yield streams


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead for our purposes
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_until(predicate: Any, seconds: float = WAIT) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return bool(predicate())
