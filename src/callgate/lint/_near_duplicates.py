"""Near-duplicate descriptions in linear time: an exact similarity join with prefix filtering.

Two descriptions are near-duplicates when their word sets overlap by at least 85% (Jaccard)
and their word pairs by 70% (same words in another order still tell tools apart). Rather
than comparing every pair, words are ranked rarest first across the group and each tool is
indexed under the first few words of its ranked set: any two sets that reach the threshold
share one of those words (the prefix-filtering principle of Bayardo, Ma and Srikant, 2007),
so only tools sharing a rare word are ever compared. The join is exact: it finds what
comparing every pair finds. It is written here because the libraries at hand (MinHash LSH)
answer approximately, and a lint rule must not depend on chance.
"""

from __future__ import annotations

import heapq
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise

from callgate.lint._entry import ToolEntry
from callgate.lint._finding import Finding, Severity

__all__ = ["COMPARISONS", "near_duplicates"]

COMPARISONS = 1000
"""Earlier tools one tool is compared with at most; beyond it the check says it stopped."""

_SIMILAR = (17, 20)  # 85% of the words, kept as a fraction so the prefix bound is exact
_PAIRS = 0.7
_WORD = re.compile(r"[a-zа-я0-9]{3,}")
_STOP = frozenset(
    {
        "the",
        "and",
        "for",
        "with",
        "from",
        "this",
        "that",
        "are",
        "can",
        "use",
        "you",
        "your",
        "will",
        "not",
        "into",
        "its",
        "given",
        "all",
        "any",
        "one",
        "two",
        "when",
        "which",
        "what",
        "specified",
        "specific",
        "provided",
        "returns",
        "return",
        "tool",
        "function",
        "data",
    }
)


@dataclass(slots=True)
class _Tool:
    entry: ToolEntry
    words: frozenset[str]
    ranked: list[int]
    """Word ranks, rarest first."""
    pairs: frozenset[tuple[str, str]] | None = None


def near_duplicates(members: Sequence[ToolEntry]) -> Iterator[Finding]:
    """C001 for each tool whose description nearly repeats an earlier tool's in `members`
    (one group), naming the earliest such tool."""
    tools = _prepare(members)
    index: dict[int, list[int]] = {}
    for position, tool in enumerate(tools):
        partner, stopped = _earliest_match(tool, tools, index)
        if partner is not None:
            yield _finding(tool, partner)
        elif stopped:
            yield _stopped(tool)
        for rank in tool.ranked[: _prefix(len(tool.ranked))]:
            index.setdefault(rank, []).append(position)


def _prepare(members: Sequence[ToolEntry]) -> list[_Tool]:
    words = [(e, _words(e.description)) for e in members]
    usable = [(e, w) for e, w in words if len(w) >= 4 and e.name]
    frequency = Counter(w for _, ws in usable for w in ws)
    rank = {w: i for i, w in enumerate(sorted(frequency, key=lambda w: (frequency[w], w)))}
    return [_Tool(entry=e, words=ws, ranked=sorted(rank[w] for w in ws)) for e, ws in usable]


def _prefix(size: int) -> int:
    """How many of a set's rarest words any set reaching the threshold must share one of."""
    needed = -(-size * _SIMILAR[0] // _SIMILAR[1])  # ceil(0.85 * size), exactly
    return size - needed + 1


def _earliest_match(
    tool: _Tool, tools: list[_Tool], index: dict[int, list[int]]
) -> tuple[_Tool | None, bool]:
    """The earliest earlier tool similar to `tool`, and whether the budget ran out first."""
    postings = [index[r] for r in tool.ranked[: _prefix(len(tool.ranked))] if r in index]
    if not postings:
        return None, False
    size = len(tool.words)
    compared = 0
    last = -1
    merged = postings[0] if len(postings) == 1 else heapq.merge(*postings)
    for position in merged:
        if position == last:
            continue
        last = position
        if compared == COMPARISONS:
            return None, True
        compared += 1
        other = tools[position]
        length = len(other.words)
        if min(size, length) * _SIMILAR[1] < max(size, length) * _SIMILAR[0]:
            continue  # sizes alone rule it out
        if _similar(other, tool):
            return other, False
    return None, False


def _similar(first: _Tool, second: _Tool) -> bool:
    a, b = first.words, second.words
    shared = len(a & b)
    if shared / (len(a) + len(b) - shared) < _SIMILAR[0] / _SIMILAR[1]:
        return False
    return _jaccard(_pairs(first), _pairs(second)) >= _PAIRS


def _pairs(tool: _Tool) -> frozenset[tuple[str, str]]:
    if tool.pairs is None:
        tool.pairs = frozenset(pairwise(_WORD.findall(tool.entry.description.lower())))
    return tool.pairs


def _jaccard(a: frozenset[tuple[str, str]], b: frozenset[tuple[str, str]]) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


def _words(text: str) -> frozenset[str]:
    return frozenset(w for w in _WORD.findall(text.lower()) if w not in _STOP)


def _finding(tool: _Tool, partner: _Tool) -> Finding:
    a, b = partner.words, tool.words
    score = len(a & b) / len(a | b)
    return Finding(
        rule="C001",
        severity=Severity.MEDIUM,
        location=tool.entry.at_body("description"),
        message=f"{tool.entry.name!r} and {partner.entry.name!r} have nearly the same "
        f"description ({score:.0%} shared words)",
        hint="say in each description when to use it and when the other",
    )


def _stopped(tool: _Tool) -> Finding:
    return Finding(
        rule="C001",
        severity=Severity.MEDIUM,
        location=tool.entry.at_body("description"),
        message=f"{tool.entry.name!r} shares its rarest description words with more than "
        f"{COMPARISONS:,} other tools; the near-duplicate check compared it with the first "
        f"{COMPARISONS:,} only",
        hint="describe what sets each tool apart, in words of its own",
    )
