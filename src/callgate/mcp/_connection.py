"""One upstream server: its process or HTTP session, kept alive, restarted when it dies.

A supervisor task owns the SDK `Client` (anyio requires the task that entered a client to
leave it): it connects within the server's startup timeout, watches the transport's read
stream to learn at once that the process died or the session ended, and reconnects with
exponential backoff. The SDK's stdio transport starts each server in its own process group
and kills the whole group when the client closes, so closing the supervisor reaps every
child. Calls run on whichever connection is live; a call never waits for a restart.
"""

from __future__ import annotations

import logging
import math
import random
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from types import TracebackType
from typing import Any, Literal, TextIO, cast

import anyio
import anyio.abc
import mcp_types
import pydantic
from mcp import Client, MCPError, StdioServerParameters
from mcp.client._transport import TransportStreams
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.message import SessionMessage
from mcp_types import CONNECTION_CLOSED
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from callgate._errors import ToolError, TransientError, UserError
from callgate.mcp._config import ServerConfig

__all__ = ["Connection", "ConnectionState", "UpstreamError"]

log = logging.getLogger("callgate.mcp")

ConnectionState = Literal["starting", "ready", "restarting", "closed"]
MAX_PAGES = 100
"""`*/list` pages read at most (a server whose cursor never ends cannot hang a listing)."""
MAX_LISTED = 2_000
"""Tools, resources, templates or prompts kept of one server's listing."""
_STABLE_SECONDS = 5.0


class UpstreamError(UserError):
    """An upstream server could not be started or reached (the message names it)."""


