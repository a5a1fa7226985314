"""Every upstream server of a config: connected, listed, scanned, pinned, as callgate tools.

`Upstreams` runs one `Connection` per server. After a server connects, and whenever it
says its tools changed (or reconnects), its tools are listed again, scanned together with
every other server's (so a tool that names another server's tool is caught), checked
against their pins, and turned into `Tool`s named `PREFIX_TOOL`. Tools that changed, widen
their annotations, carry a high scan finding, collide with another name, or cannot be
compiled are quarantined: not offered, not callable, each with its reasons. A server's
resources, templates and prompts are listed with its tools and judged the same way
(`_resources.py`): prompts become read tools beside the server's tools, resources a `Shelf`
read through one reader tool.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

import anyio
import anyio.abc
import anyio.to_thread
import mcp_types

from callgate._errors import UserError
from callgate.contract import CallContext, Catalog, Effect, Tool
from callgate.gate import Reconciliation
from callgate.lint import LoadedCatalog, ToolEntry, entry_from_declaration, scan
from callgate.mcp._config import ServerConfig, ToolSettings, UpstreamConfig
from callgate.mcp._connection import Connection, UpstreamError
from callgate.mcp._declaration import declaration, gateway_tool, public_name
from callgate.mcp._pins import PinBook, Quarantined, Sighting, pin_source
from callgate.mcp._readables import Readable, readables
from callgate.mcp._resources import Built, Shelf, build
from callgate.mcp._results import outcome

__all__ = ["IDEMPOTENCY_META", "Quarantined", "Upstreams"]

log = logging.getLogger("callgate.mcp")

IDEMPOTENCY_META = "callgate/idempotency-key"
"""The `_meta` key under which a call's idempotency key is sent upstream (and read from
clients by the gateway)."""

_CONTEXT_PARAMETER = "_callgate_call"
MAX_DESCRIPTION = 20_000
"""Longer descriptions are refused: they would fill a model's context on every turn."""


@dataclass(kw_only=True, slots=True)
class _ServerTools:
    listing: list[dict[str, Any]] = field(default_factory=list)
    """Normalised declarations of the admitted tools, as last listed."""
    meta: dict[str, Any] = field(default_factory=dict)
    readables: list[Readable] = field(default_factory=list)
    """Normalised resources, templates and prompts, as last listed."""
    active: dict[str, Tool] = field(default_factory=dict)
    quarantined: dict[str, Quarantined] = field(default_factory=dict)
    shelf: Shelf = field(default_factory=Shelf)


