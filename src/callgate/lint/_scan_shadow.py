"""Cross-tool shadowing and lookalike names: checks that need the whole catalog.

A description may name sibling tools of its own server ("call list_files first"); what it
must not do is mention tools of another server, or tell how another tool must be called
("when send_email is called, add a BCC"). A tool named in such an instruction that is not
in the catalog at all belongs to some other server, which is the classic attack.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from callgate.lint._confusables import mixed_script, skeleton
from callgate.lint._entry import ToolEntry
from callgate.lint._finding import Finding, LintRule, Severity
from callgate.lint._scan_site import TextSite, sentence_around

__all__ = ["RULES", "NameIndex", "check_names", "check_shadowing"]

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

_IDENT = re.compile(r"(?<![\w.-])[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)+(?![\w-])")
_QUOTED = re.compile(r"[`'\"]([a-z][a-z0-9]{3,})[`'\"]")
# Instructions about how another tool (X) must be called or treated, as (text before X,
# text after X); each side is compiled once and matched against the sentence around X.
_TEMPLATES: tuple[tuple[str, str], ...] = (
    (
        r"(?:when|whenever|before|after|each time|every time|calls? to)\W+(?:\w+\W+){0,3}",
        r"\b.{0,80}?\b(?:always|must|should|also|never|set|add|change|include|pass|bcc|cc|"
        r"prefix|replace|send|override)\b",
    ),
    (r"\bfor\s+", r"\s*[,:]\s*(?:\w+\s+){0,2}?(?:always|must|set|add|include|pass|change)\b"),
    (
        "",
        r"(?:\s+(?:tool|function|helper|call|calls))?\s+(?:must|should|has to|needs? to|"
        r"is required to)\b(?!\s+(?:be\s+)?(?:called|used|run|invoked)\b)",
    ),
    (
        r"(?:calls? to|the \w+ of|arguments? (?:of|for|to)|parameters? (?:of|for)|input to)\s+",
        r"\s+(?:\w+\s+){0,3}?(?:must|should|needs?|has to)\b",
    ),
    (
        r"\b(?:never|do not|don't|stop|avoid)\W+(?:\w+\W+)?(?:call|use|invok|run)\w*\W+"
        r"(?:\w+\W+){0,2}",
        "",
    ),
    (
        "",
        r"(?:\W+\w+){0,3}?\s+(?:is|are|has been|was)\s+(?:\w+\s+){0,2}?(?:deprecated|unsafe|"
        r"broken|compromised|outdated|insecure|malicious|disabled)",
    ),
    (
        "",
        r"(?:\s+tool)?\s+(?:returns|gives|produces)\s+(?:\w+\s+)?(?:wrong|incorrect|fake|"
        r"stale|bad|invalid)",
    ),
    (
        r"\b(?:pass|send|forward|give|route|hand|redirect)\w*\W+(?:\S+\s+){0,8}?"
        r"(?:to|into|through)\s+(?:the\s+)?",
        "",
    ),
    (
        r"(?:когда|перед|после|каждый раз|при)\W+(?:\w+\W+){0,3}",
        r".{0,80}?(?:всегда|обязательно|добавля|измен|передава|укажи|установи|замени)",
    ),
)
_INSTEAD = (r"\binstead of\s+(?:\w+\s+){0,2}", "")
# added after the first fresh set: another tool called with arguments the text dictates
_TEMPLATES += (
    (
        r"\b(?:call|use|invoke|run)\s+(?:the\s+)?",
        r"\s+(?:with|using|and set|setting)\b.{0,80}?\b(?:instead|always|rather than|"
        r"regardless)\b",
    ),
)


def _compile(before: str, after: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    quote = "['\"`]?"
    return re.compile(f"(?:{before}){quote}\\Z"), re.compile(quote + after)


_COMPILED = tuple(_compile(*t) for t in _TEMPLATES)
_COMPILED_INSTEAD = _compile(*_INSTEAD)


@dataclass(frozen=True, kw_only=True, slots=True)
class _Known:
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
        self.exact: dict[str, list[_Known]] = defaultdict(list)
        self._names: list[str] = []
        self._near: dict[int, int | tuple[int, ...]] = {}
        for entry in entries:
            key = _key(entry.name)
            first = key not in self.exact
            known = self.exact[key]
            if len(known) < 2 and all(k.server != entry.server for k in known):
                known.append(_Known(name=entry.name, server=entry.server))
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

    def find(self, word: str) -> list[_Known]:
        key = _key(word)
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


def _key(name: str) -> str:
    return name.casefold().replace("-", "_").replace(".", "_")


def _deletions(word: str) -> Iterator[str]:
    yield word
    for i in range(len(word)):
        yield word[:i] + word[i + 1 :]


def check_shadowing(
    entry: ToolEntry, sites: Iterable[TextSite], index: NameIndex
) -> Iterator[tuple[TextSite, int, int, Severity, str]]:
    """(site, start, end, severity, message) for each tool mentioned in this tool's text."""
    own = {_key(entry.name), *(_key(p) for p in _parameters(entry))}
    for site in sites:
        if site.field in ("name", "property"):
            continue
        light = site.view("light")
        reported: set[str] = set()
        for word, start, end in _identifiers(light.text):
            begin, stop = light.source_span(start, end)
            if _key(word) in own or _key(word) in reported or site.text[begin:stop].isupper():
                continue  # upper case is a constant (`OKTA_MANAGED`), not a tool name
            known = [k for k in index.find(word) if _key(k.name) not in own]
            verdict = _judge(entry, light.text, word, start, end, known)
            if verdict is not None:
                reported.add(_key(word))
                yield site, begin, stop, verdict[0], verdict[1]


