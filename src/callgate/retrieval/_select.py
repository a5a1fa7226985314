"""Selection: the few tools a turn offers, and the run-long list that only grows.

Provider prompt caches key on the exact prefix of a request, and tool declarations sit
at its start: a tool list that changes from turn to turn invalidates the cache every
turn. So a run's list is sticky: tools once shown stay, in the order they were first
shown, and new ones are appended.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence

from callgate._errors import UnknownToolError
from callgate.contract import Tool
from callgate.dialects import Message
from callgate.retrieval._index import ToolFilter, ToolIndex

__all__ = ["ToolSelector", "select_tools"]


def select_tools(
    index: ToolIndex,
    query: str,
    k: int = 6,
    *,
    pinned: Iterable[str | Tool] = (),
    allowed: ToolFilter | None = None,
    context: str = "",
) -> list[Tool]:
    """The pinned tools, then the `k` best other tools for `query`.

    Pinned tools do not count against `k`, and, like every other tool, are left out
    when `allowed` rejects them: the filter decides what a principal may be offered.
    A deprecated tool that matches gives its place to its replacement when there is one;
    other deprecated tools are offered only when fewer than `k` current tools match.
    """
    chosen = {t.name: t for t in _resolve(index, pinned) if allowed is None or allowed(t)}
    found: dict[str, Tool] = {}
    reserve: list[Tool] = []
    for hit in index.ranked(query, context=context, allowed=allowed, room=k):
        if len(found) >= k:
            break
        tool = _current(index, hit.tool, allowed)
        if tool is None:
            reserve.append(hit.tool)
        elif tool.name not in chosen:
            found.setdefault(tool.name, tool)
    for tool in reserve:  # nothing else fits: deprecated tools fill the remaining places
        if len(found) >= k:
            break
        if tool.name not in chosen:
            found.setdefault(tool.name, tool)
    return [*chosen.values(), *found.values()]


def _resolve(index: ToolIndex, items: Iterable[str | Tool]) -> list[Tool]:
    tools = []
    for item in items:
        tool = item if isinstance(item, Tool) else index.get(item)
        if tool is None:
            raise UnknownToolError(str(item))
        tools.append(tool)
    return tools


def _current(index: ToolIndex, tool: Tool, allowed: ToolFilter | None) -> Tool | None:
    """`tool` itself, or the current replacement of a deprecated tool, or None."""
    if not tool.deprecated:
        return tool
    seen = {tool.name}
    replacement = index.get(tool.replacement) if tool.replacement else None
    while replacement is not None and replacement.deprecated and replacement.name not in seen:
        seen.add(replacement.name)
        replacement = index.get(replacement.replacement) if replacement.replacement else None
    if replacement is None or replacement.deprecated:
        return None
    return replacement if allowed is None or allowed(replacement) else None


class ToolSelector:
    """The tools one run offers, turn by turn: pinned, found, and revealed by tool search.

    Call `for_messages` (or `select`) before each model turn and send what it returns.
    The list only grows; `shown_names` is what to persist with a paused run, and
    `ToolSelector(..., shown=names)` restores it.
    """

    def __init__(
        self,
        index: ToolIndex,
        *,
        k: int = 6,
        pinned: Iterable[str | Tool] = (),
        allowed: ToolFilter | None = None,
        recent: int = 2,
        shown: Iterable[str] = (),
    ) -> None:
        self.index = index
        self.k = k
        self.pinned = tuple(pinned)
        self.allowed = allowed
        self.recent = recent
        """How many earlier user messages are searched as context (with a lower weight)."""
        self._shown: dict[str, Tool] = {}
        self._lock = threading.Lock()
        self.reveal([*self.pinned, *shown])

    @property
    def shown(self) -> tuple[Tool, ...]:
        """Every tool offered so far in this run, in the order first offered."""
        with self._lock:
            return tuple(self._shown.values())

    @property
    def shown_names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.shown)

    def select(self, query: str, *, context: Sequence[str] = ()) -> tuple[Tool, ...]:
        """The run's list after adding the best tools for `query` (and recent `context`)."""
        found = select_tools(
            self.index,
            query,
            self.k,
            pinned=self.pinned,
            allowed=self.allowed,
            context=" \n".join(context),
        )
        self.reveal(found)
        return self.shown

    def for_messages(self, messages: Sequence[Message]) -> tuple[Tool, ...]:
        """`select` from a transcript: its latest user message, and the ones before it."""
        said = [m.text for m in messages if m.role == "user" and m.text.strip()]
        if not said:
            return self.select("")
        earlier = said[-1 - self.recent : -1] if self.recent > 0 else []
        return self.select(said[-1], context=earlier)

    def pin(self, tool: Tool) -> None:
        """Offer `tool` on every turn from now on (it need not be in the index)."""
        if all(p is not tool and p != tool.name for p in self.pinned):
            self.pinned = (*self.pinned, tool)
        self.reveal([tool])

    def search(self, query: str, k: int) -> list[Tool]:
        """The `k` best tools for `query` that this run may be offered (nothing is revealed)."""
        return [hit.tool for hit in self.index.search(query, k, allowed=self.allowed)]

    def reveal(self, tools: Iterable[str | Tool]) -> list[Tool]:
        """Add tools to the run's list; returns those that were not in it yet.

        Tools that the filter rejects are never added, whoever asks.
        """
        added: list[Tool] = []
        for tool in _resolve(self.index, tools):
            if self.allowed is not None and not self.allowed(tool):
                continue
            with self._lock:
                if tool.name in self._shown:
                    continue
                self._shown[tool.name] = tool
            added.append(tool)
        return added
