"""The resources, templates and prompts of one upstream server, scanned and pinned.

`build` judges each listed item as the hub judges a tool: the item's pin `Tool`
(`_readables.pin_tool`) is scanned, and `PinBook.assess` pins it on first sight, or
quarantines it when it changed, carries a high finding, or has a description too long to
show. What is admitted becomes: a prompt's read tool, the server's resource reader (when
it lists any resource or template), and the URIs and templates that reader may be asked
for. `Shelf.locate` says what a gateway URI is: readable, quarantined, or nothing the
server listed (a read of that is refused: list = read).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mcp.shared.uri_template import InvalidUriTemplate, UriTemplate

from callgate._errors import UserError
from callgate.contract import Executor, Tool
from callgate.lint import LoadedCatalog, entry_from_declaration, scan
from callgate.mcp._config import ServerConfig
from callgate.mcp._connection import Connection
from callgate.mcp._pins import PinBook, Quarantined, Sighting, pin_source
from callgate.mcp._readables import Readable, pin_tool, prompt_tool, reader_tool
from callgate.mcp._results import prompt_value, resource_text
from callgate.mcp._uris import MAX_URI

__all__ = ["Built", "Located", "Shelf", "build"]

log = logging.getLogger("callgate.mcp")


@dataclass(frozen=True, kw_only=True, slots=True)
class Located:
    """What one upstream URI is, for a read."""

    item: Readable | None = None
    """The listed resource or template it is (None: nothing the server listed)."""
    held: Quarantined | None = None
    """Set when the item is quarantined."""


@dataclass(kw_only=True, slots=True)
class Shelf:
    """The admitted resources and templates of one server, and those held back."""

    resources: dict[str, Readable] = field(default_factory=dict)
    """By upstream URI."""
    templates: list[tuple[UriTemplate, Readable]] = field(default_factory=list)
    held: dict[str, Quarantined] = field(default_factory=dict)
    """Quarantined resources and templates, by pin key."""
    held_templates: list[tuple[UriTemplate, str]] = field(default_factory=list)

    def locate(self, uri: str) -> Located:
        if uri in self.resources:
            return Located(item=self.resources[uri])
        held = self.held.get(f"resource:{uri}")
        if held is not None:
            return Located(held=held)
        for template, key in self.held_templates:
            if _matches(template, uri):
                return Located(held=self.held[key])
        for template, item in self.templates:
            if _matches(template, uri):
                return Located(item=item)
        return Located()

    def signature(self) -> tuple[Any, ...]:
        return (
            tuple(sorted(self.resources)),
            tuple(str(t) for t, _ in self.templates),
            tuple(sorted(self.held)),
        )


def _matches(template: UriTemplate, uri: str) -> bool:
    return template.match(uri, max_uri_length=MAX_URI) is not None


@dataclass(kw_only=True, slots=True)
class Built:
    """What one listing of a server's resources and prompts gives the hub."""

    tools: dict[str, Tool] = field(default_factory=dict)
    """Prompt tools and the resource reader, by gate name."""
    quarantined: dict[str, Quarantined] = field(default_factory=dict)
    """Quarantined prompts, by gate name."""
    shelf: Shelf = field(default_factory=Shelf)


def build(
    server: ServerConfig,
    items: list[Readable],
    *,
    connection: Connection,
    pins: PinBook,
    max_description: int,
) -> Built:
    """Scan, pin and build every item (synchronous: call from a thread)."""
    built = Built()
    for item in items:
        try:
            pin = pin_tool(server, item)
        except UserError as exc:
            log.error(
                "server %r, %s %r left out: %s", server.name, item.kind, item.target[:80], exc
            )
            continue
        if item.kind == "prompt" and (pin.name in built.tools or pin.name in built.quarantined):
            # Two upstream names spelled alike in a gate name: the first keeps it, and the
            # other is never offered under a name a client would take for the first.
            log.error(
                "server %r, prompt %r left out: its name %r is already another prompt's",
                server.name,
                item.target[:80],
                pin.name,
            )
            continue
        reasons = _judged(server, item, pin, pins, max_description)
        if reasons:
            held = Quarantined(
                name=_shown(item, pin),
                server=server.name,
                tool=item.key,
                reasons=reasons,
                fingerprint=pin.fingerprint if not _too_long(item, max_description) else None,
                offered=pin if item.kind == "prompt" else None,
            )
            _hold(built, item, pin, held)
            continue
        _admit(built, server, item, connection)
    if built.shelf.resources or built.shelf.templates or built.shelf.held:
        reader = reader_tool(server, _reader(server, connection))
        built.tools[reader.name] = reader
    return built