class Upstreams:
    """The upstream servers of one config (see the module docstring).

    `reserved` names belong to the host's own tools: an upstream tool that would take one
    is a collision. `on_change` is awaited after the set of offered tools changed.
    """

    def __init__(
        self,
        config: UpstreamConfig,
        *,
        pins: PinBook,
        reserved: Collection[str] = (),
        on_change: Callable[[], Awaitable[None]] | None = None,
        errlog: TextIO | None = None,
    ) -> None:
        self.config = config
        self.pins = pins
        self.reserved = frozenset(reserved)
        self.on_change = on_change
        self.connections = {
            s.name: Connection(s, on_tools_changed=self._changed_hook(s.name), errlog=errlog)
            for s in config.servers
        }
        self._servers: dict[str, _ServerTools] = {s.name: _ServerTools() for s in config.servers}
        self._locks = {s.name: anyio.Lock() for s in config.servers}
        self._started = False

    async def run(self, *, task_status: anyio.abc.TaskStatus[None]) -> None:
        """Connect every server, list and pin its tools, then keep them up until cancelled.

        Startup fails (before `started`) on a name collision, or when every server failed
        to start; a server that failed while others started is retried in the background.
        """
        problem: UserError | None = None
        async with anyio.create_task_group() as tasks:
            for connection in self.connections.values():
                await tasks.start(connection.run)
            try:
                await self._start()
            except UserError as exc:  # raised below, outside the task group, unwrapped
                problem = exc
                tasks.cancel_scope.cancel()
            else:
                self._started = True
                task_status.started()
                await anyio.sleep_forever()
        if problem is not None:
            raise problem

    async def _start(self) -> None:
        failures = await self._wait_started()
        if self.connections and len(failures) == len(self.connections):
            raise UpstreamError("; ".join(failures))
        for name, connection in self.connections.items():
            if not connection.ready:
                continue
            try:
                await self._refresh(name, relist=True, startup=True)
            except Exception as exc:  # a server that connects but cannot list: left out
                log.error("listing the tools of %s failed: %s", name, type(exc).__name__)
        self._check_startup_collisions()

    def tools(self) -> list[Tool]:
        """The tools offered now, in config order."""
        return [t for s in self._servers.values() for t in s.active.values()]

    def quarantined(self) -> dict[str, Quarantined]:
        """Held-back tools and prompts, by gate name (resources: `shelf`)."""
        return {n: q for s in self._servers.values() for n, q in s.quarantined.items()}

    def shelf(self, server: str) -> Shelf:
        """The resources and templates `server` offers now, and those held back."""
        return self._servers[server].shelf

    def server_of(self, prefix: str) -> ServerConfig | None:
        """The server whose prefix is `prefix`."""
        return next((s for s in self.config.servers if s.prefix == prefix), None)

    async def recheck(self) -> bool:
        """Look at the pins of quarantined tools again (a person may have approved some in
        another process); True when the offered tools changed. Cheap: one pin read per
        quarantined tool, and a rebuild only of a server one of whose tools was approved."""
        changed = False
        for name, tools in self._servers.items():
            held = (*tools.quarantined.values(), *tools.shelf.held.values())
            waiting = [q for q in held if q.fingerprint is not None]
            if not waiting:
                continue
            approved = await anyio.to_thread.run_sync(self._approved, name, waiting)
            if approved:
                changed |= await self._refresh(name, relist=False)
        return changed

    def _approved(self, server: str, waiting: list[Quarantined]) -> bool:
        return any(self.pins.pinned(server, q.tool, q.fingerprint or "") for q in waiting)

    def _changed_hook(self, server: str) -> Callable[[], Awaitable[None]]:
        async def changed() -> None:
            if self._started and await self._refresh(server, relist=True):
                await self._announce()

        return changed

    async def _announce(self) -> None:
        if self.on_change is not None:
            await self.on_change()

    async def _wait_started(self) -> list[str]:
        failures: list[str] = []

        async def one(connection: Connection) -> None:
            try:
                await connection.wait_started()
            except UpstreamError as exc:
                failures.append(str(exc))

        async with anyio.create_task_group() as group:
            for connection in self.connections.values():
                group.start_soon(one, connection)
        return failures

    async def _refresh(self, name: str, *, relist: bool, startup: bool = False) -> bool:
        """List (when `relist`), scan, pin and build the tools of one server; True when
        what is offered changed."""
        async with self._locks[name]:
            server = self.config.server(name)
            state = self._servers[name]
            if relist:
                listed = await self.connections[name].list_tools()
                state.listing, state.meta = _admitted(server, listed)
                state.readables = await self._readables(name)
            before = (dict(state.active), dict(state.quarantined), state.shelf.signature())
            active, held = await anyio.to_thread.run_sync(self._build, server, state.listing)
            built = await anyio.to_thread.run_sync(self._build_readables, server, state.readables)
            state.active = {**active, **built.tools}
            state.quarantined = {**held, **built.quarantined}
            state.shelf = built.shelf
            if not startup:
                self._quarantine_runtime_collisions(name)
            for q in state.quarantined.values():
                if q.name not in before[1]:
                    log.warning("quarantined %s: %s", q.name, "; ".join(q.reasons))
            return (
                before[0].keys() != state.active.keys()
                or any(before[0][k].fingerprint != t.fingerprint for k, t in state.active.items())
                or before[1].keys() != state.quarantined.keys()
                or before[2] != state.shelf.signature()
            )

    async def _readables(self, name: str) -> list[Readable]:
        """The resources, templates and prompts of a server (none when listing them
        fails: its tools are still offered)."""
        connection = self.connections[name]
        try:
            return readables(
                await connection.list_resources(),
                await connection.list_resource_templates(),
                await connection.list_prompts(),
            )
        except Exception as exc:  # a server whose tools work but whose other lists do not
            log.error(
                "listing the resources and prompts of %s failed: %s", name, type(exc).__name__
            )
            return []

    def _build_readables(self, server: ServerConfig, items: list[Readable]) -> Built:
        return build(
            server,
            items,
            connection=self.connections[server.name],
            pins=self.pins,
            max_description=MAX_DESCRIPTION,
        )

    def _build(
        self, server: ServerConfig, listing: list[dict[str, Any]]
    ) -> tuple[dict[str, Tool], dict[str, Quarantined]]:
        entries = [
            entry_from_declaration(d, group=server.name, server=server.name) for d in listing
        ]
        report = scan(LoadedCatalog(source=pin_source(server.name), entries=self._context(entries)))
        active: dict[str, Tool] = {}
        held: dict[str, Quarantined] = {}
        for decl, entry in zip(listing, entries, strict=True):
            upstream = entry.name
            try:
                name = public_name(server, upstream)
            except UserError as exc:
                log.error("%s", exc)
                continue
            problem = self._unusable(server, decl, entry)
            if problem:
                held[name] = Quarantined(
                    name=name, server=server.name, tool=upstream, reasons=problem
                )
                continue
            tool = self._tool(server, decl)
            findings = tuple(
                f for f in report.findings if f.location.group == server.name and f.tool == upstream
            )
            verdict = self.pins.assess(
                Sighting(
                    server=server.name,
                    tool=upstream,
                    declaration=decl,
                    offered=tool,
                    rebuilt=self._rebuilt(server),
                    findings=findings,
                )
            )
            if not verdict.allowed:
                held[name] = Quarantined(
                    name=name,
                    server=server.name,
                    tool=upstream,
                    reasons=verdict.reasons,
                    fingerprint=tool.fingerprint,
                    offered=dataclasses.replace(tool, executor=None),
                )
            elif not server.settings.read_only or tool.effect is Effect.READ:
                active[name] = tool
        return active, held

    def _rebuilt(self, server: ServerConfig) -> Callable[[Mapping[str, Any]], str | None]:
        def fingerprint(decl: Mapping[str, Any]) -> str | None:
            try:
                return gateway_tool(server, decl, None, meta=None).fingerprint
            except (UserError, ValueError, TypeError, KeyError):
                return None

        return fingerprint

    def _context(self, own: list[ToolEntry]) -> tuple[ToolEntry, ...]:
        """The server's entries and every other server's, for cross-server checks."""
        group = own[0].group if own else None
        others = [
            entry_from_declaration(d, group=n, server=n)
            for n, s in self._servers.items()
            if n != group
            for d in s.listing
        ]
        return (*own, *others)

    def _unusable(
        self, server: ServerConfig, decl: Mapping[str, Any], entry: ToolEntry
    ) -> tuple[str, ...]:
        """Why no tool can be made of a declaration (then there is nothing to pin)."""
        if entry.unreadable:
            return tuple(f"cannot be used: {reason}" for _, reason in entry.unreadable)
        schema = decl.get("inputSchema")
        if isinstance(schema, Mapping) and _CONTEXT_PARAMETER in (schema.get("properties") or {}):
            return (f"its schema uses the reserved parameter name {_CONTEXT_PARAMETER!r}",)
        size = len(str(decl.get("description", "")))
        if size > MAX_DESCRIPTION:
            return (f"its description is {size} characters long (the limit is {MAX_DESCRIPTION})",)
        try:
            Catalog([self._tool(server, decl)])
        except (UserError, ValueError, TypeError) as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            return (f"it cannot be used: {first[:300]}",)
        return ()

    def _tool(self, server: ServerConfig, decl: Mapping[str, Any]) -> Tool:
        connection = self.connections[server.name]
        upstream = str(decl["name"])
        meta = self._servers[server.name].meta.get(upstream)
        tool: Tool | None = None

        async def run(_callgate_call: CallContext, **arguments: Any) -> Any:
            assert tool is not None
            key = _callgate_call.idempotency_key
            result = await connection.call(
                upstream,
                arguments,
                seconds=(tool.timeout or server.settings.call_timeout) + 1.0,
                meta={IDEMPOTENCY_META: key} if key else None,
                changes_state=tool.effect is not Effect.READ,
            )
            return outcome(result, server.name)

        settings = server.settings.for_tool(upstream)
        reconcile = _reconciler(connection, server, settings) if settings.reconcile else None
        tool = gateway_tool(server, decl, run, meta=meta, reconcile=reconcile)
        return tool

    def _check_startup_collisions(self) -> None:
        owners: dict[str, str] = {n: "the host's own tools" for n in self.reserved}
        for server, state in self._servers.items():
            for name in (*state.active, *state.quarantined):
                other = owners.setdefault(name, f"server {server!r}")
                if other != f"server {server!r}":
                    raise UserError(
                        f"tool name {name!r} is claimed by {other} and by server {server!r}; "
                        "give one of the servers another prefix"
                    )

    def _quarantine_runtime_collisions(self, server: str) -> None:
        state = self._servers[server]
        taken = set(self.reserved)
        for other, tools in self._servers.items():
            if other != server:
                taken |= set(tools.active) | set(tools.quarantined)
        for name in [n for n in state.active if n in taken]:
            tool = state.active.pop(name)
            state.quarantined[name] = Quarantined(
                name=name,
                server=server,
                tool=str(tool.metadata.get("mcp_name", name)),
                reasons=(f"its name {name!r} is already taken by another tool",),
            )


