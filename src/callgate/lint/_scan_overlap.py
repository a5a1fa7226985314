"""Function overlap and preference manipulation: judged on the catalog, not on one tool.

A tool that copies a sibling's description under another name, or whose name is a
sibling's plus a booster (`repo_create_pro`, `best_way_to_create_repo`), competes for the
sibling's requests; with a claim to be better or preferred it is manipulating the choice.
Both are reported on the copy, naming the tool it imitates. Versions (`_v2`) and honest
variants (`search_advanced` beside `search_basic`) are neither.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator, Sequence

from callgate.lint._concepts import may_hold, tag_text
from callgate.lint._entry import ToolEntry
from callgate.lint._finding import Finding, LintRule, Severity
from callgate.lint._words import name_tokens

__all__ = ["RULES", "check_overlap"]

H, M = Severity.HIGH, Severity.MEDIUM

RULES = (
    LintRule(
        id="S020",
        name="tool-overlap",
        kind="scan",
        severity=M,
        summary="A tool copies a sibling's description under another name, or names itself a "
        "sibling plus a booster (`repo_create_pro`); high with a claim to be better or "
        "preferred.",
        why="Function overlap is how a tool takes over another's requests: the model picks "
        "the copy that sounds better, and the copy decides what happens.",
        fix="Give each tool one purpose and a description of its own; drop claims of superiority.",
    ),
)

_BOOSTERS = frozenset(
    [
        "pro",
        "plus",
        "premium",
        "ultra",
        "turbo",
        "super",
        "enhanced",
        "improved",
        "better",
        "best",
        "ultimate",
        "secure",
        "safe",
        "official",
        "verified",
        "trusted",
        "expert",
        "optimized",
        "optimised",
        "smart",
        "max",
        "deluxe",
        "prime",
        "elite",
        "fast",
        "faster",
        "quick",
        "instant",
        "express",
        "now",
    ]
)
_FILLER = frozenset(
    [
        "the",
        "a",
        "an",
        "way",
        "to",
        "tool",
        "tools",
        "of",
        "for",
        "version",
        "edition",
        "and",
        "way",
    ]
)
_TEXT = re.compile(r"\W+")


def check_overlap(entries: Sequence[ToolEntry]) -> Iterator[Finding]:
    """S020 for each tool that overlaps an earlier sibling of its group."""
    groups: dict[str | None, list[ToolEntry]] = defaultdict(list)
    for entry in entries:
        if entry.readable:
            groups[entry.group].append(entry)
    for members in groups.values():
        if len(members) > 1:
            yield from _group(members)


def _group(members: list[ToolEntry]) -> Iterator[Finding]:
    by_text: dict[str, ToolEntry] = {}
    by_tokens: dict[frozenset[str], ToolEntry] = {}
    for entry in members:
        tokens = frozenset(name_tokens(entry.name))
        by_tokens.setdefault(tokens, entry)
    texts = [(_normal(e.description), e) for e in members]
    longer = [(t, e) for t, e in texts if len(t.split()) >= 3]
    for text, entry in texts:
        copied = by_text.get(text) if len(text.split()) >= 2 else None
        claims = _claims(entry)
        if copied is None and claims:
            copied = _prefix_copy(entry, text, longer)
        boosted = _boosted(entry, by_tokens)
        if len(text.split()) >= 2:
            by_text.setdefault(text, entry)
        if copied is not None and copied.name == entry.name:
            copied = None
        if copied is None and boosted is None:
            continue
        yield _finding(entry, copied, boosted, claims)


def _normal(text: str) -> str:
    return _TEXT.sub(" ", text.casefold()).strip()


def _prefix_copy(
    entry: ToolEntry, own: str, others: list[tuple[str, ToolEntry]]
) -> ToolEntry | None:
    """A sibling whose whole description (of three words or more) this one begins with,
    then adds claims to."""
    for theirs, other in others:
        if other is not entry and own.startswith(theirs + " "):
            return other
    return None


def _boosted(entry: ToolEntry, by_tokens: dict[frozenset[str], ToolEntry]) -> ToolEntry | None:
    """A sibling whose name this one is, plus boosters (`pro`, `best`) and fillers."""
    tokens = name_tokens(entry.name)
    if not any(t in _BOOSTERS for t in tokens):
        return None
    rest = frozenset(t for t in tokens if t not in _BOOSTERS and t not in _FILLER)
    found = by_tokens.get(rest)
    if found is None and len(rest) > 2:
        found = next((o for k, o in by_tokens.items() if len(k) >= 2 and k < rest), None)
    return found if found is not None and found.name != entry.name else None


def _claims(entry: ToolEntry) -> bool:
    if not may_hold(entry.description, _CLAIMS):
        return False
    return any(c.has(*_CLAIMS) for c in tag_text(entry.description).clauses)


_CLAIMS = frozenset({"SUPERIOR", "PREFER"})


def _finding(
    entry: ToolEntry, copied: ToolEntry | None, boosted: ToolEntry | None, claims: bool
) -> Finding:
    target = boosted or copied
    if target is None:
        raise ValueError("an overlap needs the tool it overlaps")
    parts = []
    if boosted is not None:
        parts.append(f"its name is {boosted.name!r} with a booster")
    if copied is not None:
        parts.append(f"it copies the description of {copied.name!r}")
    if claims:
        parts.append("and claims to be better or preferred")
    severity = H if (boosted is not None and (copied is not None or claims)) else M
    if copied is not None and claims:
        severity = H
    return Finding(
        rule="S020",
        severity=severity,
        location=entry.at_body("name"),
        message=f"{entry.name!r} overlaps {target.name!r}: {'; '.join(parts)}",
        evidence=entry.name,
        hint=RULES[0].fix,
    )