class Connection:
    """A live connection to one upstream server (see the module docstring)."""

    def __init__(
        self,
        server: ServerConfig,
        *,
        on_tools_changed: Callable[[], Awaitable[None]],
        errlog: TextIO | None = None,
        backoff: tuple[float, float] = (0.2, 30.0),
    ) -> None:
        self.server = server
        self._on_tools_changed = on_tools_changed
        self._errlog = errlog or sys.stderr
        self._backoff = backoff
        self.state: ConnectionState = "starting"
        self.failure: str | None = None
        """Why the last attempt to connect failed, for people."""
        self.restarts = 0
        self._client: Client | None = None
        self._first = anyio.Event()
        self._stop = anyio.Event()
        self._scope: anyio.CancelScope | None = None
        self._done = anyio.Event()

    async def run(self, *, task_status: anyio.abc.TaskStatus[None]) -> None:
        """Supervise the connection until `close`; `started` once the first attempt ended."""
        attempt = 0
        task_status.started()
        with anyio.CancelScope() as scope:
            self._scope = scope
            try:
                while not self._stop.is_set():
                    began = anyio.current_time()
                    connected = await self._session()
                    # A server that dies right after starting is backed off like one that
                    # never starts, so a crash loop cannot spin.
                    lived = anyio.current_time() - began
                    attempt = 0 if connected and lived >= _STABLE_SECONDS else attempt + 1
                    if self._stop.is_set():
                        break
                    self.state = "restarting"
                    self.restarts += 1
                    await self._sleep(_delay(attempt, *self._backoff))
            finally:
                self.state = "closed"
                self.failure = self.failure or "closed before it was connected"
                self._first.set()
                self._done.set()

    @property
    def ready(self) -> bool:
        return self._client is not None

    async def wait_started(self) -> None:
        """Until the first attempt connected or failed (`failure` says why)."""
        await self._first.wait()
        if self._client is None:
            raise UpstreamError(f"upstream server {self.server.describe()}: {self.failure}")

    async def close(self) -> None:
        self._stop.set()
        if self._scope is not None:
            self._scope.cancel()
        with anyio.move_on_after(10):
            await self._done.wait()

    async def list_tools(self) -> list[mcp_types.Tool]:
        """Every tool the server lists, page by page."""
        return await self._listed("tools", "list_tools", "tools")

    async def list_resources(self) -> list[mcp_types.Resource]:
        """Every resource the server lists (none when it offers no resources)."""
        return await self._listed("resources", "list_resources", "resources")

    async def list_resource_templates(self) -> list[mcp_types.ResourceTemplate]:
        return await self._listed("resources", "list_resource_templates", "resource_templates")

    async def list_prompts(self) -> list[mcp_types.Prompt]:
        return await self._listed("prompts", "list_prompts", "prompts")

    async def _listed(self, capability: str, method: str, field: str) -> list[Any]:
        """Page through one `*/list` method of a server that declares `capability`."""
        client = self._live()
        if getattr(client.server_capabilities, capability, None) is None:
            return []
        items: list[Any] = []
        cursor: str | None = None
        with anyio.fail_after(self.server.settings.startup_timeout):
            for _ in range(MAX_PAGES):
                page = await getattr(client, method)(cursor=cursor, cache_mode="bypass")
                items.extend(getattr(page, field))
                cursor = page.next_cursor
                if cursor is None or len(items) > MAX_LISTED:
                    break
        return items[:MAX_LISTED]

    async def read_resource(self, uri: str, *, seconds: float) -> mcp_types.ReadResourceResult:
        """Read `uri` upstream; failures become `ToolError`s that name the server."""
        client = self._live()
        with self._upstream_errors("the read"):
            with anyio.fail_after(seconds):
                return await client.read_resource(uri, cache_mode="bypass")
        raise AssertionError("unreachable")  # pragma: no cover

    async def get_prompt(
        self, name: str, arguments: dict[str, str], *, seconds: float
    ) -> mcp_types.GetPromptResult:
        client = self._live()
        with self._upstream_errors("the prompt"):
            with anyio.fail_after(seconds):
                return await client.get_prompt(name, arguments)
        raise AssertionError("unreachable")  # pragma: no cover

    @contextmanager
    def _upstream_errors(self, what: str) -> Iterator[None]:
        """A read's failures as `ToolError`s (a lost connection is transient: reads retry)."""
        where = f"upstream server {self.server.name!r}"
        try:
            yield
        except MCPError as exc:
            if exc.code == CONNECTION_CLOSED:
                raise self._lost_during_call(False) from None
            raise ToolError(f"{where} refused {what}: {exc.message[:500]}") from None
        except TimeoutError:
            raise ToolError(f"{where} did not answer {what} in time") from None
        except (pydantic.ValidationError, RuntimeError):
            raise ToolError(f"{where} returned a malformed answer to {what}") from None

    async def call(
        self,
        name: str,
        arguments: dict[str, Any],
        *,
        seconds: float,
        meta: dict[str, Any] | None,
        changes_state: bool,
    ) -> mcp_types.CallToolResult:
        """Call `name` upstream. Failures that are not the tool's own become `ToolError`s
        that say where they came from; the upstream's own `isError` result is returned."""
        client = self._live()
        try:
            return await client.call_tool(
                name,
                arguments,
                read_timeout_seconds=seconds,
                meta=cast(mcp_types.RequestParamsMeta, meta) if meta else None,
            )
        except MCPError as exc:
            if exc.code == CONNECTION_CLOSED:
                raise self._lost_during_call(changes_state) from None
            raise ToolError(
                f"upstream server {self.server.name!r} refused the call: {exc.message[:500]}"
            ) from None
        except RuntimeError as exc:  # the SDK's own output-schema check of the result
            raise ToolError(
                f"upstream server {self.server.name!r} returned a result that breaks the "
                f"tool's declared output schema ({str(exc)[:300]})"
            ) from None
        except pydantic.ValidationError:
            raise ToolError(
                f"upstream server {self.server.name!r} returned a malformed result"
            ) from None

    def _live(self) -> Client:
        client = self._client
        if client is None:
            why = f" ({self.failure})" if self.failure else ""
            raise TransientError(
                f"upstream server {self.server.name!r} is not connected{why}; it is being restarted"
            )
        return client

    def _lost_during_call(self, changes_state: bool) -> ToolError:
        where = f"upstream server {self.server.name!r}"
        if not changes_state:
            return TransientError(f"the connection to {where} was lost during the call")
        return ToolError(
            f"the connection to {where} was lost while the call was in flight: it may or may "
            "not have taken effect. Do not call it again; check its state first"
        )

    async def _session(self) -> bool:
        """One connection, from start to loss; True when it got connected."""
        lost = anyio.Event()
        timeout = self.server.settings.startup_timeout
        connected = False
        try:
            # The deadline covers starting and the handshake only; the scope stays open
            # around the client because anyio scopes must nest.
            with anyio.CancelScope(deadline=anyio.current_time() + timeout) as scope:
                async with self._open(lost) as client:
                    scope.deadline = math.inf
                    connected = True
                    await self._serve(client, lost)
        except Exception as exc:  # spawn errors, refused connections, bad handshakes
            if not connected:
                self._failed(_reason(exc, self.server))
                return False
            log.warning(
                "upstream server %s failed: %s", self.server.name, _reason(exc, self.server)
            )
        finally:
            self._client = None
        if not connected:
            self._failed(f"did not start and answer within {timeout:g}s")
        return connected

    async def _serve(self, client: Client, lost: anyio.Event) -> None:
        self._client, self.failure, self.state = client, None, "ready"
        first = not self._first.is_set()
        self._first.set()
        if not first:
            log.warning("upstream server %s reconnected", self.server.name)
            await self._notify()
        async with anyio.create_task_group() as tasks:
            if client.protocol_version in MODERN_PROTOCOL_VERSIONS and _announces(client):
                tasks.start_soon(self._listen, client, lost)
            await _first_of(lost.wait, self._stop.wait)
            tasks.cancel_scope.cancel()
        self._client = None
        if not self._stop.is_set():
            log.warning("upstream server %s went away; restarting", self.server.name)

    def _open(self, lost: anyio.Event) -> Client:
        return Client(
            _watched(self._transport(), lost),
            message_handler=self._message,
            cache=None,
            read_timeout_seconds=self.server.settings.call_timeout * 4,
        )

    @asynccontextmanager
    async def _transport(self) -> AsyncIterator[TransportStreams]:
        server = self.server
        if server.transport == "http":
            assert server.url is not None
            http = create_mcp_http_client(headers=dict(server.headers))
            async with http, streamable_http_client(server.url, http_client=http) as streams:
                yield streams
            return
        assert server.command is not None
        params = StdioServerParameters(
            command=server.command, args=list(server.args), env=dict(server.env), cwd=server.cwd
        )
        async with stdio_client(params, errlog=self._errlog) as streams:
            yield streams

    async def _message(self, message: Any) -> None:
        if isinstance(message, _LIST_CHANGED):
            await self._notify()

    async def _listen(self, client: Client, lost: anyio.Event) -> None:
        """2026-07-28 servers announce changes on a `subscriptions/listen` stream."""
        while not lost.is_set():
            try:
                async with client.listen(
                    tools_list_changed=True,
                    prompts_list_changed=_has(client, "prompts"),
                    resources_list_changed=_has(client, "resources"),
                ) as subscription:
                    async for _event in subscription:
                        await self._notify()
            except Exception as exc:  # a dropped stream: listen again (no replay, so re-list)
                log.info("listen stream of %s ended: %s", self.server.name, type(exc).__name__)
            await self._sleep(1.0)
            await self._notify()

    async def _notify(self) -> None:
        try:
            await self._on_tools_changed()
        except Exception as exc:  # one bad refresh must not take the connection down
            # No traceback: this logger is not behind the gate's redaction, so only text
            # with the server's secrets taken out is logged.
            log.error(
                "refreshing the tools of %s failed: %s", self.server.name, _reason(exc, self.server)
            )

    def _failed(self, reason: str) -> None:
        self.failure = reason
        log.error("upstream server %s: %s", self.server.describe(), reason)
        self._first.set()

    async def _sleep(self, seconds: float) -> None:
        with anyio.move_on_after(seconds):
            await self._stop.wait()


