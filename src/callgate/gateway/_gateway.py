"""The gateway: one MCP server in front of upstream MCP servers and the host's own tools,
with every call through the gate.

List = call: `tools/list` offers a caller the tools that the policy could let it call
(`callgate.retrieval.policy_filter`, the same filter tool search uses); quarantined tools
are offered to nobody and refused to everybody. A call becomes a `ToolCall` routed by
`Gate.call` under the caller's `Context`; its idempotency key derives from the caller, the
tool, the arguments and the client's `_meta` idempotency key, so a client that repeats a
call (after a decision, after a lost connection) gets the outcome of the first one.

The run of a call (what the Rule of Two tracks, what a grant covers, what an approval is
bound to) is the principal's: MCP 2026-07-28 has no sessions, and a repeat must find its
approval whichever connection it arrives on.
"""

from __future__ import annotations

import logging
import re
import time
import weakref
from collections.abc import Iterable, Mapping
from typing import Any, Literal, TextIO

import anyio
import anyio.abc
import mcp_types
from mcp.server import Server
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.models import InitializationOptions
from mcp.server.session import ServerSession
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ToolsListChanged
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_REQUEST
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from callgate import __version__
from callgate.contract import Catalog, Context, Tool, ToolCall
from callgate.dialects import render_tools
from callgate.gate import Gate, Policy, Redactor
from callgate.gateway._identity import Credentials, Identity
from callgate.gateway._results import quarantined_result, to_call_result
from callgate.gateway._settings import GatewaySettings
from callgate.mcp import IDEMPOTENCY_META, PinBook, UpstreamConfig, Upstreams
from callgate.retrieval import policy_filter
from callgate.schema import content_hash
from callgate.store import Store, open_store

__all__ = ["Gateway", "GatewayTransport", "request_id"]

log = logging.getLogger("callgate.gateway")

GatewayTransport = Literal["stdio", "http"]
_MIN_SECRET = 8
"""Expanded values shorter than this are not treated as secrets to redact everywhere (a
default such as `info` would blank out every occurrence of the word)."""
_RECHECK_SECONDS = 2.0


