"""Which tool a name written in text means: aliases, dotted groups, source names, case."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from typing import Any

from callgate.contract import Tool
from callgate.dialects._aliases import Aliases

__all__ = ["Names"]

_PREFIXES = ("functions.", "function.", "tools.", "tool.")


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


class Mentions:
    """Positions of tool names in one text, for quick "does this span name a tool?"."""

    def __init__(self, names: Names, text: str) -> None:
        self.starts: list[int] = []
        self.found: list[tuple[int, int, str]] = []
        if not names.lookup:
            return
        spelled = {v for k in names.lookup for v in (k, k.replace("_", "\\_"))}
        alternatives = "|".join(map(re.escape, sorted(spelled, key=len, reverse=True)))
        prefixes = "|".join(re.escape(p) for p in _PREFIXES)
        pattern = re.compile(rf"(?<![\w.])(?:{prefixes})?(?:{alternatives})(?![\w])", re.I)
        for match in pattern.finditer(text):
            found = names.find(match.group(0))
            if found is not None:
                self.starts.append(match.start())
                self.found.append((match.start(), match.end(), found[0]))

    def any_in(self, start: int, end: int) -> bool:
        i = bisect.bisect_left(self.starts, start)
        return i < len(self.starts) and self.starts[i] < end


def _fold(name: str) -> str:
    return name.lower().replace(".", "_").replace("-", "_")
