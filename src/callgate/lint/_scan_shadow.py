"""Tool names across the catalog: the index mentions are looked up in, lookalike names,
and one name offered by two servers. What a text does with the tools it names is the
action model's (`_scan_actions`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from callgate.lint._confusables import mixed_script, skeleton
from callgate.lint._entry import ToolEntry
from callgate.lint._finding import Finding, LintRule, Severity

__all__ = ["RULES", "Known", "NameIndex", "check_names", "name_key", "parameters", "where"]

H, M = Severity.HIGH, Severity.MEDIUM

RULES = (
    LintRule(
        id="S011",
        name="tool-shadowing",
        kind="scan",
        severity=H,
        summary="Text mentions a tool of another server (exactly or nearly), or tells how "
        "another tool must be called; or two servers offer the same tool name.",
        why="One poisoned server can redirect, rewrite or suppress the calls of every other "
        "server the model has loaded.",
        fix="Describe only this tool; cross-tool guidance belongs to the host, not a server.",
    ),
)


@dataclass(frozen=True, kw_only=True, slots=True)
class Known:
    name: str
    server: str | None


class NameIndex:
    """Tool names of a catalog, looked up exactly or within one edit.

    Per name it keeps the first tool of at most two servers: enough to tell whether a
    mention is of the tool's own server or another, whatever the number of copies. Near
    lookups go through the hashes of each name's one-letter deletions (symmetric delete);
    holding hashes rather than strings and sets keeps the index small for large catalogs,
    and each candidate is checked for real before it is returned.
    """

    def __init__(self, entries: Sequence[ToolEntry]) -> None:
        self.exact: dict[str, list[Known]] = defaultdict(list)
        self._names: list[str] = []
        self._near: dict[int, int | tuple[int, ...]] = {}
        for entry in entries:
            key = name_key(entry.name)
            first = key not in self.exact
            known = self.exact[key]
            if len(known) < 2 and all(k.server != entry.server for k in known):
                known.append(Known(name=entry.name, server=entry.server))
            if len(key) >= 6 and first:
                self._add_near(key)

    def _add_near(self, key: str) -> None:
        position = len(self._names)
        self._names.append(key)
        for variant in set(_deletions(key)):
            held = self._near.setdefault(hash(variant), position)
            if held != position:
                found = held if isinstance(held, tuple) else (held,)
                self._near[hash(variant)] = (*found, position)

    def find(self, word: str) -> list[Known]:
        key = name_key(word)
        if key in self.exact:
            return self.exact[key]
        if len(key) < 6:
            return []
        variants = set(_deletions(key))
        positions: set[int] = set()
        for variant in variants:
            held = self._near.get(hash(variant))
            positions.update(held if isinstance(held, tuple) else () if held is None else (held,))
        keys = {self._names[p] for p in positions}
        real = sorted(k for k in keys if variants & set(_deletions(k)))  # hashes can collide
        return [k for found in real for k in self.exact[found]]


def name_key(name: str) -> str:
    return name.casefold().replace("-", "_").replace(".", "_")


def _deletions(word: str) -> Iterator[str]:
    yield word
    for i in range(len(word)):
        yield word[:i] + word[i + 1 :]


def where(known: Known) -> str:
    return f"server {known.server!r}" if known.server else "another source"


def parameters(entry: ToolEntry) -> list[str]:
    props = entry.input_schema.get("properties")
    return [str(p) for p in props] if isinstance(props, Mapping) else []


def check_names(entries: Sequence[ToolEntry]) -> Iterator[Finding]:
    """S009 for lookalike tool and parameter names; S011 for names two servers share."""
    # skeleton -> the first two distinct names with it: enough to name what one imitates
    by_skeleton: dict[str, list[str]] = defaultdict(list)
    for entry in entries:
        names = by_skeleton[skeleton(entry.name)]
        if len(names) < 2 and entry.name not in names:
            names.append(entry.name)
    for entry in entries:
        if not entry.name.isascii():
            yield from _lookalike(entry, by_skeleton[skeleton(entry.name)])
        yield from _parameter_lookalikes(entry)
    yield from _collisions(entries)


def _lookalike(entry: ToolEntry, same: list[str]) -> Iterator[Finding]:
    others = [name for name in same if name != entry.name][:1]
    if not (mixed_script(entry.name) or others):
        return
    target = f" and imitates {others[0]!r}" if others else ""
    yield Finding(
        rule="S009",
        severity=H,
        location=entry.at_body("name"),
        message=f"tool name {entry.name!r} has lookalike letters {_non_ascii(entry.name)}{target}",
        evidence=entry.name,
        decoded=skeleton(entry.name),
        hint="rename the tool in plain ASCII",
        why=RULES[0].why,
    )


def _parameter_lookalikes(entry: ToolEntry) -> Iterator[Finding]:
    for name in parameters(entry):
        if not name.isascii() and mixed_script(name):
            yield Finding(
                rule="S009",
                severity=H,
                location=entry.at_schema(f"/properties/{name}"),
                message=f"parameter name {name!r} has lookalike letters {_non_ascii(name)}",
                evidence=name,
                hint="rename the parameter in plain ASCII",
            )


def _collisions(entries: Sequence[ToolEntry]) -> Iterator[Finding]:
    # same name, different servers; tools from no named server are one server
    groups: dict[str, dict[str | None, ToolEntry]] = defaultdict(dict)
    for entry in entries:
        groups[name_key(entry.name)].setdefault(entry.server, entry)
    for per_group in groups.values():
        if len(per_group) < 2:
            continue
        first, *rest = per_group.values()
        for entry in rest:
            yield Finding(
                rule="S011",
                severity=M,
                location=entry.at_body("name"),
                message=f"tool name {entry.name!r} is also offered by "
                f"{where(Known(name=first.name, server=first.server))}; "
                "one shadows the other",
                evidence=entry.name,
                hint="prefix tool names with their server (namespace)",
            )


def _non_ascii(name: str) -> str:
    return ", ".join(f"{c!r} U+{ord(c):04X}" for c in dict.fromkeys(name) if not c.isascii())
