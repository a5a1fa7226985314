"""`tool_search`: a tool the model calls to find and load more tools during a run.

The search only changes which tools are *offered*: it never runs a found tool, never
offers a tool the run's filter rejects, and every later call of a found tool goes
through the gate like any other call (resolve, validate, authorize, approve, ...).
"""

from __future__ import annotations

from typing import Any

from callgate.contract import Effect, Tool, ToolAnnotations
from callgate.retrieval._select import ToolSelector

__all__ = ["search_tool"]

_SUMMARY_CHARS = 160
_MAX_RESULTS = 10


def search_tool(
    selector: ToolSelector,
    *,
    name: str = "tool_search",
    k: int = 5,
    description: str | None = None,
    pin: bool = True,
) -> Tool:
    """A read-only tool that searches `selector`'s index and reveals what it finds.

    Found tools join the run's list (`selector.shown`) and stay there, so the model can
    call them from its next turn on. With `pin` (the default) the search tool itself is
    pinned in `selector`, so the model always has it. Add it to the gate's catalog too:
    its calls are routed like any other.
    """
    k = max(1, min(k, _MAX_RESULTS))

    def run(query: str, limit: int = k) -> dict[str, Any]:
        found = [
            t for t in selector.search(query, min(max(limit, 1), _MAX_RESULTS)) if t.name != name
        ]
        added = {t.name for t in selector.reveal(found)}
        return {
            "tools": [
                {"name": t.name, "description": _summary(t.description), "new": t.name in added}
                for t in found
            ],
            "note": (
                "These tools are now available: call them by name."
                if found
                else "No tool matches; try other words, or tell the user it cannot be done."
            ),
        }

    search = Tool(
        name=name,
        description=description
        or (
            "Search the catalog for tools by what they do, and make the ones found "
            "available for the rest of this conversation. Use it when none of the "
            "available tools fits the task."
        ),
        input_schema={
            "type": "object",
            "properties": {
                "query": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": selector.index.settings.max_query_chars,
                    "description": "What the tool should do, in a few words "
                    "(e.g. 'convert currency').",
                },
                "limit": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": _MAX_RESULTS,
                    "default": k,
                    "description": "How many tools to return.",
                },
            },
            "required": ["query"],
            "additionalProperties": False,
        },
        executor=run,
        effect=Effect.READ,
        annotations=ToolAnnotations(
            title="Tool search", read_only=True, idempotent=False, open_world=False
        ),
        tags=("search", "tools"),
    )
    if pin:
        selector.pin(search)
    return search


def _summary(text: str) -> str:
    text = " ".join(text.split())
    if len(text) <= _SUMMARY_CHARS:
        return text
    return text[: _SUMMARY_CHARS - 1].rstrip() + "…"