def _judged(
    server: ServerConfig, item: Readable, pin: Tool, pins: PinBook, max_description: int
) -> tuple[str, ...]:
    """Why the item is held back (empty: admitted)."""
    if _too_long(item, max_description):
        size = len(str(item.declaration.get("description", "")))
        return (f"its description is {size} characters long (the limit is {max_description})",)
    entry = entry_from_declaration(_shaped(pin), group=server.name, server=server.name)
    report = scan(LoadedCatalog(source=pin_source(server.name), entries=(entry,)))

    def rebuilt(decl: Mapping[str, Any]) -> str | None:
        try:
            return pin_tool(server, dataclasses.replace(item, declaration=decl)).fingerprint
        except (UserError, ValueError, TypeError, KeyError):
            return None

    verdict = pins.assess(
        Sighting(
            server=server.name,
            tool=item.key,
            declaration=item.declaration,
            offered=pin,
            rebuilt=rebuilt,
            findings=tuple(report.findings),
        )
    )
    return () if verdict.allowed else verdict.reasons


def _too_long(item: Readable, limit: int) -> bool:
    return len(str(item.declaration.get("description", ""))) > limit


def _shaped(tool: Tool) -> dict[str, Any]:
    """The MCP tool declaration the scan reads for a pin tool."""
    return {
        "name": tool.name,
        "description": tool.description,
        "inputSchema": dict(tool.input_schema),
        "annotations": tool.annotations.to_mcp(),
    }


def _shown(item: Readable, pin: Tool) -> str:
    """How the item is named to people: the prompt's gate name, or the upstream URI."""
    return pin.name if item.kind == "prompt" else item.target


def _hold(built: Built, item: Readable, pin: Tool, held: Quarantined) -> None:
    log.warning("quarantined %s %s: %s", item.kind, held.name, "; ".join(held.reasons))
    if item.kind == "prompt":
        built.quarantined[pin.name] = dataclasses.replace(
            held, offered=dataclasses.replace(pin, executor=None)
        )
        return
    built.shelf.held[item.key] = held
    if item.kind == "template":
        template = _template(item)
        if template is not None:
            built.shelf.held_templates.append((template, item.key))


def _admit(built: Built, server: ServerConfig, item: Readable, connection: Connection) -> None:
    if item.kind == "prompt":
        tool = prompt_tool(server, item.declaration, _prompter(server, connection, item.target))
        built.tools[tool.name] = tool
    elif item.kind == "resource":
        built.shelf.resources[item.target] = item
    else:
        template = _template(item)
        if template is not None:
            built.shelf.templates.append((template, item))


def _template(item: Readable) -> UriTemplate | None:
    try:
        return UriTemplate.parse(item.target)
    except (InvalidUriTemplate, ValueError) as exc:
        log.error("resource template %r left out: %s", item.target[:80], str(exc)[:200])
        return None


def _reader(server: ServerConfig, connection: Connection) -> Executor:
    async def read(uri: str) -> str:
        result = await connection.read_resource(uri, seconds=server.settings.call_timeout + 1.0)
        return resource_text(result, server.name)

    return read


def _prompter(server: ServerConfig, connection: Connection, upstream: str) -> Executor:
    async def get(**arguments: Any) -> dict[str, Any]:
        given = {k: v if isinstance(v, str) else str(v) for k, v in arguments.items()}
        result = await connection.get_prompt(
            upstream, given, seconds=server.settings.call_timeout + 1.0
        )
        return prompt_value(result, server.name)

    return get
