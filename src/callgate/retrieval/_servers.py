"""Any catalog a user has: tools of many MCP servers, under names the gate can use.

Real catalogs repeat names across servers (`search` on five servers) and use names no
model API accepts (`Summarize Detection`, `math/add`, 80 characters). Each declaration
is indexed as it was declared (its own name and its server go into its card) under a
gate name that every provider accepts and that is unique in the catalog:
`server_tool`, with unusable characters turned into `_`, and a short hash of the
original when the name had to be cut or would collide.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from callgate._errors import UserError
from callgate.contract import Tool, tool_from_declaration

__all__ = ["ServerTools", "gate_name", "server_tools"]

_UNUSABLE = re.compile(r"[^A-Za-z0-9_-]+")
_LIMIT = 64


@dataclass(frozen=True, kw_only=True, slots=True)
class ServerTools:
    """Tools made from the declarations of several servers, and what could not be used."""

    tools: tuple[Tool, ...]
    """Each with `metadata["server"]` and `metadata["source_name"]` (the declared name)."""
    skipped: tuple[tuple[str, str, str], ...] = field(default=())
    """(server, declared name, reason) of each declaration that is not a usable tool."""


def gate_name(server: str, name: str, taken: Iterable[str] = ()) -> str:
    """A name every model API accepts for tool `name` of `server`, not in `taken`."""
    base = _UNUSABLE.sub("_", f"{server}_{name}" if server else name).strip("_-") or "tool"
    used = set(taken)
    if len(base) <= _LIMIT and base not in used:
        return base
    for attempt in range(1000):
        digest = hashlib.sha256(f"{server}\0{name}\0{attempt}".encode()).hexdigest()[:8]
        candidate = f"{base[: _LIMIT - 9]}_{digest}"
        if candidate not in used:
            return candidate
    raise UserError(f"no free gate name for tool {name!r} of server {server!r}")


def server_tools(servers: Mapping[str, Iterable[Mapping[str, Any]]]) -> ServerTools:
    """Tools of every server's declarations (MCP `tools/list` entries or any dialect).

    A declaration that cannot become a tool (no name, a schema that is not an object)
    is reported in `skipped`; the others are kept, duplicates across servers included.
    """
    tools: list[Tool] = []
    skipped: list[tuple[str, str, str]] = []
    taken: set[str] = set()
    for server, declarations in servers.items():
        for decl in declarations:
            body = _body(decl)
            if body is None:
                skipped.append((server, "", "not a JSON object"))
                continue
            declared = body.get("name")
            if not isinstance(declared, str) or not declared.strip():
                skipped.append((server, str(declared), "no tool name"))
                continue
            name = gate_name(server, declared, taken)
            try:
                made = tool_from_declaration(
                    _renamed(decl, name),
                    metadata={"server": server, "source_name": declared},
                )
            except UserError as exc:
                skipped.append((server, declared, str(exc)))
                continue
            taken.add(name)
            tools.append(made)
    return ServerTools(tools=tuple(tools), skipped=tuple(skipped))


def _body(decl: Any) -> Mapping[str, Any] | None:
    """The part of a declaration that holds its name (OpenAI chat nests it)."""
    if not isinstance(decl, Mapping):
        return None
    inner = decl.get("function")
    return inner if decl.get("type") == "function" and isinstance(inner, Mapping) else decl


def _renamed(decl: Mapping[str, Any], name: str) -> dict[str, Any]:
    inner = decl.get("function")
    if decl.get("type") == "function" and isinstance(inner, Mapping):
        return {**decl, "function": {**inner, "name": name}}
    return {**decl, "name": name}
