"""The host's own tools, served by `callgate serve --tools tests.gateway.local_tools:catalog`."""

from __future__ import annotations

from callgate import Catalog, tool


@tool(effect="read", namespace="notes")
def search(query: str) -> list[str]:
    """Search the team's notes. Use when the user asks what was written down."""
    return [f"note about {query}"]


catalog = Catalog([search])
