"""Stable two-way aliases for tool names a dialect would reject.

An alias depends only on the name and the names already taken, so rendering the same
catalog twice gives the same aliases, and a call in history maps back to its tool.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from callgate.dialects._kinds import Dialect

__all__ = ["Aliases", "make_aliases", "name_ok"]

_OPENAI = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
# Gemini's older, stricter rule (first character a letter or `_`, 64 characters) is the
# one every Gemini endpoint accepts; the current SDK docstring allows 128 and colons.
_GEMINI = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]{0,63}$")
_MCP = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")
# Text mode also parses pythonic calls, whose names must be Python identifiers.
_TEXT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")

_RULES: Mapping[Dialect, tuple[re.Pattern[str], str, int]] = {
    Dialect.OPENAI_CHAT: (_OPENAI, r"[^A-Za-z0-9_-]", 64),
    Dialect.OPENAI_RESPONSES: (_OPENAI, r"[^A-Za-z0-9_-]", 64),
    Dialect.ANTHROPIC: (_OPENAI, r"[^A-Za-z0-9_-]", 64),
    Dialect.GEMINI: (_GEMINI, r"[^A-Za-z0-9_.-]", 64),
    Dialect.MCP: (_MCP, r"[^A-Za-z0-9_.-]", 128),
    Dialect.TEXT: (_TEXT, r"[^A-Za-z0-9_]", 64),
}


def name_ok(name: str, dialect: Dialect | str) -> bool:
    """True when `dialect` accepts `name` as a tool name."""
    return bool(_RULES[Dialect(dialect)][0].match(name))


@dataclass(frozen=True, kw_only=True, slots=True)
class Aliases:
    """A two-way map between canonical tool names and the names sent on the wire.

    Names without an alias map to themselves in both directions.
    """

    forward: Mapping[str, str] = field(default_factory=dict)
    """Canonical name -> wire name, only for names that needed an alias."""
    reverse: Mapping[str, str] = field(init=False)
    """Wire name -> canonical name."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "reverse", {w: c for c, w in self.forward.items()})

    def to_wire(self, name: str) -> str:
        return self.forward.get(name, name)

    def to_canonical(self, name: str) -> str:
        return self.reverse.get(name, name)

    def merged(self, other: Aliases) -> Aliases:
        """These aliases plus those of `other` (ours win on a conflict)."""
        return Aliases(forward={**other.forward, **self.forward})

    def __bool__(self) -> bool:
        return bool(self.forward)


def make_aliases(
    names: Iterable[str], dialect: Dialect | str, base: Aliases | None = None
) -> Aliases:
    """Aliases for every name in `names` that `dialect` rejects, extending `base`."""
    dialect = Dialect(dialect)
    pattern, bad, limit = _RULES[dialect]
    forward = dict(base.forward) if base else {}
    names = list(dict.fromkeys(names))
    taken = {n for n in names if pattern.match(n)} | set(forward.values())
    for name in names:
        if pattern.match(name) or name in forward:
            continue
        alias = _alias(name, bad, limit, taken)
        forward[name] = alias
        taken.add(alias)
    return Aliases(forward=forward)


def _alias(name: str, bad: str, limit: int, taken: set[str]) -> str:
    clean = re.sub(bad, "_", name) or "_"
    if not re.match(r"[A-Za-z_]", clean):
        clean = "_" + clean
    if len(clean) <= limit and clean not in taken:
        return clean
    # A hash of the original keeps the alias stable and distinct when truncating or colliding.
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:8]
    return f"{clean[: limit - 9]}_{digest}"