def _reconciler(
    connection: Connection, server: ServerConfig, settings: ToolSettings
) -> Callable[[str], Awaitable[Reconciliation]]:
    """The reconcile hook of a write: asks the server's status tool about a key."""
    assert settings.reconcile is not None
    status_tool, argument = settings.reconcile, settings.reconcile_argument

    async def reconcile(key: str) -> Reconciliation:
        result = await connection.call(
            status_tool,
            {argument: key},
            seconds=server.settings.call_timeout,
            meta=None,
            changes_state=False,
        )
        return reconciliation(result)

    return reconcile


def reconciliation(result: mcp_types.CallToolResult) -> Reconciliation:
    """What a status tool's answer says; anything unclear is `unknown` (never re-run)."""
    if result.is_error:
        return "unknown"
    answer: Any = result.structured_content
    if isinstance(answer, Mapping):
        answer = answer.get("applied", answer.get("status"))
    elif answer is None:
        texts = [b.text for b in result.content if isinstance(b, mcp_types.TextContent)]
        answer = texts[0].strip().lower() if len(texts) == 1 else None
        answer = {"true": True, "false": False}.get(answer, answer) if answer else None
    if answer is True or answer == "applied":
        return "applied"
    if answer is False or answer == "not_applied":
        return "not_applied"
    return "unknown"


def _admitted(
    server: ServerConfig, listed: list[mcp_types.Tool]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Normalised declarations of the tools the allow and deny lists let through."""
    declarations: list[dict[str, Any]] = []
    meta: dict[str, Any] = {}
    seen: set[str] = set()
    for tool in listed:
        if not server.settings.admits(tool.name) or tool.name in seen:
            continue
        seen.add(tool.name)
        declarations.append(declaration(tool))
        if tool.meta:
            meta[tool.name] = dict(tool.meta)
    return declarations, meta
