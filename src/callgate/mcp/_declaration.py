"""An upstream MCP tool as a declaration: normalised for pinning, then a callgate `Tool`.

Normalising applies the spec's annotation defaults (`readOnlyHint` false, `destructiveHint`
true, `idempotentHint` false, `openWorldHint` true; the last three said nothing when a
tool is read-only), so a server that sometimes omits a hint and sometimes sends its default
value always produces the same fingerprint. `_meta`, icons and `execution` are not part
of the pinned contract: they do not change what a model is told or what the call does.

Public names are `PREFIX_TOOL` (dots become `_`): a name depends only on its own server,
so adding a server never renames anything.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import mcp_types

from callgate._errors import UserError
from callgate.contract import Executor, Label, Tool, check_name, tool_from_declaration
from callgate.mcp._config import ServerConfig

__all__ = [
    "HINT_DEFAULTS",
    "declaration",
    "default_labels",
    "gateway_tool",
    "public_name",
    "widened",
]

HINT_DEFAULTS: Mapping[str, bool] = {
    "readOnlyHint": False,
    "destructiveHint": True,
    "idempotentHint": False,
    "openWorldHint": True,
}

# (hint, from, to): flips that let the gate trust a tool more than before.
_WIDENING = (
    ("readOnlyHint", False, True),
    ("destructiveHint", True, False),
    ("idempotentHint", False, True),
    ("openWorldHint", True, False),
)


def declaration(tool: mcp_types.Tool) -> dict[str, Any]:
    """The MCP declaration of `tool` with annotations normalised to the spec's defaults."""
    raw = tool.model_dump(by_alias=True, mode="json", exclude_none=True)
    given = raw.get("annotations") or {}
    hints = {k: given[k] if isinstance(given.get(k), bool) else d for k, d in HINT_DEFAULTS.items()}
    if hints["readOnlyHint"]:
        del hints["destructiveHint"], hints["idempotentHint"]
    title = raw.get("title") or given.get("title")
    out: dict[str, Any] = {
        "name": raw["name"],
        "description": raw.get("description") or "",
        "inputSchema": raw.get("inputSchema") or {"type": "object"},
        "annotations": hints if not title else {**hints, "title": title},
    }
    if title:
        out["title"] = title
    if raw.get("outputSchema") is not None:
        out["outputSchema"] = raw["outputSchema"]
    return out


def widened(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """The hints of `new` that trust the tool more than `old` did (normalised declarations)."""
    before = _hints(old)
    after = _hints(new)
    return [
        f"{hint}: {str(a).lower()} -> {str(b).lower()}"
        for hint, a, b in _WIDENING
        if before.get(hint, HINT_DEFAULTS[hint]) is a and after.get(hint, HINT_DEFAULTS[hint]) is b
    ]


def public_name(server: ServerConfig, tool: str) -> str:
    """`PREFIX_TOOL`; `UserError` when it cannot be a tool name every model API accepts."""
    name = f"{server.prefix}_{re.sub(r'[^A-Za-z0-9_-]', '_', tool)}"
    try:
        return check_name(name)
    except UserError as exc:
        raise UserError(f"server {server.name!r}, tool {tool[:80]!r}: {exc}") from None


def gateway_tool(
    server: ServerConfig,
    decl: Mapping[str, Any],
    executor: Executor | None,
    *,
    meta: Mapping[str, Any] | None,
    reconcile: Executor | None = None,
) -> Tool:
    """The callgate `Tool` that stands for one upstream tool (schemas compiled by the
    caller). Its fingerprint is the tool's pin, and what its receipts record."""
    upstream = str(decl["name"])
    settings = server.settings.for_tool(upstream)
    hints = _hints(decl)
    return tool_from_declaration(
        {**decl, "name": public_name(server, upstream)},
        executor,
        effect=settings.effect,
        namespace=server.prefix,
        timeout=settings.timeout or server.settings.call_timeout,
        labels=frozenset(default_labels(server, settings.labels, hints)),
        source=server.name,
        reconcile=reconcile,
        metadata={
            "mcp_server": server.name,
            "mcp_name": upstream,
            "mcp_meta": dict(meta or {}),
        },
    )


def default_labels(
    server: ServerConfig, tool_labels: tuple[Label, ...] | None, hints: Mapping[str, Any]
) -> tuple[Label, ...]:
    """The labels given for the tool, else the server's, else `untrusted_output` for a remote
    or open-world server."""
    if tool_labels is not None:
        return tool_labels
    if server.settings.labels is not None:
        return server.settings.labels
    open_world = hints.get("openWorldHint", HINT_DEFAULTS["openWorldHint"])
    return ("untrusted_output",) if server.remote or open_world else ()


def _hints(decl: Mapping[str, Any]) -> dict[str, Any]:
    hints = decl.get("annotations")
    return dict(hints) if isinstance(hints, Mapping) else {}