class Gateway:
    """An MCP server that routes every call through one `Gate` (see the module docstring).

    `store` defaults to the embedded SQLite file `callgate.db`; `policy` to `Policy()`
    (reads allowed, writes and irreversible calls held for a person).
    """

    def __init__(
        self,
        *,
        upstreams: UpstreamConfig | None = None,
        tools: Catalog | Iterable[Tool] = (),
        policy: Policy | None = None,
        store: Store | str = "sqlite:///callgate.db",
        settings: GatewaySettings | None = None,
        transport: GatewayTransport = "stdio",
        redactor: Redactor | None = None,
        errlog: TextIO | None = None,
    ) -> None:
        self.settings = settings or GatewaySettings()
        self.transport: GatewayTransport = transport
        self.store = open_store(store) if isinstance(store, str) else store
        self._owns_store = isinstance(store, str)
        local = tools if isinstance(tools, Catalog) else Catalog(tools)
        self._local = {t.name: t for t in local}
        secrets = self.settings.secrets | (upstreams.secrets if upstreams else frozenset())
        self.redactor = redactor or _redactor(secrets)
        self.policy = policy or Policy()
        self.catalog = Catalog(local)
        self.gate = Gate(self.catalog, policy=self.policy, store=self.store, redactor=self.redactor)
        self.pins = PinBook(self.store)
        self.upstreams = (
            Upstreams(
                upstreams,
                pins=self.pins,
                reserved=self._local,
                on_change=self._tools_changed,
                errlog=errlog,
            )
            if upstreams is not None
            else None
        )
        self.bus = InMemorySubscriptionBus()
        self.server = _Server(
            "callgate",
            version=__version__,
            instructions=(
                "Tools behind callgate: every call is validated, authorized and recorded; "
                "writes may wait for a person's approval."
            ),
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            on_subscriptions_listen=ListenHandler(self.bus),
        )
        # Handshake-era clients, by connection: a request's `ServerSession` is made per
        # request, but it notifies on its connection's stream, which outlives the request.
        self._sessions: weakref.WeakKeyDictionary[Any, ServerSession] = weakref.WeakKeyDictionary()
        self._rechecked = 0.0

    @property
    def credentials(self) -> Credentials:
        return self.settings.credentials

    async def run(self, *, task_status: anyio.abc.TaskStatus[None]) -> None:
        """Start the upstream servers and keep the catalog in step with them; `started`
        once every tool is listed and pinned (startup errors are raised before that)."""
        async with anyio.create_task_group() as tasks:
            if self.upstreams is not None:
                await tasks.start(self.upstreams.run)
            self._sync_catalog()
            task_status.started()
            while True:  # approvals of quarantined tools made by other processes
                await anyio.sleep(_RECHECK_SECONDS * 5)
                await self._recheck(force=True)

    def close(self) -> None:
        self.gate.close()
        if self._owns_store:
            self.store.close()

    def visible(self, context: Context) -> list[Tool]:
        """The tools `context` is offered: those the policy could let it call."""
        allowed = policy_filter(self.policy, context)
        return [t for t in self.catalog if allowed(t)]

    def identity(self) -> Identity:
        """The caller of the request being handled."""
        if self.transport == "stdio":
            return self.settings.stdio
        token = get_access_token()
        identity = self.credentials.by_key(token.token) if token is not None else None
        if identity is None:  # the HTTP middleware lets no such request through
            raise MCPError(INVALID_REQUEST, "unauthenticated request")
        return identity

    async def _list_tools(
        self, ctx: ServerRequestContext[Any, Any], params: mcp_types.PaginatedRequestParams | None
    ) -> mcp_types.ListToolsResult:
        self._remember(ctx)
        await self._recheck()
        context = self.identity().context(_run_id(self.identity()))
        return mcp_types.ListToolsResult(tools=_mcp_tools(self.visible(context)))

    async def _call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: mcp_types.CallToolRequestParams
    ) -> mcp_types.CallToolResult:
        self._remember(ctx)
        identity = self.identity()
        held = await self._quarantine_of(params.name)
        if held is not None:
            return held
        arguments = params.arguments or {}
        call = ToolCall(
            id=str(ctx.request_id or params.name), name=params.name, arguments=arguments
        )
        meta = dict(params.meta or {})
        result = await self.gate.call(
            call,
            context=identity.context(_run_id(identity)),
            request_id=request_id(identity, params.name, arguments, meta.get(IDEMPOTENCY_META)),
        )
        return to_call_result(result)

    async def _quarantine_of(self, name: str) -> mcp_types.CallToolResult | None:
        if self.upstreams is None:
            return None
        if name in self.upstreams.quarantined():
            await self._recheck(force=True)
        found = self.upstreams.quarantined().get(name)
        if found is None:
            return None
        log.warning("refused quarantined tool %s: %s", name, "; ".join(found.reasons))
        return quarantined_result(name, found.reasons, found.server, found.tool)

    async def _recheck(self, *, force: bool = False) -> None:
        now = time.monotonic()
        if self.upstreams is None or (not force and now - self._rechecked < _RECHECK_SECONDS):
            return
        self._rechecked = now
        if await self.upstreams.recheck():
            await self._tools_changed()

    async def _tools_changed(self) -> None:
        self._sync_catalog()
        await self.bus.publish(ToolsListChanged())
        for connection, session in list(self._sessions.items()):
            try:
                await session.send_tool_list_changed()
            except Exception as exc:  # a client that went away
                log.debug("list_changed not delivered: %s", exc)
                self._sessions.pop(connection, None)

    def _sync_catalog(self) -> None:
        wanted = dict(self._local)
        if self.upstreams is not None:
            wanted.update({t.name: t for t in self.upstreams.tools()})
        for name in self.catalog.names:
            if name not in wanted:
                self.catalog.remove(name)
        for name, tool in wanted.items():
            if self.catalog.resolve(name) is not tool:
                self.catalog.add(tool, replace=True)

    def _remember(self, ctx: ServerRequestContext[Any, Any]) -> None:
        if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            # The SDK exposes the per-connection object only on the session.
            connection = getattr(ctx.session, "_connection", None)
            if connection is not None:
                self._sessions[connection] = ctx.session


class _Server(Server[Any]):
    """The SDK's low-level server, announcing `tools.listChanged` on every transport."""

    def create_initialization_options(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
    ) -> InitializationOptions:
        return super().create_initialization_options(
            notification_options or NotificationOptions(tools_changed=True),
            experimental_capabilities,
            extensions,
        )


def request_id(identity: Identity, tool: str, arguments: Mapping[str, Any], key: Any) -> str:
    """The request id the gate keys a write by: the caller, the tool, the arguments and the
    client's own idempotency key (when it sends one in `_meta`)."""
    try:
        digest = content_hash(dict(arguments))
    except (TypeError, ValueError):
        digest = content_hash(repr(arguments))
    client_key = key if isinstance(key, str) and len(key) <= 256 else None
    material = {
        "tenant": identity.tenant,
        "principal": identity.principal,
        "tool": tool,
        "arguments": digest,
        "key": client_key,
    }
    return "mcp-" + content_hash(material)[:32]


def _run_id(identity: Identity) -> str:
    return f"mcp:{identity.principal}"


def _mcp_tools(tools: list[Tool]) -> list[mcp_types.Tool]:
    if not tools:
        return []
    rendered = render_tools(tools, "mcp").payload["tools"]
    out = []
    for tool, wire in zip(tools, rendered, strict=True):
        meta = tool.metadata.get("mcp_meta")
        if meta:
            wire = {**wire, "_meta": meta}
        out.append(mcp_types.Tool.model_validate(wire))
    return out


def _redactor(secrets: frozenset[str]) -> Redactor:
    long_enough = sorted((s for s in secrets if len(s) >= _MIN_SECRET), key=len, reverse=True)
    return Redactor(patterns=tuple(re.escape(s) for s in long_enough))