@asynccontextmanager
async def _watched(inner: Any, lost: anyio.Event) -> AsyncIterator[TransportStreams]:
    """The transport's streams, with the end of the read stream reported on `lost`."""
    try:
        async with inner as (read, write):
            yield _WatchedRead(read, lost), write
    finally:
        lost.set()


class _WatchedRead:
    """Forwards a transport's read stream; sets `lost` when it ends."""

    def __init__(self, inner: Any, lost: anyio.Event) -> None:
        self._inner = inner
        self._lost = lost

    async def receive(self) -> SessionMessage | Exception:
        try:
            item: SessionMessage | Exception = await self._inner.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            self._lost.set()
            raise
        return item

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self) -> _WatchedRead:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            raise StopAsyncIteration from None

    async def __aenter__(self) -> _WatchedRead:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()


_LIST_CHANGED = (
    mcp_types.ToolListChangedNotification,
    mcp_types.PromptListChangedNotification,
    mcp_types.ResourceListChangedNotification,
)
"""A server's list changed: its tools, prompts and resources are listed again."""


def _has(client: Client, capability: str) -> bool:
    return getattr(client.server_capabilities, capability, None) is not None


def _announces(client: Client) -> bool:
    tools = client.server_capabilities.tools
    return bool(tools and tools.list_changed)


async def _first_of(*waits: Callable[[], Awaitable[Any]]) -> None:
    async with anyio.create_task_group() as group:

        async def one(wait: Callable[[], Awaitable[Any]]) -> None:
            await wait()
            group.cancel_scope.cancel()

        for wait in waits:
            group.start_soon(one, wait)


def _delay(attempt: int, base: float, cap: float) -> float:
    """Full-jitter exponential backoff."""
    return random.uniform(0, min(cap, base * 2**attempt))


def _reason(exc: BaseException, server: ServerConfig) -> str:
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(_reason(e, server) for e in exc.exceptions[:3])
    text = f"{type(exc).__name__}: {exc}"[:300]
    for secret in sorted(server.secrets, key=len, reverse=True):
        text = text.replace(secret, "[REDACTED]")
    return text
