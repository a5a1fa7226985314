"""The gateway: one MCP server in front of upstream MCP servers and the host's own tools,
with every call through the gate.

List = call: `tools/list` offers a caller the tools that the policy could let it call
(`callgate.retrieval.policy_filter`, the same filter tool search uses); quarantined tools
are offered to nobody and refused to everybody (`Gate.refuse`, with a receipt). A call
becomes a `ToolCall` routed by `Gate.call` under the caller's `Context`; its idempotency
key derives from the caller, the run, the tool, the arguments and the client's `_meta`
idempotency key, so a client that repeats a call (after a decision, after a lost
connection, on another gateway process) gets the outcome of the first one. Everything a
repeat needs (claims, approvals, labels, pins, counters, receipts) is in the store, so any
number of gateway processes on one database serve the same clients with no affinity.

A held call is asked of a client that can elicit (`_elicitation.py`); the run of a call is
`_runs.py`'s; rate limits and budgets are a policy hook over the store (`_limits.py`).
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
import anyio.to_thread
import mcp_types
from mcp.server import Server
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.models import InitializationOptions
from mcp.server.session import ServerSession
from mcp.server.subscriptions import (
    InMemorySubscriptionBus,
    ListenHandler,
    PromptsListChanged,
    ResourcesListChanged,
    ToolsListChanged,
)
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, INVALID_REQUEST
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from callgate import __version__
from callgate.contract import Catalog, Context, Route, Tool, ToolCall, ToolResult
from callgate.dialects import render_tools
from callgate.gate import Gate, Policy, Redactor, Refusal, UntrustedResults
from callgate.gateway._elicitation import Elicitation, Held, can_elicit, is_held
from callgate.gateway._identity import CallerToken, Credentials, Identity
from callgate.gateway._limits import CallLimits, with_limits
from callgate.gateway._readables import Readables
from callgate.gateway._results import to_call_result
from callgate.gateway._runs import RUN_PREFIX, request_id, run_id, run_of
from callgate.gateway._settings import GatewaySettings
from callgate.lint import scan_text
from callgate.mcp import IDEMPOTENCY_META, PinBook, Quarantined, UpstreamConfig, Upstreams
from callgate.mcp._readables import KIND_META
from callgate.mcp._resources import Shelf
from callgate.retrieval import policy_filter
from callgate.store import AsyncStore, Store, StoreError, open_store

__all__ = ["QUARANTINE_RULE", "Gateway", "GatewayTransport"]

log = logging.getLogger("callgate.gateway")

GatewayTransport = Literal["stdio", "http"]
_MIN_SECRET = 8
"""Expanded values shorter than this are not treated as secrets to redact everywhere (a
default such as `info` would blank out every occurrence of the word)."""
_RECHECK_SECONDS = 2.0
QUARANTINE_RULE = "gateway:quarantine"
NOT_A_TOOL_RULE = "gateway:not-a-tool"
MAX_CLIENT_KEY = 256


class Gateway:
    """An MCP server that routes every call through one `Gate` (see the module docstring).

    `store` defaults to the embedded SQLite file `callgate.db`; `policy` to `Policy()`
    (reads allowed, writes and irreversible calls held for a person); `untrusted` to
    spotlighting and the scan's detector (`S012`, a long text, is no evidence in a result):
    a high finding in an untrusted result holds the run's later acting calls.
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
        untrusted: UntrustedResults | None = None,
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
        """The policy as given: what `tools/list` filters by (limits decide per call)."""
        self.catalog = Catalog(local)
        self.io = AsyncStore(self.store)
        self.limits = CallLimits(self.settings.limits, self.io)
        self.gate = Gate(
            self.catalog,
            policy=with_limits(self.policy, self.limits),
            store=self.store,
            redactor=self.redactor,
            untrusted=untrusted or UntrustedResults(detector=scan_text, ignore={"S012"}),
            lease_margin=self.settings.lease_margin,
        )
        self.elicitation = Elicitation(
            self.gate, self.io, timeout=self.settings.elicitation_timeout
        )
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
        readables = Readables(self)
        self.server = _Server(
            "callgate",
            version=__version__,
            instructions=(
                "Tools behind callgate: every call is validated, authorized and recorded; "
                "writes may wait for a person's approval."
            ),
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            on_list_prompts=readables.list_prompts,
            on_get_prompt=readables.get_prompt,
            on_list_resources=readables.list_resources,
            on_list_resource_templates=readables.list_resource_templates,
            on_read_resource=readables.read_resource,
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
            tasks.start_soon(self._maintain)
            task_status.started()
            while True:  # approvals of quarantined tools made by other processes
                await anyio.sleep(_RECHECK_SECONDS * 5)
                await self.recheck(force=True)

    def close(self) -> None:
        self.gate.close()
        self.io.close()
        if self._owns_store:
            self.store.close()

    def visible(self, context: Context) -> list[Tool]:
        """The tools `context` is offered: those the policy could let it call."""
        return [t for t in self.offered(context) if KIND_META not in t.metadata]

    def offered(self, context: Context) -> list[Tool]:
        """Every call `context` is offered: its tools, and the read calls that stand for
        upstream prompts and resources (`callgate.mcp._readables`)."""
        allowed = policy_filter(self.policy, context)
        held = self.upstreams.quarantined() if self.upstreams is not None else {}
        return [t for t in self.catalog if t.name not in held and allowed(t)]

    def shelf(self, server: str) -> Shelf:
        """The resources and templates `server` offers now."""
        return self.upstreams.shelf(server) if self.upstreams is not None else Shelf()

    async def forget_idle_runs(self) -> list[str]:
        """End the gateway runs idle for `run_idle` seconds (see `_runs.py`)."""
        since = time.time() - self.settings.run_idle
        return await self.io.run(self.store.labels.forget_idle, RUN_PREFIX, since)

    async def _maintain(self) -> None:
        """Idle runs ended and spent counters dropped, now and then (any process may)."""
        every = max(0.05, min(60.0, self.settings.run_idle / 4))
        while True:
            try:
                await self.forget_idle_runs()
                await self.io.run(self.store.counters.purge)
            except StoreError as exc:  # the next round tries again
                log.warning("store maintenance failed: %s", exc)
            await anyio.sleep(every)

    def identity(self) -> Identity:
        """The caller of the request being handled."""
        if self.transport == "stdio":
            return self.settings.stdio
        token = get_access_token()
        if not isinstance(token, CallerToken):  # the HTTP middleware lets none through
            raise MCPError(INVALID_REQUEST, "unauthenticated request")
        return token.identity

    async def _list_tools(
        self, ctx: ServerRequestContext[Any, Any], params: mcp_types.PaginatedRequestParams | None
    ) -> mcp_types.ListToolsResult:
        self.remember(ctx)
        await self.recheck()
        identity = self.identity()
        context = identity.context(run_id(identity, None))
        return mcp_types.ListToolsResult(tools=_mcp_tools(self.visible(context)))

    async def _call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: mcp_types.CallToolRequestParams
    ) -> mcp_types.CallToolResult | mcp_types.InputRequiredResult:
        self.remember(ctx)
        identity = self.identity()
        meta = dict(params.meta or {})
        key = _client_key(meta)
        context = identity.context(run_of(identity, meta))
        arguments = params.arguments or {}
        call = ToolCall(
            id=str(ctx.request_id or params.name), name=params.name, arguments=arguments
        )
        refused = await self._refuse_quarantined(call, context)
        if refused is not None:
            return to_call_result(refused)
        rid = request_id(identity, params.name, arguments, key, run=context.run_id)
        result = await self.gate.call(call, context=context, request_id=rid)
        if is_held(result) and self.settings.elicitation and identity.elicit and can_elicit(ctx):
            held = Held(
                call=call, context=context, request_id=rid, result=result,
                source=self._source(params.name),
            )  # fmt: skip
            asked = await self.elicitation.ask(ctx, held, params)
            if isinstance(asked, mcp_types.InputRequiredResult):
                return asked
            result = asked
        tool = self.catalog.resolve(params.name)
        return to_call_result(
            result,
            retry_after=self._retry_after(result),
            output_schema=tool is not None and tool.output_schema is not None,
        )

    async def _refuse_quarantined(self, call: ToolCall, context: Context) -> ToolResult | None:
        """The refusal (with its receipt) of a call to a quarantined tool."""
        if self.upstreams is None:
            return None
        if call.name in self.upstreams.quarantined():
            await self.recheck(force=True)
        found = self.upstreams.quarantined().get(call.name)
        tool = self.catalog.resolve(call.name)
        if found is not None:
            return await self.gate.refuse(call, self.refusal(found), context=context)
        if tool is not None and KIND_META in tool.metadata:  # a prompt's or resources' read
            refusal = Refusal(
                kind="unavailable",
                rule_id=NOT_A_TOOL_RULE,
                detail="it is not a tool; it is read with prompts/get or resources/read",
            )
            return await self.gate.refuse(call, refusal, context=context)
        return None

    def refusal(self, found: Quarantined) -> Refusal:
        """The refusal of a call to something quarantined."""
        why = "; ".join(found.reasons) or "it is not approved"
        log.warning("refused quarantined %s: %s", found.name, why)
        detail = (
            f"it is quarantined ({why}); an operator must review it "
            f"(`callgate pins show {found.server}/{found.tool}`)"
        )
        return Refusal(kind="unavailable", rule_id=QUARANTINE_RULE, detail=detail)

    def _retry_after(self, result: ToolResult) -> float | None:
        if result.route is not Route.DENIED:
            return None
        return self.limits.retry_after(result.rule_id)

    def _source(self, name: str) -> str | None:
        tool = self.catalog.resolve(name)
        return tool.source if tool is not None else None

    async def recheck(self, *, force: bool = False) -> None:
        """Pick up approvals of quarantined items made elsewhere (at most every 2 s)."""
        now = time.monotonic()
        if self.upstreams is None or (not force and now - self._rechecked < _RECHECK_SECONDS):
            return
        self._rechecked = now
        if await self.upstreams.recheck():
            await self._tools_changed()

    async def _tools_changed(self) -> None:
        self._sync_catalog()
        for event in (ToolsListChanged(), PromptsListChanged(), ResourcesListChanged()):
            await self.bus.publish(event)
        for connection, session in list(self._sessions.items()):
            try:
                await session.send_tool_list_changed()
                await session.send_prompt_list_changed()
                await session.send_resource_list_changed()
            except Exception as exc:  # a client that went away
                log.debug("list_changed not delivered: %s", exc)
                self._sessions.pop(connection, None)

    def _sync_catalog(self) -> None:
        wanted = dict(self._local)
        if self.upstreams is not None:
            wanted.update({t.name: t for t in self.upstreams.tools()})
            # Quarantined tools stay known to the gate, without an executor: a refusal's
            # receipt names their server and the fingerprint that was refused.
            for name, held in self.upstreams.quarantined().items():
                if held.offered is not None and name not in wanted:
                    wanted[name] = held.offered
        for name in self.catalog.names:
            if name not in wanted:
                self.catalog.remove(name)
        for name, tool in wanted.items():
            if self.catalog.resolve(name) is not tool:
                self.catalog.add(tool, replace=True)

    def remember(self, ctx: ServerRequestContext[Any, Any]) -> None:
        """Keep a handshake-era client's session, to tell it when lists change."""
        if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            # The SDK exposes the per-connection object only on the session.
            connection = getattr(ctx.session, "_connection", None)
            if connection is not None:
                self._sessions[connection] = ctx.session


class _Server(Server[Any]):
    """The SDK's low-level server, announcing `listChanged` of tools, prompts and resources
    on every transport."""

    def create_initialization_options(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
    ) -> InitializationOptions:
        return super().create_initialization_options(
            notification_options
            or NotificationOptions(
                tools_changed=True, prompts_changed=True, resources_changed=True
            ),
            experimental_capabilities,
            extensions,
        )


def _client_key(meta: Mapping[str, Any]) -> str | None:
    """The client's idempotency key; a malformed one is refused, never ignored (two
    different writes would otherwise share the key of their arguments)."""
    key = meta.get(IDEMPOTENCY_META)
    if key is None:
        return None
    if not isinstance(key, str) or not 0 < len(key) <= MAX_CLIENT_KEY or not key.isprintable():
        raise MCPError(
            INVALID_PARAMS,
            f"_meta[{IDEMPOTENCY_META!r}] must be a string of 1 to {MAX_CLIENT_KEY} printable "
            "characters",
        )
    return key


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
