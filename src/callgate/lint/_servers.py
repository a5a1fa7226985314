"""Catalogs of separate MCP servers, stated as such.

Shadowing (S011) is a matter between servers: one server's text must not steer the tools of
another. Which tools belong to separate servers is therefore never guessed from how files
are laid out; only a source that names its servers says so (an MCP listing keyed by server,
such as a LiveMCPBench file), or the caller, through `load_servers`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from callgate._errors import UserError
from callgate.lint._entry import moved
from callgate.lint._load import CatalogSource, LoadedCatalog, load_catalog, merge

__all__ = ["load_servers"]


def load_servers(servers: Mapping[str, CatalogSource]) -> LoadedCatalog:
    """One catalog of several servers: every tool of `servers[name]` is offered by the
    server `name` (and grouped under it), whatever its source says.

        scan(load_servers({"notes": "notes.json", "mail": "mail-tools.json"}))
    """
    if not isinstance(servers, Mapping) or not servers:
        raise UserError("load_servers takes a non-empty mapping of server name -> catalog")
    parts = []
    for name, source in servers.items():
        if not isinstance(name, str) or not name:
            raise UserError(f"server names must be non-empty strings, got {name!r}")
        catalog = load_catalog(source)
        parts.append(
            LoadedCatalog(
                source=catalog.source,
                entries=tuple(moved(e, group=name, server=name) for e in catalog.entries),
                problems=tuple(
                    p.with_location(replace(p.location, group=name)) for p in catalog.problems
                ),
            )
        )
    return merge(parts)
