"""Upstream resources and prompts as the gate sees them: read `Tool`s, pinned like tools.

- **Prompts.** Prompt `NAME` of the server with prefix `P` is offered downstream as
  `P_NAME` (the tools' naming: it depends only on its own server) and is, to the gate, the
  read tool `prompt-P_NAME`, whose input schema is the prompt's arguments (strings, their
  titles and descriptions kept). A prompt and a tool of one name are two names to the gate,
  and the gate names of prompts take part in the tools' collision checks.
- **Resources.** A server's resources are read through one read tool, `resources-P`,
  whose one argument is the upstream URI: a policy, a limit or a receipt speaks of the
  server, and the receipt's arguments say which URI was read.
- **Pins.** Each listed resource, template and prompt is pinned (and scanned) as a `Tool`
  of the read it allows: a prompt as its own tool; a resource or template as the reader's
  name with the listing's description and title, and its URI (or template), name and media
  type as constants of the schema. A model reads all of that, so a change to any of it is
  a change of fingerprint, judged by the same `PinBook` as a tool. What changes without
  meaning anything to a model (a resource's size, its `lastModified` and other annotations,
  icons, `_meta`) is left out, so a file that grows is no rug pull.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import mcp_types

from callgate.contract import Executor, Tool, check_name, tool_from_declaration
from callgate.mcp._config import ServerConfig
from callgate.mcp._declaration import default_labels, public_name
from callgate.mcp._uris import MAX_URI

__all__ = [
    "KIND_META",
    "PROMPT_TOOL_PREFIX",
    "RESOURCE_TOOL_PREFIX",
    "Readable",
    "ReadableKind",
    "pin_tool",
    "prompt_tool",
    "readables",
    "reader_name",
    "reader_tool",
]

PROMPT_TOOL_PREFIX = "prompt-"
RESOURCE_TOOL_PREFIX = "resources-"
KIND_META = "mcp_kind"
"""`Tool.metadata` key: `prompt` or `resources` for the gate's tools of this module (they
are never offered in `tools/list`)."""

ReadableKind = Literal["resource", "template", "prompt"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Readable:
    """One listed resource, resource template or prompt of an upstream server."""

    kind: ReadableKind
    key: str
    """Its pin's name under the server (`resource:URI`, `template:TEMPLATE`,
    `prompt:NAME`): never a tool's name, which has no `:`."""
    declaration: Mapping[str, Any]
    """What the server listed, normalised (only what a model reads)."""

    @property
    def name(self) -> str:
        return str(self.declaration["name"])

    @property
    def target(self) -> str:
        """The upstream URI, URI template or prompt name."""
        field = {"resource": "uri", "template": "uriTemplate", "prompt": "name"}[self.kind]
        return str(self.declaration[field])


def readables(
    resources: Iterable[mcp_types.Resource],
    templates: Iterable[mcp_types.ResourceTemplate],
    prompts: Iterable[mcp_types.Prompt],
) -> list[Readable]:
    """The normalised listing of a server, first of each key kept; a URI, template or name
    longer than `MAX_URI` is left out."""
    listed: list[tuple[ReadableKind, str, Any]] = [
        *(("resource", r.uri, r) for r in resources),
        *(("template", t.uri_template, t) for t in templates),
        *(("prompt", p.name, p) for p in prompts),
    ]
    items = [
        Readable(kind=k, key=f"{k}:{key}", declaration=_declared(x))
        for k, key, x in listed
        if len(key) <= MAX_URI  # a longer URI could never be read through the gateway
    ]
    unique: dict[str, Readable] = {}
    for item in items:
        unique.setdefault(item.key, item)
    return list(unique.values())


_KEPT = ("name", "title", "description", "uri", "uriTemplate", "mimeType")


def _declared(
    listed: mcp_types.Resource | mcp_types.ResourceTemplate | mcp_types.Prompt,
) -> dict[str, Any]:
    raw = listed.model_dump(by_alias=True, mode="json", exclude_none=True)
    out: dict[str, Any] = {k: raw[k] for k in _KEPT if raw.get(k) is not None}
    out["description"] = raw.get("description") or ""
    if isinstance(listed, mcp_types.Prompt):
        out["arguments"] = [
            {
                k: v
                for k, v in {
                    "name": a.name,
                    "title": a.title,
                    "description": a.description or "",
                    "required": bool(a.required),
                }.items()
                if v is not None
            }
            for a in listed.arguments or ()
        ]
    return out


def reader_name(server: ServerConfig) -> str:
    return check_name(f"{RESOURCE_TOOL_PREFIX}{server.prefix}")


def reader_tool(server: ServerConfig, executor: Executor | None) -> Tool:
    """The gate's read tool for every resource of `server` (its argument: the upstream URI)."""
    schema = {
        "type": "object",
        "properties": {"uri": {"type": "string", "minLength": 1, "maxLength": MAX_URI}},
        "required": ["uri"],
        "additionalProperties": False,
    }
    return _read_tool(
        server,
        name=reader_name(server),
        description=f"Reads a resource of the MCP server {server.name!r}.",
        schema=schema,
        executor=executor,
        kind="resources",
    )


def prompt_tool(server: ServerConfig, decl: Mapping[str, Any], executor: Executor | None) -> Tool:
    """The gate's read tool for one prompt; `UserError` when its name cannot be one."""
    arguments = list(decl.get("arguments") or ())
    properties = {
        str(a["name"]): {
            "type": "string",
            **{k: a[k] for k in ("title", "description") if a.get(k)},
        }
        for a in arguments
    }
    schema = {
        "type": "object",
        "properties": properties,
        "required": [str(a["name"]) for a in arguments if a.get("required")],
        "additionalProperties": False,
    }
    name = f"{PROMPT_TOOL_PREFIX}{public_name(server, str(decl['name']))}"
    return _read_tool(
        server,
        name=check_name(name),
        description=str(decl.get("description") or ""),
        schema=schema,
        executor=executor,
        kind="prompt",
        title=decl.get("title"),
        upstream=str(decl["name"]),
        declaration=decl,
    )


def pin_tool(server: ServerConfig, item: Readable) -> Tool:
    """The `Tool` `item` is pinned and scanned as (no executor: it is never called)."""
    decl = item.declaration
    if item.kind == "prompt":
        return prompt_tool(server, decl, None)
    field = "uri" if item.kind == "resource" else "uriTemplate"
    constants = {k: {"const": decl[k]} for k in (field, "name", "mimeType") if k in decl}
    return _read_tool(
        server,
        name=reader_name(server),
        description=str(decl.get("description") or ""),
        schema={"type": "object", "properties": constants},
        executor=None,
        kind="resources",
        title=decl.get("title"),
    )


def _read_tool(
    server: ServerConfig,
    *,
    name: str,
    description: str,
    schema: Mapping[str, Any],
    executor: Executor | None,
    kind: str,
    title: Any = None,
    upstream: str | None = None,
    declaration: Mapping[str, Any] | None = None,
) -> Tool:
    hints: dict[str, Any] = {"readOnlyHint": True, "openWorldHint": True}
    if title:
        hints["title"] = str(title)
    return tool_from_declaration(
        {
            "name": name,
            "description": description,
            "inputSchema": dict(schema),
            "annotations": hints,
        },
        executor,
        effect="read",
        timeout=server.settings.call_timeout,
        labels=frozenset(default_labels(server, None, hints)),
        source=server.name,
        metadata={
            "mcp_server": server.name,
            "mcp_name": upstream or name,
            KIND_META: kind,
            "mcp_declaration": dict(declaration or {}),
        },
    )
