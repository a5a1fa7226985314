"""Which tool a name written in text means: aliases, dotted groups, source names, case."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from callgate.contract import Tool
from callgate.dialects._aliases import Aliases

__all__ = ["Mention", "Mentions", "Names"]

_PREFIXES = ("functions.", "function.", "tools.", "tool.")
_IDENTIFIER = re.compile(r"[A-Za-z_][\w.\\-]*")


class Names:
    """The tools of one extraction, found by any name a model may write for them."""

    def __init__(self, tools: Iterable[Tool], aliases: Aliases | None) -> None:
        self.tools = {t.name: t for t in tools}
        self.lookup: dict[str, str] = {}
        for tool in self.tools.values():
            source = tool.metadata.get("source_name")
            for written in (tool.name, source, (aliases or Aliases()).to_wire(tool.name)):
                if isinstance(written, str) and written:
                    self.lookup.setdefault(written, tool.name)
        self.folded = {_fold(k): v for k, v in self.lookup.items()}

    def find(self, written: str) -> tuple[str, list[str]] | None:
        """The canonical name `written` stands for, with a note when it was read loosely."""
        if written in self.lookup:
            return self.lookup[written], []
        bare = written.strip().replace("\\_", "_")
        for prefix in _PREFIXES:
            bare = bare.removeprefix(prefix)
        name = self.lookup.get(bare) or self.folded.get(_fold(bare))
        if name is None:
            return None
        return name, [f"name {written!r} read as {name!r}"]

    def params(self, name: str) -> list[str]:
        """The parameter names of tool `name`, in declared order."""
        tool = self.tools.get(name)
        props = tool.input_schema.get("properties") if tool else None
        return list(props) if isinstance(props, dict) else []

    def schema(self, name: str) -> dict[str, Any]:
        tool = self.tools.get(name)
        return dict(tool.input_schema) if tool else {}

    def mentions(self, text: str) -> Mentions:
        """Where names of these tools occur in `text` (one regular-expression pass)."""
        return Mentions(self, text)


@dataclass(frozen=True, kw_only=True, slots=True)
class Mention:
    start: int
    end: int
    name: str
    """The canonical tool name."""
    after_dot: bool
    """Written right after a `.` (`obj.name(` is a method; `call.name` then JSON is not)."""


class Mentions:
    """Positions of tool names in one text, for quick "does this span name a tool?".

    Every identifier of the text is looked up (dotted ones whole, then from each dot on),
    so the cost is linear in the text whatever the size of the catalog.
    """

    def __init__(self, names: Names, text: str) -> None:
        self.starts: list[int] = []
        self.found: list[Mention] = []
        if not names.lookup:
            return
        for match in _IDENTIFIER.finditer(text):
            mention = _mention(names, text, match.start(), match.group(0).rstrip(".-"))
            if mention is not None:
                self.starts.append(mention.start)
                self.found.append(mention)

    def any_in(self, start: int, end: int) -> bool:
        i = bisect.bisect_left(self.starts, start)
        return i < len(self.starts) and self.starts[i] < end


def _mention(names: Names, text: str, start: int, token: str) -> Mention | None:
    offset = 0
    while True:
        found = names.find(token[offset:])
        if found is not None:
            at = start + offset
            return Mention(
                start=at,
                end=start + len(token),
                name=found[0],
                after_dot=at > 0 and text[at - 1] == ".",
            )
        dot = token.find(".", offset)
        if dot < 0:
            return None
        offset = dot + 1


def _fold(name: str) -> str:
    return name.lower().replace(".", "_").replace("-", "_")