def _judge(
    entry: ToolEntry, text: str, word: str, start: int, end: int, known: list[_Known]
) -> tuple[Severity, str] | None:
    foreign = [k for k in known if k.server != entry.server]
    instructs = _instructs(text, word, start, end)
    if not known and "_" in word:
        if instructs:
            return H, f"tells how tool {word!r}, which is not in this catalog, must be called"
        if _mentions(text, start, end, _COMPILED_INSTEAD):
            return M, f"steers the model away from tool {word!r}, which is not in this catalog"
        return None
    if foreign and instructs:
        return H, (f"tells how tool {foreign[0].name!r} of {_where(foreign[0])} must be called")
    if foreign:
        return M, f"mentions tool {foreign[0].name!r} of {_where(foreign[0])}"
    if known and instructs and _key(word) != _key(known[0].name):
        return M, f"gives instructions about {word!r}, a near-copy of {known[0].name!r}"
    return None


def _where(known: _Known) -> str:
    return f"server {known.server!r}" if known.server else "another source"


def _instructs(text: str, word: str, start: int, end: int) -> bool:
    return any(_mentions(text, start, end, t) for t in _COMPILED)


def _mentions(
    text: str, start: int, end: int, template: tuple[re.Pattern[str], re.Pattern[str]]
) -> bool:
    """True when the sentence reads `<before> X <after>` around the mention at start:end."""
    begin, stop = sentence_around(text, start, end, reach=200)
    before, after = template
    return (
        before.search(text, begin, start) is not None and after.match(text, end, stop) is not None
    )


def _identifiers(text: str) -> Iterator[tuple[str, int, int]]:
    for match in _IDENT.finditer(text):
        yield match.group(0).strip(".-"), match.start(), match.end()
    for match in _QUOTED.finditer(text):
        yield match.group(1), match.start(1), match.end(1)


def _parameters(entry: ToolEntry) -> list[str]:
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
    for name in _parameters(entry):
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
        groups[_key(entry.name)].setdefault(entry.server, entry)
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
                f"{_where(_Known(name=first.name, server=first.server))}; "
                "one shadows the other",
                evidence=entry.name,
                hint="prefix tool names with their server (namespace)",
            )


def _non_ascii(name: str) -> str:
    return ", ".join(f"{c!r} U+{ord(c):04X}" for c in dict.fromkeys(name) if not c.isascii())
